"""Backups: players play (random games, two ranked daily wins), `make backup` writes a dated dump,
the database is dropped, `make restore FILE=...` puts it back, and every game, move log, board and
player's statistics are as they were; the cache's copies are gone, the Celery queues stay. Run with
`make test-faults` (CI runs it too).
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import ROOT, STACK_READY_SECONDS, PrivatePostgres, PrivateRedis, Stack, call, private_stack, wait_until
from .test_faults import NEAR_WIN, Record, play, register

pytestmark = pytest.mark.faults

PLAYERS = 3
WINNERS = 2


@pytest.fixture(scope="module")
def stack() -> Iterator[tuple[Stack, PrivatePostgres, PrivateRedis, Path]]:
    with private_stack("faults-backup") as (stack, postgres, redis, base):
        stack.manage("migrate", "--noinput")
        for name in ("web", "worker", "beat"):
            stack.start(name)
        wait_until(stack.ready, STACK_READY_SECONDS, "the stack ready")
        yield stack, postgres, redis, base


def get(url: str, path: str, token: str | None = None) -> Any:
    status, answer = call(url, "GET", path, None, {"Authorization": f"Token {token}"} if token else {})
    assert status == 200, (path, status, answer)
    return answer


def pages(url: str, path: str, token: str) -> list[Any]:
    results: list[Any] = []
    while path:
        chunk = get(url, path, token)
        results += chunk["results"]
        path = chunk["next"].split(url, 1)[-1] if chunk.get("next") else ""
    return results


def state(url: str, game_id: str, token: str) -> dict[str, Any]:
    answer = dict(get(url, f"/api/v1/games/{game_id}", token))
    if answer["status"] == "playing":
        del answer["elapsed_ms"]  # a game in play: its clock runs on (a finished one's is stored)
    return answer


def stats(url: str, token: str) -> dict[str, Any]:
    answer = dict(get(url, "/api/v1/me/stats", token))
    for game in answer["history"]:
        if game["finished_at"] is None:
            del game["elapsed_ms"]  # a game in play: its clock runs on, as in state()
    return answer


def snapshot(url: str, tokens: dict[str, str], day: str) -> dict[str, Any]:
    """What the players see of their data: every game with its move log, their statistics, and
    the day's board."""
    seen: dict[str, Any] = {"board": get(url, f"/api/v1/leaderboards/daily/{day}")}
    for name, token in tokens.items():
        games = pages(url, "/api/v1/games?page_size=100", token)
        seen[name] = {
            "stats": stats(url, token),
            "games": {
                game["id"]: {
                    "state": state(url, game["id"], token),
                    "log": pages(url, f"/api/v1/games/{game['id']}/moves", token),
                }
                for game in games
            },
        }
    return seen


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where A and B differ, as paths into them."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for key in a.keys() | b.keys() for d in differences(a.get(key), b.get(key), f"{where}/{key}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for n, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{where}[{n}]")]
    return [] if a == b else [f"{where}: {a!r} != {b!r}"]


def make(target: str, env: dict[str, str], *args: str) -> str:
    out = subprocess.run(["make", "-s", target, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


def psql(postgres: PrivatePostgres, sql: str, database: str = "postgres") -> str:
    out = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres", "-d", database, "-tAc", sql],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def redis_keys(redis: PrivateRedis, pattern: str) -> list[str]:
    command = ["redis-cli", "-p", str(redis.port), "--scan", "--pattern", pattern]
    out = subprocess.run(command, capture_output=True, text=True, timeout=30)
    return out.stdout.split()


def test_a_restored_backup_has_every_game_move_log_and_board(stack: Any) -> None:
    stack, postgres, redis, base = stack
    url = stack.url
    tokens = {f"player{n}": register(url, f"player{n}") for n in range(PLAYERS)}
    winners = [f"winner{n}" for n in range(WINNERS)]
    tokens |= {name: register(url, name) for name in winners}

    # Random games at full speed, and two ranked daily wins (a real winning line of today's deal).
    wait_until(lambda: call(url, "GET", "/api/v1/daily")[0] == 200, 60, "today's deal prepared by the beat")
    script = NEAR_WIN.replace("input()", repr(json.dumps(winners)))
    near_wins = json.loads(stack.manage("shell", stdin=script).splitlines()[-1])
    record, stop = Record(), threading.Event()
    threads = [
        threading.Thread(target=play, args=(url, tokens[f"player{n}"], record, stop, n), daemon=True)
        for n in range(PLAYERS)
    ]
    for thread in threads:
        thread.start()
    day = ""
    for name, (game_id, last) in zip(winners, near_wins, strict=True):
        headers = {"Authorization": f"Token {tokens[name]}"}
        status, won = call(url, "POST", f"/api/v1/games/{game_id}/moves", last, headers)
        assert status == 200 and won["status"] == "won", won
        day = won["daily"]
    time.sleep(4)
    stop.set()
    for thread in threads:
        thread.join(30)
    assert sum(len(moves) for moves in record.accepted.values()) > 20, "the players played too little"

    def on_the_board() -> bool:
        board = get(url, f"/api/v1/leaderboards/daily/{day}")
        return {entry["username"] for entry in board["entries"]} >= set(winners)

    wait_until(on_the_board, 60, "both winners on the day's board", interval=1)
    before = snapshot(url, tokens, day)
    assert differences(before, snapshot(url, tokens, day)) == [], "the snapshot changes by itself"

    # make backup: one dated pg_dump file (custom format) in BACKUP_DIR.
    env = {**stack.env, "BACKUP_DIR": str(base / "backups")}
    printed = make("backup", env)
    dumps = sorted((base / "backups").glob("yukon-*.dump"))
    assert len(dumps) == 1 and str(dumps[0]) in printed
    assert re.fullmatch(r"yukon-\d{8}T\d{6}Z\.dump", dumps[0].name)
    assert dumps[0].read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format

    # The database is lost (the stack stopped first, as the README says for a restore; killed, which
    # is quicker here than the processes' graceful stops and changes nothing in the database).
    for name in ("web", "worker", "beat"):
        stack.kill(name)
    psql(postgres, "DROP DATABASE yukon WITH (FORCE)")
    assert psql(postgres, "SELECT count(*) FROM pg_database WHERE datname = 'yukon'") == "0"
    assert redis_keys(redis, ":1:*"), "the cache held nothing: nothing to see cleared"
    celery_keys = set(redis_keys(redis, "_kombu*"))

    make("restore", env, f"FILE={dumps[0]}")

    # The cache's copies (sessions, accounts, tokens) are gone; the Celery broker's keys stay.
    assert redis_keys(redis, ":1:*") == []
    assert set(redis_keys(redis, "_kombu*")) == celery_keys
    for name in ("web", "worker", "beat"):
        stack.start(name)
    wait_until(stack.ready, 90, "the stack ready after the restore")
    after = snapshot(url, tokens, day)
    assert differences(before, after) == []
    games = sum(len(before[name]["games"]) for name in tokens)
    moves = sum(len(game["log"]) for name in tokens for game in before[name]["games"].values())
    print(f"restored {games} games with {moves} logged moves and a board of {len(before['board']['entries'])}")
