"""Celery tasks of the clubs: thin, take ids (strings), call a service, and are safe to run twice."""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task

from common.retries import RETRY
from games.competition import clock

from . import services


@shared_task(name="social.club_weeks_update", **RETRY)
def club_weeks_update(game_id: str) -> None:
    """A ranked result changed: rebuild the week's standing of each club of its player."""
    for club_id, week in services.club_weeks_of_game(game_id=game_id):
        services.club_week_rebuild(club_id=club_id, week=week)


@shared_task(name="social.club_week_rebuild", **RETRY)
def club_week_rebuild(club_id: int, week: str) -> None:
    """A club's members changed: rebuild its standing of ``week`` (an ISO date of its Monday)."""
    services.club_week_rebuild(club_id=club_id, week=date.fromisoformat(week))


@shared_task(name="social.club_weeks_rebuild", **RETRY)
def club_weeks_rebuild(days: int = 8) -> None:
    """Beat, as the daily boards' safety net: rebuild the weeks of every club with a member's
    result in the last ``days`` days (a lost task, a result rejected later, a rebuilt board)."""
    for club_id, week in services.club_weeks_active(since=clock.today() - timedelta(days=days)):
        services.club_week_rebuild(club_id=club_id, week=week)
