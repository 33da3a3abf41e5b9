"""axe-core (axe-playwright-python) finds no WCAG 2.1 A/AA violation on any page or dialog: desktop
and phone, German and English, as a guest and logged in with games to show."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode
from tests import factories

from .conftest import PHONE
from .support import daily_deal, log_in, session_key

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WCAG_21_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # WCAG 2.5.3 (a visible label is part of the name): an "experimental" rule, off unless named.
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}
DEVICES = {
    "desktop": {"viewport": {"width": 1366, "height": 800}},
    "phone": {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}
#: Each page and what says it is ready (its data is in).
PAGES = {
    "/": "document.querySelectorAll('#table .card').length === 52",
    "/daily": "!document.querySelector('main [aria-busy=true]')",
    "/leaderboards": "true",
    "/archive": "document.body.dataset.archiveReady === '1'",
    "/games": "true",
    "/stats": "document.body.dataset.statsReady === '1'",
    "/login": "true",
    "/signup": "true",
    "/account/password-reset": "true",
}
#: The pages only an account sees.
ACCOUNT_PAGES = {
    "/account": "document.querySelectorAll('#sessions-list li').length > 0",
}

axe = Axe()


def violations(page: Any, where: str) -> list[str]:
    page.wait_for_timeout(350)  # transitions (a dialog's, the deal's) at rest: axe sees final colours
    found = axe.run(page, options=WCAG_21_AA).response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}) " + " | ".join(" ".join(node["target"]) for node in v["nodes"][:4])
        for v in found
    ]


def visit(page: Any, path: str) -> None:
    page.goto(path, wait_until="networkidle")
    page.wait_for_function("() => " + {**PAGES, **ACCOUNT_PAGES}[path.split("?")[0]])


def close_dialog(page: Any) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")


def one_move_from_winning() -> tuple[EngineGame, str]:
    """A game whose last card goes to its foundation with one tap."""
    foundations = {"S": "KS", "H": "KH", "D": "KD", "C": "QC"}
    engine = EngineGame.from_layout([["KC"], [], [], [], [], [], []], foundations, code=GameCode.parse("YU1-C-AAAAAAC"))
    return engine, "KC"


def finish_offered() -> EngineGame:
    """Every card face up, and putting them up wins: the game bar offers Finish."""
    foundations = {"S": "JS", "H": "KH", "D": "KD", "C": "KC"}
    code = GameCode.parse("YU1-C-AAAAAAC")
    return EngineGame.from_layout([["KS", "QS"], [], [], [], [], [], []], foundations, code=code)


def won() -> EngineGame:
    foundations = {"S": "KS", "H": "KH", "D": "KD", "C": "KC"}
    return EngineGame.from_layout([[], [], [], [], [], [], []], foundations, code=GameCode.parse("YU1-C-AAAAAAC"))


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_no_page_or_dialog_has_a_wcag_violation(new_page: Any, device: str, locale: str) -> None:
    daily_deal(clock.today())
    page = new_page(locale=locale, **DEVICES[device])
    found: list[str] = []
    # A guest: every page, then the play page's dialogs.
    for path in PAGES:
        visit(page, path)
        found += violations(page, f"{path} guest")
    visit(page, "/")
    page.locator("#new-button").click()
    page.wait_for_selector("#new-dialog[open]")
    found += violations(page, "new-game dialog")
    close_dialog(page)
    page.locator("#settings-button").click()
    page.wait_for_selector("#settings-dialog[open]")
    found += violations(page, "settings dialog")
    close_dialog(page)
    page.locator("#keys-help summary").click()
    found += violations(page, "/ keyboard help open")
    page.locator("#pause-button").click()  # a paused game: the cover over the table
    page.wait_for_selector("#pause-cover:not([hidden])")
    found += violations(page, "/ paused")
    page.locator("#resume-button").click()
    page.wait_for_selector("#pause-cover[hidden]", state="attached")

    # A game with moves: leaving it asks first; then a win.
    key = session_key(page)
    game_id = page.evaluate("localStorage.getItem('yukon.game')")
    move = EngineGame.new(GameCode.parse(page.locator("#code-text").text_content())).legal_moves()[0].to_json()
    page.evaluate(
        """async ([id, move]) => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const headers = { "Content-Type": "application/json", "X-CSRFToken": csrf };
            await fetch(`/api/v1/games/${id}/moves`, { method: "POST", headers, body: JSON.stringify(move) });
        }""",
        [game_id, move],
    )
    visit(page, f"/?game={game_id}")
    page.locator("#new-button").click()
    page.wait_for_selector("#confirm-dialog[open]")
    found += violations(page, "confirm dialog")
    close_dialog(page)
    ready = factories.game(session_key=key, engine=finish_offered())
    page.goto(f"/?game={ready.pk}", wait_until="networkidle")
    page.wait_for_selector("#finish-button:not([hidden])")
    found += violations(page, "/ finish offered")
    engine, card = one_move_from_winning()
    almost = factories.game(session_key=key, engine=engine)
    page.goto(f"/?game={almost.pk}", wait_until="networkidle")
    page.wait_for_selector(f"#card-{card}")
    page.locator(f"#card-{card}").click()
    page.wait_for_selector("#win-dialog[open]")
    found += violations(page, "win dialog")

    # Logged in, with won games to chart and list.
    account = factories.user()
    for _ in range(3):
        factories.game(owner=account, engine=won())
    log_in(page, account)
    for path in ("/stats", "/games", "/daily", "/account", "/"):
        visit(page, path)
        found += violations(page, f"{path} logged in")

    assert not found, "\n".join(found)
