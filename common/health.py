"""Health checks for load balancers and orchestrators.

``/healthz``: the process answers (no dependency is touched).
``/readyz``: the database and (when configured) Redis answer, and today's daily deal is ready
(certified by the solver, games/competition/daily.py): dated for today, or a certified spare that the first
request of the day takes with one UPDATE. 503 with what is missing otherwise. The answer names
only checks and their states, never a deal, a code or a setting.
Both answer GET and HEAD (a probe may send either).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .dependencies import DEPENDENCY_ERRORS, redis_client
from .metrics import operator_asks


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


#: Checks of the apps that read the database (the games app: today's deal), by name, added by
#: :func:`readiness_check_register` from their ``ready()``: common imports no app. Each answers
#: a state ("ok" is ready); they are not asked while the database is down.
_CHECKS: dict[str, Callable[[], str]] = {}


def readiness_check_register(name: str, check: Callable[[], str]) -> None:
    _CHECKS[name] = check


def _checked(check: Callable[[], str]) -> str:
    try:
        return check()
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
        **{name: _checked(check) if database else "unknown" for name, check in _CHECKS.items()},
    }
    ready = all(state in ("ok", "not configured") for state in checks.values())
    body: dict[str, object] = {"status": "ok" if ready else "unavailable"}
    if operator_asks(request):  # which part is down is the operator's to know, not the public's
        body["checks"] = checks
    return JsonResponse(body, status=200 if ready else 503)
