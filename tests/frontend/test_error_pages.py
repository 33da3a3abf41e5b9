"""The site's 404 page as a player meets it (issue 28 item 5): the site's header and look, the
player's language, a way home; a replay address that is no game's gets it too. (403, 400 and 500,
both languages: tests/site/test_error_pages.py.)"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser


def test_an_unknown_address_gets_the_sites_404_page_with_a_way_home(new_page: Any, screenshot: Any) -> None:
    page = new_page(locale="en-US")
    response = page.goto("/no-such-page")
    assert response.status == 404
    assert page.locator("h1").text_content() == "Page not found"
    assert page.title() == "Page not found – Yukon Solitaire"
    assert page.locator(".site-nav a").count() == 6  # the whole header: every page is one click away
    assert page.locator(".skip-link").text_content() == "Skip to the content"  # not named like a nav link
    screenshot(page, "error-404-en", full_page=False)

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    response = phone.goto("/replay/12345")  # not a game's id at all
    assert response.status == 404
    assert phone.locator("html").get_attribute("lang") == "de"
    assert phone.locator("h1").text_content() == "Seite nicht gefunden"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "error-404-de-phone", full_page=False)
    home = phone.locator("#error-home")
    assert home.text_content() == "Zurück zum Spiel" and home.is_visible()
    home.tap()
    phone.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    assert urlsplit(phone.url).path == "/"  # the play page
