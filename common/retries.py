"""The retry policy of every Celery task of the site (``@shared_task(name=..., **RETRY)``).

Delivery is at least once (late acknowledgement, re-queued when a worker dies, see
``yukon_site/celery.py``), so every task is idempotent; database hiccups (a lost connection, a
deadlock) are retried with a growing, jittered pause.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError

RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
    "ignore_result": True,
}
