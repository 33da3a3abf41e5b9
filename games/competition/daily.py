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
import secrets
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction

from common.errors import ApplicationError, ErrorCode
from games import jobs
from games.competition import clock
from games.competition.arrangements import arrangement_index, arrangement_order, pack, unpack
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.engine.codes import random_order
from games.models import DailyArrangements, DailyDeal, Game
from games.solver import Verdict, solve

logger = logging.getLogger(__name__)

DRAW_ATTEMPTS = 20  # openings tried before giving up (one in ten thousand is given up: measured)
CALIBRATION_DRAWS = 64  # the first arrangements of an opening: its median par
MAX_DRAWS_PER_KEPT = 6  # an opening that keeps fewer than one arrangement in six is given up
PROGRESS_EVERY = 1024
#: Certifying one day's 16,384 arrangements takes about 70 CPU seconds (docs/daily.md); the budget is 30 minutes.
PREPARE_SOFT_LIMIT = 30 * 60
#: Seconds a client waits before it asks again for a deal that is being prepared.
NOT_READY_RETRY_AFTER = 5

__all__ = [
    "ArrangedDeal",
    "Arrangement",
    "daily_arrangement",
    "daily_game_par",
    "daily_published",
    "DailyPreparation",
    "daily_certify",
    "daily_deal_store",
    "daily_deal_assign",
    "daily_deal_today",
    "daily_deals_prepare",
    "daily_draw",
]


def daily_certify(code: GameCode) -> int | None:
    """The length of a winning line of ``code`` found by the solver within
    ``DAILY_CERTIFY_NODES`` nodes (and ``DAILY_CERTIFY_SECONDS`` of CPU), or ``None`` when it finds
    none (then the arrangement is not used)."""
    result = solve(
        EngineGame.new(code), max_seconds=settings.DAILY_CERTIFY_SECONDS, max_nodes=settings.DAILY_CERTIFY_NODES
    )
    return len(result.moves) if result.verdict is Verdict.WINNABLE and result.moves is not None else None


@dataclass(frozen=True, slots=True)
class ArrangedDeal:
    """A day's deal as :func:`daily_draw` makes it: its opening's arrangements that the solver won
    and whose par lies in the day's band, the base (an arrangement with the median par: the deal's
    ``code``), and what certifying cost."""

    code: GameCode
    par: int
    key: bytes
    draws: list[int]
    pars: list[int]
    tried: int
    won: int
    seconds: float


Progress = Callable[[int, int], None]  # (kept, wanted)


def daily_draw(*, arrangements: int | None = None, progress: Progress | None = None) -> ArrangedDeal:
    """A day's deal: a secret random opening and ``arrangements`` (``DAILY_ARRANGEMENTS``)
    arrangements of its face-down cards, each certified winnable, all equally hard
    (docs/daily.md, "Equally hard"): the first draws calibrate the opening's median par, and only
    arrangements whose par lies within ``DAILY_PAR_BAND`` moves of it are kept (the solver's
    node budget leaves out those it finds hard). An opening whose arrangements the solver seldom
    wins is given up for another. Takes minutes for 16,384: never in a request."""
    wanted = arrangements if arrangements is not None else settings.DAILY_ARRANGEMENTS
    begin = time.process_time()
    tried = won = 0
    for _ in range(DRAW_ATTEMPTS):
        opening = _Opening(random_order(), secrets.token_bytes(32))
        kept = opening.arrange(wanted, progress)
        tried, won = tried + opening.tried, won + opening.won
        if kept is None:
            continue
        median = statistics.median_low([par for _, par in kept])  # one of the kept pars
        base = next(draw for draw, par in kept if par == median)
        return ArrangedDeal(
            code=GameCode.from_order(opening.order(base)),
            par=median,
            key=opening.key,
            draws=[draw for draw, _ in kept],
            pars=[par for _, par in kept],
            tried=tried,
            won=won,
            seconds=time.process_time() - begin,
        )
    raise RuntimeError(f"no opening with {wanted} certified arrangements in {DRAW_ATTEMPTS} openings")


