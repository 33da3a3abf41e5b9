"""Load test: many simulated players play whole games through the API of `make stack`.

    python bench/loadtest.py [--players 64] [--seconds 30] [--rate 520] [--url http://127.0.0.1:8000]

Without ``--url`` it starts its own stack (deploy/stack.sh: gunicorn, Celery worker and beat on
PostgreSQL and Redis, database ``yukon_load``) on a free port and stops it afterwards. Each player
registers, then plays games: new game, moves picked from the server's ``legal_moves`` (foundation
moves and flips first, else random), an undo now and then, a new game when stuck or won.

Two phases with the same players, each printing moves per second, p50/p95/p99 latency of the move
and undo requests and the error count:

* **flat out**: every player sends its next move as soon as it has the answer. That is the
  service's capacity; the throughput of a trivial endpoint (``/healthz``) with the same players
  is the framework's ceiling beside it (goal: moves >= 50 % of it).
* **paced**: each player moves at most every ``players / rate`` seconds (``--rate`` moves per
  second in all; 520 by default: 64 players each moving every 123 ms). With players that never
  pause, latency is only players / throughput (Little's law: 128 ms at 500 moves/s for 64
  players), so the latency goal (p99 < 50 ms at >= 500 moves/s) is measured at that pace.

Each phase also prints the CPU that each kind of process used (from /proc, so on this machine
only, and the CPU of a process that ended during the phase, such as a database connection
closed after ``DB_CONN_MAX_AGE``, is missing). Run it on an otherwise quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, move and undo requests
    errors: dict[str, int] = field(default_factory=dict)
    cpu_before: dict[str, float] = field(default_factory=dict)
    cores: dict[str, float] = field(default_factory=dict)  # CPU cores used, by kind of process
    games: int = 0
    won: int = 0
    counting: bool = False

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_stack(port: int, web_workers: int | None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PORT": str(port),
        "DATABASE_URL": os.environ.get("LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yukon_load"),
        "REDIS_URL": os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/3"),
        # One machine plays 64 players from one address: lift the limits for this run only.
        **lifted_env(),
        "ACCESS_LOG_LEVEL": "WARNING",
    }
    if web_workers:
        env["WEB_CONCURRENCY"] = str(web_workers)
    log = open(ROOT / "var" / "loadtest-stack.log", "wb")  # noqa: SIM115 - lives as long as the stack
    return subprocess.Popen(
        [str(ROOT / "deploy" / "stack.sh")], cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
    )


async def wait_ready(session: aiohttp.ClientSession, url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            async with session.get(f"{url}/readyz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.5)
    raise SystemExit(f"the stack at {url} did not become ready within {seconds:.0f} s (see var/loadtest-stack.log)")


def pick(state: dict, rng: random.Random) -> dict | None:
    moves = state.get("legal_moves") or []
    if not moves:
        return None
    up = [m for m in moves if m["to"] == "f"]
    if up:
        return rng.choice(up)
    tableau = [m for m in moves if m["from"].startswith("t")]
    flipping = []
    for m in tableau:
        column = state["tableau"][int(m["from"][1]) - 1]
        index = column.index(m["card"]) if m.get("card") in column else -1
        if index > 0 and column[index - 1] == "XX":
            flipping.append(m)
    if flipping:
        return rng.choice(flipping)
    return rng.choice(tableau or moves)


async def register(n: int, url: str, tally: Tally, connector: aiohttp.BaseConnector) -> dict[str, str] | None:
    """An account for player ``n`` (not timed: password hashing is slow on purpose)."""
    async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
        name = f"load{n}-{os.getpid()}-{random.randrange(10**9)}"
        credentials = {"username": name, "password": "Load-test-9x!"}
        async with session.post(f"{url}/api/v1/auth/register", json=credentials) as r:
            if r.status != 201:
                tally.error(f"register {r.status}")
                return None
            return {"Authorization": f"Token {(await r.json())['token']}"}


async def player(
    n: int,
    url: str,
    headers: dict[str, str],
    tally: Tally,
    stop: float,
    connector: aiohttp.BaseConnector,
    interval: float = 0.0,
) -> None:
    """Play games until ``stop``; with ``interval``, one move every ``interval`` seconds at most
    (the time to think is what is left of it after the answer came)."""
    rng = random.Random(n)
    await asyncio.sleep(rng.random() * interval)  # players do not all move in the same instant
    async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
        while time.monotonic() < stop:
            try:
                async with session.post(
                    f"{url}/api/v1/games", json={"rule": rng.choice(["classic", "relaxed"])}, headers=headers
                ) as r:
                    status = r.status
                    state = await r.json()
            except aiohttp.ClientError as exc:
                status, state = type(exc).__name__, {}
            if status != 201:
                tally.error(f"new game {status}")
                await asyncio.sleep(0.1)
                continue
            tally.games += 1
            for _ in range(300):
                if time.monotonic() >= stop:
                    return
                undo = state["undo_available"] and rng.random() < 0.08
                move = None if undo else pick(state, rng)
                if move is None and not undo:
                    break
                path = f"{url}/api/v1/games/{state['id']}/" + ("undo" if undo else "moves")
                body = {"seq": state["moves"]} if undo else {**move, "seq": state["moves"]}
                started = time.perf_counter()
                try:
                    async with session.post(path, json=body, headers=headers) as r:
                        answer = await r.json()
                        status = r.status
                except aiohttp.ClientError as exc:
                    tally.error(type(exc).__name__)
                    break
                took = time.perf_counter() - started
                if tally.counting:
                    tally.latencies.append(took)
                if interval > took:
                    await asyncio.sleep(interval - took)
                if status != 200:
                    tally.error(f"move {status} {answer.get('error')}")
                    break
                state = answer
                if state["status"] == "won":
                    tally.won += 1
                    break


async def trivial(url: str, concurrency: int, seconds: float, connector: aiohttp.BaseConnector) -> float:
    count = 0
    stop = time.monotonic() + seconds

    async def one() -> None:
        nonlocal count
        async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
            while time.monotonic() < stop:
                async with session.get(f"{url}/healthz") as r:
                    await r.read()
                    count += r.status == 200

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(concurrency)))
    return count / (time.perf_counter() - started)


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by the processes of this machine, grouped by what they are."""
    groups: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        group = next(
            (name for name in ("gunicorn", "celery", "postgres", "redis", "loadtest") if name in command), "other"
        )
        groups[group] = groups.get(group, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return groups


async def phase(
    accounts: list[dict[str, str] | None], url: str, seconds: float, connector: aiohttp.BaseConnector, interval: float
) -> tuple[Tally, float]:
    """All players play for ``seconds`` (after a short warm-up); returns the tally and the time counted."""
    tally = Tally()
    warmup = 3.0
    stop = time.monotonic() + warmup + seconds
    tasks = [
        asyncio.create_task(player(n, url, headers, tally, stop, connector, interval))
        for n, headers in enumerate(accounts)
        if headers is not None
    ]
    await asyncio.sleep(warmup)
    tally.counting = True
    counted_from = time.perf_counter()
    tally.cpu_before = cpu_seconds()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - counted_from
    after = cpu_seconds()
    tally.cores = {name: (after[name] - tally.cpu_before.get(name, 0.0)) / elapsed for name in after}
    return tally, elapsed


def report(title: str, tally: Tally, elapsed: float) -> float:
    lat = sorted(tally.latencies)
    rate = len(lat) / elapsed
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
    errors = sum(tally.errors.values())
    print(f"loadtest: {title}")
    print(
        f"loadtest:   moves (incl. undos)      {rate:10,.0f} /s   [{len(lat)} moves in {elapsed:.1f} s, "
        f"{tally.games} games, {tally.won} won]"
    )
    print(f"loadtest:   latency p50/p95/p99      {q[49] * 1000:6.1f} / {q[94] * 1000:6.1f} / {q[98] * 1000:6.1f} ms")
    print(f"loadtest:   errors                   {errors:10d}      {tally.errors if errors else ''}")
    busy = sorted(((cores, name) for name, cores in tally.cores.items() if cores >= 0.01), reverse=True)
    print(
        "loadtest:   CPU (cores; ms per move) "
        + ", ".join(f"{name} {cores:.2f}; {cores / rate * 1000 if rate else 0:.2f}" for cores, name in busy)
    )
    return rate


async def run(args: argparse.Namespace, url: str) -> None:
    # Idle connections are dropped before the server's keep-alive timeout (5 s) would close them
    # under a request: the usual rule for a client (or balancer) in front of gunicorn.
    connector = aiohttp.TCPConnector(
        limit=args.players + 8,
        force_close=args.force_close,
        keepalive_timeout=None if args.force_close else 3.0,
    )
    try:
        async with aiohttp.ClientSession(connector=connector, connector_owner=False) as session:
            await wait_ready(session, url, 90)
        registering = Tally()
        accounts = await asyncio.gather(*(register(n, url, registering, connector) for n in range(args.players)))
        if registering.errors:
            print(f"loadtest: registration errors {registering.errors}")
        flat_out = await phase(accounts, url, args.seconds, connector, interval=0.0)
        ceiling = await trivial(url, args.players, min(10.0, args.seconds), connector)
        paced = None
        if args.rate > 0:
            paced = await phase(accounts, url, args.seconds, connector, interval=args.players / args.rate)
    finally:
        await connector.close()
    print(f"loadtest: {args.players} players against {url}")
    capacity = report("flat out (every player moves again as soon as it has the answer)", *flat_out)
    print(f"loadtest:   trivial endpoint         {ceiling:10,.0f} /s   (/healthz, same players, flat out)")
    print(f"loadtest:   moves / trivial          {capacity / ceiling * 100:10.1f} %    (goal >= 50 %)")
    if paced is not None:
        report(
            f"paced: each player moves at most every {args.players / args.rate * 1000:.0f} ms, "
            f"{args.rate:.0f} moves/s in all (goal >= 500 /s with p99 < 50 ms)",
            *paced,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30, help="of each phase")
    parser.add_argument(
        "--rate", type=float, default=520, help="moves per second of all players in the paced phase (0: no paced phase)"
    )
    parser.add_argument("--url", help="an already running stack; default: start one")
    parser.add_argument("--web-workers", type=int, help="gunicorn processes of the stack it starts")
    parser.add_argument("--force-close", action="store_true", help="a new connection per request")
    args = parser.parse_args()
    stack = None
    url = args.url
    if url is None:
        (ROOT / "var").mkdir(exist_ok=True)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        stack = start_stack(port, args.web_workers)
    try:
        asyncio.run(run(args, url.rstrip("/")))
    finally:
        if stack is not None:
            os.killpg(stack.pid, signal.SIGTERM)
            try:
                stack.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(stack.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
