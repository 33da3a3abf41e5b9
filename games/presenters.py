"""What a player may see of a game (SPEC section 7). Face-down cards are only ever "XX"."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.engine import Game as EngineGame

from .daily import utc_today
from .models import DailyDeal, Game, MoveLog


def public_code(game: Game, now: datetime) -> str | None:
    """The game code, or ``None`` for a daily deal whose UTC day is not over (it reveals the deal)."""
    if game.daily is not None and game.daily >= utc_today(now):
        return None
    return game.code


def game_state(*, game: Game, now: datetime, engine: EngineGame | None = None) -> dict[str, Any]:
    """The state answer of the API, built from the engine's player view."""
    view = (engine or EngineGame.from_state(game.state)).view()
    return {
        "id": str(game.id),
        "code": public_code(game, now),
        "rule": game.rule,
        "daily": game.daily.isoformat() if game.daily else None,
        "ranked": game.ranked if game.daily else None,
        "status": view["status"],
        "tableau": view["tableau"],
        "foundations": view["foundations"],
        "score": view["score"],
        "moves": view["moves"],
        "elapsed_ms": game.elapsed_ms(now),
        "undo_available": view["undo_available"],
        "legal_moves": view["legal_moves"],
        "last": view["last"],
        "solution_length": solution_length(game, now),
    }


def solution_length(game: Game, now: datetime) -> int | None:
    """The certified solution length of a daily deal once its day is over (it says how hard it was)."""
    if game.daily is None or game.daily >= utc_today(now):
        return None
    return DailyDeal.objects.filter(date=game.daily).values_list("solution_length", flat=True).first()


def game_summary(*, game: Game, now: datetime) -> dict[str, Any]:
    """One line of the game list (no cards)."""
    return {
        "id": str(game.id),
        "code": public_code(game, now),
        "rule": game.rule,
        "daily": game.daily.isoformat() if game.daily else None,
        "ranked": game.ranked if game.daily else None,
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "elapsed_ms": game.elapsed_ms(now),
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def move_log_entry(entry: MoveLog) -> dict[str, Any]:
    """One row of the move log: only cards that are face up (a flipped card was turned up)."""
    return {
        "seq": entry.seq,
        "move": entry.move,
        "points": entry.points,
        "flipped": entry.flipped or None,
        "at": entry.created_at.isoformat(),
    }
