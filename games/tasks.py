"""Celery tasks of the games app: thin, idempotent, calling services."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from . import services


@shared_task(name="games.idempotency_records_prune", ignore_result=True)
def idempotency_records_prune(hours: int = 24) -> None:
    """Beat, hourly: drop idempotency records older than ``hours`` (retries come within seconds)."""
    services.idempotency_records_prune(before=timezone.now() - timedelta(hours=hours))
