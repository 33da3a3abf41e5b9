"""Stats listens to the games' one event (:mod:`games.signals`) and hands each game to a task, by id.

Connected in :meth:`stats.apps.StatsConfig.ready`. A receiver only sends tasks: the work (and
its retries) happens in the worker, never in the request that won the game. The event comes
after the commit already, so the task goes out at once.
"""

from __future__ import annotations

from typing import Any

from stats import jobs


def on_results_changed(sender: Any, *, game_ids: list[str], **kwargs: Any) -> None:
    """A practice win, a guest's wins passed to an account, a ranked win's verdict, a hold at the
    day's close or staff's decision: each game's bests and its place on its day's board."""
    for game_id in game_ids:
        jobs.game_results_update(game_id)
