"""The Celery app: ``celery -A yukon_site worker`` and ``celery -A yukon_site beat``.

Configured from Django settings (``CELERY_*``): late acknowledgement, tasks re-queued when a
worker dies, one task prefetched at a time, and a broker visibility timeout above any task's
time limit. Without ``REDIS_URL`` tasks run eagerly in the calling process.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import beat_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="yukon_site.ping")
def ping() -> str:
    """Liveness check of the worker (used by the tests and .ci/run)."""
    return "pong"


@beat_init.connect
def prepare_daily_deals(sender: Any, **kwargs: Any) -> None:
    """When beat starts (a deploy, a restart), the daily deals are prepared at once, not only at
    its first interval: today's deal is never missing for long."""
    sender.app.send_task("games.daily_deals_prepare")