class _Opening:
    """An opening being arranged: its draws certified one by one, counted."""

    def __init__(self, opening: list[int], key: bytes) -> None:
        self.opening, self.key, self.tried, self.won = opening, key, 0, 0

    def order(self, draw: int) -> list[int]:
        return arrangement_order(self.opening, self.key, draw)

    def certify(self, draw: int) -> int | None:
        self.tried += 1
        par = daily_certify(GameCode.from_order(self.order(draw)))
        self.won += par is not None
        return par

    def arrange(self, wanted: int, progress: Progress | None) -> list[tuple[int, int]] | None:
        """``wanted`` (draw, par) pairs in the band around the opening's median par, or ``None``
        when the solver seldom wins its arrangements or too few of them fall in the band."""
        band = settings.DAILY_PAR_BAND
        calibration = min(CALIBRATION_DRAWS, max(8, 2 * wanted))
        first = [(draw, self.certify(draw)) for draw in range(calibration)]
        pars_won = [par for _, par in first if par is not None]
        if len(pars_won) < calibration // 2:
            return None
        median = statistics.median_low(pars_won)
        kept = [(draw, par) for draw, par in first if par is not None and abs(par - median) <= band][:wanted]
        draw, limit = calibration, calibration + MAX_DRAWS_PER_KEPT * wanted
        while len(kept) < wanted and draw < limit:
            par = self.certify(draw)
            if par is not None and abs(par - median) <= band:
                kept.append((draw, par))
                if progress is not None and len(kept) % PROGRESS_EVERY == 0:
                    progress(len(kept), wanted)
            draw += 1
        return kept if len(kept) == wanted else None


@dataclass(frozen=True, slots=True)
class DailyPreparation:
    drawn: int  # deals drawn and certified now
    assigned: list[date]  # days that got their deal now
    spares: int  # spare certified deals left after it
    wanted: int = 0  # deals still missing (a ``limit`` stopped before them)


def daily_deals_prepare(
    *, today: date | None = None, limit: int | None = None, progress: Progress | None = None
) -> DailyPreparation:
    """Make sure today and the next ``DAILY_DAYS_AHEAD`` days have their certified deal, with
    ``DAILY_SPARE_DEALS`` spares besides (the beat task's work; idempotent: run twice, it draws
    nothing the second time). ``limit``: draw at most that many deals now (``wanted`` says how
    many more are missing); the days missing one get the spares first."""
    today = today or clock.today()
    days = [today + timedelta(days=offset) for offset in range(settings.DAILY_DAYS_AHEAD + 1)]
    dated = set(DailyDeal.objects.filter(date__in=days).values_list("date", flat=True))
    missing = [day for day in days if day not in dated]
    spares = DailyDeal.objects.filter(date__isnull=True).count()
    wanted = len(missing) + settings.DAILY_SPARE_DEALS - spares
    drawn = 0
    for _ in range(max(0, wanted if limit is None else min(wanted, limit))):
        daily_deal_store(daily_draw(progress=progress))  # outside any transaction: it takes minutes
        drawn += 1
    assigned = [day for day in missing if daily_deal_assign(day=day) is not None]
    left = DailyDeal.objects.filter(date__isnull=True).count()
    return DailyPreparation(drawn=drawn, assigned=assigned, spares=left, wanted=max(0, wanted - drawn))


