"""Probes across days (docs/fair-play.md, "Probes across days"): an account that starts a day's deal,
looks at its first flips and leaves its ranked attempt, on several days, is probing whether a
scout saw its arrangement of the face-down cards (issue 46, item 4's probe). Its wins are held
(``probe``), with the days it probed on.

A **probe day** is a day before the win's on which the account's ranked attempt was left after
1 to ``FAIRPLAY_PROBE_MAX_MOVES`` moves (at least one flip's worth; an attempt started and never
touched shows only the shared opening) and never won. An account with ``FAIRPLAY_PROBE_DAYS`` or
more probe days among the ``FAIRPLAY_PROBE_WINDOW_DAYS`` days before a win is a prober on that
day. Read from the game rows alone (the ranked attempts' ``daily``, ``moves``, ``status``), through
the index of one ranked attempt per account and day: at the review of a win and at the day's close,
never on a move's path, and no move log is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from games.models import Game, StatusChoices


def _left(day: date) -> Any:
    """The ranked attempts of the window before ``day`` that were left after a few moves."""
    window = settings.FAIRPLAY_PROBE_WINDOW_DAYS
    return (
        Game.objects.filter(
            ranked=True,
            daily__lt=day,
            daily__gte=day - timedelta(days=window),
            moves__gte=1,
            moves__lte=settings.FAIRPLAY_PROBE_MAX_MOVES,
        )
        # (not won before its day's end: a left attempt finished as practice after the close still counts)
        .filter(~Q(status=StatusChoices.WON) | Q(closed_at__isnull=False))
        .order_by()
    )


def probe_days(*, user_id: Any, day: date) -> list[date]:
    """The days before ``day`` (within the window) on which ``user_id``'s ranked attempt was left
    after a few moves, oldest first, if there are enough of them to make it a prober; else []."""
    return probers(user_ids=[user_id], day=day).get(user_id, [])


def probers(*, user_ids: Iterable[Any] | QuerySet[Any], day: date) -> dict[Any, list[date]]:
    """Of ``user_ids`` (ids, or a query of them: the database walks it into the index), the
    accounts that probed before ``day``, each with its probe days (oldest first). One read of their
    ranked attempts of the window that were left after a few moves."""
    if settings.FAIRPLAY_PROBE_DAYS <= 0:
        return {}
    wanted = user_ids if isinstance(user_ids, QuerySet) else [pk for pk in set(user_ids) if pk is not None]
    days: dict[Any, list[date]] = {}
    for owner_id, daily in _left(day).filter(owner_id__in=wanted).values_list("owner_id", "daily"):
        days.setdefault(owner_id, []).append(daily)
    return {owner_id: sorted(found) for owner_id, found in days.items() if len(found) >= settings.FAIRPLAY_PROBE_DAYS}


def probe_detail(days: list[date]) -> str:
    """What staff read in the review reason (it is short: the review queue lists every day)."""
    return (
        f"left after at most {settings.FAIRPLAY_PROBE_MAX_MOVES} moves on {len(days)} days, "
        f"{days[0].isoformat()} to {days[-1].isoformat()}"
    )
