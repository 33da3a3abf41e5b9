"""``manage.py clear_cache``: forget every cache entry (sessions' and accounts' cached copies, rate
limit counters), keeping the Celery broker's queues that share the Redis database.

deploy/restore.sh runs it after a restore, so that no cached copy of a row outlives the restore.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from common.cache import cache_entries_forget


class Command(BaseCommand):
    help = "Delete every entry of the cache (not the Celery queues in the same Redis database)."

    def handle(self, *args: Any, **options: Any) -> None:
        gone = cache_entries_forget()
        self.stdout.write(self.style.SUCCESS(f"Cache cleared: {gone} entries deleted."))
