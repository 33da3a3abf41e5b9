"""The archive of past daily deals: per day its players, winners, winning time and par, and the
caller's own result and rank (what the archive page lists, newest first, a page at a time).

Per page: the deals (the unique date index), the winners from the day's time histogram
(``stats.DailyBucket``), the winning time as the first row of each day's board index, and the
caller's attempts and results of those days (its own rows): no count over a day's results.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet, Sum

from games.competition import clock
from games.competition.daily import daily_published
from games.models import DailyDeal, Game
from games.play.presenters import attempt_standing

from .models import DailyBucket, DailyResult
from .selectors import daily_rank
from .standing import TIME


def archive_deals(*, today: date | None = None) -> QuerySet[DailyDeal]:
    """The deals of the days that are over, newest first."""
    return DailyDeal.objects.filter(date__lt=today or clock.today()).order_by("-date")


def archive_rows(*, deals: list[DailyDeal], user: Any | None) -> list[dict[str, Any]]:
    days = [deal.date for deal in deals if deal.date is not None]
    winners = dict(
        DailyBucket.objects.filter(day__in=days, kind=TIME)
        .values("day")
        .annotate(n=Sum("count"))
        .order_by()
        .values_list("day", "n")
    )
    mine: dict[date, dict[str, Any]] = {}
    if user is not None and user.is_authenticated:
        results = {
            row["day"]: row
            for row in DailyResult.objects.filter(user=user, day__in=days).values(
                "day", "time_ms", "moves", "finished_at", "rank"
            )
        }
        games = Game.objects.filter(owner=user, ranked=True, daily__in=days).only(
            "id", "daily", "ranked", "status", "closed_at", "review", "hold_reasons", "moves", "time_ms"
        )
        for game in games:
            day = game.daily
            result = results.get(day)
            rank = None
            if result is not None:
                rank = result["rank"] or daily_rank(
                    day=day, time_ms=result["time_ms"], moves=result["moves"], finished_at=result["finished_at"]
                )
            # Every day here is over (its end is a moment when it is): an attempt not won before
            # then is closed, also before the beat task has set its ``closed_at``. How it is shown:
            # the one rule (games.play.presenters.attempt_standing).
            standing = attempt_standing(game, clock.day_end(day))
            mine[day] = {
                "status": "closed" if standing["closed"] else game.status,
                "review": standing["review"],
                "attempt": standing["attempt"],
                "time_ms": game.time_ms,
                "moves": game.moves,
                "rank": rank,
            }
    rows = []
    for deal in deals:
        day = deal.date
        best = (
            DailyResult.objects.filter(day=day, public=True)  # the public board's (stats.established)
            .order_by("time_ms", "moves", "finished_at")
            .values("time_ms")[:1]
        )
        first = next(iter(best), None)
        published = daily_published(deal=deal, user=user)  # the day is over: its codes are public
        rows.append(
            {
                "date": day,
                "code": published["code"],
                "opening": published["opening"],
                "arrangements": max(1, deal.arrangements),
                "players": deal.players,
                "winners": winners.get(day, 0),
                "winning_time_ms": first["time_ms"] if first else None,
                "par": deal.solution_length,
                "par_low": published.get("par_low"),
                "par_high": published.get("par_high"),
                "me": mine.get(day),
            }
        )
    return rows
