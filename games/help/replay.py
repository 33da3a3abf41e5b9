"""A finished game's replay: its deal and every position after each logged move, as the player
saw it (face-down cards are ``"XX"`` until they are turned up, also for today's daily deal),
with the solver's post-mortem (:mod:`games.help.postmortem`) and the par.

Who may watch: the game's player (an account, or the guest's session) at any time; anyone the
top 10 counted ranked games of a day once that day is over; staff (``games.view_game``) any daily
game of a day that is over (the admin's review queue links to them). Anyone else gets
``not_found`` (as for a game that does not exist).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, cast
from uuid import UUID

from django.core.cache import cache
from django.db.models import Q

from common.errors import ApplicationError, ErrorCode
from games import jobs
from games.competition import clock
from games.competition.daily import daily_game_par
from games.engine import CARD_NAMES, FOUNDATION, HIDDEN, SUITS, BadCode, BadMove, IllegalMove, Move, card_of, replay
from games.engine import Game as EngineGame
from games.help.postmortem import postmortem_due
from games.models import Game, GamePostMortem
from games.movelog import log_read
from games.play.presenters import move_fields, public_code
from games.play.selectors import counted_ranked_wins
from games.players import Player

#: The ranked games of a day anyone may replay once it is over.
PUBLIC_TOP: Final = 10


def _seen(game: EngineGame) -> dict[str, Any]:
    """A position as its player saw it: face-down cards as ``"XX"``."""
    return {
        "tableau": [
            [HIDDEN] * down + [CARD_NAMES[card] for card in column[down:]]
            for column, down in zip(game.columns, game.down, strict=True)
        ],
        "foundations": {
            SUITS[f]: (CARD_NAMES[card_of(f, top)] if top else None) for f, top in enumerate(game.foundations)
        },
        "score": game.score,
    }


def _in_public_top(game: Game, now: datetime) -> bool:
    """A counted ranked game of a day that is over, with fewer than ``PUBLIC_TOP`` ahead of it."""
    if not game.ranked or game.daily is None or not clock.code_public(game.daily, now):
        return False
    if game.owner_id is None:  # a deleted account's game, kept for staff only (docs/fair-play.md)
        return False
    counted = counted_ranked_wins().filter(daily=game.daily)
    if not counted.filter(pk=game.pk).exists():
        return False
    ahead = counted.filter(
        Q(time_ms__lt=game.time_ms)
        | Q(time_ms=game.time_ms, moves__lt=game.moves)
        | Q(time_ms=game.time_ms, moves=game.moves, finished_at__lt=game.finished_at)
    )
    return ahead.order_by()[:PUBLIC_TOP].count() < PUBLIC_TOP


def replay_game(*, game_id: UUID, player: Player, now: datetime) -> tuple[Game, bool]:
    """The game to replay and whether it is the caller's own; ``not_found`` if they may not."""
    game = Game.objects.select_related("owner").filter(pk=game_id).first()
    if game is None:
        raise ApplicationError(ErrorCode.NOT_FOUND)
    if Game.objects.filter(player.owns(), pk=game.pk).exists():
        return game, True
    if _in_public_top(game, now) or _staff_review_may_watch(game, player, now):
        return game, False
    raise ApplicationError(ErrorCode.NOT_FOUND)


def _staff_review_may_watch(game: Game, player: Player, now: datetime) -> bool:
    """Staff who see games in the admin (``games.view_game``) may watch any daily game of a day that
    is over (the review queue links to it); never of an open day, whose deal is still a secret."""
    user = player.user
    if user is None or not user.is_staff or game.daily is None or not clock.code_public(game.daily, now):
        return False
    return bool(user.has_perm("games.view_game"))


def _par(game: Game, postmortem: GamePostMortem | None, now: datetime) -> int | None:
    if game.daily is not None:  # the certified solution's length, once the day is over
        if not clock.code_public(game.daily, now):
            return None
        return daily_game_par(game)
    return postmortem.par if postmortem is not None else None


def _postmortem_body(row: GamePostMortem | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "verdict": row.verdict,
        "lost_at": row.lost_at,
        "winnable_until": row.winnable_until,
        "rescued_at": row.rescued_at,
        "final": row.final,
        "moves": row.moves,
        "solved": row.solved,
        "unknown": row.unknown,
    }


def _moved_card(move: Move | None, before: dict[str, Any]) -> str | None:
    """The card a move took (the bottom card of its group), read from the position before it as
    its player saw it (always face up); None for an undo."""
    if move is None:
        return None
    if move.card is not None:
        return CARD_NAMES[move.card]
    if move.src >= FOUNDATION:
        return cast(str, before["foundations"][SUITS[move.src - FOUNDATION]])
    return cast(str, before["tableau"][move.src][-1])


def _ask_postmortem(game: Game, now: datetime, last_move_at: datetime | None) -> bool:
    """Ask the task for a missing (or outdated) post-mortem of a finished game, at most once in
    ten minutes per game; never solved here. Returns whether one is on its way."""
    if not postmortem_due(game, now=now, last_move_at=last_move_at):
        return False
    if cache.add(f"postmortem-asked:{game.pk}:{game.moves}", 1, timeout=600):
        jobs.game_postmortem(str(game.pk))
    return True


def replay_body(*, game: Game, own: bool, now: datetime) -> dict[str, Any]:
    """The replay answer: the deal's position, then one step per logged move."""
    try:
        entries = log_read(game)
        engine = EngineGame.from_code(game.code)
        start = _seen(engine)
        steps = []
        before = start
        for step, entry in zip(replay(engine, [entry.move for entry in entries]), entries, strict=False):
            seen = _seen(step.game)
            moved = {**move_fields(step.result.move), "card": _moved_card(step.result.move, before)}
            steps.append(
                {
                    "seq": entry.seq,
                    "move": entry.move,
                    **moved,
                    "points": entry.points,
                    "flipped": entry.flipped or None,
                    "at": entry.at,
                    **seen,
                }
            )
            before = seen
    except (BadCode, BadMove, IllegalMove, ValueError):
        raise ApplicationError(ErrorCode.REPLAY_BROKEN) from None
    row = GamePostMortem.objects.filter(game=game).first()
    current = row if row is not None and row.moves == len(entries) else None
    pending = current is None and _ask_postmortem(game, now, entries[-1].at if entries else None)
    return {
        "id": game.id,
        "player": game.owner.get_username() if game.owner is not None else None,
        "own": own,
        "code": public_code(game, now),
        "rule": game.rule,
        "daily": game.daily,
        "ranked": game.ranked,
        "status": game.status,
        "moves": game.moves,
        "score": game.score,
        "time_ms": game.time_ms,
        "started_at": game.created_at,
        "finished_at": game.finished_at,
        "start": start,
        "steps": steps,
        "par": _par(game, current or row, now),
        "postmortem": _postmortem_body(current),
        "postmortem_pending": pending,
    }
