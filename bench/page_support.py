"""What the browser benches share (``page_bench.py``, ``page_load.py``): a server of their own and
a first load of a page in Debian's Chromium.

:func:`served` starts ``manage.py runserver`` the way ``make run`` does (default settings, a fresh
SQLite file in a temporary folder, the rate limits lifted) on a free port; :func:`first_load`
loads a page with an empty cache in a fresh browser context and counts what went over the wire.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

Figures = dict[str, Any]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, server: subprocess.Popen[bytes], timeout: float = 60.0, path: str = "/") -> None:
    """Wait until ``url + path`` answers (or the server stops, or ``timeout`` seconds pass)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped")
        try:
            urllib.request.urlopen(url + path, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer")


def production_env(redis_url: str) -> dict[str, str]:
    """What production sets (DEBUG off: collected, minified and compressed static files), with
    plain HTTP on 127.0.0.1 allowed; Redis is needed with DEBUG off."""
    if not redis_url:
        raise SystemExit("--production needs REDIS_URL (e.g. redis://127.0.0.1:6379/6)")
    return {
        "DEBUG": "0",
        "REDIS_URL": redis_url,
        "SECRET_KEY": "page-bench-only-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
    }


@contextmanager
def served(root: Path = ROOT, *, production: bool = False) -> Iterator[str]:
    """The base URL of a ``runserver`` of the checkout at ``root`` on a fresh SQLite database;
    with ``production`` as production serves it (DEBUG off, ``collectstatic`` first)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
        env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        env.update(lifted_env())
        if production:
            env.update(production_env(os.environ.get("REDIS_URL", "")))
            command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
            subprocess.run(command, cwd=root, env=env, check=True)
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=root, env=env, check=True)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        server = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready(url, server)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=10)


def first_load(
    browser: Any,
    url: str,
    *,
    viewport: dict[str, int],
    ready: Callable[[Any], Figures],
    settled: Callable[[Any], Figures] | None = None,
    wait_until: str = "load",
) -> Figures:
    """Load ``url`` with an empty cache in a fresh context: ``bytes`` (request and response headers
    plus bodies as sent, every request of the load), ``api`` (the part of it under ``/api/``) and
    ``requests`` (until the network is idle), with the figures of ``ready(page)`` (called once
    ``goto`` returned: it waits for what it measures) and ``settled(page)`` (once the network is idle)."""
    context = browser.new_context(viewport=viewport, locale="de-DE")
    page = context.new_page()
    sizes: list[tuple[str, int]] = []

    def finished(request: Any) -> None:
        s = request.sizes()
        sizes.append((request.url, s["responseHeadersSize"] + s["responseBodySize"] + s["requestHeadersSize"]))

    page.on("requestfinished", finished)
    page.goto(url, wait_until=wait_until)
    figures = ready(page)
    page.wait_for_load_state("networkidle")
    if settled is not None:
        figures.update(settled(page))
    context.close()
    return {
        "bytes": sum(size for _, size in sizes),
        "api": sum(size for u, size in sizes if "/api/" in u),
        "requests": len(sizes),
        **figures,
    }
