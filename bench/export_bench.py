"""Does the export stream? Peak Python memory (tracemalloc) of ``GET games/export`` read to the
end, for an account with 1,000 and with 10,000 games (each with a 20-move log), in both formats.

Goal: the peak at 10,000 games about that at 1,000 (flat: rows are written as they are read,
never gathered). On a scratch SQLite database (the ORM's iterator streams there too; on
PostgreSQL it is a server-side cursor).

    python bench/export_bench.py
"""

from __future__ import annotations

import sys
import time
import tracemalloc

from scratch_db import django_on_scratch_sqlite

SIZES = (1_000, 10_000)
LOG_LENGTH = 20


def main() -> int:
    django_on_scratch_sqlite("export")
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    from games.engine import Game as EngineGame
    from games.engine import GameCode
    from games.models import Game, MoveLog
    from tests import factories

    setup_test_environment()
    call_command("migrate", verbosity=0)
    account = factories.user(username="exporter")
    state = EngineGame.new(GameCode.parse("YU1-C-AAAAAAB")).to_state()
    client = Client(HTTP_AUTHORIZATION=f"Token {factories.token_key(account)}")
    for fmt in ("ndjson", "csv"):  # a first request of each (imports, caches) before any is measured
        b"".join(client.get("/api/v1/games/export", {"format": fmt}).streaming_content)
    made = 0
    peaks: dict[tuple[int, str], float] = {}
    for size in SIZES:
        games = [
            Game(owner=account, code="YU1-C-AAAAAAB", rule="classic", state=state, moves=LOG_LENGTH)
            for _ in range(size - made)
        ]
        Game.objects.bulk_create(games, batch_size=1000)
        MoveLog.objects.bulk_create(
            [MoveLog(game=g, seq=s, move="t7:TS>t2", points=5) for g in games for s in range(1, LOG_LENGTH + 1)],
            batch_size=5000,
        )
        made = size
        for fmt in ("ndjson", "csv"):
            tracemalloc.start()
            started = time.perf_counter()
            response = client.get("/api/v1/games/export", {"format": fmt})
            assert response.status_code == 200 and response.streaming
            total = lines = 0
            for chunk in response.streaming_content:
                total += len(chunk)
                lines += 1
            seconds = time.perf_counter() - started
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            peaks[size, fmt] = peak / 2**20
            print(
                f"export {fmt:6} {size:>6,} games: {total / 2**20:6.1f} MiB in {lines:,} lines, "
                f"{seconds:5.2f} s, peak Python memory {peak / 2**20:6.2f} MiB",
                flush=True,
            )
    for fmt in ("ndjson", "csv"):
        small, large = peaks[SIZES[0], fmt], peaks[SIZES[1], fmt]
        ratio = large / small
        print(
            f"goal: {fmt} peak at {SIZES[1]:,} games about that at {SIZES[0]:,} (<= 1.5 x): "
            f"{large:.2f} / {small:.2f} MiB = {ratio:.2f} -> {'met' if ratio <= 1.5 else 'MISSED'}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
