"""Games listens to its own events (:mod:`games.signals`) where the reaction is its own business.

Connected in :meth:`games.apps.GamesConfig.ready`, as ``stats`` connects its receivers. A
receiver only sends tasks, by id, once the transaction commits; the work runs in the worker.
"""

from __future__ import annotations

from typing import Any

from . import tasks


def on_game_won(sender: Any, *, game_id: str, ranked: bool, **kwargs: Any) -> None:
    """A won ranked attempt: its review, in games' own task (the event comes after the commit
    already). No post-mortem: that runs when the player opens the game's replay
    (:func:`games.replay.replay_body`), or for the top results of a day once it is over
    (``games.postmortems_pending``); at a million games a day, one for every game would keep
    dozens of cores busy for pages few players open (docs/capacity.md)."""
    if ranked:
        tasks.ranked_win_review.delay(game_id)
