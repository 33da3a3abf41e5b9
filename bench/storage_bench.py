"""What a move costs PostgreSQL: bytes of WAL per move, and the tables' growth per move.

Plays whole games through the API in this process, as the browser does (a session cookie, the
CSRF token sent back as ``X-CSRFToken``): each game is dealt, then won by the solver's line on
its deal, with a take-back and its replay now and then (``--undo-every``). Around the games it
reads the WAL written for this bench's database alone with ``pg_walinspect`` (the records whose
blocks are this database's relations, and the commit records of their transactions), and the
size of the games' and move logs' tables with their indexes.

Prints, per move: WAL bytes (all, and without full-page images, which a checkpoint makes the
first change of each page after it write), WAL records, and the tables' growth; and the records
by kind. Goals (issue 34): at most 400 bytes of WAL per move (goal 250).

    python bench/storage_bench.py [--games 40] [--undo-every 12] [--seed 7]

Database: ``BENCH_DATABASE_URL`` if set (used as is, kept); otherwise a scratch database
``yukon_storage`` on the PostgreSQL server of ``DATABASE_URL`` (or 127.0.0.1), created and
dropped here; the server needs the ``pg_walinspect`` extension (PostgreSQL 15+, contrib) and a
superuser. Without a reachable PostgreSQL server it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scratch_db import with_scratch_database

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "yukon_storage"
TABLES = ("games_game", "games_movelog", "games_packedlog")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="won games to play")
    parser.add_argument("--undo-every", type=int, default=12, help="a take-back and its replay every N moves (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    return with_scratch_database(SCRATCH, "storage_bench", lambda url: run(url, args))


def run(url: str, args: argparse.Namespace) -> int:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)  # tasks in this process (their writes are not a move's)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DB_CONN_MAX_AGE", "60")
    os.environ.setdefault("ACCESS_LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    from common.limits import lifted_env

    os.environ.update(lifted_env())
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from games import movelog
    from games.engine import Game as EngineGame
    from games.engine import GameCode, Rule
    from games.engine.codes import MAX_NUMBER
    from games.solver import Verdict, solve

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["*"]
    with connection.cursor() as cursor:
        cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        (database_oid,) = cursor.fetchone()

    user = get_user_model().objects.create_user(username="storage_bench", password="x")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/api/v1/auth/me")  # the CSRF cookie, as a page gets it
    headers = {"HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value}

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(path, json.dumps(body), content_type="application/json", **headers)
        assert answer.status_code in (200, 201), (path, answer.status_code, answer.content[:300])
        return answer.json()

    # The lines first (the solver's time is not the bench's), on deals the solver wins quickly.
    rng = random.Random(args.seed)
    lines: list[tuple[str, list[dict[str, Any]]]] = []
    while len(lines) < args.games:
        code = GameCode(Rule.CLASSIC, rng.randrange(MAX_NUMBER + 1))
        result = solve(EngineGame.new(code), max_seconds=2)
        if result.verdict is Verdict.WINNABLE:
            lines.append((str(code), [move.to_json() for move in result.moves]))

    # A won game's log is packed by a task sent at the win (games.movelog): held back here, and
    # measured on its own after the moves.
    from games import tasks

    won: list[str] = []
    tasks.log_pack.delay = won.append  # type: ignore[method-assign]

    before = _sizes(connection)
    start_lsn = _lsn(connection)
    moves = 0
    started = time.perf_counter()
    for code, line in lines:
        state = post("/api/v1/games", {"code": code})
        game_id = state["id"]
        for number, move in enumerate(line, start=1):
            state = post(f"/api/v1/games/{game_id}/moves", {**move, "seq": state["moves"]})
            moves += 1
            if args.undo_every and number % args.undo_every == 0 and state["status"] != "won":
                state = post(f"/api/v1/games/{game_id}/undo", {"seq": state["moves"]})
                state = post(f"/api/v1/games/{game_id}/moves", {**move, "seq": state["moves"]})
                moves += 2
        assert state["status"] == "won", (code, state["status"])
    seconds = time.perf_counter() - started
    end_lsn = _lsn(connection)
    after = _sizes(connection)
    records = _records(connection, start_lsn, end_lsn, database_oid)

    print(
        f"storage_bench: {len(lines)} won games, {moves} moves and take-backs through the API "
        f"(session + CSRF) in {seconds:.1f} s; PostgreSQL {connection.pg_version // 10000}"
    )
    total = sum(length for _, _, length, _, _ in records)
    images = sum(fpi for _, _, _, fpi, _ in records)
    print(f"storage_bench:   WAL per move      {total / moves:7.0f} bytes (goal <= 400; 250)")
    print(f"storage_bench:   without page images {(total - images) / moves:5.0f} bytes")
    print(f"storage_bench:   WAL records per move {len(records) / moves:5.1f}")
    for table in TABLES:
        grown = after[table] - before[table]
        print(f"storage_bench:   {table:16s} grew {grown / moves:6.0f} bytes per move (table, TOAST and indexes)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT avg(pg_column_size(g.*)), avg(pg_column_size(g.state)) FROM games_game g")
        row, state = cursor.fetchone()
    print(f"storage_bench:   a game's row {row:.0f} bytes, its state {state:.0f} (pg_column_size)")
    _print_wal(connection, records, moves, "move")

    # The won games' logs packed, as the task sent at each win does.
    start_lsn = _lsn(connection)
    started = time.perf_counter()
    packed = sum(movelog.log_pack(game_id=game_id) for game_id in won)
    seconds = time.perf_counter() - started
    records = _records(connection, start_lsn, _lsn(connection), database_oid)
    total = sum(length for _, _, length, _, _ in records)
    with connection.cursor() as cursor:
        # Each packed row as stored: the row with its header, its line pointer, and its key's index
        # entry (8 bytes of header and the 16-byte uuid) with its line pointer.
        cursor.execute("SELECT coalesce(sum(pg_column_size(p.*) + 4 + 24 + 4), 0), count(*) FROM games_packedlog p")
        kept, games = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM games_movelog")
        (rows_left,) = cursor.fetchone()
    print(
        f"storage_bench: {packed} of {len(won)} won games' logs packed in {seconds:.2f} s "
        f"({rows_left} log rows left): WAL {total / max(packed, 1):,.0f} bytes a game, {total / moves:.0f} a move"
    )
    print(
        f"storage_bench:   a finished game's moves kept: {kept / moves:5.1f} bytes per move "
        f"(its packed row, line pointer and index entry; {kept:,} bytes for {games} games; goal <= 16)"
    )
    _print_wal(connection, records, moves, "move")
    return 0


def _print_wal(connection: Any, records: list[tuple[str, str, int, int, str]], per: int, unit: str) -> tuple[int, int]:
    """Print the records by kind and by relation, per ``unit``; returns all bytes and image bytes."""
    total = sum(length for _, _, length, _, _ in records)
    images = sum(fpi for _, _, _, fpi, _ in records)
    kinds: Counter[str] = Counter()
    kind_bytes: Counter[str] = Counter()
    nodes: Counter[str] = Counter()
    for manager, kind, length, _, node in records:
        kinds[f"{manager}/{kind}"] += 1
        kind_bytes[f"{manager}/{kind}"] += length
        nodes[node] += length
    relations: Counter[str] = Counter()  # (one look-up per file node, not per record)
    for node, length in nodes.items():
        relations[_relation_name(connection, node)] += length
    for kind, count in kinds.most_common(8):
        print(f"storage_bench:     {kind:28s} {count / per:5.2f} per {unit}, {kind_bytes[kind] / per:6.0f} bytes")
    for relation, length in relations.most_common(8):
        print(f"storage_bench:     {relation:28s} {length / per:6.0f} bytes per {unit}")
    return total, images
    return 0


def _lsn(connection: Any) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()")
        return str(cursor.fetchone()[0])


def _sizes(connection: Any) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) games_game, games_movelog, games_packedlog")  # as autovacuum would leave them
        sizes = {}
        for table in TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            sizes[table] = cursor.fetchone()[0]
        return sizes


def _relation_name(connection: Any, filenode: str) -> str:
    """The name of the relation of a file node (its commit records: "(commit)")."""
    if not filenode:
        return "(commit)"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_filenode_relation(0, %s::oid)::text", [int(filenode)])
        return str(cursor.fetchone()[0] or filenode)


def _records(connection: Any, start: str, end: str, database_oid: int) -> list[tuple[str, str, int, int, str]]:
    """The WAL records between the two positions that touch this database's relations, and the
    commit records of their transactions: (resource manager, record type, length, image bytes,
    the file node of its first block)."""
    with connection.cursor() as cursor:
        cursor.execute(
            r"""
            WITH records AS (
                SELECT resource_manager, record_type, record_length, fpi_length, xid, block_ref
                FROM pg_get_wal_records_info(%s::pg_lsn, %s::pg_lsn)
            ), ours AS (
                SELECT DISTINCT xid FROM records WHERE block_ref LIKE %s AND xid <> '0'
            )
            SELECT resource_manager, record_type, record_length, fpi_length,
                   coalesce(substring(block_ref from 'rel \d+/\d+/(\d+)'), '') FROM records
            WHERE block_ref LIKE %s
               OR (resource_manager = 'Transaction' AND xid IN (SELECT xid FROM ours))
            """,
            [start, end, f"%/{database_oid}/%", f"%/{database_oid}/%"],
        )
        return [(m, kind, int(length), int(fpi or 0), node) for m, kind, length, fpi, node in cursor.fetchall()]


if __name__ == "__main__":
    sys.exit(main())
