"""Finish and the win dialog (docs/rules.md, docs/scoring.md): once every card is face up the game
bar offers Finish, one tap (or F) puts every card left onto its foundation and wins; the win
dialog then says what the win was for the player, takes its score apart, offers a practice win as
a challenge, after a short cascade of cards (none under prefers-reduced-motion)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game, MoveLog
from tests import factories
from tests.stats.helpers import play_until_the_finish

from .conftest import PHONE
from .support import daily_deal, daily_offer, play_daily, session_key, settle

pytestmark = pytest.mark.browser

CODE = "YU1-C-AAAAAAB"
REST_UP = {"D": "KD", "C": "KC"}
SPADES_DOWN = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]
HEARTS_DOWN = ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"]


def all_face_up() -> EngineGame:
    """Diamonds and clubs up, spades and hearts in two columns, each ace on top: 26 cards to finish."""
    return EngineGame.from_layout([SPADES_DOWN, HEARTS_DOWN, [], [], [], [], []], REST_UP, code=GameCode.parse(CODE))


def guest_game(page: Any, engine: EngineGame, **fields: Any) -> Game:
    """A game of this browser's guest session at ``engine``'s position, opened on the play page."""
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    game = factories.game(session_key=session_key(page), engine=engine, **fields)
    page.goto(f"/?game={game.id}")
    page.wait_for_function(f"() => document.getElementById('stat-moves').textContent === '{engine.moves}'")
    page.wait_for_function("() => document.getElementById('card-AH') !== null")
    settle(page)
    return game


def cards_on_foundations(page: Any) -> int:
    return int(page.evaluate("() => document.querySelectorAll('#table .card[data-place^=\"f\"]').length"))


def test_a_practice_game_with_every_card_face_up_is_finished_with_one_tap(new_page: Any, screenshot: Any) -> None:
    page = new_page()
    page.goto(f"/?code={CODE}")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    assert page.locator("#finish-button").is_hidden()  # cards lie face down: no finish
    game = guest_game(page, all_face_up())
    finish = page.locator("#finish-button")
    finish.wait_for(state="visible")
    assert finish.text_content() == "Alle ablegen"
    assert page.locator("#hint-button").is_hidden()  # the help has nothing left to say
    screenshot(page, "finish-offered", full_page=False)

    finish.click()

    # The cards go up one after another (a cascade), not all in the same frame.
    page.wait_for_function(
        "() => { const n = document.querySelectorAll('#table .card[data-place^=\"t\"]').length;"
        " return n > 0 && n < 24; }"
    )
    dialog = page.locator("#win-dialog")
    dialog.wait_for(state="visible")
    assert dialog.locator("#win-moves").text_content() == "26"
    assert dialog.locator("#win-score").text_content() == "260"
    assert page.locator("#win-records").text_content() == "Dein erster Sieg mit der Regel „Klassisch“!"
    assert page.locator("#live").text_content() == "Abgelegt: 26 Karten auf ihre Zielstapel."
    # The challenge: the deal's link and the player's figures.
    challenge = page.locator("#win-challenge [data-share-text]").text_content()
    time = dialog.locator("#win-time").text_content()
    assert challenge.splitlines()[0] == f"Yukon · Klassisch · {CODE}"
    assert challenge.splitlines()[1] == f"Schlägst du meine {time} mit 26 Zügen?"
    assert challenge.splitlines()[2].endswith(f"/?code={CODE}")
    screenshot(page, "finish-won", full_page=False)
    game.refresh_from_db()
    assert (game.status, game.moves, game.finish_from) == ("won", 26, 0)
    assert MoveLog.objects.filter(game=game).count() == 26


def test_f_finishes_from_the_keyboard_on_a_phone_in_english_too(new_page: Any) -> None:
    page = new_page(locale="en-GB", viewport=PHONE, has_touch=True, is_mobile=True)
    guest_game(page, all_face_up())
    page.locator("#finish-button").wait_for(state="visible")
    assert page.locator("#finish-button").text_content() == "Finish"
    assert page.locator("#finish-button").bounding_box()["width"] > 44  # a thumb's target on the phone

    page.locator("#table").focus()
    page.keyboard.press("f")

    page.locator("#win-dialog").wait_for(state="visible")
    assert page.locator("#win-moves").text_content() == "26"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_win_says_when_it_is_a_new_best_time_and_takes_the_score_apart(new_page: Any) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    finished = timezone.now() - timedelta(hours=1)
    earlier = factories.one_move_from_winning()  # another deal (a deal played before sets no best)
    factories.game(
        session_key=session_key(page),
        engine=earlier,
        status="won",
        created_at=finished - timedelta(minutes=20),
        finished_at=finished,
        time_ms=20 * 60_000,
        moves=1,
        score=625,
    )
    again = all_face_up()
    again.score = 375  # 26 cards to go: 635 in the end, one card taken back and put up again
    guest_game(page, again, created_at=timezone.now() - timedelta(minutes=4, seconds=12))

    page.locator("#finish-button").click()

    page.locator("#win-dialog").wait_for(state="visible")
    assert page.locator("#win-score").text_content() == "635"
    assert page.locator("#win-records").text_content() == "Neue Bestzeit! Deine beste Zeit bisher: 20:00."
    # A guest is asked to keep the win with an account (issue 49 item 5).
    page.locator("#win-keep").wait_for(state="visible")
    assert page.locator("#win-keep a").get_attribute("href") == "/signup?next=/stats"
    assert page.locator("#win-score-note").text_content() == (
        "635 Punkte: 625 für den Sieg und 10 mehr, weil 1 Karte nach dem Zurücknehmen noch einmal auf ihren "
        "Zielstapel kam. Ohne Zurücknehmen bringt ein Sieg genau 625: ein sauberer Sieg."
    )


def test_the_win_celebrates_with_a_cascade_but_not_under_reduced_motion(new_page: Any) -> None:
    page = new_page()
    guest_game(page, all_face_up())
    page.locator("#finish-button").click()
    page.wait_for_function("() => document.querySelector('#table .celebration .card') !== null")
    page.locator("#win-dialog").wait_for(state="visible")

    still = new_page(reduced_motion="reduce")
    guest_game(still, all_face_up())
    still.evaluate(
        "() => { window.__celebrated = false; new MutationObserver(() => {"
        " if (document.querySelector('.celebration')) window.__celebrated = true; })"
        ".observe(document.getElementById('table'), { childList: true, subtree: true }); }"
    )
    still.locator("#finish-button").click()
    still.locator("#win-dialog").wait_for(state="visible")
    assert still.evaluate("() => window.__celebrated") is False
    # No cascade of the finish either: every card lies on its foundation at once.
    assert cards_on_foundations(still) == 8  # each foundation shows its top card and the one below
    assert still.evaluate("() => document.getAnimations().filter(a => a.playState === 'running').length") == 0


def test_a_ranked_attempt_is_finished_on_the_daily_page_and_its_review_counts_every_move(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today)
    user = factories.user()
    game = factories.game(owner=user, daily=today, ranked=True)
    hand = play_until_the_finish(str(game.pk))
    page = new_page()
    play_daily(daily_offer(page, user))
    finish = page.locator("#finish-button")
    finish.wait_for(state="visible")
    settle(page)

    page.locator("#table").focus()
    page.keyboard.press("F")

    page.locator("#win-dialog").wait_for(state="visible")
    assert page.locator("#win-challenge").is_hidden()  # a ranked attempt is shared with the day's text
    assert page.locator("#win-records").text_content() == "Dein erster Sieg mit der Regel „Klassisch“!"
    game.refresh_from_db()
    assert game.status == "won" and game.finish_from == hand and game.score == 625
    assert game.review == "verified", game.review_reason
    assert "of them a finish" in game.review_reason
