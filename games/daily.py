"""The daily deal (SPEC sections 5 and 6): one per UTC date, classic rule, drawn secretly at random.

A beat task creates the day's deal just after 00:00 UTC (``daily_deal_create``); if it is missing
when someone asks, it is created then (``daily_deal_get_or_create``: the date is unique, so two
requests at the same moment end with one row). Its code stays a secret until the day is over.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.db import transaction
from django.utils import timezone

from games.engine import GameCode, Rule

from .models import DailyDeal


def utc_today(now: datetime | None = None) -> date:
    """The current UTC date (settings: ``USE_TZ``, ``TIME_ZONE = "UTC"``)."""
    return (now or timezone.now()).astimezone(UTC).date()


def daily_certify(number: int) -> int | None:
    """Hook for the solver: the length of a known solution of classic deal ``number``, or ``None``.

    Returns ``None`` until the solver is wired in; then the deal stays uncertified.
    """
    return None


def daily_deal_get_or_create(*, day: date) -> DailyDeal:
    """The deal of ``day``, drawn now if it does not exist yet (safe under concurrent calls)."""
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is not None:
        return deal
    # get_or_create inserts in a savepoint and, on the unique date's IntegrityError, reads the
    # row that the other request committed first.
    deal, _ = DailyDeal.objects.get_or_create(
        date=day, defaults={"number": lambda: GameCode.random(Rule.CLASSIC).number, "rule": Rule.CLASSIC.value}
    )
    return deal


def daily_deal_create(*, day: date) -> DailyDeal:
    """The beat task's work: make sure ``day`` has its deal, and certify it if it is not yet."""
    deal = daily_deal_get_or_create(day=day)
    if deal.solution_length is None:
        length = daily_certify(deal.number)
        if length is not None:
            with transaction.atomic():
                DailyDeal.objects.filter(pk=deal.pk, solution_length__isnull=True).update(solution_length=length)
            deal.refresh_from_db(fields=["solution_length"])
    return deal


def daily_code_for(*, day: date) -> GameCode:
    """The secret code of ``day``'s deal (classic rule), creating the deal on first use."""
    return daily_deal_get_or_create(day=day).code
