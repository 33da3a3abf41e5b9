"""Request ids and JSON logs.

Every request gets an id (the caller's ``X-Request-ID`` when it is sane, else a new one). It is
sent back in ``X-Request-ID`` and stamped on every log line written while the request runs. One
access line per request records method, path, status, duration and who asked; never a body, a
game state or a card, so no face-down card can reach a log.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

request_id_var: ContextVar[str] = ContextVar("request_id", default="-")
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
access_log = logging.getLogger("yukon.access")


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        return True


def request_id_of(request: HttpRequest) -> str:
    """The caller's ``X-Request-ID`` when it is sane, else a new id."""
    given = request.headers.get("X-Request-ID", "")
    return given if _SANE_ID.fullmatch(given) else uuid.uuid4().hex


def log_access(request: HttpRequest, response: HttpResponse, *, started: float, user: Any) -> None:
    """The access line of a request (``started``: its ``time.perf_counter()``)."""
    access_log.info(
        "request",
        extra={
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "user": user.pk if user is not None and user.is_authenticated else None,
        },
    )


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = request_id
            log_access(request, response, started=started, user=getattr(request, "user", None))
            return response
        finally:
            request_id_var.reset(token)
