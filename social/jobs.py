"""The clubs' tasks as social's verbs and receivers send them: one function a task, by the task's
name (:func:`common.background.task_send`), so that nothing but Celery imports ``social.tasks``
(the tasks import the services)."""

from __future__ import annotations

from datetime import date

from common.background import task_send


def club_week_rebuild(club_id: int, week: date) -> None:
    """A club's standing of ``week`` (its Monday) rebuilt from its members, after the commit of the
    change of its members."""
    task_send("social.club_week_rebuild", club_id, week.isoformat())


def club_weeks_update(game_id: str) -> None:
    """A ranked result changed: the week standings of its player's clubs (stats' event that asks
    comes after its commit: sent at once)."""
    task_send("social.club_weeks_update", game_id, after_commit=False)
