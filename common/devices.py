"""The device id: a long-lived, random, first-party cookie (HttpOnly, SameSite=Lax) set on the
first visit of a page, so that the starts of today's deal from one browser can be linked
(docs/fair-play.md, "One person, one result"). API clients get none (it is set on pages only)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from .views import is_api

DEVICE_COOKIE = "yukon_device"
DEVICE_COOKIE_AGE = 60 * 60 * 24 * 400  # the longest a browser keeps a cookie
_FORM = re.compile(r"[A-Za-z0-9_-]{32}")


def device_of(request: HttpRequest) -> str:
    """The request's device id, or "" (none, or not one of ours)."""
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if _FORM.fullmatch(value) else ""


class DeviceIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api(request) and not device_of(request):
            response.set_cookie(
                DEVICE_COOKIE,
                secrets.token_urlsafe(24),
                max_age=DEVICE_COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
