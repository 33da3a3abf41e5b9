"""A first visit to the board deals in one round trip (issue 49 item 5): the page carries who is
playing (the answer of auth/me), so the deal is asked at once instead of after auth/me."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests import factories
from tests.frontend.conftest import PHONE
from tests.frontend.support import log_in

pytestmark = pytest.mark.browser


def api_calls(page: Any) -> list[str]:
    calls: list[str] = []
    page.on("request", lambda r: "/api/v1/" in r.url and calls.append(f"{r.method} {r.url.split('/api/v1/')[1]}"))
    return calls


def test_a_first_visit_deals_without_asking_who_is_playing_first(new_page: Any) -> None:
    page = new_page(viewport=PHONE, has_touch=True)
    calls = api_calls(page)

    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")

    assert calls[0].startswith("POST games"), calls  # the deal first: one round trip to the cards
    assert not any(call.startswith("GET auth/me") for call in calls), calls
    config = json.loads(page.locator("#page-config").text_content())
    assert config["me"]["authenticated"] is False and config["me"]["username"] is None


def test_a_logged_in_page_knows_its_player_from_the_page_itself(new_page: Any) -> None:
    page = new_page(locale="en-US")
    log_in(page, factories.user(username="Lena"))
    calls = api_calls(page)

    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")

    assert page.locator("#account .who").inner_text() == "Lena"
    assert not any(call.startswith("GET auth/me") for call in calls), calls
