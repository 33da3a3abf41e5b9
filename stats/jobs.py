"""The stats' tasks as its receivers send them, by the task's name (:func:`common.background.task_send`;
the same way as every app's, :mod:`games.jobs`)."""

from __future__ import annotations

from common.background import task_send


def game_results_update(game_id: str) -> None:
    """A game's bests and its place on its day's board brought up to date (the event that asks
    comes after its commit: sent at once)."""
    task_send("stats.game_results_update", game_id, after_commit=False)
