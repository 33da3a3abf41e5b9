"""Where Django itself answers (404, 400, 403, 500): JSON for /api/ paths, else the site's error
pages (the templates ``404.html``, ``400.html``, ``403.html``, ``500.html`` in
``frontend/templates/``, which Django's default views render: the site's look, the request's
language, a way home). And the API docs page."""

from __future__ import annotations

import sys
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from .dependencies import is_dependency_error
from .errors import ErrorCode, error_body

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(code: ErrorCode) -> JsonResponse:
    response = JsonResponse(error_body(code), status=code.status)
    response.error_code = code.value  # type: ignore[attr-defined]  # counted by common.metrics
    return response


@csrf_exempt  # it changes nothing; a POST without the CSRF token would otherwise get Django's HTML 403
def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Any path under the API that names nothing: a JSON 404 for every method."""
    return api_error(ErrorCode.NOT_FOUND)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error(ErrorCode.NOT_FOUND)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        # A body past Django's own cap (DATA_UPLOAD_MAX_MEMORY_SIZE, above the API's 64 KiB) is
        # too large, as a smaller one past 64 KiB is (common.parsers), not malformed.
        if isinstance(exception, RequestDataTooBig):
            return api_error(ErrorCode.PAYLOAD_TOO_LARGE)
        return api_error(ErrorCode.BAD_REQUEST)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error(ErrorCode.PERMISSION_DENIED)
    return defaults.permission_denied(request, exception)


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """503 while the database or Redis is unreachable: the client may retry after a moment."""
    if is_api(request):
        response: HttpResponse = api_error(ErrorCode.SERVICE_UNAVAILABLE)
    else:
        response = HttpResponse(
            "<!doctype html><title>Yukon Solitaire</title><h1>Gleich wieder da / Back in a moment</h1>",
            status=503,
        )
    response["Retry-After"] = "5"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    # Django calls this while handling the exception (in middleware too), so it can be seen here.
    if is_dependency_error(sys.exc_info()[1]):
        return service_unavailable(request)
    if is_api(request):
        return api_error(ErrorCode.SERVER_ERROR)
    return defaults.server_error(request)


class ApiDocsView(SpectacularSwaggerSplitView):
    """The browsable API docs (Swagger UI). Its only renderer is an HTML template, which has
    nothing to show for the OPTIONS answer (a 500): that answer is JSON, as everywhere else.
    Its init script is a file of its own (``?script``) and its page has no inline style, as the
    Content-Security-Policy asks."""

    template_name = "common/api_docs.html"

    def options(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), JSONRenderer.media_type
        return super().options(request, *args, **kwargs)
