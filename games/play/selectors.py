"""Reads: a player's games, their move logs, a past daily deal's solution length, and the ranked
wins that count."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet

from common.errors import ApplicationError, ErrorCode
from games.competition import clock
from games.competition.daily import daily_game_par
from games.engine.game import CLEAN_WIN_SCORE, FOUNDATION_POINTS
from games.lifecycle import with_last_activity
from games.models import COUNTED_REVIEWS, UNCHECKED_REASON, DailyDeal, Game, ReviewChoices, StatusChoices
from games.movelog import LogEntry, log_read
from games.players import Player


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
    # (when each was last played: an idle unfinished game says when it will be removed)
    return with_last_activity(games.defer("state")).order_by("-created_at", "-pk")


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


def replay_verified(prefix: str = "") -> Q:
    """Whether the server replayed a counted ranked win's log and it reproduced the win (the
    review's replay, :mod:`games.competition.attempt`): ``verified``, or ``approved`` by staff after it was held
    (held only once the log replays). Not the wins from before the review, which count unchecked.
    ``prefix`` is the path to the game (``"game__"`` from a board result)."""
    return Q(**{f"{prefix}review": ReviewChoices.APPROVED}) | (
        Q(**{f"{prefix}review": ReviewChoices.VERIFIED}) & ~Q(**{f"{prefix}review_reason": UNCHECKED_REASON})
    )


def move_log_list(*, game: Game) -> list[LogEntry]:
    return log_read(game)


def daily_solution_length(*, game: Game, now: datetime) -> int | None:
    """The certified solution length of a daily game's deal once its day is over (it says how hard
    the deal was), also for a practice game dealt from a past day's code (a version-2 code: the
    archive's "play this deal"); ``None`` for any other game, without a query (a random deal is
    version 1)."""
    if game.daily is None:
        if not game.code.upper().startswith("YU2-"):
            return None
        past = DailyDeal.objects.filter(code=game.code, date__lt=clock.today(now))
        return past.values_list("solution_length", flat=True).first()
    if not clock.code_public(game.daily, now):
        return None
    return daily_game_par(game)


def deal_seen_before(prefix: str = "") -> Exists:
    """Whether a game's player had played its deal before it (docs/statistics.md, "Bests"): an
    earlier game of the same code with a move made, by the same account, or, for a guest, the same
    browser. A win of
    a deal seen before (a practice game of the day's deal after the attempt, a replay of a code
    played) counts as a win, never for a best time or fewest moves: its player knew the cards.
    ``prefix``: the path to the game (``"game__"``)."""
    earlier = Game.objects.filter(
        Q(owner_id=OuterRef(f"{prefix}owner_id"), owner_id__isnull=False)
        | Q(
            owner_id__isnull=True,
            guest_session_key=OuterRef(f"{prefix}guest_session_key"),
            guest_session_key__gt="",
        ),
        code=OuterRef(f"{prefix}code"),
        created_at__lt=OuterRef(f"{prefix}created_at"),
        moves__gt=0,  # (a game dealt and never touched showed the opening alone)
    )
    return Exists(earlier)


#: Which won games count for the bests, of games annotated ``seen=deal_seen_before()``: a deal its
#: player had not seen before, played online (docs/statistics.md: a game played offline had the
#: device's clock, so its time, and with it its moves, is no best).
BESTS_COUNT = Q(seen=False, played_offline=False)


def win_records(*, game: Game) -> dict[str, Any] | None:
    """What a won game was for its player (the win dialog, docs/statistics.md): a new best time,
    fewer moves than ever, the first win of its rule, against the player's games of that rule won
    before it (an account's, or a guest's browser's: the bests of the statistics), so the answer
    stays what it was when the game was won; and its score taken apart (625 for a clean win, 10
    more for each card put on a foundation again after a take-back: docs/scoring.md). Only the
    player's own figures, never another's. ``None`` for a game not won (or of no player any more).
    One aggregate over the player's won games of the rule."""
    if game.status != StatusChoices.WON or game.time_ms is None or game.finished_at is None:
        return None
    if game.owner_id is not None:
        owner = Q(owner_id=game.owner_id)
    elif game.guest_session_key:
        owner = Q(owner__isnull=True, guest_session_key=game.guest_session_key)
    else:
        return None
    # A game played offline counts for no best (its clock was the device's: docs/statistics.md).
    fresh = not game.played_offline and not (
        Game.objects.filter(owner, code=game.code, created_at__lt=game.created_at, moves__gt=0).exists()
    )
    new = BESTS_COUNT  # the bests count only wins of deals not seen before, played online
    before = (
        Game.objects.filter(owner, rule=game.rule, status=StatusChoices.WON, finished_at__lt=game.finished_at)
        .exclude(pk=game.pk)
        .annotate(seen=deal_seen_before())
        .aggregate(wins=Count("pk"), best_time_ms=Min("time_ms", filter=new), fewest_moves=Min("moves", filter=new))
    )
    wins, best_time, fewest = before["wins"], before["best_time_ms"], before["fewest_moves"]
    again = max(0, game.score - CLEAN_WIN_SCORE) // FOUNDATION_POINTS
    return {
        "first_of_rule": wins == 0,
        "counts_for_bests": fresh,
        "best_time": fresh and best_time is not None and game.time_ms < best_time,
        "fewest_moves": fresh and fewest is not None and game.moves < fewest,
        "before": {"wins": wins, "best_time_ms": best_time, "fewest_moves": fewest},
        "clean": game.score == CLEAN_WIN_SCORE,
        "clean_score": CLEAN_WIN_SCORE,
        "put_up_again": again,
    }
