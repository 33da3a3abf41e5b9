"""Phone and page polish (issue 16, items 7–21): names and icons of buttons, no sideways scroll,
lasting messages for a game that cannot be shown, plurals, the sign-up form's field errors, the
statistics and leaderboards in their empty states, and the first-visit introduction."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest

from games.competition import clock
from games.models import Game, StatusChoices
from tests import factories
from tests.stats.helpers import won_ranked_game

from .conftest import PHONE
from .support import daily_deal, log_in, open_deal, settle

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


def board_ready(page: Any) -> None:
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)


def test_every_button_on_a_phone_has_a_name_and_shows_an_icon_or_text(new_page: Any, screenshot: Any) -> None:
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    open_deal(page, "YU1-C-AAAAAAB")
    screenshot(page, "play-phone-de", full_page=False)
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null).filter((b) => {
            // Named by aria-label, or by its own words where they show (WCAG 2.5.3 wants no other name).
            const label = (b.getAttribute('aria-label') || (b.innerText || '')).trim();
            const shown = [...b.querySelectorAll('svg, span')].some((el) => el.getBoundingClientRect().width > 0)
                || (b.childElementCount === 0 && b.textContent.trim() !== '');
            return !label || !shown;
        }).map((b) => b.id || b.outerHTML.slice(0, 60))"""
    )
    assert unnamed == []
    assert page.locator("#winnable-button").get_attribute("aria-label") == "Noch lösbar?"
    assert page.locator("#new-button").get_attribute("aria-label") == "Neues Spiel"
    assert page.locator("#winnable-button svg").bounding_box()["width"] > 0
    # Each icon has its word beside it, visible on a phone too (issue 28 item 11): no tooltip there.
    words = (("undo", "Rückgängig"), ("hint", "Tipp"), ("winnable", "Noch lösbar?"), ("new", "Neues Spiel"))
    for button, word in words:
        label = page.locator(f"#{button}-button span")
        assert label.is_visible() and label.text_content() == word
        box = label.bounding_box()
        assert box["width"] > 20 and box["height"] > 6
    one_line = page.locator("#hint-button span").bounding_box()["height"]
    assert page.locator("#undo-button span").bounding_box()["height"] < 1.5 * one_line  # "Rückgängig" not broken


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/daily",
        "/leaderboards",
        "/archive",
        "/stats",
        "/games",
        "/login",
        "/signup",
        "/account",
        "/account/password-reset",
    ],
)
def test_no_page_scrolls_sideways_at_360_px(new_page: Any, path: str) -> None:
    user = factories.user()
    won = factories.game(owner=user, code="YU1-R-AAAAAAC", status=StatusChoices.WON)
    Game.objects.filter(pk=won.pk).update(moves=140, score=625, time_ms=200_000)
    factories.game(owner=user, code="YU1-C-AAAAAAD", moves=3)
    page = new_page(viewport=NARROW, is_mobile=True, has_touch=True, locale="de-DE")
    log_in(page, user)
    page.goto(path)
    page.wait_for_load_state("networkidle")
    if path == "/stats":
        page.locator("#rules-section").wait_for(state="visible")
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]


def test_a_bad_game_id_or_code_shows_a_lasting_message_with_a_way_to_a_new_game(page: Any, screenshot: Any) -> None:
    page.goto(f"/?game={uuid.uuid4()}")
    lost = page.locator("#game-lost")
    lost.wait_for(state="visible")
    assert "gibt es nicht" in lost.text_content()
    assert page.locator("#undo-button").is_hidden() and page.locator("#table").is_hidden()
    assert page.locator("#code-text").is_hidden() or page.locator("#code-text").text_content() == "–"
    screenshot(page, "bad-game-de", full_page=False)
    page.wait_for_timeout(7500)  # a rule note would be gone by now
    assert lost.is_visible()

    page.goto("/?code=BAD")
    lost.wait_for(state="visible")
    assert "Spielcode" in lost.text_content() and "„BAD“" in lost.text_content()  # German quotation marks
    page.locator("#lost-new").click()
    page.locator("#new-dialog").wait_for(state="visible")
    page.locator("#new-start").click()
    board_ready(page)
    assert lost.is_hidden() and page.locator("#table").is_visible()


@pytest.mark.parametrize(("locale", "one"), [("de-DE", "1 Tag"), ("en-US", "1 day")])
def test_counts_use_plural_rules(new_page: Any, locale: str, one: str) -> None:
    today = clock.today()
    daily_deal(today)
    user = factories.user()
    won_ranked_game(owner=user, day=today, time_ms=90_000)
    page = new_page(locale=locale)
    log_in(page, user)
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#tile-streak strong").text_content() == one
    assert page.locator("#tile-longest strong").text_content() == one


def test_a_guest_without_games_reads_a_capitalised_invitation(page: Any) -> None:
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#chart-empty").text_content() == "Noch keine Spiele – Zeit für das erste!"