def daily_deal_store(drawn: ArrangedDeal) -> DailyDeal:
    """Keep a drawn deal as a spare, with its arrangements, in one transaction: a spare is only
    ever seen whole."""
    with transaction.atomic():
        deal = DailyDeal.objects.create(
            date=None,
            code=str(drawn.code),
            rule=drawn.code.rule.value,
            solution_length=drawn.par,
            arrangements=len(drawn.draws),
            par_low=min(drawn.pars),
            par_high=max(drawn.pars),
        )
        DailyArrangements.objects.create(
            deal=deal,
            key=drawn.key,
            draws=pack(drawn.draws, "I"),
            pars=pack(drawn.pars, "H"),
            tried=drawn.tried,
            won=drawn.won,
            seconds=drawn.seconds,
        )
    logger.info(
        "daily deal drawn: %d arrangements of %d tried (%d won), par %d-%d, %.1f s",
        len(drawn.draws),
        drawn.tried,
        drawn.won,
        min(drawn.pars),
        max(drawn.pars),
        drawn.seconds,
    )
    return deal


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
    if not cache.add("daily:prepare-asked", 1, timeout=60):
        return
    logger.warning("no daily deal ready for today: preparing one")
    jobs.daily_deals_prepare()


@dataclass(frozen=True, slots=True)
class Arrangement:
    """An account's arrangement of a day's deal: its code and its par."""

    code: GameCode
    par: int | None


def daily_arrangement(*, deal: DailyDeal, user_id: int) -> Arrangement:
    """The arrangement of ``deal`` that account ``user_id`` gets, always the same one
    (:func:`games.competition.arrangements.arrangement_index`); a deal of the days before
    arrangements is its one deal for everyone. One read of the deal's arrangements (about 100 kB
    at 16,384), only when a game of the day is dealt or a par is named."""
    if deal.arrangements == 0:
        return Arrangement(deal.game_code, deal.solution_length)
    key, draws, pars = DailyArrangements.objects.filter(deal=deal).values_list("key", "draws", "pars").get()
    key = bytes(key)
    index = arrangement_index(key, account=user_id, arrangements=deal.arrangements)
    base = deal.game_code
    order = arrangement_order(base.order, key, unpack(draws, "I")[index])
    return Arrangement(GameCode.from_order(order, base.rule), unpack(pars, "H")[index])


def daily_game_par(game: Game) -> int | None:
    """The par (certified solution's length) of a daily game's own arrangement: its owner's
    arrangement, when the game holds it (``None`` for a deleted owner's game). The callers decide
    whether it may be shown yet (it tells of the deal: only once the day is over). Kept in the
    cache for a day: a move of a past day's game names it in every answer."""
    if game.daily is None:
        return None
    key = f"daily:par:{game.pk}"
    par = cache.get(key)
    if par is None:
        par = _daily_game_par(game)
        cache.set(key, -1 if par is None else par, timeout=24 * 3600)
    return None if par == -1 else par


def _daily_game_par(game: Game) -> int | None:
    deal = DailyDeal.objects.filter(date=game.daily).first()
    if deal is None:
        return None
    if deal.arrangements == 0:
        return deal.solution_length
    if game.owner_id is None:
        return None
    mine = daily_arrangement(deal=deal, user_id=game.owner_id)
    return mine.par if str(mine.code) == game.code else None


def daily_published(*, deal: DailyDeal, user: Any, now: datetime | None = None) -> dict[str, Any]:
    """What a day that is over publishes of its deal: the caller's own arrangement's code (an
    account's; anyone else gets the day's median arrangement, the deal's ``code``), the opening's
    columns (face-down cards as "XX", the same for every arrangement) and the range of the
    arrangements' pars. Nothing before the day's end: it would tell the deal."""
    assert deal.date is not None and clock.code_public(deal.date, now), "a day's deal is published once it is over"
    code = deal.game_code
    if deal.arrangements and user is not None and user.is_authenticated:
        code = daily_arrangement(deal=deal, user_id=user.pk).code
    low, high = (deal.par_low, deal.par_high) if deal.arrangements else (deal.solution_length,) * 2
    published: dict[str, Any] = {"code": str(code), "opening": EngineGame.new(code).view()["tableau"]}
    if low is not None and high is not None:
        published.update(par_low=low, par_high=high)
    return published
