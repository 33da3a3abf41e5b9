"""``EMAIL_URL`` read like ``DATABASE_URL`` (common/mail.py)."""

from __future__ import annotations

import doctest

import pytest
from django.core.exceptions import ImproperlyConfigured

from common import mail
from common.mail import email_settings


def test_the_examples_hold() -> None:
    failures, tried = doctest.testmod(mail)
    assert tried and not failures


def test_unset_prints_the_mails_on_the_console() -> None:
    assert email_settings("") == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_starttls_on_587_or_when_asked_and_tls_from_the_start_with_smtps() -> None:
    submission = email_settings("smtp://mailer:s%3Acret@mail.example:587")
    relay = email_settings("smtp://relay.internal")
    asked = email_settings("smtp://mail.example:2525?tls=1&timeout=3")
    implicit = email_settings("smtps://mailer:pw@mail.example")

    assert (submission["EMAIL_USE_TLS"], submission["EMAIL_USE_SSL"], submission["EMAIL_HOST_PASSWORD"]) == (
        True,
        False,
        "s:cret",
    )
    assert (relay["EMAIL_PORT"], relay["EMAIL_USE_TLS"], relay["EMAIL_HOST_USER"]) == (25, False, "")
    assert (asked["EMAIL_PORT"], asked["EMAIL_USE_TLS"], asked["EMAIL_TIMEOUT"]) == (2525, True, 3)
    assert (implicit["EMAIL_PORT"], implicit["EMAIL_USE_SSL"], implicit["EMAIL_USE_TLS"]) == (465, True, False)


@pytest.mark.parametrize("url", ["http://mail.example", "smtp://", "mail.example:25"])
def test_anything_else_stops_the_start(url: str) -> None:
    with pytest.raises(ImproperlyConfigured):
        email_settings(url)
