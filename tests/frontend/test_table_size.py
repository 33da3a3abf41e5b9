"""The table uses the screen (issue 49, item 1), measured on the rendered page: on a 390x844
phone every covered face-up card shows at least 24 px (WCAG 2.5.8's smallest target), on a
1366x800 desktop the cards are at least 100 px wide; a phone held sideways and a tablet too.
Nothing scrolls sideways, nothing moves as the page loads, the bar keeps its places when Finish
comes, and every button's word fits it in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game as EngineGame
from games.engine import GameCode
from tests import factories

from .support import open_deal, session_key, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}

#: Page script: every column's cards top to bottom, as the screen shows them.
COLUMNS = """() => {
    const columns = [];
    for (let c = 1; c <= 7; c++) {
        const cards = [...document.querySelectorAll(`#table .card[data-place="t${c}"]`)]
            .map((el) => ({ down: el.classList.contains('down'), box: el.getBoundingClientRect() }))
            .sort((a, b) => a.box.top - b.box.top);
        columns.push(cards.map(({ down, box }) => ({ down, top: box.top, bottom: box.bottom, width: box.width,
                                                     left: box.left, right: box.right })));
    }
    return columns;
}"""
#: Page script: the layout shifts the browser counted since the page began (CLS's entries).
WATCH_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
}).observe({ type: 'layout-shift', buffered: true });
"""
#: Page script: buttons of the bar whose word is wider than the button.
OVERFLOWING = """() => [...document.querySelectorAll('.game-bar .button')].filter((b) => b.offsetWidth).filter((b) => {
    const word = b.querySelector('span:not(.visually-hidden)');
    if (!word) return false;
    const range = document.createRange();
    range.selectNodeContents(word);
    const box = range.getBoundingClientRect(), own = b.getBoundingClientRect();
    return box.left < own.left - 0.5 || box.right > own.right + 0.5 || box.bottom > own.bottom + 0.5;
}).map((b) => b.id)"""


def strips(columns: list[list[dict[str, Any]]]) -> tuple[list[float], list[float]]:
    """The visible strips of covered face-up and face-down cards."""
    up: list[float] = []
    down: list[float] = []
    for column in columns:
        for card, below in zip(column, column[1:], strict=False):
            (down if card["down"] else up).append(below["top"] - card["top"])
    return up, down


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_on_a_phone_every_covered_face_up_card_shows_at_least_24_px(
    new_page: Any, screenshot: Any, locale: str
) -> None:
    page = new_page(locale=locale, **PHONE)
    open_deal(page, "YU1-C-AAAAAAB")
    columns = page.evaluate(COLUMNS)
    up, down = strips(columns)
    assert len(up) == 24 and len(down) == 21  # a new deal: 31 face up, 7 of them last in a column
    assert min(up) >= 24, up
    assert min(down) >= 6, down
    width = columns[0][0]["width"]
    assert width >= 49
    assert all(c["right"] <= 390 and c["left"] >= 0 for column in columns for c in column)
    assert max(c["bottom"] for column in columns for c in column) <= 844  # the whole deal in view
    no_sideways_scroll(page)
    assert page.evaluate(OVERFLOWING) == []  # "Rückgängig" fits its button
    screenshot(page, f"table-phone-{locale}", full_page=False)


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_on_a_desktop_the_cards_are_at_least_100_px_wide(new_page: Any, screenshot: Any, locale: str) -> None:
    page = new_page(locale=locale, **DESKTOP)
    open_deal(page, "YU1-C-AAAAAAB")
    columns = page.evaluate(COLUMNS)
    width = columns[0][0]["width"]
    assert width >= 100, width
    up, _ = strips(columns)
    assert min(up) >= 36
    assert max(c["bottom"] for column in columns for c in column) <= 800  # the deal in the window
    assert columns[6][0]["right"] - columns[0][0]["left"] > 1366 * 0.55  # the table uses the width
    no_sideways_scroll(page)
    assert page.evaluate(OVERFLOWING) == []
    screenshot(page, f"table-desktop-{locale}", full_page=False)


@pytest.mark.parametrize("device", ["landscape", "tablet"])
def test_a_phone_held_sideways_and_a_tablet_fit_the_cards_to_the_screen(new_page: Any, device: str) -> None:
    page = new_page(**{"landscape": LANDSCAPE, "tablet": TABLET}[device])
    open_deal(page, "YU1-C-AAAAAAB")
    columns = page.evaluate(COLUMNS)
    up, _ = strips(columns)
    assert min(up) >= 24
    no_sideways_scroll(page)
    if device == "tablet":
        assert columns[0][0]["width"] >= 100
    else:  # the bar scrolls away: the deal fits the window's height
        top = page.evaluate("document.getElementById('table').getBoundingClientRect().top")
        assert max(c["bottom"] for column in columns for c in column) - top <= 390


@pytest.mark.parametrize("first_visit", [False, True])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_nothing_moves_as_the_play_page_loads(new_page: Any, device: str, first_visit: bool) -> None:
    """Lighthouse desktop counted a layout shift of 0.37: the bar wrapped when Pause came."""
    page = new_page(first_visit=first_visit, **{"desktop": DESKTOP, "phone": PHONE}[device])
    page.add_init_script(WATCH_SHIFTS)
    page.goto("/", wait_until="networkidle")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)
    page.wait_for_timeout(300)
    shifts = page.evaluate("window.__shifts")
    assert sum(shifts) < 0.01, shifts


def test_finish_takes_the_place_of_the_help_and_the_bar_keeps_its_places(new_page: Any) -> None:
    for device in (DESKTOP, PHONE):
        page = new_page(**device)
        open_deal(page, "YU1-C-AAAAAAB")
        places = "() => ['undo-button', 'new-button', 'settings-button', 'table'].map((id) => {"
        places += " const b = document.getElementById(id).getBoundingClientRect(); return [b.x, b.y, b.width]; })"
        before = page.evaluate(places)
        # Every card face up and putting them up wins: the bar offers Finish.
        foundations = {"S": "JS", "H": "KH", "D": "KD", "C": "KC"}
        engine = EngineGame.from_layout(
            [["KS", "QS"], [], [], [], [], [], []], foundations, code=GameCode.parse("YU1-C-AAAAAAC")
        )
        ready = factories.game(session_key=session_key(page), engine=engine)
        page.goto(f"/?game={ready.pk}")
        page.locator("#finish-button").wait_for(state="visible")
        assert page.evaluate(places) == before
        assert page.locator("#hint-button").is_hidden()
        assert page.evaluate(OVERFLOWING) == []
