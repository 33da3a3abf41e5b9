"""Stats listens to the games' events (:mod:`games.signals`) and hands each to a task, by id.

Connected in :meth:`stats.apps.StatsConfig.ready`. A receiver only sends tasks: the work (and
its retries) happens in the worker, never in the request that won the game.
"""

from __future__ import annotations

from typing import Any

from . import tasks


def on_game_won(sender: Any, *, game_id: str, ranked: bool, **kwargs: Any) -> None:
    """The owner's personal bests (a ranked attempt's board waits for its review's event)."""
    tasks.personal_best_update.delay(game_id)


def on_ranked_results_changed(sender: Any, *, game_ids: list[str], **kwargs: Any) -> None:
    """A review, a hold at the day's close or staff's decision puts ranked wins on their day's
    board, or takes them off."""
    for game_id in game_ids:
        tasks.daily_result_update.delay(game_id)
