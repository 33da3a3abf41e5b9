"""What does "the public board is for established accounts" keep off it? (issue 46, item 5)

Generates a site's days on a scratch SQLite database: every day ``--joins`` new accounts are made
(at a random moment of the day); each account plays the daily deal on a day with probability
``--play`` (from the day it joined on; a share ``--first`` plays on the day it joins) and wins its
ranked attempt with probability ``--win``. Then each win is put on its board by the product's own
writer (``stats.services.daily_result_record``, which decides ``DailyResult.public`` with
``stats.established``), and the bench counts, over the days after the first week (a steady site):

- the wins kept off the public board, as a share of the day's wins;
- whose they are: wins of an account's first day of play (the rule's whole cost for an honest
  newcomer), and any other (there should be none: from its second day of play an account counts);
- a one-shot attack: ``--attack`` fresh accounts made on the last day that each win it: how
  many reach the public board (none).

    python bench/established_bench.py [--days 28] [--joins 40] [--play 0.5] [--first 0.8] [--win 0.35]

The population is a model, not a measurement of players: its figures say what the rule does to
such a population, and the counts by kind hold for any population (a first day's win is off, a
later one on). Runs in about a minute; nothing is kept.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--joins", type=int, default=40, help="new accounts a day")
    parser.add_argument("--play", type=float, default=0.5, help="chance an account plays a given day")
    parser.add_argument("--first", type=float, default=0.8, help="chance a new account plays on the day it joins")
    parser.add_argument("--win", type=float, default=0.35, help="chance a ranked attempt is won")
    parser.add_argument("--attack", type=int, default=50, help="fresh accounts of a one-shot attack on the last day")
    parser.add_argument("--seed", type=int, default=46)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/established.sqlite3"
        os.environ.pop("REDIS_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        sys.path.insert(0, str(ROOT))
        return run(args)


def run(args: argparse.Namespace) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games.competition import clock
    from games.engine import Game as EngineGame
    from games.engine import GameCode
    from games.models import DailyDeal, Game, StatusChoices
    from stats.models import DailyResult
    from stats.services import daily_result_record

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    code = "YU1-C-AAAAAAB"
    state = EngineGame.new(GameCode.parse(code)).to_state()
    User = get_user_model()
    first = clock.today() - timedelta(days=args.days)
    days = [first + timedelta(days=n) for n in range(args.days)]
    DailyDeal.objects.bulk_create([DailyDeal(date=day, code=code, solution_length=90) for day in days])

    def moment(day: object, hour_from: float = 0.0) -> datetime:
        start = clock.day_start(day)  # type: ignore[arg-type]
        return start + timedelta(hours=hour_from + rng.random() * (23.5 - hour_from))

    accounts: list[tuple[int, object]] = []  # (id, the day it joined)
    first_play: dict[int, object] = {}
    wins: list[tuple[Any, int, object]] = []  # (game id, account, day)
    number = 0
    for day in days:
        made = []
        for _ in range(args.joins):
            number += 1
            made.append(User(username=f"bench{number}", date_joined=moment(day)))
        for user in User.objects.bulk_create(made):
            accounts.append((user.pk, day))
        games = []
        for user_id, joined in accounts:
            chance = args.first if joined == day else args.play
            if rng.random() >= chance:
                continue
            first_play.setdefault(user_id, day)
            won = rng.random() < args.win
            created = moment(day, 0.5) if joined != day else clock.day_start(day) + timedelta(hours=23.6)
            fields = {"status": StatusChoices.PLAYING, "moves": rng.randint(20, 200)}
            if won:
                time_ms = rng.randint(120_000, 900_000)
                fields = {
                    "status": StatusChoices.WON,
                    "moves": rng.randint(80, 160),
                    "time_ms": time_ms,
                    "finished_at": min(
                        created + timedelta(milliseconds=time_ms), clock.day_end(day) - timedelta(seconds=1)
                    ),
                    "review": "verified",
                    "score": 625,
                }
            games.append(
                Game(
                    owner_id=user_id,
                    code=code,
                    rule="classic",
                    state=state,
                    daily=day,
                    ranked=True,
                    created_at=created,
                    **fields,
                )
            )
        for game in Game.objects.bulk_create(games):
            if game.status == StatusChoices.WON:
                wins.append((game.pk, game.owner_id, day))

    # The last day: a one-shot attack of fresh accounts that each win the deal.
    last = days[-1]
    attackers = User.objects.bulk_create(
        [
            User(username=f"attack{n}", date_joined=clock.day_start(last) + timedelta(hours=1))
            for n in range(args.attack)
        ]
    )
    attack_games = Game.objects.bulk_create(
        [
            Game(
                owner_id=user.pk,
                code=code,
                rule="classic",
                state=state,
                daily=last,
                ranked=True,
                created_at=clock.day_start(last) + timedelta(hours=2),
                status=StatusChoices.WON,
                moves=100,
                time_ms=200_000,
                finished_at=clock.day_start(last) + timedelta(hours=2, minutes=4),
                review="verified",
                score=625,
            )
            for user in attackers
        ]
    )

    settings.BOARD_ESTABLISHED_DAYS = settings.BOARD_ESTABLISHED_DAYS or 1
    for game_id, _, _ in wins:
        daily_result_record(game_id=game_id)
    for game in attack_games:
        daily_result_record(game_id=game.pk)

    public = dict(DailyResult.objects.values_list("game_id", "public"))
    steady = set(days[7:])
    counted = [(g, u, d) for g, u, d in wins if d in steady]
    off = [(g, u, d) for g, u, d in counted if not public[g]]
    off_first = sum(1 for _, u, d in off if first_play[u] == d)
    first_day_wins = sum(1 for _, u, d in counted if first_play[u] == d)
    per_day = [sum(1 for _, _, d in counted if d == day) for day in sorted(steady)]
    attack_public = sum(1 for game in attack_games if public[game.pk])

    print(
        f"established_bench: {args.days} days, {args.joins} new accounts a day, play {args.play:.0%} of days "
        f"(new: {args.first:.0%} on their first), win {args.win:.0%}; BOARD_ESTABLISHED_DAYS = "
        f"{settings.BOARD_ESTABLISHED_DAYS}; seed {args.seed}"
    )
    print(
        f"  days {days[7].isoformat()} to {days[-1].isoformat()}: {len(counted)} wins, "
        f"{min(per_day)}–{max(per_day)} a day, {len(accounts)} honest accounts in all"
    )
    print(f"  kept off the public board: {len(off)} wins ({len(off) / max(1, len(counted)):.1%} of the wins)")
    print(
        f"    of them wins of the account's first day of play: {off_first} "
        f"(of {first_day_wins} first-day wins: {off_first / max(1, first_day_wins):.0%})"
    )
    print(f"    any other win: {len(off) - off_first}")
    print(f"  a one-shot attack of {args.attack} fresh accounts on the last day: {attack_public} on the public board")
    print(f"  ({time.perf_counter() - started:.0f} s)")
    return 0 if len(off) == off_first and attack_public == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
