"""Middleware: requests with a NUL character refused, and unexpected exceptions under /api/ answered
as JSON (in DEBUG mode too)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.views import defaults

from .dependencies import is_dependency_error
from .errors import ErrorCode
from .observability import path_logged
from .views import api_error, bad_request, is_api, not_found, permission_denied, service_unavailable

logger = logging.getLogger("yukon.api")


def has_nul(text: str) -> bool:
    return "\x00" in text


class RefuseNulMiddleware:
    """A NUL character in the path or the query string is refused before anything reads it: 400
    ``bad_character`` (an HTML 400 outside the API). PostgreSQL cannot store or compare text with
    a NUL, so such a value in a query raised ``DataError`` (a 500), e.g. ``/api/v1/players/%00/stats``;
    SQLite just found nothing. Bodies are checked where they are parsed: the JSON parser refuses a
    ``\\u0000`` the same way (``common.parsers``), and Django's form fields refuse NUL themselves.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # "%00" is the only spelling of NUL in a query string (Django decodes it; "%2500" is "%00").
        query = request.META.get("QUERY_STRING", "")
        if has_nul(request.path) or "%00" in query or has_nul(query):
            if is_api(request):
                return api_error(ErrorCode.BAD_CHARACTER)
            return defaults.bad_request(request, BadRequest("NUL character"))
        return self.get_response(request)


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_dependency_error(exception):
            logger.warning(
                "dependency down on %s %s: %s", request.method, path_logged(request.path), type(exception).__name__
            )
            return service_unavailable(request)
        if not is_api(request):
            return None
        # The API's answers to what Django's own handlers would answer (common.views decides them).
        if isinstance(exception, Http404):
            return not_found(request, exception)
        if isinstance(exception, PermissionDenied):
            return permission_denied(request, exception)
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return bad_request(request, exception)
        # The traceback only: no request body or game state goes into the log.
        logger.error("unhandled error on %s %s", request.method, path_logged(request.path), exc_info=exception)
        return api_error(ErrorCode.SERVER_ERROR)
