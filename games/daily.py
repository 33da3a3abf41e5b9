"""The daily deal (docs/daily.md; its code: docs/codes.md): one per UTC date, classic rule, the same
for everyone.

A daily deal is a secret, uniformly random ordering of the 52 cards (a version-2 code, drawn with
``secrets``), certified winnable by the solver. Certifying takes the solver seconds, so it never
happens in a request: the beat task (:func:`daily_deals_prepare`) keeps today's and the next
days' deals and a few spare certified deals ready ahead of time. A request that finds no deal
for today takes a spare (one UPDATE); with none left it answers ``daily_not_ready`` (503) at once
and asks a task to prepare one.

The competition closes with its day (00:00 UTC): a ranked attempt not won by then is closed as
unranked, and the day's suspects are looked at (:func:`games.competition.attempt.day_close`, the
beat task ``games.daily_attempts_close``; the move path closes an attempt whose move comes first).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction

from common.background import task_send_apart
from common.errors import ApplicationError, ErrorCode
from common.retries import RETRY
from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.solver import Verdict, solve

from .competition import clock
from .models import DailyDeal

logger = logging.getLogger(__name__)

DRAW_ATTEMPTS = 20
#: Seconds a client waits before it asks again for a deal that is being prepared.
NOT_READY_RETRY_AFTER = 5

__all__ = [
    "DailyPreparation",
    "daily_certify",
    "daily_deal_assign",
    "daily_deal_today",
    "daily_deals_prepare",
    "daily_deals_prepare_task",
    "daily_draw",
]


def daily_certify(code: GameCode) -> int | None:
    """The length of a winning line of ``code`` found by the solver, or ``None`` when it finds
    none within its budget (then the deal is not used: another one is drawn)."""
    result = solve(EngineGame.new(code), max_seconds=settings.DAILY_CERTIFY_SECONDS, max_nodes=None)
    return len(result.moves) if result.verdict is Verdict.WINNABLE and result.moves is not None else None


def daily_draw() -> tuple[GameCode, int]:
    """A secret random ordering of the 52 cards that the solver certified winnable, and its
    solution length."""
    for _ in range(DRAW_ATTEMPTS):
        code = GameCode.random_ordering(Rule.CLASSIC)
        length = daily_certify(code)
        if length is not None:
            return code, length
    raise RuntimeError(f"no certified deal in {DRAW_ATTEMPTS} draws")  # about 1 in 10^30 at 97 % certified


@dataclass(frozen=True, slots=True)
class DailyPreparation:
    drawn: int  # deals drawn and certified now
    assigned: list[date]  # days that got their deal now
    spares: int  # spare certified deals left after it


def daily_deals_prepare(*, today: date | None = None) -> DailyPreparation:
    """Make sure today and the next ``DAILY_DAYS_AHEAD`` days have their certified deal, with
    ``DAILY_SPARE_DEALS`` spares besides (the beat task's work; idempotent: run twice, it draws
    nothing the second time)."""
    today = today or clock.today()
    days = [today + timedelta(days=offset) for offset in range(settings.DAILY_DAYS_AHEAD + 1)]
    dated = set(DailyDeal.objects.filter(date__in=days).values_list("date", flat=True))
    missing = [day for day in days if day not in dated]
    spares = DailyDeal.objects.filter(date__isnull=True).count()
    wanted = len(missing) + settings.DAILY_SPARE_DEALS - spares
    for _ in range(max(0, wanted)):
        code, length = daily_draw()  # outside any transaction: it takes a moment
        DailyDeal.objects.create(date=None, code=str(code), rule=code.rule.value, solution_length=length)
    assigned = [day for day in missing if daily_deal_assign(day=day) is not None]
    left = DailyDeal.objects.filter(date__isnull=True).count()
    return DailyPreparation(drawn=max(0, wanted), assigned=assigned, spares=left)


@shared_task(name="games.daily_deals_prepare", **RETRY)
def daily_deals_prepare_task() -> None:
    """Beat, every few minutes (and on demand when a request finds no deal for today): today's and
    the next days' certified deals, and the spares."""
    daily_deals_prepare()


def daily_deal_assign(*, day: date) -> DailyDeal | None:
    """``day``'s deal: the one it has, or the oldest spare given that date now; ``None`` when there
    is neither. Safe when requests ask at the same moment: a spare is taken by a conditional
    UPDATE, and the unique date lets one of them give the day its deal."""
    for _ in range(8):
        deal = DailyDeal.objects.filter(date=day).first()
        if deal is not None:
            return deal
        spare = DailyDeal.objects.filter(date__isnull=True).order_by("created_at", "pk").values_list("pk", flat=True)
        spare_pk = spare.first()
        if spare_pk is None:
            return None
        try:
            with transaction.atomic():
                taken = DailyDeal.objects.filter(pk=spare_pk, date__isnull=True).update(date=day)
        except IntegrityError:  # another request gave the day a deal a moment ago
            continue
        if taken:
            return DailyDeal.objects.get(pk=spare_pk)
    return DailyDeal.objects.filter(date=day).first()


def daily_deal_today(*, now: datetime | None = None) -> DailyDeal:
    """Today's deal, never a wait: taken from the spares if the beat has not given it yet, else
    ``daily_not_ready`` (503, ``Retry-After``) while a task prepares it."""
    deal = daily_deal_assign(day=clock.today(now))
    if deal is None:
        _prepare_soon()
        raise ApplicationError(ErrorCode.DAILY_NOT_READY, headers={"Retry-After": str(NOT_READY_RETRY_AFTER)})
    return deal


def _prepare_soon() -> None:
    """Ask a task to prepare the daily deals, at most once a minute (the requests that find no deal
    all come at once). With the embedded defaults (tasks run in-process) it runs in a thread of
    its own, never in the request."""
    from django.core.cache import cache

    if not cache.add("daily:prepare-asked", 1, timeout=60):
        return
    transaction.on_commit(prepare_dispatch, robust=True)


def prepare_dispatch() -> None:
    logger.warning("no daily deal ready for today: preparing one")
    task_send_apart(daily_deals_prepare_task)
