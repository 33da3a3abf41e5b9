"""Celery tasks: thin, take ids (strings), call a service, and are safe to run twice.

Delivery is at least once (late acknowledgement, re-queued when a worker dies, see
``yukon_site/celery.py``): every task is an idempotent upsert or recomputation, so a retry or
a duplicate changes nothing. Database hiccups (a lost connection, a deadlock) are retried.
"""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task
from django.utils import timezone

from common.retries import RETRY
from games.competition import clock

from . import services, standing


@shared_task(name="stats.game_results_update", **RETRY)
def game_results_update(game_id: str) -> None:
    """What a won game counts for changed: its owner's personal bests of its rule and, for a ranked
    attempt, its place on its day's board and histograms (one transaction)."""
    services.game_results_record(game_id=game_id)


@shared_task(name="stats.daily_boards_rebuild", **RETRY)
def daily_boards_rebuild(days: list[str] | None = None) -> None:
    """Beat, every few minutes: rebuild the boards of ``days`` (ISO dates; default yesterday and today)."""
    today = clock.today()
    for day in [date.fromisoformat(d) for d in days] if days else [today - timedelta(days=1), today]:
        services.daily_board_rebuild(day=day)
        standing.standing_rebuild(day=day)


@shared_task(name="stats.personal_bests_repair", **RETRY)
def personal_bests_repair(minutes: int = 30) -> None:
    """Beat, every few minutes: fold the games won in the last ``minutes`` into the bests again."""
    services.personal_bests_repair(since=timezone.now() - timedelta(minutes=minutes))
