"""Help for practice games: a fair hint and "is this game still winnable?" (issue 7).

Neither is ever given for today's daily deal, to anyone, guests included: the hint would play
the competition for the player, and the winnable check tells something about its face-down cards.
Both only read: nothing is logged, no move is counted.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils import timezone

from common.errors import ApplicationError, ErrorCode
from games.engine import Game as EngineGame
from games.solver import hint, still_winnable

from .daily import utc_today
from .models import Game
from .players import Player
from .selectors import game_get


def _practice_game(*, game_id: UUID, player: Player) -> Game:
    game = game_get(game_id=game_id, player=player)
    if game.daily is not None and game.daily >= utc_today(timezone.now()):
        raise ApplicationError(ErrorCode.NO_HELP_FOR_DAILY)
    return game


def game_hint(*, game_id: UUID, player: Player) -> dict[str, Any] | None:
    """A good next move from what the player sees (the engine's hint), or ``None`` (no move left)."""
    game = _practice_game(game_id=game_id, player=player)
    engine = EngineGame.from_state(game.state)
    if engine.is_won:
        return None
    move = hint(engine)
    return None if move is None else move.to_json()


def game_winnable(*, game_id: UUID, player: Player) -> str:
    """``yes``, ``no`` or ``unknown`` (the solver's budget ran out) for the game as it stands."""
    game = _practice_game(game_id=game_id, player=player)
    return still_winnable(EngineGame.from_state(game.state))
