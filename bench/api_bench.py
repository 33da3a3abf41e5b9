"""Moves per second that one server handles for a single client, over HTTP on loopback.

Starts its own server the way ``make run`` does (``manage.py runserver``, default settings, a
fresh SQLite file in a temporary folder) on a free port, registers a player, and plays random
legal moves (each with its ``seq``) game after game for a fixed time, then stops the server.

    python bench/api_bench.py [--seconds 10] [--server runserver|granian] [--idempotency]

``BENCH_DATABASE_URL`` points it at another database (e.g. PostgreSQL) instead of SQLite.
Prints figures; asserts nothing but that every move is accepted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402

MAX_MOVES = 50_000
MOVES_PER_GAME = 150


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Client:
    """A keep-alive JSON client that reconnects when the server closes the connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.token: str | None = None
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        all_headers = {"Content-Type": "application/json", "Accept-Language": "en", **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                raw = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                return response.status, json.loads(raw) if raw else None
            except (http.client.HTTPException, ConnectionError, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def start_server(kind: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    if kind == "granian":
        command = [
            str(Path(python).parent / "granian"),
            "--interface",
            "wsgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "2",
            "--log-level",
            "warning",
            "yukon_site.wsgi:application",
        ]
    else:
        command = [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_ready(port: int, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not start in time")


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    moves = state["legal_moves"]
    to_foundation = [m for m in moves if m["to"] == "f"]
    return dict(rng.choice(to_foundation or moves))


def play(client: Client, seconds: float, idempotency: bool) -> dict[str, Any]:
    rng = random.Random(1)
    latencies: list[float] = []
    games = 0
    refused = 0
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    state: dict[str, Any] | None = None
    while time.perf_counter() < deadline and len(latencies) < MAX_MOVES:
        if state is None or not state["legal_moves"] or state["status"] == "won" or state["moves"] >= MOVES_PER_GAME:
            status, state = client.call("POST", "/api/v1/games", {"rule": "classic"})
            assert status == 201, (status, state)
            games += 1
        body = {**choose(state, rng), "seq": state["moves"]}
        headers = {"Idempotency-Key": uuid.uuid4().hex} if idempotency else None
        t0 = time.perf_counter()
        status, answer = client.call("POST", f"/api/v1/games/{state['id']}/moves", body, headers)
        latencies.append(time.perf_counter() - t0)
        if status != 200:
            refused += 1
            state = None
            continue
        state = answer
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "moves": len(latencies),
        "refused": refused,
        "games": games,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(latencies[int(len(latencies) * 0.95)] * 1000, 2),
        "max_ms": round(latencies[-1] * 1000, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--server", choices=["runserver", "granian"], default="runserver")
    parser.add_argument("--idempotency", action="store_true", help="send an Idempotency-Key with every move")
    args, _ = parser.parse_known_args()

    with tempfile.TemporaryDirectory(prefix="yukon-bench-") as tmp:
        env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
        env["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{tmp}/bench.sqlite3"
        # One fast client is far above a person's pace: lift the rate limits for the bench only.
        env.update(lifted_env())
        port = free_port()
        server = start_server(args.server, port, env)
        try:
            wait_ready(port, server)
            client = Client(port)
            status, body = client.call(
                "POST",
                "/api/v1/auth/register",
                {"username": f"bench{uuid.uuid4().hex[:8]}", "password": "Bench-Yukon-42"},
            )
            assert status == 201, (status, body)
            client.token = body["token"]
            result = play(client, args.seconds, args.idempotency)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    database = "SQLite" if "sqlite" in env["DATABASE_URL"] else env["DATABASE_URL"].split(":")[0]
    print(
        f"api: {result['moves_per_s']} moves/s for one client ({args.server}, {database}"
        f"{', Idempotency-Key' if args.idempotency else ''}): {result['moves']} moves in {result['seconds']} s, "
        f"{result['games']} games; latency p50 {result['p50_ms']} ms, p95 {result['p95_ms']} ms, "
        f"max {result['max_ms']} ms; refused {result['refused']}"
    )
    return 0 if result["refused"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
