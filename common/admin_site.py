"""The admin site, with its login rate-limited like the API's (per IP and per username).

Installed as Django's default admin site (``yukon_site.apps.AdminConfig`` in ``INSTALLED_APPS``),
so every ``admin.register`` in the apps lands here. Over a limit, the login page answers 429 with its
error shown in the form, whatever the password: nothing is checked, nobody is logged in.
"""

from __future__ import annotations

import math
from typing import Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from .errors import ErrorCode
from .throttles import login_form_wait

_WAIT = "_yukon_login_wait"  # on the request: the seconds to wait, when the attempt is over a limit


class AdminSite(admin.AdminSite):
    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        wait = login_form_wait(request) if request.method == "POST" else None
        if wait is not None:
            setattr(request, _WAIT, wait)
        if self.login_form is None:
            self.login_form = _throttled_login_form()
        response = super().login(request, extra_context)
        if wait is not None:
            response.status_code = 429
            response["Retry-After"] = str(_seconds(wait))
        return response


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def _throttled_login_form() -> type:
    # (django.contrib.admin.forms imports the user model: not at import time of the app config)
    from django.contrib.admin.forms import AdminAuthenticationForm

    class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
        def clean(self) -> dict[str, Any]:
            wait = getattr(self.request, _WAIT, None)
            if wait is not None:  # before authenticate(): over the limit, no password is tried
                raise ValidationError(ErrorCode.THROTTLED.message(wait=_seconds(wait)), code="throttled")
            return super().clean()

    return ThrottledAdminAuthenticationForm
