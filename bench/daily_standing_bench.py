"""Where you stand, read at 100,000 counted results of a day (PostgreSQL): the histograms, the
live counts and a player's percentile, through ``stats.standing.daily_standing`` (what
``GET daily/{day}/standing`` calls). Goal: under 20 ms (median of many reads).

Seeds 100,000 accounts, each with a won ranked attempt of one day and its board result (bulk
``INSERT ... SELECT`` from ``generate_series``), builds the day's buckets with the rebuild task's
service, then times the read for a visitor (counts and histograms) and for players at the top,
the middle and the bottom of the board (plus the percentile: one range count). Also times the
per-game task's part (``standing_record``: two bucket recounts).

    python bench/daily_standing_bench.py [--reads 300]

Database: ``BENCH_DATABASE_URL`` if set (used as is, kept); otherwise a scratch database
``yukon_standing_bench`` on the PostgreSQL server of ``DATABASE_URL`` (or 127.0.0.1), created and
dropped here. Without a reachable PostgreSQL server it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from scratch_db import median_ms, with_scratch_database

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "yukon_standing_bench"
RESULTS = 100_000
GOAL_MS = 20.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=300, help="reads per measurement")
    args, _ = parser.parse_known_args()  # make bench passes every bench the same options
    return with_scratch_database(SCRATCH, "daily_standing_bench", lambda url: run(url, reads=args.reads))


def run(url: str, *, reads: int) -> int:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import AnonymousUser
    from django.core.management import call_command
    from django.db import connection

    from stats import standing

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    day = (datetime.now(UTC) - timedelta(days=1)).date()
    now = datetime.now(UTC)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                                   is_staff, is_active, date_joined)
            SELECT '!', false, 'bench' || g, '', '', '', false, true, now() FROM generate_series(1, %s) g
            """,
            [RESULTS],
        )
        cursor.execute("SELECT min(id) FROM auth_user")
        first_user = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO games_dailydeal (date, code, rule, players, solution_length, created_at) "
            "VALUES (%s, 'YU1-C-AAAAAAB', 'classic', %s, 90, now())",
            [day, RESULTS],
        )
        # Times from 1 to 16 minutes (many ties to the millisecond: 900,000 values for 100,000).
        cursor.execute(
            """
            INSERT INTO games_game (id, owner_id, guest_session_key, code, rule, daily, ranked, status, state,
                                    score, moves, created_at, finished_at, time_ms, version, review, review_reason)
            SELECT gen_random_uuid(), %s + g - 1, '', 'YU1-C-AAAAAAB', 'classic', %s::date, true, 'won', '{}',
                   625, 100 + (g * 7919) %% 300, f - make_interval(secs => t / 1000.0), f, t, 1, 'verified', ''
            FROM generate_series(1::bigint, %s::bigint) g,
                 LATERAL (SELECT 60000 + (g * 104729) %% 900000 AS t,
                                 %s::timestamptz + make_interval(secs => g * 0.5) AS f) v
            """,
            [first_user, day, RESULTS, f"{day.isoformat()}T00:10:00+00:00"],
        )
        cursor.execute(
            """
            INSERT INTO stats_dailyresult (day, user_id, game_id, time_ms, moves, score, finished_at)
            SELECT daily, owner_id, id, time_ms, moves, score, finished_at FROM games_game WHERE daily = %s
            """,
            [day],
        )
    standing.standing_rebuild(day=day)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"seeded {RESULTS:,} accounts, ranked wins and results in {time.perf_counter() - started:.1f} s", flush=True)

    users = get_user_model().objects
    by_time = list(
        users.raw(
            "SELECT u.id FROM auth_user u JOIN stats_dailyresult r ON r.user_id = u.id "
            "WHERE r.day = %s ORDER BY r.time_ms, r.id",
            [day],
        )
    )
    check = standing.daily_standing(day=day, user=by_time[len(by_time) // 2], now=now)
    assert check is not None and check.won == RESULTS and check.me is not None and check.visible
    assert sum(count for _, count in check.time_buckets or []) == RESULTS
    print(
        f"  a player in the middle: {check.me.time_ms} ms, faster than {check.me.faster_than_percent} % "
        f"({check.me.slower:,} slower, {check.me.tied} tied, {check.me.others:,} others)"
    )
    figures = {}
    cases = {
        "visitor (counts + histograms)": AnonymousUser(),
        "the fastest player": by_time[0],
        "a player in the middle": by_time[len(by_time) // 2],
        "the slowest player": by_time[-1],
    }
    for name, user in cases.items():
        figures[name] = median_ms(lambda user=user: standing.daily_standing(day=day, user=user, now=now), reads)
        print(f"  standing read, {name:30} {figures[name]:7.2f} ms (median of {reads})", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT game_id FROM stats_dailyresult WHERE day = %s ORDER BY id LIMIT 200", [day])
        game_ids = [str(row[0]) for row in cursor.fetchall()]
    ids = iter(game_ids)
    task = median_ms(lambda: standing.standing_record(game_id=next(ids)), len(game_ids))
    print(f"  per-game task part (two bucket recounts) {task:7.2f} ms (median of {len(game_ids)})")
    worst = max(figures.values())
    print(
        f"goal: standing read < {GOAL_MS:.0f} ms at {RESULTS:,} results of a day: {worst:.2f} ms (the slowest case) "
        f"-> {'met' if worst < GOAL_MS else 'MISSED'}"
    )
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
