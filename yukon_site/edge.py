"""The web process's entry point: ``granian --interface asgi yukon_site.edge:application``
(``deploy/web.sh``).

Django stays a WSGI application; what is in front of it makes sure a Django thread only ever
gets a request that has fully arrived. Under granian's WSGI interface the thread itself reads the
body (``wsgi.input`` blocks it until the client sends), so 64 connections that sent a head and
one byte of their body held every thread of 4 processes and the site answered nothing (measured:
``/healthz`` and a move timed out after 5 s; tests/faults/test_edge.py). Here granian's event loop
receives the body (a waiting connection costs a coroutine, no thread), within
``BODY_READ_TIMEOUT`` seconds in all (408 ``request_timeout`` after that) and up to
``BODY_MAX_BYTES`` (413 ``payload_too_large``); only then does a2wsgi hand the whole request to
one of the process's ``WEB_THREADS`` threads, which keep their database connections as before.
Heads are granian's own business (``--http1-header-read-timeout`` in deploy/web.sh): a half
head never reaches Python at all.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

from a2wsgi import WSGIMiddleware

from yukon_site.wsgi import application as wsgi_application  # isort: skip (settings first)

from common.errors import ErrorCode, error_body  # noqa: E402

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Any
Send = Any


def _float_env(name: str, default: float) -> float:
    return float(os.environ.get(name) or default)


class WholeRequests:
    """An ASGI middleware that reads a request's body completely, with a deadline and a size
    cap, before the application behind it sees the request."""

    def __init__(self, app: Any, timeout: float, max_bytes: int) -> None:
        self.app = app
        self.timeout = timeout
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                await self._refuse(send, ErrorCode.REQUEST_TIMEOUT)
                return
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(send, ErrorCode.PAYLOAD_TOO_LARGE)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return whole
            return dict(await receive())

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, error: ErrorCode) -> None:
        body = json.dumps(error_body(error)).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        await send({"type": "http.response.start", "status": error.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


application = WholeRequests(
    WSGIMiddleware(wsgi_application, workers=int(os.environ.get("WEB_THREADS") or 2)),  # type: ignore[arg-type]
    timeout=_float_env("BODY_READ_TIMEOUT", 10),
    max_bytes=int(_float_env("BODY_MAX_BYTES", 3 * 1024 * 1024)),
)
