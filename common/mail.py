"""``EMAIL_URL``: the SMTP server of the site's mails as one address, read like ``DATABASE_URL``.

``smtp://user:password@host:587`` speaks STARTTLS (port 587, or ``?tls=1`` on another port);
``smtps://user:password@host:465`` TLS from the start; ``smtp://host:25`` plain (a relay on the same
network). User and password are percent-decoded (``%40`` for an ``@``). Empty: the console backend,
which prints each mail (development). (dj-email-url reads ``smtps`` as STARTTLS and 587 as plain,
the opposite of what these schemes mean to mail servers, so this is written out here.)
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"


def email_settings(url: str) -> dict[str, Any]:
    """Django's ``EMAIL_*`` settings for ``url``.

    >>> s = email_settings("smtp://mailer:p%40ss@mail.example:587")
    >>> s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_HOST_PASSWORD"], s["EMAIL_USE_TLS"], s["EMAIL_USE_SSL"]
    ('mail.example', 587, 'p@ss', True, False)
    >>> email_settings("smtps://mail.example")["EMAIL_PORT"], email_settings("smtps://mail.example")["EMAIL_USE_SSL"]
    (465, True)
    """
    if not url:
        return {"EMAIL_BACKEND": CONSOLE}
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ImproperlyConfigured(f"EMAIL_URL must be smtp://… or smtps://… with a host, not {parts.scheme!r}")
    query = parse_qs(parts.query)
    ssl = parts.scheme == "smtps"
    port = parts.port or (465 if ssl else 25)
    tls = not ssl and (port == 587 or query.get("tls", ["0"])[0].lower() in {"1", "true", "yes"})
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port,
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
        "EMAIL_TIMEOUT": int(query.get("timeout", ["10"])[0]),
    }
