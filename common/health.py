"""Health checks for load balancers and orchestrators.

``/healthz``: the process answers (no dependency is touched).
``/readyz``: the database and (when configured) Redis answer; 503 when either does not.
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


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database_ok(), "redis": _redis_ok()}
    ready = all(ok is not False for ok in checks.values())
    body = {
        "status": "ok" if ready else "unavailable",
        "checks": {name: ("ok" if ok else "not configured" if ok is None else "down") for name, ok in checks.items()},
    }
    return JsonResponse(body, status=200 if ready else 503)
