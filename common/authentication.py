"""Authentication: API tokens, and session cookies with CSRF checked for guests too."""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import SessionScheme
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from .messages import message

_KEY = re.compile(r"[0-9a-f]{40}")


class StrictTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``; a malformed key is refused before it reaches the database."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if not _KEY.fullmatch(key):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(key)


class GuestSessionAuthentication(SessionAuthentication):
    """The session cookie, with the CSRF check for guests as well as for logged-in users.

    DRF checks CSRF only for logged-in users, but a guest's games belong to the session cookie
    too, so an unsafe request carrying that cookie must pass the check. Without a session cookie
    there is nothing to forge: such a request starts a fresh guest session.
    """

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        user = getattr(request._request, "user", None)
        if user is not None and user.is_active:
            self.enforce_csrf(request)
            return (user, None)
        if request.method not in SAFE_METHODS and settings.SESSION_COOKIE_NAME in request.COOKIES:
            self.enforce_csrf(request)
        return None

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(message("csrf_failed")) from None


class GuestSessionScheme(SessionScheme):
    """Documents :class:`GuestSessionAuthentication` as the ``cookieAuth`` scheme."""

    target_class = "common.authentication.GuestSessionAuthentication"
