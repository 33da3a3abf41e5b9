"""Slow clients never stall the site: with 64 half-sent heads and 64 heads with 1 byte of a 100 KB
body open, `/healthz` and a move answer within 1 s, against the web process alone (granian,
deploy/web.sh) and behind the edge (Caddy, deploy/Caddyfile); then the servers' own timeouts close
those connections. The edge also serves the site over HTTPS and HTTP/2 with X-Forwarded-* set, and
/static/ from the collected files with their long cache. Run with `make test-faults` (CI runs it too).
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .harness import ROOT, Stack, call, private_stack, wait_until
from .slow import close_all, connector, open_slow, timed

pytestmark = pytest.mark.faults

SLOW_EACH = 64  # half heads, and as many heads with 1 byte of their 100 KB body
# The servers' timeouts, shortened from their defaults (10 s for a head; 10 s for a body in
# granian, 30 s for a whole request in Caddy) so that the test sees them close the connections soon.
CUT_AFTER = 5
AUTH_IP_PER_MINUTE = 8


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    with private_stack("faults-edge") as (stack, _, _, _):
        stack.env.update(
            BODY_READ_TIMEOUT=str(CUT_AFTER),
            HEADER_READ_TIMEOUT_MS=str(CUT_AFTER * 1000),
            EDGE_HEADER_TIMEOUT=f"{CUT_AFTER}s",
            EDGE_REQUEST_TIMEOUT=f"{CUT_AFTER}s",
            # As in production: plain HTTP is redirected to HTTPS unless a proxy says (X-Forwarded-Proto)
            # that the client came in over HTTPS.
            SECURE_SSL_REDIRECT="1",
            # One per-IP limit kept (the rest are lifted): the last test sees which address it counts.
            THROTTLE_AUTH_IP=f"{AUTH_IP_PER_MINUTE}/minute",
        )
        stack.manage("migrate", "--noinput")
        stack.manage("collectstatic", "--noinput", "-v0")  # what the edge serves from var/static
        stack.start("web")
        stack.start("edge")
        wait_until(lambda: call(stack.url, "GET", "/healthz")[0] == 200, 90, "granian up")
        wait_until(lambda: edge_get(stack, "/healthz").status == 200, 60, "the edge up")
        yield stack


class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body


def edge_context(stack: Stack, alpn: list[str]) -> ssl.SSLContext:
    """Verifies the edge's certificate against the root of Caddy's local CA (`tls internal`)."""
    root = stack.caddy_home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    context = ssl.create_default_context(cafile=str(root))
    context.set_alpn_protocols(alpn)
    return context


def edge_get(stack: Stack, path: str, headers: dict[str, str] | None = None) -> Response:
    context = edge_context(stack, ["http/1.1"])
    conn = http.client.HTTPSConnection("localhost", stack.https_port, timeout=5, context=context)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def token(stack: Stack) -> str:
    """One player's API token (one registration: the per-IP limit of the last test stays unused)."""
    credentials = {"username": "edge", "password": "Edge-test-9x!"}
    status, answer = call(stack.url, "POST", "/api/v1/auth/register", credentials, {"X-Forwarded-Proto": "https"})
    assert status == 201, answer
    return str(answer["token"])


def a_game(connect: Any, headers: dict[str, str]) -> dict[str, Any]:
    """A new game of the player of HEADERS, started through CONNECT."""
    _, status, raw = timed(connect, "POST", "/api/v1/games", json.dumps({"rule": "relaxed"}).encode(), headers, 15)
    assert status == 201, raw
    return dict(json.loads(raw))


def closed_by_server(sockets: list[socket.socket], seconds: float) -> int:
    """How many of SOCKETS the server closed (or answered and closed) within SECONDS."""
    deadline = time.monotonic() + seconds
    closed = 0
    for sock in sockets:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            try:
                if not sock.recv(65536):
                    closed += 1
                    break
            except TimeoutError:
                break
            except OSError:  # reset, or TLS torn down
                closed += 1
                break
    return closed


