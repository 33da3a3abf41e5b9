"""Celery tasks of the games app: thin, idempotent, calling services.

Delivery is at least once (late acknowledgement, re-queued when a worker dies, see
``yukon_site/celery.py``): every task is an idempotent upsert or recomputation, so a retry or
a duplicate changes nothing. Database hiccups (a lost connection, a deadlock) are retried.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import daily, postmortem, services

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
    "ignore_result": True,
}


@shared_task(name="games.idempotency_records_prune", ignore_result=True)
def idempotency_records_prune(hours: int = 24) -> None:
    """Beat, hourly: drop idempotency records older than ``hours`` (retries come within seconds)."""
    services.idempotency_records_prune(before=timezone.now() - timedelta(hours=hours))


@shared_task(name="games.daily_deals_prepare", **RETRY)
def daily_deals_prepare() -> None:
    """Beat, every few minutes (and on demand when a request finds no deal for today): today's and
    the next days' certified deals, and the spares."""
    daily.daily_deals_prepare()


@shared_task(name="games.daily_attempts_close", **RETRY)
def daily_attempts_close() -> None:
    """Beat, at 00:00 UTC and every few minutes after: close the ranked attempts of days that are over."""
    daily.daily_attempts_close()


@shared_task(name="games.game_postmortem", **RETRY)
def game_postmortem(game_id: str) -> None:
    """A finished game: the solver's post-mortem, stored (idempotent: once per move count)."""
    postmortem.postmortem_record(game_id=game_id)


@shared_task(name="games.postmortems_pending", **RETRY)
def postmortems_pending() -> None:
    """Beat, every minute: a post-mortem task for each finished game that has none yet."""
    for game_id in postmortem.postmortems_due():
        game_postmortem.delay(game_id)
