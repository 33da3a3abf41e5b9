"""Human results (SPEC section 5): a won ranked attempt counts only once it is checked.

The check replays the game's whole move log from its deal and requires the stored game to come
out, move for move; a log that does not is ``invalid`` and never counts. A result faster than a
human plays (under ``RANKED_REVIEW_MIN_TIME_MS`` in all, or a median gap between consecutive moves
under ``RANKED_REVIEW_MIN_MEDIAN_GAP_MS``) is ``held``: left off the board until staff approve it
in the admin (:func:`ranked_win_decide`, which records who and when).
"""

from __future__ import annotations

import statistics
from datetime import datetime
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import BadCode, BadMove, IllegalMove
from games.engine import Game as EngineGame

from .competition import links
from .models import Game, MoveLog, ReviewChoices, StatusChoices
from .signals import ranked_wins_decided_send


def ranked_win_review(*, game_id: UUID | str) -> str | None:
    """Check a won ranked attempt that is ``pending`` and store the verdict; returns the game's
    review (``None`` if it is no ranked win). Idempotent: a game already decided is left as it is."""
    game = Game.objects.filter(pk=game_id, ranked=True, status=StatusChoices.WON).first()
    if game is None:
        return None
    if game.review != ReviewChoices.PENDING:
        return game.review
    entries = list(MoveLog.objects.filter(game=game).order_by("seq").values_list("seq", "move", "created_at"))
    review, reason = _verdict(game, entries)
    Game.objects.filter(pk=game.pk, review=ReviewChoices.PENDING).update(review=review, review_reason=reason)
    # (None if the game went meanwhile: its account was deleted)
    return Game.objects.filter(pk=game.pk).values_list("review", flat=True).first()


def ranked_win_decide(*, game_ids: list[Any], approve: bool, by: Any, now: datetime | None = None) -> list[str]:
    """Staff's decision on held results: approve (they count) or reject (they never do). Returns
    the ids of the games decided; only held games are, and who and when is recorded."""
    now = now or timezone.now()
    decision = ReviewChoices.APPROVED if approve else ReviewChoices.REJECTED
    with transaction.atomic():
        held = list(
            Game.objects.select_for_update()
            .filter(pk__in=game_ids, review=ReviewChoices.HELD)
            .values_list("pk", flat=True)
        )
        Game.objects.filter(pk__in=held).update(review=decision, reviewed_by=by, reviewed_at=now)
        decided = [str(pk) for pk in held]
        ranked_wins_decided_send(game_ids=decided)  # the boards listen (after the commit)
    return decided


def _verdict(game: Game, entries: list[tuple[int, str, datetime]]) -> tuple[str, str]:
    seqs = [seq for seq, _, _ in entries]
    if seqs != list(range(1, len(entries) + 1)) or len(entries) != game.moves:
        return ReviewChoices.INVALID, f"the log has {len(entries)} entries for {game.moves} moves"
    try:
        replayed = EngineGame.replay(game.code, [move for _, move, _ in entries])
        stored = EngineGame.from_state(game.state)
    except (BadCode, BadMove, IllegalMove, ValueError, KeyError) as exc:
        return ReviewChoices.INVALID, f"the log does not replay: {exc}"[:120]
    if replayed != stored or not replayed.is_won:
        return ReviewChoices.INVALID, "the log does not reproduce the stored game"
    time_ms = game.time_ms or 0
    if time_ms < settings.RANKED_REVIEW_MIN_TIME_MS:
        return ReviewChoices.HELD, f"won in {time_ms} ms in all"
    times = [at for _, _, at in entries]
    gaps = [(later - earlier).total_seconds() * 1000 for earlier, later in zip(times, times[1:], strict=False)]
    median = statistics.median(gaps) if gaps else 0.0
    if median < settings.RANKED_REVIEW_MIN_MEDIAN_GAP_MS:
        return ReviewChoices.HELD, f"median gap between moves {median:.0f} ms"
    linked = links.linked_users(game=game, before_own_start=True)
    if linked:
        return ReviewChoices.HELD, f"{links.LINKED}: shares a device or network with {len(linked)} earlier account(s)"
    return ReviewChoices.VERIFIED, f"replayed {len(entries)} moves; median gap {median:.0f} ms"