@pytest.mark.parametrize("through", ["granian", "caddy"])
def test_slow_clients_never_stall_the_site(stack: Stack, token: str, through: str) -> None:
    tls = through == "caddy"
    host, port = ("localhost", stack.https_port) if tls else ("127.0.0.1", stack.port)
    connect = connector(host, port, tls=tls)
    # Straight to granian, a client stands for the operator's own balancer, which says HTTPS.
    forwarded = {} if tls else {"X-Forwarded-Proto": "https"}
    headers = {**forwarded, "Content-Type": "application/json", "Authorization": f"Token {token}"}
    game = a_game(connect, headers)

    slow = open_slow(host, port, 2 * SLOW_EACH, tls=tls, kinds="hb")
    opened = time.monotonic()
    try:
        time.sleep(0.5)  # every slow request is in the server's hands
        seen: list[tuple[str, float, int]] = []
        # Well within the servers' timeouts: every slow request is still open meanwhile.
        while time.monotonic() - opened < CUT_AFTER - 1.5:
            seconds, status, _ = timed(connect, "GET", "/healthz", timeout=3)
            seen.append(("healthz", seconds, status))
            move = game["legal_moves"][0]
            body = json.dumps({**move, "seq": game["moves"]}).encode()
            seconds, status, raw = timed(connect, "POST", f"/api/v1/games/{game['id']}/moves", body, headers, 3)
            seen.append(("move", seconds, status))
            if status == 200:
                game = json.loads(raw)
            if not game["legal_moves"] or game["status"] != "playing":
                game = a_game(connect, headers)
        for kind in ("healthz", "move"):
            times = sorted(seconds * 1000 for what, seconds, _ in seen if what == kind)
            median, worst = times[len(times) // 2], times[-1]
            print(f"{through}, {len(slow)} slow open: {len(times)} {kind}, median {median:.0f} max {worst:.0f} ms")
        assert len(seen) >= 4
        assert all(status == 200 for _, _, status in seen), seen
        assert max(seconds for _, seconds, _ in seen) < 1, seen

        # The servers' own timeouts end the slow requests (granian: the head timeout and
        # BODY_READ_TIMEOUT; Caddy: read_header and read_body): nothing is held for good.
        closed = closed_by_server(slow, CUT_AFTER + 6 - (time.monotonic() - opened))
        assert closed == len(slow), f"{closed} of {len(slow)} slow connections closed by {through}"
    finally:
        close_all(slow)


def test_the_edge_serves_https_http2_and_the_static_files_with_their_long_cache(stack: Stack) -> None:
    # HTTPS with a certificate for the domain (Caddy's local CA here, Let's Encrypt in production),
    # HTTP/2 by ALPN, HTTP/3 offered (Alt-Svc); the answer is the web process's.
    with socket.create_connection(("localhost", stack.https_port), timeout=5) as raw:
        with edge_context(stack, ["h2", "http/1.1"]).wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.selected_alpn_protocol() == "h2"
    page = edge_get(stack, "/", {"Accept-Language": "en"})
    assert page.status == 200 and b"Yukon" in page.body
    assert f'h3=":{stack.https_port}"' in page.headers["Alt-Svc"]
    # The edge says HTTPS (X-Forwarded-Proto): the page is served, where plain HTTP straight to
    # granian is sent to HTTPS (SECURE_SSL_REDIRECT).
    direct = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
    direct.request("GET", "/", headers={"Host": "localhost"})
    assert direct.getresponse().status == 301
    direct.close()

    # A hashed static file the page names, from the collected files: cached for good, brotli.
    manifest = json.loads((ROOT / "var" / "static" / "staticfiles.json").read_text())["paths"]
    hashed = manifest["frontend/app.css"]
    assert hashed != "frontend/app.css"
    asset = edge_get(stack, f"/static/{hashed}", {"Accept-Encoding": "br, gzip"})
    assert asset.status == 200
    assert asset.headers["Cache-Control"] == "public, max-age=315360000, immutable"
    assert asset.headers["Content-Encoding"] == "br"
    assert asset.body == (ROOT / "var" / "static" / f"{hashed}.br").read_bytes()
    plain = edge_get(stack, "/static/frontend/app.css")
    assert plain.status == 200 and plain.headers["Cache-Control"] == "public, max-age=60"
    assert edge_get(stack, "/static/frontend/nothing.css").status == 404
    # /metrics is for the operator's scraper inside the network: the edge answers it itself, with
    # nothing (the web process would answer its own page).
    metrics = edge_get(stack, "/metrics", {"Authorization": "Bearer anything"})
    assert metrics.status == 404 and metrics.body == b""


BODY_MAX_BYTES = 3 * 1024 * 1024  # the web process's limit (yukon_site/edge.py), which the edge matches


def edge_post(stack: Stack, path: str, body: bytes | list[bytes], headers: dict[str, str]) -> Response:
    """POST BODY through the edge over HTTP/1.1: bytes with a Content-Length, a list in chunks. As a
    browser does, it reads the answer even when the server answers (and closes) before the whole
    body is sent."""
    context = edge_context(stack, ["http/1.1"])
    conn = http.client.HTTPSConnection("localhost", stack.https_port, timeout=30, context=context)
    chunked = isinstance(body, list)
    try:
        conn.putrequest("POST", path)
        for name, value in {**headers, **({"Transfer-Encoding": "chunked"} if chunked else {})}.items():
            conn.putheader(name, value)
        if not chunked:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders()
        try:
            if chunked:
                for chunk in body:
                    conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                conn.send(b"0\r\n\r\n")
            else:
                for start in range(0, len(body), 65536):
                    conn.send(body[start : start + 65536])
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass  # the server answered early and closed: its answer is read below
        response = conn.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        conn.close()


@pytest.mark.parametrize("sent", ["with its length", "in chunks"])
def test_a_body_past_the_limit_is_refused_with_413_through_the_edge(stack: Stack, token: str, sent: str) -> None:
    # Issue 40, point 7: a 4 MB body got a 502 from the edge (or reached the web process cut short).
    # Now the edge refuses one that declares its length, and cuts one sent in chunks one byte past
    # the limit, which the web process refuses: the same 413 and error code either way.
    size = 4 * 1000 * 1000
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    body: bytes | list[bytes] = b" " * size if sent == "with its length" else [b" " * 65536] * (size // 65536)
    answer = edge_post(stack, "/api/v1/games", body, headers)
    assert answer.status == 413, (answer.status, answer.body[:200])
    assert json.loads(answer.body)["error"] == "payload_too_large"
    # A body within the limit still reaches the web process, whose API takes 64 KiB of JSON at most
    # (its own 413, in the request's language: the edge's answer is in English).
    fitting = json.dumps({"rule": "relaxed"}).encode() + b" " * (BODY_MAX_BYTES - 100)
    answer = edge_post(stack, "/api/v1/games", fitting, {**headers, "Accept-Language": "de"})
    assert answer.status == 413, (answer.status, answer.body[:200])
    assert json.loads(answer.body) == {"error": "payload_too_large", "detail": "Die Anfrage ist zu groß."}
    small = edge_post(stack, "/api/v1/games", json.dumps({"rule": "relaxed"}).encode(), headers)
    assert small.status == 201, small.body[:200]


def test_behind_the_edge_a_forged_forwarded_for_escapes_no_rate_limit(stack: Stack) -> None:
    # Caddy writes the address it sees into X-Forwarded-For, whatever the client sent, and the web
    # process trusts that one proxy (NUM_PROXIES=1): a client that names a new address in every
    # request still counts as one address. (Last in this file: it uses up the loopback's bucket.)
    # The limit's window is a fixed minute: twice the limit and one more lands more than the limit
    # in one window even if the requests straddle the start of a new one.
    context = edge_context(stack, ["http/1.1"])
    statuses = []
    for n in range(2 * AUTH_IP_PER_MINUTE + 1):
        conn = http.client.HTTPSConnection("localhost", stack.https_port, timeout=10, context=context)
        body = json.dumps({"username": f"nobody{n}", "password": "not-the-password"})
        headers = {"Content-Type": "application/json", "X-Forwarded-For": f"203.0.113.{n}"}
        conn.request("POST", "/api/v1/auth/login", body=body, headers=headers)
        statuses.append(conn.getresponse().status)
        conn.close()
        if statuses[-1] == 429:
            break
    assert statuses[0] != 429 and statuses[-1] == 429, statuses
