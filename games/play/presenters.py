"""What a player may see of a game (docs/api.md). Face-down cards are only ever "XX" (docs/fair-play.md).

Pure functions of what they are given: they render and never query (the API reads what they
need through :mod:`games.play.selectors`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from games.competition import attempt, clock
from games.engine import Game as EngineGame
from games.engine import Move
from games.lifecycle import removal_at
from games.models import Game
from games.movelog import LogEntry


def public_code(game: Game, now: datetime) -> str | None:
    """The game code, or ``None`` for a daily deal whose UTC day is not over (it reveals the deal)."""
    if game.daily is not None and not clock.code_public(game.daily, now):
        return None
    return game.code


def _identity(game: Game, now: datetime) -> dict[str, Any]:
    """The first fields of a game's state and of its line in the list: which game, of which deal."""
    return {
        "id": str(game.id),
        "code": public_code(game, now),
        "rule": game.rule,
        "daily": game.daily.isoformat() if game.daily else None,
    }


def attempt_standing(game: Game, now: datetime) -> dict[str, Any]:
    """How a daily game's ranked attempt is shown, the one rule of it (the game's answer, the daily
    page's own attempt): its state (:func:`games.competition.attempt.attempt_state`, the one
    reader), whether it still counts (``ranked``), and, while it does, its review, the kinds of
    check that hold it and when staff look at it at the latest."""
    state = attempt.attempt_state(game, now)
    counting = state not in (None, attempt.AttemptState.CLOSED)
    return {
        "ranked": counting,
        "closed": state is attempt.AttemptState.CLOSED,
        "review": (game.review or None) if counting else None,
        "held_for": attempt.held_for(game) if counting else None,
        "review_by": _utc(attempt.review_by(game) if counting else None),
        "attempt": attempt.attempt_fields(state),
    }


def daily_standing(game: Game, now: datetime) -> dict[str, Any]:
    """Where a daily game stands in the competition: its attempt (:func:`attempt_standing`) and,
    while it counts and is not won, the time left until its day closes."""
    if game.daily is None:
        return {
            "ranked": None,
            "closed": False,
            "closes_at": None,
            "closes_in_ms": None,
            "review": None,
            "held_for": None,
            "review_by": None,
            "attempt": None,
        }
    standing = attempt_standing(game, now)
    closes = clock.day_end(game.daily) if standing["ranked"] and game.status != "won" else None
    return {
        **standing,
        "closes_at": _utc(closes),
        "closes_in_ms": max(0, int((closes - now).total_seconds() * 1000)) if closes else None,
    }


def _utc(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def game_state(
    *,
    game: Game,
    now: datetime,
    solution_length: int | None,
    engine: EngineGame | None = None,
    win: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The state answer of the API, built from the engine's player view; ``solution_length`` as
    :func:`games.play.selectors.daily_solution_length` gives it, ``win`` as :func:`games.play.selectors.win_records`."""
    view = (engine or EngineGame.from_state(game.state)).view()
    return {
        **_identity(game, now),
        **daily_standing(game, now),
        "status": view["status"],
        "tableau": view["tableau"],
        "foundations": view["foundations"],
        "score": view["score"],
        "moves": view["moves"],
        "elapsed_ms": game.elapsed_ms(now),
        "paused": game.paused_at is not None,
        "played_offline": game.played_offline,
        "pausable": game.status == "playing" and attempt.clock_may_stop(game, now),
        "winnable_deal": game.winnable_deal,
        "undo_available": view["undo_available"],
        "legal_moves": view["legal_moves"],
        "finish_available": view["finish_available"],
        "last": view["last"],
        "solution_length": solution_length,
        "win": win,
    }


def game_summary(*, game: Game, now: datetime) -> dict[str, Any]:
    """One line of the game list (no cards)."""
    standing = daily_standing(game, now)
    return {
        **_identity(game, now),
        "ranked": standing["ranked"],
        "closed": standing["closed"],
        "review": standing["review"],
        "attempt": standing["attempt"],
        "status": game.status,
        "score": game.score,
        "moves": game.moves,
        "elapsed_ms": game.elapsed_ms(now),
        "paused": game.paused_at is not None,
        "played_offline": game.played_offline,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "removal_at": _iso(removal_at(game, now=now)),
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def move_fields(move: Move | None) -> dict[str, str | None]:
    """A logged move's JSON form beside its text (the pages read these, never the text): ``from``,
    ``card`` (null: the last card of ``from``) and ``to`` as in a move's body; all null for an undo."""
    if move is None:
        return {"from": None, "card": None, "to": None}
    return {"card": None, **move.to_json()}


def move_log_entry(entry: LogEntry) -> dict[str, Any]:
    """One entry of the move log: only cards that are face up (a flipped card was turned up)."""
    return {
        "seq": entry.seq,
        "move": entry.move,
        **move_fields(None if entry.move == "undo" else Move.parse(entry.move)),
        "points": entry.points,
        "flipped": entry.flipped or None,
        "at": entry.at.isoformat(),
    }
