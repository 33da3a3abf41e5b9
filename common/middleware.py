"""Unexpected exceptions under /api/ become JSON answers, in DEBUG mode too."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse

from .dependencies import is_dependency_error
from .views import api_error, is_api, service_unavailable

logger = logging.getLogger("yukon.api")


class ApiErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_dependency_error(exception):
            logger.warning("dependency down on %s %s: %s", request.method, request.path, type(exception).__name__)
            return service_unavailable(request)
        if not is_api(request):
            return None
        if isinstance(exception, Http404):
            return api_error("not_found", 404)
        if isinstance(exception, PermissionDenied):
            return api_error("permission_denied", 403)
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return api_error("bad_request", 400)
        # The traceback only: no request body or game state goes into the log.
        logger.error("unhandled error on %s %s", request.method, request.path, exc_info=exception)
        return api_error("server_error", 500)
