"""Whether a practice game can be won, decided by the worker rather than in a request (issue 41).

"Still winnable?" (:mod:`games.help.assist`) gives the solver a small budget in the request (a few
hundred milliseconds of CPU at most). That settles most positions, but not every one, and a player
most often asks early in a game. So the worker decides what the request cannot:

* **The deal**, as a game is dealt (:func:`deal_decide_soon`, the task ``games.winnable_decide``):
  the solver's verdict goes into ``Game.deal_verdict`` (``yes``, ``no``, or ``unknown`` when its
  budget ``WINNABLE_DECIDE_SECONDS`` runs out first). The same thing a daily deal's certificate
  is, for every practice game. A deal that cannot be won makes every position of its game
  unwinnable too.
* **A later position** the request could not settle (:func:`decision_ask`): the worker solves it
  and keeps the verdict in the cache under the game and its move counter (a game's position is
  known by its counter: every move, undo included, counts). The request answers ``deciding``
  meanwhile and the page asks again. One decision per player at a time, so asking costs the worker
  at most one solver run per player.
* **The pool** of certified winnable deals for "winnable deals only" (:func:`winnable_deals_fill`,
  beat every minute, and :func:`winnable_deal_take`): up to ``WINNABLE_POOL_SIZE`` random deals of
  each rule that the solver won within ``WINNABLE_CERTIFY_SECONDS``, like the daily deal's spares,
  grown by ``WINNABLE_FILL_BATCH`` a minute. A deal stays in the pool once dealt: each request
  gets a random one its player was not dealt before (while there is one), so no client can empty
  it for the others (issue 50). Only a pool not filled yet answers ``winnable_not_ready`` (503,
  Retry-After); no request waits for the solver.

Nothing here tells more about the face-down cards than "still winnable?" itself does: the same
three answers, for practice games only (never today's daily deal), and no line of play.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction

from common.errors import ApplicationError, ErrorCode
from games import jobs
from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.models import DealVerdictChoices, Game, WinnableDeal
from games.players import Player
from games.solver import Verdict, solve

logger = logging.getLogger(__name__)

__all__ = [
    "DECIDING",
    "deal_decide_soon",
    "decide",
    "decision_ask",
    "known_verdict",
    "winnable_deal_take",
    "winnable_deals_fill",
]

#: The answer while the worker decides.
DECIDING = "deciding"
#: A decision asked for and not come back (a lost task) is asked again after this many seconds.
ASK_AGAIN_SECONDS = 120
#: How long the worker's verdict on a position is kept (a game left for longer asks again).
VERDICT_KEEP_SECONDS = 24 * 3600
#: Seconds a client waits before it asks again for a winnable deal when the pool was empty.
POOL_RETRY_AFTER = 5
#: Draws per missing deal of the pool before a fill gives up for now (nearly all are won at once).
DRAWS_PER_DEAL = 3

_VERDICTS = {
    Verdict.WINNABLE: DealVerdictChoices.YES.value,
    Verdict.NOT_WINNABLE: DealVerdictChoices.NO.value,
    Verdict.UNKNOWN: DealVerdictChoices.UNKNOWN.value,
}


def _verdict_key(game_id: object, moves: int) -> str:
    return f"winnable:{game_id}:{moves}"


def _asked_key(game_id: object, moves: int) -> str:
    return f"winnable-asked:{game_id}:{moves}"


def _deciding_key(scope: str) -> str:
    return f"winnable-deciding:{scope}"


def _solve(engine: EngineGame, seconds: float) -> str:
    result = solve(engine, max_seconds=seconds, max_nodes=None, line=False)
    return _VERDICTS[result.verdict]


# -- the request's side ----------------------------------------------------------------------------


def known_verdict(game: Game) -> str | None:
    """What the worker has decided about ``game`` as it stands (``yes``, ``no``, ``unknown``), or
    None: a deal that cannot be won answers for all its positions; the deal's verdict for the deal
    (no move yet); the cached verdict for a later position."""
    if game.deal_verdict == DealVerdictChoices.NO:
        return DealVerdictChoices.NO.value
    if game.moves == 0 and game.deal_verdict:
        return str(game.deal_verdict)
    found = cache.get(_verdict_key(game.pk, game.moves))
    return found if isinstance(found, str) else None


def decision_ask(game: Game, *, scope: str) -> None:
    """Ask the worker to decide ``game``'s position (once per position, and one at a time per
    player ``scope``; a decision lost on the way is asked again after ``ASK_AGAIN_SECONDS``)."""
    if not cache.add(_asked_key(game.pk, game.moves), 1, timeout=ASK_AGAIN_SECONDS):
        return
    if not cache.add(_deciding_key(scope), 1, timeout=int(settings.WINNABLE_DECIDE_SECONDS) + 60):
        cache.delete(_asked_key(game.pk, game.moves))  # the player's other decision first: asked again later
        return
    jobs.winnable_decide(str(game.pk), game.moves, scope, after_commit=False)  # (a read: the game is committed already)


def deal_decide_soon(game: Game) -> None:
    """A game was dealt: its deal is decided by the worker after the commit, unless it is known
    already (a winnable deal of the pool) or is today's daily deal (no help for it while its day
    lasts; every daily deal is certified winnable anyway)."""
    if game.deal_verdict or (game.daily is not None and not clock.is_over(game.daily)):
        return
    if cache.add(_asked_key(game.pk, 0), 1, timeout=ASK_AGAIN_SECONDS):
        jobs.winnable_decide(str(game.pk), 0, "", after_commit=True)


# -- the worker's side -----------------------------------------------------------------------------


def decide(*, game_id: str, moves: int, scope: str = "") -> str | None:
    """The task's work: decide the position of game ``game_id`` at move ``moves`` (its deal at 0),
    keep the verdict and return it; None when the game is gone or has no such position any more.
    Idempotent: a verdict already kept is returned as it is."""
    try:
        if moves == 0:
            return _deal_decide(game_id)
        known = cache.get(_verdict_key(game_id, moves))
        if isinstance(known, str):
            return known
        game = Game.objects.filter(pk=game_id).only("pk", "state", "moves").first()
        if game is None or game.moves != moves:
            return None  # moved on: the page asks about the new position
        verdict = _solve(EngineGame.from_state(game.state), settings.WINNABLE_DECIDE_SECONDS)
        cache.set(_verdict_key(game_id, moves), verdict, timeout=VERDICT_KEEP_SECONDS)
        return verdict
    finally:
        if scope:
            cache.delete(_deciding_key(scope))


def _deal_decide(game_id: str) -> str | None:
    row = Game.objects.filter(pk=game_id).values_list("code", "deal_verdict").first()
    if row is None:
        return None
    code, verdict = row
    if verdict:
        return str(verdict)
    verdict = _solve(EngineGame.from_code(code), settings.WINNABLE_DECIDE_SECONDS)
    # Only the verdict's column, only if still undecided: a move written meanwhile is not touched.
    Game.objects.filter(pk=game_id, deal_verdict="").update(deal_verdict=verdict)
    return verdict


# -- the pool of winnable deals --------------------------------------------------------------------


def winnable_deals_fill() -> dict[str, int]:
    """Grow the pool towards ``WINNABLE_POOL_SIZE`` deals of each rule, by at most
    ``WINNABLE_FILL_BATCH`` a run, each a random deal the solver won within
    ``WINNABLE_CERTIFY_SECONDS`` (the beat task's work; idempotent: run again on a full pool, it
    draws nothing). Returns how many each rule has after it."""
    size = settings.WINNABLE_POOL_SIZE
    have: dict[str, int] = {}
    for rule in Rule:
        count = WinnableDeal.objects.filter(rule=rule.value).count()
        goal = min(size, count + settings.WINNABLE_FILL_BATCH)
        for _ in range(max(0, goal - count) * DRAWS_PER_DEAL):
            if count >= goal:
                break
            code = GameCode.random(rule)
            if _solve(EngineGame.new(code), settings.WINNABLE_CERTIFY_SECONDS) != DealVerdictChoices.YES:
                continue
            try:
                with transaction.atomic():
                    WinnableDeal.objects.create(code=str(code), rule=rule.value)
            except IntegrityError:  # drawn before (one in billions)
                continue
            count += 1
        have[rule.value] = count
    return have


def winnable_deal_take(rule: Rule, *, player: Player | None = None) -> GameCode:
    """A deal of ``rule`` from the pool, at random: one ``player`` has not been dealt from it
    (their games marked ``winnable_deal``) while there is one, else any. The deals stay in the
    pool: a certified practice deal is no secret (anyone may deal its code), so dealing it again
    costs nothing, and no client can empty the pool for the others (issue 50: one guest asking
    30 times took all 20 deals, and everyone else got ``winnable_not_ready`` until the refill).
    ``winnable_not_ready`` (503) only before the first deals are certified. The worker is asked
    to grow the pool (at most once a minute) until it holds ``WINNABLE_POOL_SIZE``."""
    _fill_soon()
    deals = WinnableDeal.objects.filter(rule=rule.value)
    if player is not None:
        dealt = Game.objects.filter(player.owns(), winnable_deal=True, rule=rule.value).values("code")
        unseen = deals.exclude(code__in=dealt).order_by("?").values_list("code", flat=True).first()
        if unseen is not None:
            return GameCode.parse(unseen)
    code = deals.order_by("?").values_list("code", flat=True).first()
    if code is None:
        raise ApplicationError(ErrorCode.WINNABLE_NOT_READY, headers={"Retry-After": str(POOL_RETRY_AFTER)})
    return GameCode.parse(code)


def _fill_soon() -> None:
    if cache.add("winnable-pool:fill-asked", 1, timeout=60):
        jobs.winnable_deals_fill()
