"""JSON answers for /api/ paths where Django itself answers (404, 400, 403, 500)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from .errors import error_body
from .messages import message

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(code: str, status: int) -> JsonResponse:
    return JsonResponse(error_body(code, message(code)), status=status)


def api_not_found(request: HttpRequest, *args: object, **kwargs: object) -> JsonResponse:
    """Any path under the API that names nothing: a JSON 404 for every method."""
    return api_error("not_found", 404)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error("not_found", 404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return api_error("bad_request", 400)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return JsonResponse(error_body("permission_denied", str(exception) or "Forbidden."), status=403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error("server_error", 500)
    return defaults.server_error(request)
