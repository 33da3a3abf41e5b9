"""Load test: simulated players play whole games through the API of `make stack`, as the page does.

    python bench/loadtest.py [--players 64] [--token-players 16] [--seconds 30] [--rate R]
                             [--url http://127.0.0.1:8000 | --port 8101]

Without ``--url`` it starts its own stack (deploy/stack.sh: granian with ``DEBUG=0``, Celery worker
and beat on PostgreSQL and Redis; ``LOADTEST_DATABASE_URL``, default database ``yukon_load``, and
``LOADTEST_REDIS_URL``) and stops it afterwards. Most players are browsers: each gets its CSRF
cookie from ``auth/me``, signs up through ``auth/register`` (which logs its session in) and then
plays with its session cookie, sending the CSRF token back as ``X-CSRFToken`` with an ``Origin``,
as ``frontend/static/frontend/api.js`` does. A smaller second mix are token clients
(``Authorization: Token``). Each plays games: new game, moves picked from the server's
``legal_moves`` (foundation moves and flips first, else random), an undo now and then, a new game
when stuck or won.

Two phases with the same players, each printing moves per second (in all and by kind of
player), p50/p95/p99 latency of the move and undo requests and the error count:

* **flat out**: every player sends its next move as soon as it has the answer: the service's
  capacity, beside the throughput of a trivial endpoint (``/healthz``) with as many connections,
  the framework's ceiling (goal: moves >= 20 % of it).
* **paced**: each player moves at most every ``players / rate`` seconds; ``--rate`` moves per
  second in all, by default half the flat-out rate just measured (goal: p99 < 50 ms). With players
  that never pause, latency is only players / throughput (Little's law), so latency is measured
  at that pace.

Then the players a machine holds (``--step-seconds``; 0: not measured): players who each move
once every 2 s, as a person plays, stepped up by ``--step-by`` from ``--step-from`` until the p99
of their moves passes 100 ms (or a move fails); it prints "players per machine at one move every
2 s with p99 < 100 ms", the last step that held (issue 34's goal: 600 on this 2-core machine
with PostgreSQL and Redis on it). Players beyond those signed up share their accounts (a few
players each), which costs the server nothing a new account would not.

Each phase also prints the CPU that each kind of process used (from /proc, so on this machine
only, and the CPU of a process that ended during the phase is missing), and the machine's load
average. Run it on an otherwise quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
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
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402

KINDS = ("browser", "token")


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})  # seconds
    errors: dict[str, int] = field(default_factory=dict)
    cpu_before: dict[str, float] = field(default_factory=dict)
    cores: dict[str, float] = field(default_factory=dict)  # CPU cores used, by kind of process
    games: int = 0
    won: int = 0
    counting: bool = False

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


@dataclass
class Player:
    """A simulated player: a browser (session cookie, CSRF token sent back as ``X-CSRFToken``, as
    ``frontend/static/frontend/api.js`` does) or a token client (``Authorization: Token``)."""

    n: int
    kind: str
    cookies: dict[str, str] = field(default_factory=dict)  # the browser's cookie jar
    token: str | None = None

    def headers(self, method: str, origin: str) -> dict[str, str]:
        if self.kind == "token":
            return {"Authorization": f"Token {self.token}"} if self.token else {}
        headers = {"Accept-Language": "de"}
        if method != "GET":
            headers["Origin"] = origin
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        return headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HttpError(Exception):
    """The connection failed or broke (refused, reset, closed before a whole answer)."""


class Connection:
    """One player's keep-alive HTTP/1.1 connection: a request at a time, JSON in and out.

    Plain asyncio streams rather than an HTTP client library: the load generator shares the
    machine's two cores with the service, and aiohttp's client took about 0.4 ms of CPU per
    request, more than PostgreSQL's share of a move. Reconnects when the server closed the
    connection (keep-alive timeout, a recycled worker) before the request was sent.
    """

    def __init__(self, url: str, force_close: bool = False, jar: dict[str, str] | None = None) -> None:
        parts = urlsplit(url)
        self.jar = jar  # cookies: sent with each request, updated from each answer's Set-Cookie
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.force_close = force_close
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.head = f"Host: {self.host}:{self.port}\r\nAccept: */*\r\n"
        if force_close:
            self.head += "Connection: close\r\n"

    async def request(self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None):
        """``(status, parsed JSON or None)``; raises :class:`HttpError` when the connection fails."""
        data = b"" if body is None else json.dumps(body).encode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        if self.jar:
            extra += "Cookie: " + "; ".join(f"{name}={value}" for name, value in self.jar.items()) + "\r\n"
        if data:
            extra += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        message = f"{method} {path} HTTP/1.1\r\n{self.head}{extra}\r\n".encode() + data
        for attempt in (1, 2):
            fresh = self.writer is None
            try:
                if fresh:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(message)
                return await self._answer()
            except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                self.close()
                # Retry only on a kept-alive connection the server had closed, before any answer.
                if fresh or attempt == 2 or not isinstance(exc, asyncio.IncompleteReadError) or exc.partial:
                    raise HttpError(type(exc).__name__) from None
        raise AssertionError("unreachable")

    async def _answer(self):
        reader = self.reader
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        fields = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                name, value = name.strip().lower(), value.strip()
                fields[name] = value
                if name == "set-cookie" and self.jar is not None:
                    self._keep_cookie(value)
        if fields.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                chunks.append(await reader.readexactly(size + 2))
            await reader.readuntil(b"\r\n")
            content = b"".join(chunk[:-2] for chunk in chunks)
        else:
            content = await reader.readexactly(int(fields.get("content-length", "0")))
        if self.force_close or fields.get("connection", "").lower() == "close":
            self.close()
        is_json = fields.get("content-type", "").startswith("application/json")
        return status, (json.loads(content) if is_json and content else None)

    def _keep_cookie(self, header: str) -> None:
        pair, *attributes = header.split(";")
        name, _, value = pair.strip().partition("=")
        gone = value in ("", '""') or any(a.strip().lower() == "max-age=0" for a in attributes)
        if gone:
            self.jar.pop(name, None)
        else:
            self.jar[name] = value

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def start_stack(port: int, web_workers: int | None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PORT": str(port),
        "DATABASE_URL": os.environ.get("LOADTEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yukon_load"),
        "REDIS_URL": os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/3"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
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


async def wait_ready(url: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    connection = Connection(url)
    while time.monotonic() < deadline:
        try:
            if (await connection.request("GET", "/readyz"))[0] == 200:
                connection.close()
                return
        except HttpError:
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


async def sign_up(player: Player, url: str, tally: Tally) -> Player | None:
    """An account for ``player``, made as the sign-up page makes it (not timed: password hashing is
    slow on purpose). A browser first gets its CSRF cookie from ``auth/me`` (as a guest's page
    does), then registers through the API, which logs its session in (new session and CSRF
    cookies); a token client keeps the token of the answer and no cookie."""
    connection = Connection(url, jar=player.cookies if player.kind == "browser" else None)
    name = f"load{player.n}-{os.getpid()}-{random.randrange(10**9)}"
    credentials = {"username": name, "password": "Load-test-9x!"}
    try:
        if player.kind == "browser":
            await connection.request("GET", "/api/v1/auth/me", None, player.headers("GET", url))
        status, answer = await connection.request(
            "POST", "/api/v1/auth/register", credentials, player.headers("POST", url)
        )
    except HttpError as exc:
        status, answer = str(exc), None
    connection.close()
    if status != 201 or (player.kind == "browser" and "sessionid" not in player.cookies):
        tally.error(f"register {player.kind} {status}")
        return None
    if player.kind == "token":
        player.token = answer["token"]
    return player


async def play(
    player: Player,
    connection: Connection,
    origin: str,
    tally: Tally,
    stop: float,
    interval: float = 0.0,
) -> None:
    """Play games until ``stop``; with ``interval``, one move every ``interval`` seconds at most
    (the time to think is what is left of it after the answer came)."""
    rng = random.Random(player.n)
    headers = player.headers("POST", origin)
    await asyncio.sleep(rng.random() * interval)  # players do not all move in the same instant
    while time.monotonic() < stop:
        try:
            status, state = await connection.request(
                "POST", "/api/v1/games", {"rule": rng.choice(["classic", "relaxed"])}, headers
            )
        except HttpError as exc:
            status, state = str(exc), {}
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
            path = f"/api/v1/games/{state['id']}/" + ("undo" if undo else "moves")
            body = {"seq": state["moves"]} if undo else {**move, "seq": state["moves"]}
            started = time.perf_counter()
            try:
                status, answer = await connection.request("POST", path, body, headers)
            except HttpError as exc:
                tally.error(str(exc))
                break
            took = time.perf_counter() - started
            if tally.counting:
                tally.latencies[player.kind].append(took)
            if interval > took:
                await asyncio.sleep(interval - took)
            if status != 200:
                tally.error(f"move {status} {(answer or {}).get('error')}")
                break
            state = answer
            if state["status"] == "won":
                tally.won += 1
                break


async def trivial(url: str, concurrency: int, seconds: float, force_close: bool) -> tuple[float, dict[str, float]]:
    """Requests per second to ``/healthz`` flat out, and the CPU (cores) each kind of process used meanwhile."""
    count = 0
    stop = time.monotonic() + seconds

    async def one() -> None:
        nonlocal count
        connection = Connection(url, force_close)
        while time.monotonic() < stop:
            status, _ = await connection.request("GET", "/healthz")
            count += status == 200
        connection.close()

    before = cpu_seconds()
    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    after = cpu_seconds()
    return count / elapsed, {name: (after[name] - before.get(name, 0.0)) / elapsed for name in after}


# What the CPU figures count as the service's: the processes of the stack this load test started
# (``--url``: every granian, celery and redis process), the PostgreSQL backends of its database and
# this process. The machine may be shared: everything else is "other".
STACK_PID: int | None = None
DATABASE = urlsplit(os.environ.get("LOADTEST_DATABASE_URL", "postgres:///yukon_load")).path.lstrip("/")


def cpu_seconds() -> dict[str, float]:
    """CPU seconds used so far by the processes of this machine, grouped by what they are."""
    tick = os.sysconf("SC_CLK_TCK")
    processes: dict[int, tuple[int, str, float]] = {}  # pid: parent, command, CPU seconds
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        processes[int(pid)] = (int(fields[1]), command, (int(fields[11]) + int(fields[12])) / tick)

    def in_stack(pid: int) -> bool:
        while pid > 1:
            if pid == STACK_PID:
                return True
            pid = processes[pid][0] if pid in processes else 0
        return False

    groups: dict[str, float] = {}
    for pid, (_, command, used) in processes.items():
        if pid == os.getpid():
            group = "loadtest"
        elif "redis-server" in command:  # (the machine's: other clients' commands count too)
            group = "redis"
        elif command.startswith("postgres:"):
            group = "postgres" if f" {DATABASE} " in command else "other"
        elif STACK_PID is None or in_stack(pid):
            group = next((name for name in ("granian", "celery", "redis") if name in command), "other")
        else:
            group = "other"
        groups[group] = groups.get(group, 0.0) + used
    return groups


OWN = ("granian", "postgres", "redis", "loadtest")  # the CPU a request costs (celery works beside)


def own_ms(cores: dict[str, float], rate: float) -> float:
    """CPU milliseconds per request of the web processes, PostgreSQL, Redis and the load generator."""
    return sum(cores.get(name, 0.0) for name in OWN) / rate * 1000 if rate else float("nan")


async def phase(
    players: list[Player], url: str, seconds: float, interval: float, force_close: bool
) -> tuple[Tally, float]:
    """All players play for ``seconds`` (after a short warm-up); returns the tally and the time counted."""
    tally = Tally()
    warmup = 3.0
    stop = time.monotonic() + warmup + seconds
    connections = [
        Connection(url, force_close, jar=player.cookies if player.kind == "browser" else None) for player in players
    ]
    tasks = [
        asyncio.create_task(play(player, connection, url, tally, stop, interval))
        for player, connection in zip(players, connections, strict=True)
    ]
    await asyncio.sleep(warmup)
    tally.counting = True
    counted_from = time.perf_counter()
    tally.cpu_before = cpu_seconds()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - counted_from
    after = cpu_seconds()
    for connection in connections:
        connection.close()
    tally.cores = {name: (after[name] - tally.cpu_before.get(name, 0.0)) / elapsed for name in after}
    return tally, elapsed


def quantiles(latencies: list[float]) -> str:
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 100 else [float("nan")] * 99
    return f"{q[49] * 1000:6.1f} / {q[94] * 1000:6.1f} / {q[98] * 1000:6.1f} ms"


def report(title: str, tally: Tally, elapsed: float, counts: dict[str, int]) -> dict[str, float]:
    """Prints the phase; returns moves per second by kind of player and in all (``"all"``)."""
    everything = [took for kind in KINDS for took in tally.latencies[kind]]
    rates = {kind: len(tally.latencies[kind]) / elapsed for kind in KINDS}
    rates["all"] = len(everything) / elapsed
    errors = sum(tally.errors.values())
    print(f"loadtest: {title}")
    print(
        f"loadtest:   moves (incl. undos)      {rates['all']:10,.0f} /s   [{len(everything)} moves in {elapsed:.1f} s, "
        f"{tally.games} games, {tally.won} won]"
    )
    for kind in KINDS:
        if counts[kind]:
            label = f"  {kind} ({counts[kind]} players)".ljust(27)
            print(f"loadtest: {label}{rates[kind]:10,.0f} /s   p50/p95/p99 {quantiles(tally.latencies[kind])}")
    print(f"loadtest:   latency p50/p95/p99      {quantiles(everything)}   (all moves)")
    print(f"loadtest:   errors                   {errors:10d}      {tally.errors if errors else ''}")
    print_cpu("move", tally.cores, rates["all"])
    return rates


def print_cpu(what: str, cores: dict[str, float], rate: float) -> None:
    """The cores each kind of process used, and its CPU milliseconds per request."""
    busy = sorted(((used, name) for name, used in cores.items() if used >= 0.01), reverse=True)
    print(
        f"loadtest:   CPU (cores; ms per {what}) ".ljust(37)
        + ", ".join(f"{name} {used:.2f}; {used / rate * 1000 if rate else 0:.2f}" for used, name in busy)
    )


async def run(args: argparse.Namespace, url: str) -> None:
    await wait_ready(url, 90)
    registering = Tally()
    wanted = [Player(n, "browser") for n in range(args.players)]
    wanted += [Player(args.players + n, "token") for n in range(args.token_players)]
    signed_up = []
    for start in range(0, len(wanted), 16):  # a few at a time: each hashes a password
        batch = wanted[start : start + 16]
        signed_up += await asyncio.gather(*(sign_up(player, url, registering) for player in batch))
    players = [player for player in signed_up if player is not None]
    if registering.errors:
        print(f"loadtest: registration errors {registering.errors}")
    counts = {kind: sum(player.kind == kind for player in players) for kind in KINDS}
    flat_out = await phase(players, url, args.seconds, 0.0, args.force_close)
    ceiling, ceiling_cores = await trivial(url, len(players), min(10.0, args.seconds), args.force_close)
    flat_moves = len([t for kind in KINDS for t in flat_out[0].latencies[kind]]) / flat_out[1]
    rate = args.rate if args.rate is not None else flat_moves / 2
    paced = None
    if rate > 0:
        paced = await phase(players, url, args.seconds, len(players) / rate, args.force_close)
    print(
        f"loadtest: {counts['browser']} browser players (session cookie, CSRF) and "
        f"{counts['token']} token clients against {url}"
    )
    capacity = report("flat out (every player moves again as soon as it has the answer)", *flat_out, counts)
    print(f"loadtest:   trivial endpoint         {ceiling:10,.0f} /s   (/healthz, same connections, flat out)")
    print_cpu("request", ceiling_cores, ceiling)
    print(f"loadtest:   moves / trivial          {capacity['all'] / ceiling * 100:10.1f} %    (goal >= 20 %)")
    move_ms, trivial_ms = own_ms(flat_out[0].cores, capacity["all"]), own_ms(ceiling_cores, ceiling)
    print(
        f"loadtest:   ... by CPU               {trivial_ms / move_ms * 100:10.1f} %    ({move_ms:.2f} ms per move, "
        f"{trivial_ms:.2f} per trivial request, in {'+'.join(OWN)}: the ratio when CPU-bound)"
    )
    browser_share = capacity["browser"] / ceiling * 100
    print(f"loadtest:   browser moves / trivial  {browser_share:10.1f} %    (the browser players' moves alone)")
    if paced is not None:
        report(
            f"paced: each player moves at most every {len(players) / rate * 1000:.0f} ms, "
            f"{rate:.0f} moves/s in all, half the flat-out rate (goal p99 < 50 ms)",
            *paced,
            counts,
        )
    if args.step_seconds > 0:
        await players_per_machine(players, url, args)


HUMAN_INTERVAL = 2.0  # seconds between two moves of a player
P99_LIMIT = 0.100  # seconds


async def players_per_machine(players: list[Player], url: str, args: argparse.Namespace) -> int:
    """Step the number of players (each moving every 2 s) up until the p99 passes 100 ms; prints
    and returns the last number that held."""
    held = 0
    size = args.step_from
    while size <= args.step_max:
        crowd = [
            Player(10_000 + n, base.kind, dict(base.cookies), base.token)
            for n, base in zip(range(size), itertools.cycle(players), strict=False)
        ]
        tally, elapsed = await phase(crowd, url, args.step_seconds, HUMAN_INTERVAL, args.force_close)
        moves = [took for kind in KINDS for took in tally.latencies[kind]]
        p99 = statistics.quantiles(moves, n=100)[98] if len(moves) >= 100 else float("inf")
        errors = sum(tally.errors.values())
        load = os.getloadavg()[0]
        print(
            f"loadtest:   {size:5d} players, one move every 2 s: {len(moves) / elapsed:6.0f} moves/s, "
            f"p99 {p99 * 1000:7.1f} ms, {errors} errors, load average {load:.1f}",
            flush=True,
        )
        if p99 >= P99_LIMIT or errors:
            break
        held = size
        size += args.step_by
    print(f"loadtest: players per machine at one move every 2 s with p99 < 100 ms: {held} (goal >= 600)")
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=64, help="browser players (session cookie and CSRF)")
    parser.add_argument("--token-players", type=int, default=16, help="token clients (Authorization: Token)")
    parser.add_argument("--seconds", type=float, default=30, help="of each phase")
    parser.add_argument(
        "--rate",
        type=float,
        help="moves per second of all players in the paced phase (default: half the flat-out rate; 0: no paced phase)",
    )
    parser.add_argument("--url", help="an already running stack; default: start one")
    parser.add_argument("--port", type=int, help="of the stack it starts (default: a free one)")
    parser.add_argument("--web-workers", type=int, help="web processes of the stack it starts")
    parser.add_argument("--force-close", action="store_true", help="a new connection per request")
    parser.add_argument("--step-seconds", type=float, default=20, help="of each step of players (0: no steps)")
    parser.add_argument("--step-from", type=int, default=100, help="players of the first step")
    parser.add_argument("--step-by", type=int, default=50, help="players added at each step")
    parser.add_argument("--step-max", type=int, default=1500, help="players of the last step tried")
    args = parser.parse_args()
    stack = None
    url = args.url
    if url is None:
        (ROOT / "var").mkdir(exist_ok=True)
        port = args.port or free_port()
        url = f"http://127.0.0.1:{port}"
        stack = start_stack(port, args.web_workers)
        global STACK_PID
        STACK_PID = stack.pid
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
