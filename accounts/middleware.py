"""Notes the signed-in sessions of accounts, for the account page's list (``auth/sessions``)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponseBase

from .actions.sessions import login_session_seen


class LoginSessionMiddleware:
    """After a logged-in session's request: its row and last-seen time (written at most once a
    minute; one look into the already loaded session otherwise). Placed after the authentication
    middleware: a session whose account is gone or whose password changed is not noted."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is None or session.session_key is None or SESSION_KEY not in session:
            return response
        user = request.user
        if user.is_authenticated and str(user.pk) == str(session[SESSION_KEY]):
            login_session_seen(
                user_id=user.pk,
                session=session,
                session_key=session.session_key,
                user_agent=request.headers.get("User-Agent", ""),
            )
        return response
