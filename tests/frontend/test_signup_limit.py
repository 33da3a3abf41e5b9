"""The sign-up page says the limit of new accounts per network address once it applies and when it is
hit (issue 24 item 3), in German and English, on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests import factories
from tests.frontend.conftest import PHONE

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("locale", "before", "refused"),
    [
        ("de-DE", "höchstens 1 pro Tag", "Von deiner Netzwerkadresse können bis 00:00 UTC keine weiteren Konten"),
        ("en-US", "at most 1 per day", "No more accounts can be created from your network address until 00:00 UTC"),
    ],
)
def test_the_sign_up_page_says_the_limit_and_when_it_is_reached(
    new_page: Any, settings: Any, locale: str, before: str, refused: str
) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "signup_ip": "1/day"}}
    page = new_page(locale=locale, viewport=PHONE)

    def sign_up(name: str, *, first: bool = False) -> None:
        page.goto("/signup")
        if first:  # named only once it applies: an account was made from this address (issue 49)
            assert page.locator("#signup-limit").count() == 0
        else:
            assert before in page.locator("#signup-limit").text_content()
        page.fill("#username", name)
        page.fill("#password", factories.PASSWORD)
        page.locator("#auth-form button[type=submit]").click()

    sign_up("first", first=True)
    page.wait_for_url("**/")
    page.context.clear_cookies()  # a new visitor, from the same address

    sign_up("second")

    error = page.locator("#auth-error")
    error.wait_for(state="visible")
    assert refused in error.text_content() and before in error.text_content()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first"]


@pytest.mark.parametrize(
    ("locale", "rule", "sent"),
    [
        ("de-DE", "mindestens 8 Zeichen", "Ein Link zur Bestätigung von lena@example.com ist unterwegs"),
        ("en-US", "at least 8 characters", "A link to confirm lena@example.com is on its way"),
    ],
)
def test_the_sign_up_shows_the_password_rules_first_and_then_that_a_confirmation_mail_went_out(
    new_page: Any, locale: str, rule: str, sent: str
) -> None:
    """Issue 49 item 5: the rules before the first try, and a word that the mail was sent."""
    page = new_page(locale=locale, viewport=PHONE, has_touch=True)
    page.goto("/signup")
    rules = page.locator("#password-rules")
    assert rule in rules.text_content()
    assert "password-rules" in page.locator("#password").get_attribute("aria-describedby")

    page.fill("#username", "lena")
    page.fill("#password", "12345678")  # all digits: refused, the rules still named beside the error
    page.locator("#auth-form button[type=submit]").click()
    page.locator("#password-error").wait_for(state="visible")
    assert page.locator("#password").get_attribute("aria-describedby") == "password-rules password-error"

    page.fill("#password", factories.PASSWORD)
    page.fill("#email", "lena@example.com")
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url("**/")
    notice = page.locator("#confirm-sent")
    notice.wait_for(state="visible")
    assert sent in notice.text_content()
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    assert page.locator("#confirm-sent").count() == 0  # said once
