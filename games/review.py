"""Human results (docs/fair-play.md), as the admin and older code name them. The review and every
other transition of a ranked attempt live in :mod:`games.competition.attempt`; these two names
delegate to it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from .competition import attempt


def ranked_win_review(*, game_id: UUID | str) -> str | None:
    """pending → verified | held | invalid (:func:`games.competition.attempt.attempt_review`)."""
    return attempt.attempt_review(game_id=game_id)


def ranked_win_decide(*, game_ids: list[Any], approve: bool, by: Any, now: datetime | None = None) -> list[str]:
    """Staff's decision on held results: held → approved (they count) or rejected (they never
    do); returns the ids of the games decided (:func:`games.competition.attempt.attempts_approve`,
    :func:`~games.competition.attempt.attempts_reject`)."""
    decide = attempt.attempts_approve if approve else attempt.attempts_reject
    return decide(game_ids=game_ids, by=by, now=now)
