"""The sign-up page says the limit of new accounts per network address, beforehand and when it is
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

    def sign_up(name: str) -> None:
        page.goto("/signup")
        assert before in page.locator("#signup-limit").text_content()
        page.fill("#username", name)
        page.fill("#password", factories.PASSWORD)
        page.locator("#auth-form button[type=submit]").click()

    sign_up("first")
    page.wait_for_url("**/")
    page.context.clear_cookies()  # a new visitor, from the same address

    sign_up("second")

    error = page.locator("#auth-error")
    error.wait_for(state="visible")
    assert refused in error.text_content() and before in error.text_content()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["first"]