def test_the_empty_sign_up_form_names_the_problem_beside_each_field(new_page: Any, screenshot: Any) -> None:
    for locale, text in (("de-DE", "Bitte ausfüllen."), ("en-US", "Please fill this in.")):
        page = new_page(locale=locale)
        page.goto("/signup")
        page.locator("#auth-form button[type=submit]").click()
        assert page.locator("#username-error").text_content() == text
        assert page.locator("#password-error").text_content() == text
        assert page.locator("#auth-error").is_hidden()
        assert "username:" not in page.content()
        screenshot(page, f"signup-empty-{locale}", full_page=False)
    page.locator("#username").fill("someone")
    page.locator("#password").fill("x")  # too weak: the server's reason beside the password
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_function("() => document.getElementById('password-error').textContent.includes('password')")
    assert page.locator("#username-error").is_hidden()


def test_an_unknown_player_gets_only_that_message(page: Any) -> None:
    page.goto("/stats?user=doesnotexist")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#stats-note").text_content() == "Diesen Spieler gibt es nicht."
    assert page.locator("#stats-tiles").is_hidden() and page.locator("#chart-card").is_hidden()
    assert "Noch keine Spiele" not in page.locator("main").inner_text()


def test_the_rank_1_medal_needs_no_emoji_font_and_the_day_buttons_work(page: Any, screenshot: Any) -> None:
    today = clock.today()
    yesterday = today - timedelta(days=1)
    daily_deal(yesterday)
    winner = factories.user(username="first")
    from tests.stats.helpers import result_for

    result_for(won_ranked_game(owner=winner, day=yesterday, time_ms=90_000))
    page.goto(f"/leaderboards?date={yesterday.isoformat()}")
    page.locator("#lb-table tr.rank-1").wait_for()
    medal = page.locator("#lb-table tr.rank-1 td").first.evaluate("el => getComputedStyle(el, '::before').content")
    assert medal == '""'  # a CSS badge, not the emoji U+1F947
    assert page.locator("#lb-next").is_enabled()
    screenshot(page, "leaderboards-medal", full_page=False)

    page.locator("#lb-next").click()  # today
    page.wait_for_function(f"() => location.search === '?date={today.isoformat()}'")
    assert page.locator("#lb-next").is_disabled()
    page.goto(f"/leaderboards?date={(today - timedelta(days=9)).isoformat()}")
    page.wait_for_function("() => !document.getElementById('lb-message').textContent.includes('…')")
    assert page.locator("#lb-message").text_content() == "An diesem Tag gab es kein Tagesspiel."


NOTE_CLEAR = """() => {
    const note = document.getElementById('rule-note').getBoundingClientRect();
    const bar = document.querySelector('.game-bar .actions').getBoundingClientRect();
    const cards = [...document.querySelectorAll('#table .card')].map((card) => card.getBoundingClientRect().bottom);
    const docked = getComputedStyle(document.getElementById('rule-note')).position !== 'fixed';  // in the page
    return { overBar: note.top < bar.bottom && note.bottom > bar.top, docked, lowest: Math.max(...cards),
             noteTop: docked ? Infinity : note.top };
}"""


@pytest.mark.parametrize(
    "device",
    [
        # A desktop window at 200 % zoom (1366 × 800 px seen as 683 × 400), and a phone.
        {"viewport": {"width": 683, "height": 400}, "device_scale_factor": 2},
        {"viewport": PHONE, "is_mobile": True, "has_touch": True},
    ],
    ids=["zoom-200", "phone"],
)
def test_tapping_a_last_card_that_cannot_go_up_explains_why(new_page: Any, device: dict[str, Any]) -> None:
    page = new_page(**device)
    open_deal(page, "YU1-C-AAAAAAB")  # column 1 holds the 7 of hearts: no foundation takes it
    page.locator("#card-7H").click()
    note = page.locator("#rule-note")
    note.wait_for(state="visible")
    assert note.get_attribute("data-code") == "not_next_on_foundation"
    assert note.locator(".rule-icon").text_content() == "§"  # a rule's icon; a hint or an error has its own
    assert page.locator("#stat-moves").text_content() == "0"
    # The note covers no control (issue 28 item 9): never the game bar's buttons, at the top of the
    # page or anywhere else, and the end of the longest column can be scrolled above it.
    page.evaluate("scrollTo(0, 0)")
    page.wait_for_timeout(100)
    assert not page.evaluate(NOTE_CLEAR)["overBar"]
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    clear = page.evaluate(NOTE_CLEAR)
    assert not clear["overBar"] and clear["lowest"] <= clear["noteTop"], clear


