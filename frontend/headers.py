"""Headers of static files (WhiteNoise's ``add_headers_function``; the pages' policy is django-csp's).

A Web Worker's Content-Security-Policy is the one its script is served with, not its page's. The
engine's worker (``engine_worker.js``, offline practice) compiles Pyodide's WebAssembly, which
needs ``'wasm-unsafe-eval'``: it gets the site's policy with that one word more, and so no page
needs it. Every other static file goes as it is.

>>> headers = {}
>>> static_headers(headers, "/x", "/static/frontend/engine_worker.3f2a9c1b7d4e.js")
>>> policy = headers["Content-Security-Policy"]
>>> "'wasm-unsafe-eval'" in policy, "'unsafe-eval'" in policy, "'unsafe-inline'" in policy
(True, False, False)
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping

#: The engine worker's script, under its plain or its hashed name.
ENGINE_WORKER = re.compile(r"/frontend/engine_worker(\.[0-9a-f]{12})?\.js$")
WORKER_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
    )
)


def static_headers(headers: MutableMapping[str, str], path: str, url: str) -> None:
    if ENGINE_WORKER.search(url):
        headers["Content-Security-Policy"] = WORKER_POLICY
