"""A batch of moves played offline, replayed by the server (docs/api.md, "Played offline"): the
time of ``POST games/{id}/batch`` with 1,000 entries (the most a batch holds: legal moves and an
undo every tenth entry), through Django's whole request path in this process (authentication,
rate limits, parsing, the engine, one versioned write of the game and its 1,000 log entries, the
answer), against the same 1,000 entries sent one by one to ``POST games/{id}/moves`` and
``/undo``. Prints the median wall time of each; asserts nothing.

    python bench/offline_bench.py [--times 5] [--postgres]

Database: a fresh SQLite file, or with ``--postgres`` ``BENCH_DATABASE_URL`` if set (used as is,
kept), else a scratch database ``yukon_offline_bench`` on the PostgreSQL server of ``DATABASE_URL``
(or 127.0.0.1), created and dropped here (without a reachable server it says so and exits 0).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from scratch_db import django_on_scratch_sqlite, with_scratch_database

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "yukon_offline_bench"
ENTRIES = 1000
CODE = "YU1-C-AAAAAAB"


def line(code: str, entries: int) -> list[dict[str, Any]]:
    """``entries`` entries the engine accepts in order: legal moves (a fixed choice), an undo every
    tenth entry (and wherever no move is left)."""
    from games.engine import Game

    engine = Game.from_code(code)
    out: list[dict[str, Any]] = []
    for n in range(entries):
        legal = [] if engine.is_won else engine.legal_moves()
        if (n % 10 == 9 or not legal) and engine.undo_available:
            engine.undo()
            out.append({"undo": True})
            continue
        move = legal[(7 * n + 3) % len(legal)]
        engine.play(move)
        out.append(move.to_json())
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=5, help="batches (and one-by-one runs) timed")
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL instead of SQLite")
    args, _ = parser.parse_known_args()  # make bench passes every bench the same options
    for scope in ("MOVES", "MOVES_IP", "GAME_START", "GAME_START_IP"):
        os.environ[f"THROTTLE_{scope}"] = "1000000/minute"
    if args.postgres:
        return with_scratch_database(SCRATCH, "offline_bench", lambda url: run(url, times=args.times))
    django_on_scratch_sqlite("offline")
    return run(None, times=args.times)


def run(url: str | None, *, times: int) -> int:
    if url is not None:
        os.environ["DATABASE_URL"] = url
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
    import logging

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.test import APIClient

    from accounts.actions.tokens import token_issue

    logging.disable(logging.INFO)
    call_command("migrate", verbosity=0)
    account = get_user_model().objects.create_user(username=f"bench{time.time_ns()}", password="x")
    _, key = token_issue(user=account, name="bench")
    client = APIClient(SERVER_NAME="127.0.0.1", REMOTE_ADDR="10.0.0.7")
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    entries = line(CODE, ENTRIES)
    body = json.dumps({"seq": 0, "moves": entries, "elapsed_ms": 600_000})

    def new_game() -> str:
        response = client.post("/api/v1/games", {"code": CODE}, format="json")
        assert response.status_code == 201, response.content[:200]
        return str(response.json()["id"])

    batch_ms, single_ms = [], []
    for _ in range(times + 1):  # (the first run warms up: prepared statements, imports)
        game_id = new_game()
        started = time.perf_counter()
        response = client.post(f"/api/v1/games/{game_id}/batch", body, content_type="application/json")
        batch_ms.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200 and response.json()["batch"] == {"applied": ENTRIES}, response.content[:300]
    for _ in range(max(1, times // 2) + 1):
        game_id = new_game()
        started = time.perf_counter()
        for entry in entries:
            path = "undo" if "undo" in entry else "moves"
            response = client.post(f"/api/v1/games/{game_id}/{path}", {} if "undo" in entry else entry, format="json")
            assert response.status_code == 200, response.content[:300]
        single_ms.append((time.perf_counter() - started) * 1000)
    batch, single = statistics.median(batch_ms[1:]), statistics.median(single_ms[1:])
    print(f"offline_bench: {connection.vendor}, {ENTRIES} entries ({len(body)} bytes), median of {times} runs")
    print(f"  POST games/{{id}}/batch, {ENTRIES} entries: {batch:8.1f} ms ({batch / ENTRIES * 1000:.0f} µs an entry)")
    print(f"  the same one by one (POST moves / undo): {single:8.1f} ms ({single / ENTRIES:.2f} ms a request)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
