"""Reads: a player's games, their move logs, and the ranked wins that count."""

from __future__ import annotations

from uuid import UUID

from django.db.models import QuerySet

from common.errors import ApplicationError, ErrorCode

from .models import COUNTED_REVIEWS, Game, MoveLog, StatusChoices
from .players import Player


def game_get(*, game_id: UUID, player: Player) -> Game:
    """The player's game; someone else's (or another session's) is ``not_found``, as is a missing one."""
    try:
        return Game.objects.filter(player.owns()).get(pk=game_id)
    except Game.DoesNotExist:
        raise ApplicationError(ErrorCode.NOT_FOUND) from None


def game_list(*, player: Player, status: str | None = None) -> QuerySet[Game]:
    """The player's games, newest first, without the (large, secret) engine state; only those of
    ``status`` (``playing``: unfinished, ``won``) when it is given."""
    games = Game.objects.filter(player.owns())
    if status is not None:
        games = games.filter(status=status)
    return games.defer("state").order_by("-created_at", "-pk")


def counted_ranked_wins() -> QuerySet[Game]:
    """The games that are on their day's board: ranked attempts won before their day closed and
    checked (verified by the replay, or approved by staff)."""
    return Game.objects.filter(
        ranked=True,
        status=StatusChoices.WON,
        time_ms__isnull=False,
        closed_at__isnull=True,
        review__in=COUNTED_REVIEWS,
    )


def move_log_list(*, game: Game) -> QuerySet[MoveLog]:
    return MoveLog.objects.filter(game=game).order_by("seq")
