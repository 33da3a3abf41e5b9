"""Health checks for load balancers and orchestrators.

``/healthz``: the process answers (no dependency is touched).
``/readyz``: the database and (when configured) Redis answer, and today's daily deal is ready
(certified by the solver, games/daily.py): dated for today, or a certified spare that the first
request of the day takes with one UPDATE. 503 with what is missing otherwise. The answer names
only checks and their states, never a deal, a code or a setting.
Both answer GET and HEAD (a probe may send either).
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .dependencies import DEPENDENCY_ERRORS, redis_client


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DEPENDENCY_ERRORS:
        connection.close_if_unusable_or_obsolete()
        return False


def _redis_ok() -> bool | None:
    if not settings.REDIS_URL:
        return None  # the embedded default has no Redis to be ready for
    try:
        return bool(redis_client().ping())
    except DEPENDENCY_ERRORS:
        return False


def _daily_deal_state() -> str:
    """``ok`` when today's deal is certified and dated, or a certified spare waits for the day's
    first request; ``missing`` when a request for it would answer 503 ``daily_not_ready``."""
    from games.daily import utc_today  # (games imports common: not at import time)
    from games.models import DailyDeal

    certified = DailyDeal.objects.filter(solution_length__isnull=False)
    try:
        today = certified.filter(date=utc_today()).exists()
        return "ok" if today or certified.filter(date__isnull=True).exists() else "missing"
    except DEPENDENCY_ERRORS:
        connection.close_if_unusable_or_obsolete()
        return "down"


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    database = _database_ok()
    redis = _redis_ok()
    checks = {
        "database": "ok" if database else "down",
        "redis": "not configured" if redis is None else "ok" if redis else "down",
        # Read from the database: not asked while it is down.
        "daily_deal": _daily_deal_state() if database else "unknown",
    }
    ready = all(state in ("ok", "not configured") for state in checks.values())
    return JsonResponse({"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503)
