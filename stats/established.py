"""Who is on the public board (docs/daily.md, "Who is on the public board"; issue 46, item 5).

A day's public board counts the results of the accounts that were **established** when the day
began: made before it (``date_joined`` before 00:00 UTC of that day) and with a ranked attempt
played (a move made) on at least ``BOARD_ESTABLISHED_DAYS`` (1) earlier days. A one-shot attack
needs fresh accounts, and a scout's many accounts that could win would each have to play a day
first; an honest newcomer loses only its first day on the public board (lichess keeps new accounts
off its leaderboards in the same way: a few rated games first).

A newcomer's win is kept: its bests, streak, standing, friends' board and clubs count it, and the
board's answer tells its player the place it would have and when its results count there. Both
conditions are fixed when the day begins (an account cannot be made earlier, nor play an earlier
day afterwards), so a result's ``public`` is decided once, when it is written.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from games.competition import clock
from games.models import Game


def _needed() -> int:
    return max(0, settings.BOARD_ESTABLISHED_DAYS)


def days_played_before(*, user_id: Any, day: date, at_most: int) -> int:
    """How many days before ``day`` the account played its ranked attempt on (a move made),
    counted up to ``at_most``: a short read through the index of one ranked attempt per account
    and day."""
    if at_most <= 0:
        return 0
    days = (
        Game.objects.filter(owner_id=user_id, ranked=True, daily__lt=day, moves__gt=0)
        .order_by("-daily")
        .values_list("daily", flat=True)[:at_most]
    )
    return len(days)


def established(*, user_id: Any, day: date) -> bool:
    """Whether the account's result of ``day`` is on the public board. Two short indexed reads."""
    needed = _needed()
    if needed == 0:
        return True
    joined = get_user_model().objects.filter(pk=user_id).values_list("date_joined", flat=True).first()
    if joined is None or joined >= clock.day_start(day):
        return False
    return days_played_before(user_id=user_id, day=day, at_most=needed) >= needed


def days_to_wait(*, user_id: Any, day: date) -> int:
    """For a newcomer's result of ``day``: on how many more days it must play after ``day`` before
    its results count publicly (0: from the next day it plays on). Its ``day`` counts as played."""
    needed = _needed()
    return max(0, needed - 1 - days_played_before(user_id=user_id, day=day, at_most=needed))


def established_sql(*, day: date, game_alias: str, user_alias: str) -> tuple[str, list[Any]]:
    """The same rule as an SQL expression over a game row ``game_alias`` of ``day`` and its owner
    ``user_alias`` (the board's rebuild), with its parameters."""
    needed = _needed()
    if needed == 0:
        return "(1 = 1)", []
    games = Game._meta.db_table
    played = (
        f"SELECT COUNT(*) FROM {games} e WHERE e.owner_id = {game_alias}.owner_id"
        f" AND e.ranked AND e.daily < {game_alias}.daily AND e.moves > 0"
    )
    return (
        f"({user_alias}.date_joined < %s AND ({played}) >= %s)",
        [connection.ops.adapt_datetimefield_value(clock.day_start(day)), needed],
    )
