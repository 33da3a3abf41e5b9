"""The base class of every API view."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.middleware.csrf import get_token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from .throttles import Limits


class ApiView(APIView):
    # Hands cookie-based clients (the browser) their CSRF cookie. Unsafe requests that carry a
    # session cookie must send its value back as ``X-CSRFToken`` (see
    # ``accounts.authentication.GuestSessionAuthentication``); token clients need nothing.
    # Authentication, permissions and rate limits are DRF's own steps (``initial``).
    # (A comment, not a docstring: drf-spectacular would show a docstring on every operation.)

    # Each operation's rate limits, by HTTP method (HEAD as GET): the one place a view declares
    # them (common.throttles.limits); an operation not named here has none.
    rate_limits: ClassVar[dict[str, Limits]] = {}

    def get_throttles(self) -> list[BaseThrottle]:
        method = "GET" if self.request.method == "HEAD" else self.request.method
        declared = self.rate_limits.get(method or "")
        return declared.throttles() if declared is not None else []

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        # Only to a browser without the cookie: each get_token() masks the secret anew (32 random
        # characters) and sets the cookie again, which cost a move a tenth of its CPU.
        if "HTTP_AUTHORIZATION" not in request.META and settings.CSRF_COOKIE_NAME not in request.COOKIES:
            get_token(request._request)
        return super().finalize_response(request, response, *args, **kwargs)
