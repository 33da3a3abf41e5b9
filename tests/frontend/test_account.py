"""The account in the browser (issue 26): a forgotten password reset through a mail that a real SMTP
server on loopback receives, a password change that logs the other browser out, and play settings
that follow the account to a second browser. Desktop in German, phone in English."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests import factories
from tests.frontend.conftest import DESKTOP, PHONE

# "services" too: the reset mail goes through Celery (in-process here) and the database's
# transaction, so .ci/run's PostgreSQL phase runs it as well.
pytestmark = [pytest.mark.browser, pytest.mark.services]

NEW = "Chilkoot-Pass-1897"
WAYS = [pytest.param("de-DE", DESKTOP, id="desktop-de"), pytest.param("en-US", PHONE, id="phone-en")]


class _Inbox:
    """aiosmtpd's handler: every message the server accepts, parsed."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append((envelope.rcpt_tos, message))
        return "250 Message accepted for delivery"

    def wait(self, count: int = 1, seconds: float = 15.0) -> list[Any]:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.messages) >= count, "no mail arrived"
        return self.messages


@pytest.fixture
def smtp_server(settings: Any, eager_tasks: None) -> Iterator[_Inbox]:
    """A real SMTP server on loopback, and the site's mail settings pointed at it (as EMAIL_URL
    ``smtp://127.0.0.1:<port>`` would set them)."""
    from aiosmtpd.controller import Controller

    from common.mail import email_settings

    with socket.socket() as probe:  # a free port (aiosmtpd 1.4 checks its server by connecting to it)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    inbox = _Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        for name, value in email_settings(f"smtp://127.0.0.1:{port}").items():
            setattr(settings, name, value)
        yield inbox
    finally:
        controller.stop()


def _log_in(page: Any, username: str, password: str = factories.PASSWORD) -> None:
    page.goto("/login?next=/account")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#auth-form button[type=submit]")
    page.wait_for_url(re.compile(r"/account$"))
    page.locator("#sessions-list li").first.wait_for()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_a_forgotten_password_is_reset_through_the_mailed_link(
    new_page: Any, smtp_server: _Inbox, locale: str, viewport: dict[str, int]
) -> None:
    account = factories.user(username="lena")
    get_user_model().objects.filter(pk=account.pk).update(email="lena@example.org")
    page = new_page(locale=locale, viewport=viewport)

    page.goto("/login")
    page.click("#forgot-link")
    page.fill("#reset-email", "Lena@Example.org")
    page.click("#reset-form button[type=submit]")
    page.locator("#reset-sent").wait_for(state="visible")

    [(recipients, message)] = smtp_server.wait()
    assert recipients == ["lena@example.org"]
    german = locale.startswith("de")
    assert message["Subject"] == (
        "Neues Passwort für Yukon Solitaire" if german else "Set a new password for Yukon Solitaire"
    )
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    link = re.search(r"https?://\S+/account/reset/\S+", text).group(0)
    assert link in html
    page.goto(link)
    page.fill("#new_password1", NEW)
    page.fill("#new_password2", NEW)
    page.click("#set-password-form button[type=submit]")

    page.wait_for_url(re.compile(r"/account\?password=reset$"))
    assert page.locator("#account-note").is_visible()
    page.locator("#account .who").filter(has_text="lena").wait_for()
    assert APIClient().post("/api/v1/auth/login", {"username": "lena", "password": NEW}).status_code == 200
    page.goto(link)  # once only
    page.locator("#reset-invalid").wait_for()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_changing_the_password_logs_the_other_browser_out(new_page: Any, locale: str, viewport: dict[str, int]) -> None:
    factories.user(username="lena")
    here = new_page(locale=locale, viewport=viewport)
    there = new_page(locale=locale, viewport=DESKTOP)
    _log_in(here, "lena")
    _log_in(there, "lena")

    here.fill("#old_password", factories.PASSWORD)
    here.fill("#new_password", NEW)
    here.click("#password-form button[type=submit]")

    status = here.locator("#password-status")
    status.filter(has_text="geändert" if locale.startswith("de") else "changed").wait_for()
    assert here.locator("#sessions-list li").count() == 1
    there.reload()
    there.wait_for_url(re.compile(r"/login\?next=/account$"))
    here.reload()
    here.locator("#sessions-list li.current").wait_for()


def test_a_wrong_current_password_is_said_and_changes_nothing(new_page: Any) -> None:
    factories.user(username="lena")
    page = new_page(locale="en-US", viewport=PHONE)
    _log_in(page, "lena")

    page.fill("#old_password", "not-my-password")
    page.fill("#new_password", NEW)
    page.click("#password-form button[type=submit]")

    page.locator("#password-status.is-error").filter(has_text="The password is wrong").wait_for()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_play_settings_follow_the_account_to_a_second_browser(
    new_page: Any, locale: str, viewport: dict[str, int]
) -> None:
    factories.user(username="lena")
    first = new_page(locale=locale, viewport=viewport)
    _log_in(first, "lena")

    first.click("label:has(#setting-four_color)")
    first.click("label:has(#setting-drop_hints)")
    first.locator("#settings-section .settings-status").filter(has_text=re.compile(r"\S")).wait_for()

    second = new_page(locale=locale, viewport=viewport)  # another browser: nothing in its storage
    _log_in(second, "lena")
    assert second.locator("#setting-four_color").is_checked()
    assert not second.locator("#setting-drop_hints").is_checked()
    second.goto("/")
    second.wait_for_selector("#table.four-color")


def test_tokens_are_made_shown_once_and_revoked_and_other_sessions_logged_out(new_page: Any) -> None:
    factories.user(username="lena")
    elsewhere = new_page(locale="en-US", viewport=DESKTOP)
    _log_in(elsewhere, "lena")
    page = new_page(locale="en-US", viewport=PHONE)
    page.goto("/")
    page.locator('#account a[href^="/login"]').wait_for()  # the header of a guest...
    _log_in(page, "lena")
    assert page.locator("#account-link").get_attribute("href") == "/account"  # ...and of an account

    # The tokens are a section of their own, folded: not among the player's settings until opened.
    assert page.get_by_role("heading", name="API tokens").is_visible()
    assert not page.locator("#token-form").is_visible()
    page.get_by_text("Show the API tokens").click()
    page.fill("#token-name", "my bot")
    page.click("#token-form button[type=submit]")
    key = page.locator("#token-key")
    key.filter(has_text=re.compile(r"^[0-9a-f]{40}$")).wait_for()
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {key.text_content()}")
    assert bot.get("/api/v1/auth/me").json()["username"] == "lena"
    page.reload()
    page.get_by_text("Show the API tokens").click()
    page.locator("#tokens-list li").filter(has_text="my bot").wait_for()
    assert not page.locator("#token-new").is_visible()  # shown once

    page.locator("#tokens-list li").filter(has_text="my bot").get_by_role("button").click()
    page.locator("#tokens-status").filter(has_text="revoked").wait_for()
    assert bot.get("/api/v1/auth/me").status_code == 401
    assert page.locator("#sessions-list li").count() == 2

    page.click("#sessions-end")
    page.locator("#sessions-status").filter(has_text="1 other session").wait_for()
    assert page.locator("#sessions-list li").count() == 1
    elsewhere.reload()
    elsewhere.wait_for_url(re.compile(r"/login\?next=/account$"))
