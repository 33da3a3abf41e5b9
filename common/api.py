"""The base class of every API view."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.middleware.csrf import get_token
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .authentication import (
    remember_token_entry,
    request_token,
    session_user_id,
    token_cache_key,
    user_cache_key,
    user_entry_read_ahead,
)
from .throttles import NOT_READ, count_ahead, throttle_waits


class ApiView(APIView):
    # Hands cookie-based clients (the browser) their CSRF cookie. Unsafe requests that carry a
    # session cookie must send its value back as ``X-CSRFToken`` (see
    # ``common.authentication.GuestSessionAuthentication``); token clients need nothing.
    # (A comment, not a docstring: drf-spectacular would show a docstring on every operation.)

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        # Only to a browser without the cookie: each get_token() masks the secret anew (32 random
        # characters) and sets the cookie again, which cost a move a tenth of its CPU.
        if "HTTP_AUTHORIZATION" not in request.META and settings.CSRF_COOKIE_NAME not in request.COOKIES:
            get_token(request._request)
        return super().finalize_response(request, response, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # The client's account (cached: of its token, or of its logged-in session) and its rate-limit
        # counters: one round trip to Redis.
        token = request_token(request)
        if token is not None:
            entry = count_ahead(self.get_throttles(), request, self, read=token_cache_key(token))
            if entry is not NOT_READ:
                remember_token_entry(request, entry)
        elif (user_id := session_user_id(request)) is not None:
            entry = count_ahead(self.get_throttles(), request, self, read=user_cache_key(user_id))
            if entry is not NOT_READ:
                with user_entry_read_ahead(user_id, entry):
                    return super().initial(request, *args, **kwargs)
        super().initial(request, *args, **kwargs)

    def check_throttles(self, request: Request) -> None:
        # All of a request's limits count in one round trip (DRF would ask each in turn).
        waits = throttle_waits(self.get_throttles(), request, self)
        if waits:
            self.throttled(request, max(waits))
