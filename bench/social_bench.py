"""Do the friends' board and a club's boards stay fast at a million results a day?

On PostgreSQL: seeds ``--players`` accounts (1,000,000) and one counted board result of one day
for each (times spread over 1 to 16 minutes, as ``leaderboard_bench.py`` spreads them), the
day's histograms, one player who follows 500 of them, and a club of 500 members who also played
the six other days of that ISO week. Then it times, through the selectors the API uses
(median of ``--reads``), and counts the queries of one read:

- the friends' board of the day (``social.selectors.friends_board``: 501 results ranked, each
  with its place on the whole board, counted while the day is open: the dearer case);
- the club's day board (``social.selectors.club_day``, the same with 500 members);
- the club's week standing read (``social.selectors.club_week``) and its rebuild task
  (``social.services.club_week_rebuild``: the week's 3,500 results read, 500 lines written);
- the three answers whole, as a browser asks for them (the API with a session cookie).

Goal (issue 37): each board read under 10 ms, with a fixed number of queries whatever the size.

    python bench/social_bench.py [--players 1000000] [--reads 30]

Database: ``BENCH_DATABASE_URL`` if set (used as is, kept); otherwise a scratch database
``yukon_social_bench`` on the PostgreSQL server of ``DATABASE_URL`` (or 127.0.0.1), created and
dropped here. Without a reachable PostgreSQL server it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

from scratch_db import median_ms, with_scratch_database

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "yukon_social_bench"
FOLLOWED = 500
MEMBERS = 500


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000, help="results of the day")
    parser.add_argument("--reads", type=int, default=30, help="reads per measurement")
    parser.add_argument("--queries", action="store_true", help="print each query of one read with its time")
    parser.add_argument("--profile", action="store_true", help="print where 20 friends' board reads spend their time")
    args = parser.parse_args()
    options = {"show_queries": args.queries, "profile": args.profile}
    return with_scratch_database(SCRATCH, "social_bench", lambda url: run(url, args.players, args.reads, **options))


def run(url: str, players: int, reads: int, *, show_queries: bool = False, profile: bool = False) -> int:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import DailyDeal
    from social import selectors, services
    from social.models import Club
    from stats import standing

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    today = datetime.now(UTC).date()
    monday = today - timedelta(days=today.weekday())
    day = monday  # the board's day: the week's first
    week = [monday + timedelta(days=n) for n in range(7)]

    def execute(sql: str, params: list | None = None) -> None:  # noqa: ANN001
        with connection.cursor() as cursor:
            cursor.execute(sql, params or [])

    execute(
        """
        INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,
                               is_staff, is_active, date_joined)
        SELECT '!', false, 'p' || g, '', '', '', false, true, now() FROM generate_series(1, %s) g
        """,
        [players + 1],
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT min(id) FROM auth_user")
        first = cursor.fetchone()[0]
    for deal_day in week:
        DailyDeal.objects.create(date=deal_day, code="YU1-C-KLMNOPQ", players=players)
    # One counted result of the day for every account but the last (the player of the boards).
    execute(
        """
        INSERT INTO stats_dailyresult (day, user_id, time_ms, moves, score, finished_at, verified)
        SELECT %s::date, %s + g, 60000 + (g * 104729) %% 900000, 100 + (g * 7919) %% 300, 625,
               %s::timestamptz + make_interval(secs => g * 0.08), true
        FROM generate_series(0::bigint, %s::bigint) g
        """,
        [day.isoformat(), first, f"{day.isoformat()}T00:10:00+00:00", players - 1],
    )
    me_id = first + players
    step = max(1, players // FOLLOWED)
    followed = [first + n * step for n in range(FOLLOWED)]
    execute(
        "INSERT INTO social_follow (follower_id, followed_id, created_at) SELECT %s, unnest(%s::bigint[]), now()",
        [me_id, followed],
    )
    execute(  # me among the day's results too (the middle of the field)
        """
        INSERT INTO stats_dailyresult (day, user_id, time_ms, moves, score, finished_at, verified)
        VALUES (%s::date, %s, 400000, 150, 625, %s::timestamptz, true)
        """,
        [day.isoformat(), me_id, f"{day.isoformat()}T12:00:00+00:00"],
    )
    from django.contrib.auth import get_user_model

    me = get_user_model().objects.get(pk=me_id)
    club = services.club_create(user=me, name="Bench club")
    members = [first + n * step + 1 for n in range(MEMBERS - 1)]  # (others than those followed)
    execute(
        "INSERT INTO social_membership (club_id, user_id, joined_at) SELECT %s, unnest(%s::bigint[]), now()",
        [club.pk, members],
    )
    for other_day in week[1:]:  # the members played the rest of the week too
        execute(
            """
            INSERT INTO stats_dailyresult (day, user_id, time_ms, moves, score, finished_at, verified)
            SELECT %s::date, m, 60000 + (m * 104729) %% 900000, 120, 625, %s::timestamptz, true
            FROM unnest(%s::bigint[]) m
            """,
            [other_day.isoformat(), f"{other_day.isoformat()}T09:00:00+00:00", [*members, me_id]],
        )
    standing.standing_rebuild(day=day)
    execute("VACUUM ANALYZE")
    print(
        f"seeded {players:,} results of {day}, {FOLLOWED} followed, a club of {MEMBERS} "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )

    def queries(read) -> int:  # noqa: ANN001
        with CaptureQueriesContext(connection) as seen:
            read()
        if show_queries:
            for query in seen.captured_queries:
                print(f"    {float(query['time']) * 1000:7.2f} ms  {query['sql'][:150]}")
        return len(seen)

    club = Club.objects.get(pk=club.pk)
    friends = partial(selectors.friends_board, day=day, user=me)
    club_day = partial(selectors.club_day, club=club, day=day, user=me)
    rebuild = partial(services.club_week_rebuild, club_id=club.pk, week=monday)
    rebuild()
    club_week = partial(selectors.club_week, club=club, monday=monday)
    board = friends()
    assert len(board.entries) == FOLLOWED + 1, len(board.entries)
    assert len(club_day()) == MEMBERS and len(club_week()) == MEMBERS
    figures = {
        "friends' board (501 results, open day)": (median_ms(friends, reads), queries(friends)),
        "club's day board (500 members)": (median_ms(club_day, reads), queries(club_day)),
        "club's week standing read": (median_ms(club_week, reads), queries(club_week)),
    }
    for name, (ms, count) in figures.items():
        print(f"  {name:42} {ms:8.2f} ms  {count} queries  -> {'met' if ms < 10 else 'MISSED'} (< 10 ms)")
    # The path a player's browser takes: the API with a session cookie (a GET needs no CSRF token).
    from django.test import Client
    from django.test.utils import override_settings

    browser = Client()
    browser.force_login(me)
    iso = monday.isocalendar()
    answers = {
        "GET daily/{date}/friends": f"/api/v1/daily/{day.isoformat()}/friends",
        "GET clubs/{slug}/daily/{date}": f"/api/v1/clubs/{club.slug}/daily/{day.isoformat()}",
        "GET clubs/{slug}/week/{week}": f"/api/v1/clubs/{club.slug}/week/{iso.year}-W{iso.week:02d}",
    }
    with override_settings(ALLOWED_HOSTS=["testserver"]):
        for name, path in answers.items():
            assert browser.get(path).status_code == 200, path
            ms = median_ms(partial(browser.get, path), reads)
            print(f"  {name:42} {ms:8.2f} ms  (the whole answer, session cookie)")
    if profile:
        import cProfile
        import pstats

        with cProfile.Profile() as profiler:
            for _ in range(20):
                friends()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    rebuild_ms = median_ms(rebuild, max(reads // 3, 5))
    print(f"  club's week rebuild task (3,500 results)   {rebuild_ms:8.2f} ms  (a task, not a read)")
    print(f"total {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
