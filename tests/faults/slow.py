"""Slow clients: connections that send half a request and then nothing (a slowloris), and what a
normal client sees meanwhile (for tests/faults/test_edge.py and `python -m tests.faults.slow`)."""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from typing import Any


def open_slow(
    host: str, port: int, count: int, tls: bool = False, hostname: str = "localhost", kinds: str = "hb"
) -> list[socket.socket]:
    """COUNT connections, half with half a request head, half with a whole head announcing a
    100 KB body of which they send 1 byte; none sends more."""
    sockets = []
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["http/1.1"])
    for n in range(count):
        raw = socket.create_connection((host, port), timeout=5)
        sock: socket.socket = context.wrap_socket(raw, server_hostname=hostname) if tls else raw
        if kinds[n % len(kinds)] == "h":
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {hostname}\r\nUser-Agent: slow".encode())
        else:
            sock.sendall(
                f"POST /api/v1/games HTTP/1.1\r\nHost: {hostname}\r\nContent-Type: application/json\r\n"
                f"Content-Length: 102400\r\n\r\n{{".encode()
            )
        sockets.append(sock)
    return sockets


def timed(
    connect: Any,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 5,
) -> tuple[float, int, bytes]:
    """(seconds, status, body) of one request on a new connection; status 0 if none came in TIMEOUT."""
    start = time.monotonic()
    conn = connect(timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return time.monotonic() - start, response.status, data
    except (OSError, http.client.HTTPException):
        return time.monotonic() - start, 0, b""
    finally:
        conn.close()


def connector(host: str, port: int, tls: bool = False) -> Any:
    def connect(timeout: float) -> http.client.HTTPConnection:
        if tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            return http.client.HTTPSConnection(host, port, timeout=timeout, context=context)
        return http.client.HTTPConnection(host, port, timeout=timeout)

    return connect


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        try:
            sock.close()
        except OSError:
            pass
