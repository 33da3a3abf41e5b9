"""The account's pages: ``/account`` (its settings; the data come from the auth API), the request for
a password-reset link, the page the link opens (Django's ``PasswordResetConfirmView``: it sets the
new password and logs in), and the page an address's confirmation link opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from accounts.actions.email import user_email_confirm, user_email_undo
from accounts.actions.sessions import account_sign_out_elsewhere
from accounts.links import email_confirmation_read, email_undo_read
from common.errors import ApplicationError

from .views import SETTINGS_FIELDS, _page, page_context

#: Where the reset page leads once the new password is set (the account page says so).
AFTER_RESET = "/account?password=reset"


@require_safe
@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponseBase:
    """The account page; a guest is sent to log in first (and comes back here)."""
    if not request.user.is_authenticated:
        return redirect_to_login("/account", "/login")
    return _page(request, "account.html", "account", "account.js", settings_fields=SETTINGS_FIELDS)


@require_safe
@ensure_csrf_cookie
def password_reset(request: HttpRequest) -> HttpResponse:
    """Ask for a reset link (``POST auth/password-reset``, from account.js)."""
    return _page(request, "password_reset.html", "password_reset", "account.js")


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """Django's view of a reset link: the token checked (a day, once, void after any password
    change), the new password through Django's validators; then logged in here, and every other
    session and token of the account ends, as after a password change."""

    template_name = "frontend/password_reset_confirm.html"
    post_reset_login = True
    success_url = AFTER_RESET

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), **page_context("password_set", "account.js")}

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        account_sign_out_elsewhere(user=form.user, keep_session_key=self.request.session.session_key)
        return response


@require_http_methods(["GET", "HEAD", "POST"])
@ensure_csrf_cookie
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """An address's confirmation link. Opening it changes nothing (a mail scanner that follows
    links must not confirm an address for whoever typed it): the page shows the address and one
    button, a POST with the CSRF token, which confirms it; or why not (expired, replaced,
    another account's)."""
    return _mailed_link(request, token, "email_confirm", read=email_confirmation_read, act=user_email_confirm)


@require_http_methods(["GET", "HEAD", "POST"])
@ensure_csrf_cookie
def email_undo(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an account's address before it was changed or removed: its page asks,
    and its button (a POST with the CSRF token) puts the address back and signs the account out
    everywhere (``accounts.actions.email.user_email_undo``); opening it changes nothing."""
    return _mailed_link(request, token, "email_undo", read=email_undo_read, act=user_email_undo)


def _mailed_link(
    request: HttpRequest,
    token: str,
    page: str,
    *,
    read: Callable[..., tuple[Any, str]],
    act: Callable[..., Any],
) -> HttpResponse:
    """The page of a link mailed to an address (``<page>.html``): GET and HEAD show what its button
    would do with the address (``read``), the button's POST does it (``act``); a bad link gets the
    page with its reason, status 400."""
    try:
        if request.method == "POST":
            email, done = act(token=token).email, True
        else:
            (_, email), done = read(token=token), False
    except ApplicationError as error:
        response = _page(request, f"{page}.html", page, "account.js", error=error.detail)
        response.status_code = 400
        return response
    return _page(request, f"{page}.html", page, "account.js", email=email, done=done)
