"""Games listens to its own events (:mod:`games.signals`) where the reaction is its own business.

Connected in :meth:`games.apps.GamesConfig.ready`, as ``stats`` connects its receivers. A
receiver only sends tasks, by id, once the transaction commits; the work runs in the worker.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from . import tasks


def on_game_won(sender: Any, *, game_id: str, ranked: bool, **kwargs: Any) -> None:
    """A won ranked attempt: its review, in games' own task (the event comes after the commit
    already). Any other won game: its post-mortem at once rather than at the next beat
    (``games.postmortems_pending`` stays the catch-up); a ranked attempt is a daily deal's,
    analysed only once its day is over, and a won practice game of today's deal is sent and the
    task declines it."""
    if ranked:
        tasks.ranked_win_review.delay(game_id)
        return
    transaction.on_commit(partial(tasks.game_postmortem.delay, game_id))
