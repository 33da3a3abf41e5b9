"""Issue 41, items 5 and 7 in the browser: the footer's language switch for a guest and for an
account, on a desktop with the keyboard and on a phone by touch; and the small gaps: the board
fits a 390-px phone with its replay links and explains its marks, the undo's help says an undo
counts as a move, the header's links show a clear focus ring, and logging out says so."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from games.competition import clock
from tests import factories
from tests.stats.helpers import result_for, won_ranked_game

from .conftest import DESKTOP, PHONE
from .support import daily_deal, log_in
from .test_axe import violations


def test_a_guest_switches_the_language_in_the_footer_and_keeps_it(new_page: Any, screenshot: Any) -> None:
    page = new_page(locale="de-DE", viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto("/")
    page.locator("#stat-time").wait_for()
    page.wait_for_function("() => /^YU1-/.test(document.getElementById('code-text').textContent)")
    game = page.url
    switch = page.get_by_role("form", name="Sprache")
    assert switch.get_by_role("button", name="Deutsch").get_attribute("aria-pressed") == "true"
    switch.get_by_role("button", name="English").tap()
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    # The same game, now in English: the page's text and the scripts' own.
    assert page.url == game
    assert page.get_by_role("button", name="New game").is_visible()
    page.wait_for_function("() => /^YU1-/.test(document.getElementById('code-text').textContent)")
    assert (
        page.get_by_role("form", name="Language").get_by_role("button", name="English").get_attribute("aria-pressed")
        == "true"
    )
    screenshot(page, "language-switch-guest-en-phone")
    # Kept: another page, another visit of this browser, whatever the browser asks for.
    page.goto("/leaderboards")
    assert page.get_by_role("heading", name="Leaderboards").is_visible()
    assert violations(page, "a page after the switch") == []


def test_an_account_switches_with_the_keyboard_and_its_setting_follows(new_page: Any) -> None:
    account = factories.user(username="lena")
    page = new_page(locale="en-US", viewport=DESKTOP)
    log_in(page, account)
    page.goto("/account")
    page.locator("#language-select").wait_for()
    page.get_by_role("button", name="Deutsch").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert page.url.endswith("/account")
    assert page.get_by_role("heading", name="Dein Konto").is_visible()
    # The account page shows it as the account's language, and a new browser of the account gets it.
    page.wait_for_function("() => document.getElementById('language-select').value === 'de'")
    account.profile.refresh_from_db()
    assert account.profile.language == "de"


def test_the_board_fits_a_phone_with_its_replays_and_explains_its_marks(new_page: Any, screenshot: Any) -> None:
    yesterday = clock.today() - timedelta(days=1)
    daily_deal(yesterday, players=12)
    names = ["Maximilian_Mustermann", "SolitaireQueen2026", "Friedrich_Wilhelm_IV", "kartenhai", "x"]
    for rank, name in enumerate(names * 2, start=1):
        owner = factories.user(username=f"{name}{rank}")
        result_for(won_ranked_game(owner=owner, day=yesterday, time_ms=600_000 + rank * 61_000, moves=100 + rank))
    page = new_page(locale="de-DE", viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(f"/leaderboards?date={yesterday.isoformat()}")
    page.locator("#lb-table").wait_for()
    links = page.locator("#lb-table .lb-replay a")
    assert links.count() == 10  # the day's top 10
    assert page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [PHONE["width"]] * 2
    table = page.locator(".table-scroll").evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert table[0] <= table[1]  # the board scrolls sideways neither
    for index in range(links.count()):
        box = links.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    legend = page.locator("#lb-legend")
    assert legend.is_visible()
    text = legend.inner_text()
    assert "geprüft" in text and "Par" in text and "grün: alle 52" in text
    assert "Par 90 Züge" in page.locator(".sheet-sub").inner_text()
    assert page.locator(".sheet-sub").inner_text().startswith(f"Yukon #{clock.daily_number(yesterday)} · ")
    screenshot(page, "board-phone-de")
    assert violations(page, "the board on a phone") == []


def test_the_undo_says_that_it_counts_as_a_move(new_page: Any) -> None:
    page = new_page(locale="en-US")
    page.goto("/")
    assert "counts as a move" in page.locator("#undo-button").get_attribute("title")
    page.get_by_text("Rules", exact=True).click()
    assert "Each undo counts as a move too" in page.locator("#undo-help").inner_text()
    page.get_by_text("Keyboard", exact=True).click()
    assert page.get_by_text("Ctrl+Z or U: undo (counts as a move)").is_visible()


def test_the_header_links_show_a_clear_focus_ring(new_page: Any) -> None:
    page = new_page(locale="en-US")
    page.goto("/archive")
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # the brand
    page.keyboard.press("Tab")  # the menu's first link
    focused = page.evaluate(
        "() => { const el = document.activeElement, s = getComputedStyle(el);"
        " return [el.textContent, s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }"
    )
    assert focused[0] == "Play"
    assert focused[1] == "solid" and focused[2] >= 3 and focused[3] == "rgb(143, 211, 255)"


def test_logging_out_says_so_on_the_next_page(new_page: Any) -> None:
    page = new_page(locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, factories.user(username="lena"))
    page.goto("/archive")
    page.locator("#logout-button").tap()
    notice = page.locator("#logged-out")
    notice.wait_for()
    assert notice.text_content().startswith("You are logged out.")
    assert page.locator('#account a[href^="/login"]').is_visible()
    page.reload()
    page.locator('#account a[href^="/login"]').wait_for()
    assert page.locator("#logged-out").count() == 0  # said once
