"""The game's clock on the page (issue 41): a practice game pauses while the page is hidden and when
the player taps Pause, its cards covered meanwhile; a ranked attempt's clock never stops, and the
pages say so. And "still winnable?" from the worker: "deciding" until it is known, and "winnable
deals only" in New game."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.competition import clock
from games.models import Game, WinnableDeal
from games.play import services, winnable
from games.players import Player
from tests import factories

from .support import (
    daily_deal,
    daily_offer,
    find_deal,
    foundation_move,
    last_card,
    open_deal,
    play_daily,
    server_state,
    settle,
    wait_for_moves,
)
from .test_axe import violations

pytestmark = pytest.mark.browser

#: Page script: the page is hidden (another tab, the phone's home screen) or shown again, as the
#: browser tells it (document.hidden and the visibilitychange event).
SET_HIDDEN = """hidden => {
    Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
}"""
CARDS_SHOWN = (
    "() => [...document.querySelectorAll('#table .card')]"
    ".filter(c => getComputedStyle(c).visibility !== 'hidden').length"
)


def paused_on_server(page: Any) -> bool:
    return bool(server_state(page)["paused"])


def test_a_hidden_page_pauses_the_practice_game_covers_its_cards_and_goes_on_when_shown(
    page: Any, screenshot: Any
) -> None:
    open_deal(page, "YU1-C-AAAAAAB")
    page.evaluate(SET_HIDDEN, True)

    page.locator("#pause-cover").wait_for(state="visible")
    assert page.evaluate(CARDS_SHOWN) == 0  # nothing to study while the clock stands
    assert paused_on_server(page)
    shown = page.locator("#stat-time").text_content()
    time.sleep(1.6)
    assert page.locator("#stat-time").text_content() == shown
    screenshot(page, "clock-paused-desktop-de", full_page=False)

    page.evaluate(SET_HIDDEN, False)  # back: the page's own pause ends by itself
    page.locator("#pause-cover").wait_for(state="hidden")
    assert page.evaluate(CARDS_SHOWN) == 52
    page.wait_for_function("() => document.getElementById('pause-button').getAttribute('aria-pressed') === 'false'")
    assert not paused_on_server(page)


def test_on_a_phone_pause_is_a_tap_and_so_is_going_on(new_page: Any, screenshot: Any) -> None:
    page = new_page(locale="en-GB", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    open_deal(page, "YU1-C-AAAAAAB")
    pause = page.locator("#pause-button")
    assert pause.text_content() == "Pause"

    pause.tap()

    page.locator("#pause-cover").wait_for(state="visible")
    assert page.locator("#pause-cover h2").text_content() == "Paused"
    assert pause.get_attribute("aria-pressed") == "true" and pause.text_content() == "Resume"
    assert page.locator("#undo-button").is_disabled() and page.locator("#hint-button").is_disabled()
    screenshot(page, "clock-paused-phone-en", full_page=False)
    # A pause the player chose stays when the page is hidden and shown again.
    page.evaluate(SET_HIDDEN, True)
    page.evaluate(SET_HIDDEN, False)
    time.sleep(0.5)
    assert page.locator("#pause-cover").is_visible() and paused_on_server(page)

    page.locator("#resume-button").tap()

    page.locator("#pause-cover").wait_for(state="hidden")
    assert server_state(page)["paused"] is False
    page.locator("#table").focus()
    page.keyboard.press("p")  # the keyboard's P pauses too
    page.locator("#pause-cover").wait_for(state="visible")
    page.keyboard.press("p")
    page.locator("#pause-cover").wait_for(state="hidden")


def test_a_game_found_paused_in_a_new_tab_waits_for_resume(page: Any, live_server: Any) -> None:
    open_deal(page, "YU1-C-AAAAAAB")
    page.evaluate(SET_HIDDEN, True)  # the tab is closed (hidden first)
    page.locator("#pause-cover").wait_for(state="visible")
    game_id = server_state(page)["id"]

    later = page.context.new_page()  # a new tab, another day: the cover and Resume, not a running clock
    later.goto(f"/?game={game_id}")
    later.locator("#pause-cover").wait_for(state="visible")
    time.sleep(0.5)
    assert later.locator("#pause-cover").is_visible()
    assert later.locator("#resume-button").text_content() == "Weiter"
    later.locator("#resume-button").click()
    later.locator("#pause-cover").wait_for(state="hidden")
    assert Game.objects.get(pk=game_id).paused_at is None


def test_a_reloads_own_pause_arriving_late_does_not_swallow_the_next_move(page: Any) -> None:
    """A reload hides the page, which pauses the game as it is left (a request sent with
    keepalive); that request can reach the server after the new page has read the game. The
    player's first move then finds the game paused: the page takes its own pause back and plays
    the move, rather than dropping it without a word."""
    code, dealt, move = find_deal(foundation_move)
    open_deal(page, code)
    game_id = server_state(page)["id"]
    game = Game.objects.get(pk=game_id)
    player = Player(session_key=game.guest_session_key)
    page.goto("/stats")  # the game page is left: it pauses the game, as it remembers in the tab
    for _ in range(100):
        if Game.objects.get(pk=game_id).paused_at is not None:
            break
        time.sleep(0.05)
    services.game_resume(game_id=game.pk, player=player)  # as if that pause had not arrived yet
    page.goto(f"/?game={game_id}")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    page.wait_for_load_state("networkidle")  # the page has read the game, running
    services.game_pause(game_id=game.pk, player=player)  # and now the pause arrives
    assert page.locator("#pause-cover").is_hidden()  # the page read the game before it
    settle(page)

    page.locator(f"#card-{last_card(dealt, move['from'])}").click()  # onto its foundation
    wait_for_moves(page, 1)
    assert not paused_on_server(page)
    assert page.locator("#pause-cover").is_hidden()


def test_the_daily_page_says_the_ranked_attempt_has_no_pause_and_warns_who_leaves_it(
    new_page: Any, screenshot: Any
) -> None:
    daily_deal(clock.today())
    user = factories.user()
    page = new_page()
    play = daily_offer(page, user)
    note = page.locator("#daily-clock")
    assert note.is_visible()
    assert "keine Pause" in note.text_content() and "auch wenn du die Seite verlässt" in note.text_content()
    screenshot(page, "daily-clock-note", full_page=False)

    play_daily(play)
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)
    assert page.locator("#pause-button").is_hidden()
    page.locator("#table").focus()
    page.keyboard.press("p")  # no pause: the page says why
    page.locator("#rule-note").wait_for(state="visible")
    assert "kann nicht pausiert werden" in page.locator("#rule-note").text_content()

    page.evaluate(SET_HIDDEN, True)
    page.evaluate(SET_HIDDEN, False)

    notice = page.locator("#game-notice")
    notice.wait_for(state="visible")
    assert "Die Uhr lief weiter" in notice.text_content()
    game = Game.objects.get(owner=user, ranked=True)
    assert game.paused_at is None and game.paused_ms == 0
    # Leaving asks first (the browser's own question).
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.locator("#table").click(position={"x": 5, "y": 5})  # the page has been used
    page.evaluate("() => { location.href = '/stats'; }")
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]
    # Another game: the question says that the attempt's clock runs on.
    page.locator("#new-button").click()
    page.locator("#confirm-dialog").wait_for(state="visible")
    assert "läuft weiter" in page.locator("#confirm-text").text_content()


def test_winnable_deals_only_deals_from_the_pool_and_says_so(new_page: Any, settings: Any, screenshot: Any) -> None:
    settings.WINNABLE_POOL_SIZE = 2
    winnable.winnable_deals_fill()
    codes = set(WinnableDeal.objects.filter(rule="classic").values_list("code", flat=True))
    page = new_page(locale="en-GB")
    open_deal(page, "YU1-C-AAAAAAB")

    page.locator("#new-button").click()
    page.locator("#new-dialog").wait_for(state="visible")
    page.locator("label.new-winnable").click()
    screenshot(page, "new-game-winnable-en", full_page=False)
    page.locator("#new-start").click()

    page.wait_for_function("() => document.getElementById('rule-badge').textContent.includes('winnable deal')")
    state = server_state(page)
    assert state["winnable_deal"] is True and state["code"] in codes
    assert WinnableDeal.objects.filter(code=state["code"]).exists()  # (it stays for the others)
    # The switch is remembered for the next new game; a game code turns it off.
    page.locator("#new-button").click()
    assert page.locator("#new-winnable").is_checked()
    page.locator("#new-code").fill("YU1-C-AAAAAAB")
    assert page.locator("#new-winnable").is_disabled()


def test_still_winnable_says_deciding_until_the_worker_has_decided(page: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr("games.help.assist.still_winnable", lambda engine: "unknown")  # a hard position
    open_deal(page, "YU1-C-AAAAAAB")
    game_id = server_state(page)["id"]

    page.locator("#winnable-button").click()

    page.wait_for_function("() => document.querySelector('#rule-note .rule-text').textContent.startsWith('Wird')")
    assert "Löser" in page.locator("#rule-note .rule-text").text_content()
    winnable.decide(game_id=game_id, moves=0)  # the worker's task
    page.wait_for_function(
        "() => document.querySelector('#rule-note .rule-text').textContent"
        " === 'Dieses Spiel lässt sich noch gewinnen.'",
        timeout=8_000,
    )
    wait_for_moves(page, 0)


def game_state(page: Any, game_id: str) -> dict[str, Any]:
    return page.evaluate("async id => (await fetch('/api/v1/games/' + id)).json()", game_id)


def leave_for_a_new_game(page: Any) -> None:
    """New game, confirmed (the game has moves), the new-game dialog open."""
    page.locator("#new-button").click()
    page.locator("#confirm-dialog").wait_for(state="visible")
    page.locator("#confirm-go").click()
    page.locator("#new-dialog").wait_for(state="visible")


def test_a_game_left_for_a_new_one_keeps_its_time_while_the_other_is_played(page: Any) -> None:
    """Issue 49, item 3: its clock ran on (7.7 s to 22.7 s during 15 s of the other game)."""
    code, game, move = find_deal(foundation_move)
    open_deal(page, code)
    page.locator(f"#card-{last_card(game, move['from'])}").click()
    wait_for_moves(page, 1)
    left = server_state(page)["id"]

    leave_for_a_new_game(page)
    page.locator("#new-start").click()
    page.wait_for_function(f"() => localStorage.getItem('yukon.game') !== '{left}'")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    stopped = game_state(page, left)
    assert stopped["paused"] is True
    time.sleep(1.5)  # the other game is played meanwhile
    assert game_state(page, left)["elapsed_ms"] == stopped["elapsed_ms"]
    assert server_state(page)["paused"] is False  # the new game's clock runs

    # Resumed from My games: the cover and Resume, and its time goes on from where it stopped.
    page.goto(f"/?game={left}")
    page.locator("#pause-cover").wait_for(state="visible")
    assert page.locator("#stat-time").text_content() == f"0:{stopped['elapsed_ms'] // 1000:02d}"
    page.locator("#resume-button").click()
    page.locator("#pause-cover").wait_for(state="hidden")
    assert game_state(page, left)["paused"] is False


def test_a_new_game_dialog_closed_without_a_new_game_lets_the_clock_go_on(page: Any) -> None:
    code, game, move = find_deal(foundation_move)
    open_deal(page, code)
    page.locator(f"#card-{last_card(game, move['from'])}").click()
    wait_for_moves(page, 1)

    leave_for_a_new_game(page)
    page.wait_for_function("() => document.getElementById('pause-button').getAttribute('aria-pressed') === 'true'")
    assert paused_on_server(page)  # stopped while the player chooses
    page.locator("#new-dialog [data-close]").click()

    page.locator("#pause-cover").wait_for(state="hidden")
    assert not paused_on_server(page)


def test_on_a_first_visit_the_clock_waits_while_the_how_to_is_read(new_page: Any, screenshot: Any) -> None:
    for locale, title, start in (
        ("de-DE", "Dein Spiel ist ausgeteilt", "Starten"),
        ("en-US", "Your game is dealt", "Start"),
    ):
        page = new_page(locale=locale, viewport={"width": 390, "height": 844}, has_touch=True, first_visit=True)
        page.goto("/")
        page.locator("#howto").wait_for(state="visible")
        page.locator("#pause-cover").wait_for(state="visible")
        assert page.locator("#pause-cover h2").text_content() == title
        assert page.locator("#resume-button").text_content() == start
        assert paused_on_server(page) and page.evaluate(CARDS_SHOWN) == 0
        shown = server_state(page)["elapsed_ms"]
        time.sleep(1.2)
        assert server_state(page)["elapsed_ms"] == shown
        screenshot(page, f"clock-howto-phone-{locale}", full_page=False)
        assert violations(page, f"/ first visit {locale}") == []

        page.locator("#howto-close").tap()  # read: the game starts

        page.locator("#pause-cover").wait_for(state="hidden")
        assert page.evaluate(CARDS_SHOWN) == 52
        assert not paused_on_server(page)
        # A pause the player makes later is an ordinary one, in its own words.
        page.locator("#pause-button").tap()
        page.locator("#pause-cover").wait_for(state="visible")
        assert page.locator("#pause-cover h2").text_content() != title


def test_on_a_first_visit_start_on_the_cover_starts_the_clock_and_keeps_the_how_to(new_page: Any) -> None:
    page = new_page(first_visit=True)
    page.goto("/")
    page.locator("#pause-cover").wait_for(state="visible")

    page.locator("#resume-button").click()

    page.locator("#pause-cover").wait_for(state="hidden")
    assert not paused_on_server(page)
    assert page.locator("#howto").is_visible()  # still there to read
    page.locator("#howto-close").click()
    time.sleep(0.3)
    assert not paused_on_server(page)
