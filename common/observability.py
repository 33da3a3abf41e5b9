"""Request ids and JSON logs.

Every request gets an id (the caller's ``X-Request-ID`` when it is sane, else a new one). It is
sent back in ``X-Request-ID`` and stamped on every log line written while the request runs. One
access line per request records method, path, status, duration and who asked; never a body, a
game state or a card, so no face-down card can reach a log. A path that carries a secret (a club's
invite, the links that confirm an address, undo an address change or reset a password) is logged
with the secret cut out (:func:`path_logged`): whoever reads the logs cannot use the links.
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
#: The pages whose address carries a secret after its prefix (frontend/urls.py): a club's invite
#: (valid 7 days), an address's confirmation and its undo, a password reset (its account id and
#: token, then ``set-password`` once Django has put the token into the session).
_SECRET_PATH = re.compile(r"(/(?:clubs/join|account/email|account/email-undo|account/reset)/)[^?#]+")
#: What stands in a logged path for the secret cut out.
CUT = "[token]"


def path_logged(path: str) -> str:
    """``path`` as the logs may keep it: a secret link's token cut out.

    >>> path_logged("/clubs/join/eyJjIjo.1tUx:AbC")
    '/clubs/join/[token]'
    >>> path_logged("/api/v1/clubs/join")
    '/api/v1/clubs/join'
    """
    return _SECRET_PATH.sub(lambda match: match[1] + CUT, path)


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
            "path": path_logged(request.path),
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
