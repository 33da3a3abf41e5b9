"""Help for practice games: a fair hint and "is this game still winnable?" (issue 7).

Neither is ever given for today's daily deal, to anyone, guests included: the hint would play
the competition for the player, and the winnable check tells something about its face-down cards.
Neither is given for a paused game (``game_paused``: its clock stands, and so does play). Both
only read: nothing is logged, no move is counted. What the request's small budget cannot settle,
the worker decides (:mod:`games.play.winnable`): meanwhile the answer is ``deciding``.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from common.errors import ApplicationError, ErrorCode
from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import IllegalMove, replay
from games.models import DealVerdictChoices, Game
from games.movelog import moves_read
from games.play import winnable
from games.play.selectors import game_get
from games.players import Player
from games.solver import advise, position_key, still_winnable


def _practice_game(*, game_id: UUID, player: Player) -> Game:
    game = game_get(game_id=game_id, player=player)
    if game.daily is not None and not clock.is_over(game.daily):
        raise ApplicationError(ErrorCode.NO_HELP_FOR_DAILY)
    if game.paused_at is not None:
        raise ApplicationError(ErrorCode.GAME_PAUSED)
    return game


def positions_had(game: Game) -> list[str]:
    """The positions ``game`` has had (:func:`games.solver.position_key`), from its deal and its
    move log, the position as it stands last."""
    engine = EngineGame.from_code(game.code)
    keys = [position_key(engine)]
    try:
        for step in replay(engine, [entry.move for entry in moves_read([game.pk])[game.pk]]):
            keys.append(position_key(step.game))
    except (IllegalMove, ValueError):  # a log that does not replay (never in play): what it gave so far
        pass
    return keys


def game_hint(*, game_id: UUID, player: Player) -> dict[str, Any]:
    """A good next move from what the player sees, never back to a position the game already had:
    ``{"move": ..., "reason": "move"}``, or ``move`` None with the reason ``none`` (no move left)
    or ``no_progress`` (no move helps: undo some)."""
    game = _practice_game(game_id=game_id, player=player)
    engine = EngineGame.from_state(game.state)
    if engine.is_won:
        return {"move": None, "reason": "none"}
    advice = advise(engine, positions_had(game))
    return {"move": None if advice.move is None else advice.move.to_json(), "reason": advice.reason}


def game_winnable(*, game_id: UUID, player: Player) -> str:
    """``yes``, ``no`` or ``unknown`` (the worker's budget ran out too) for the game as it stands,
    or ``deciding`` while the worker decides what the request's budget could not."""
    game = _practice_game(game_id=game_id, player=player)
    known = winnable.known_verdict(game)
    if known is not None and known != DealVerdictChoices.UNKNOWN:
        return known
    quick = still_winnable(EngineGame.from_state(game.state))
    if quick != "unknown" or known is not None:
        return quick
    winnable.decision_ask(game, scope=player.scope)
    return winnable.DECIDING
