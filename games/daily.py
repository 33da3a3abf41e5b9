"""The daily deal (SPEC sections 5 and 6): one per UTC date, classic rule, drawn secretly at random.

A beat task creates the day's deal just after 00:00 UTC (``daily_deal_create``); if it is missing
when someone asks, it is created then (``daily_deal_get_or_create``: the date is unique, so two
requests at the same moment end with one row). Its code stays a secret until the day is over.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.engine.solve import Verdict, solve

from .models import DailyDeal, Game

DRAW_ATTEMPTS = 20


def utc_today(now: datetime | None = None) -> date:
    """The current UTC date (settings: ``USE_TZ``, ``TIME_ZONE = "UTC"``)."""
    return (now or timezone.now()).astimezone(UTC).date()


def daily_certify(number: int) -> int | None:
    """The length of a winning line of classic deal ``number`` found by the solver, or ``None``
    when it finds none within its budget (then the deal is not used: another one is drawn)."""
    result = solve(
        EngineGame.new(GameCode(Rule.CLASSIC, number)),
        max_seconds=settings.DAILY_CERTIFY_SECONDS,
        max_nodes=None,
    )
    return len(result.moves) if result.verdict is Verdict.WINNABLE and result.moves is not None else None


def daily_draw() -> tuple[int, int]:
    """A secret random deal number that the solver certified winnable, and its solution length."""
    for _ in range(DRAW_ATTEMPTS):
        number = GameCode.random(Rule.CLASSIC).number
        length = daily_certify(number)
        if length is not None:
            return number, length
    raise RuntimeError(f"no certified deal in {DRAW_ATTEMPTS} draws")  # about 1 in 10^40 at 99 % certified


def daily_deal_get_or_create(*, day: date) -> DailyDeal:
    """The deal of ``day``, drawn (and certified) now if it does not exist yet; safe when two
    requests ask at the same moment: the date is unique, the second one reads the first one's row."""
    deal = DailyDeal.objects.filter(date=day).first()
    if deal is not None:
        return deal
    number, length = daily_draw()  # outside any transaction: it takes a moment
    deal, _ = DailyDeal.objects.get_or_create(
        date=day, defaults={"number": number, "rule": Rule.CLASSIC.value, "solution_length": length}
    )
    return deal


def daily_deal_create(*, day: date) -> DailyDeal:
    """The beat task's work: make sure ``day`` has its certified deal (a deal made before the
    solver was in place is certified now, or redrawn if nobody has played it yet)."""
    deal = daily_deal_get_or_create(day=day)
    if deal.solution_length is None:
        length = daily_certify(deal.number)
        with transaction.atomic():
            if length is not None:
                DailyDeal.objects.filter(pk=deal.pk, solution_length__isnull=True).update(solution_length=length)
            elif deal.players == 0 and not deal_has_games(deal):
                number, length = daily_draw()
                DailyDeal.objects.filter(pk=deal.pk, solution_length__isnull=True).update(
                    number=number, solution_length=length
                )
        deal.refresh_from_db(fields=["number", "solution_length"])
    return deal


def deal_has_games(deal: DailyDeal) -> bool:
    return Game.objects.filter(daily=deal.date).exists()


def daily_code_for(*, day: date) -> GameCode:
    """The secret code of ``day``'s deal (classic rule), creating the deal on first use."""
    return daily_deal_get_or_create(day=day).code
