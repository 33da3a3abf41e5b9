"""The site's own system checks (``manage.py check``, and every ``migrate`` and server start)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Warning as CheckWarning
from django.core.checks import register


@register()
def site_url_check(app_configs: Any = None, **kwargs: Any) -> list[CheckWarning]:
    """``SITE_URL`` makes the links in the site's mails: without it, or without a scheme and host,
    a password-reset or confirmation mail has no link that works."""
    parts = urlsplit(settings.SITE_URL)
    if parts.scheme in ("http", "https") and parts.netloc:
        return []
    return [
        CheckWarning(
            "SITE_URL is not set to the site's address (e.g. https://yukon.example.com)",
            hint="The links in the site's mails are built from it; set it in the environment (.env).",
            id="yukon.W001",
        )
    ]