def test_a_code_decides_the_rule_and_the_dialog_says_so_before_starting(page: Any, screenshot: Any) -> None:
    open_deal(page, "YU1-C-AAAAAAB")
    page.locator("#new-button").click()
    # The placeholder keeps its own case ("… oder YU2-C-…", not "… ODER …"; issue 28 item 10).
    placeholder = "getComputedStyle(document.getElementById('new-code'), '::placeholder').textTransform"
    assert page.evaluate(placeholder) == "none"
    # A code that looks right but is none: only the red error, no green "this code decides the rule".
    page.locator("#new-code").fill("YU1-C-AAAA1AA")
    page.locator("#new-start").click()
    page.locator("#new-error").wait_for(state="visible")
    assert "„YU1-C-AAAA1AA“" in page.locator("#new-error").text_content()  # German quotation marks
    assert page.locator("#new-code-rule").is_hidden()
    page.locator("#new-code").fill("")
    page.locator("input[name=rule][value=relaxed]").check()
    page.locator("#new-code").fill("YU1-C-AAAAAAC")
    assert page.locator("#new-error").is_hidden()
    # Which rule is the server's to say (the page reads no code): the game's badge, once started.
    assert page.locator("#new-code-rule").text_content() == "Der Spielcode legt die Regel fest."
    assert page.locator("input[name=rule][value=classic]").is_disabled()
    assert page.locator("input[name=rule][value=relaxed]").is_disabled()
    screenshot(page, "new-dialog-code-rule", full_page=False)
    page.locator("#new-start").click()
    page.wait_for_function("() => document.getElementById('code-text').textContent === 'YU1-C-AAAAAAC'")
    assert page.locator("#rule-badge").text_content() == "Klassisch"


def test_the_chart_waits_for_the_first_finished_game_with_a_friendly_word(new_page: Any) -> None:
    user = factories.user()
    factories.game(owner=user, code="YU1-C-AAAAAAD", moves=7)  # played, not finished
    page = new_page(locale="en-US")
    log_in(page, user)
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#chart-empty").text_content() == (
        "No finished game yet – the chart appears with your first win."
    )
    assert page.locator("#history-chart").is_hidden()


def test_a_first_visit_shows_how_to_play_once_in_the_players_language(new_page: Any, screenshot: Any) -> None:
    for locale, title in (("de-DE", "So spielst du Yukon"), ("en-US", "How to play Yukon")):
        page = new_page(locale=locale, first_visit=True)
        page.goto("/")
        board_ready(page)
        howto = page.locator("#howto")
        assert howto.is_visible() and howto.locator("h2").text_content() == title
        assert howto.bounding_box()["y"] < 800  # above the fold of 1366×800
        screenshot(page, f"howto-{locale}", full_page=False)
        howto.locator("button").click()
        assert howto.is_hidden()
        page.reload()
        board_ready(page)
        assert howto.is_hidden()


def test_clean_wins_replace_the_highest_score(new_page: Any) -> None:
    user = factories.user()
    for score in (625, 675):  # 675: five take-back-and-return cycles
        won = factories.game(owner=user, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
        Game.objects.filter(pk=won.pk).update(moves=200, score=score, time_ms=100_000)
        from stats import services

        services.personal_best_record(game_id=won.pk)
    page = new_page()
    log_in(page, user)
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#tile-clean strong").text_content() == "1"
    assert page.locator("#tile-bestscore").count() == 0
    assert "675" not in page.locator("#stats-tiles").inner_text()


@pytest.mark.parametrize(
    ("locale", "one", "two"),
    [("de-DE", "1 Karte darauf", "2 Karten darauf"), ("en-US", "1 card on it", "2 cards on it")],
)
def test_the_keyboard_cursor_counts_the_cards_on_a_card_by_plural_rules(
    new_page: Any, locale: str, one: str, two: str
) -> None:
    page = new_page(locale=locale)
    open_deal(page, "YU1-C-AAAAAAB")  # column 2: one face-down card under five face-up ones
    page.locator("#table").focus()
    page.keyboard.press("2")  # the cursor on the column's last card
    page.keyboard.press("ArrowUp")
    page.wait_for_function(f"() => document.getElementById('live').textContent.endsWith({', ' + one!r})")
    page.keyboard.press("ArrowUp")
    page.wait_for_function(f"() => document.getElementById('live').textContent.endsWith({', ' + two!r})")


def test_the_by_rule_table_keeps_each_figure_on_one_line_on_a_phone(new_page: Any) -> None:
    user = factories.user()
    won = factories.game(owner=user, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
    Game.objects.filter(pk=won.pk).update(moves=140, score=625, time_ms=200_000)
    for _ in range(2):
        factories.game(owner=user, code="YU1-C-AAAAAAD", moves=3)
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    log_in(page, user)
    page.goto("/stats")
    page.locator("#rules-section").wait_for(state="visible")
    assert page.locator("#rules-body tr").first.locator("td").nth(3).text_content() == "33 %"
    lines = page.evaluate(
        """() => [...document.querySelectorAll('#rules-body td')].map((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            return range.getClientRects().length;
        })"""
    )
    assert set(lines) == {1}, lines  # "33 %" broke before its "%" (two lines)
