"""Never lose a player's game (issue 16): the address names the game on the table, the play page
resumes the newest unfinished game on any device, My games lists them all, a new game asks first,
and dealt games nobody touched neither pile up nor count as played."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game, StatusChoices
from games.play.services import game_play
from games.players import Player
from tests import factories

from .conftest import PHONE
from .support import (
    daily_deal,
    daily_offer,
    find_deal,
    foundation_move,
    last_card,
    log_in,
    open_deal,
    play_daily,
    session_key,
    settle,
    wait_for_moves,
)

pytestmark = pytest.mark.browser

GAME_URL = re.compile(r"/\?game=[0-9a-f-]{36}$")


def two_moves(page: Any, card: str) -> None:
    """A card to its foundation by a tap, then the undo button: two moves (docs/scoring.md)."""
    page.locator(f"#card-{card}").click()
    wait_for_moves(page, 1)
    page.locator("#undo-button").click()
    wait_for_moves(page, 2)


def played(code: str, moves: int) -> EngineGame:
    """A game of ``code`` with ``moves`` moves: a move and its undo, again and again."""
    engine = EngineGame.new(GameCode.parse(code))
    while engine.moves < moves:
        engine.play(engine.legal_moves()[0])
        engine.undo()
    return engine


def board_ready(page: Any) -> None:
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)


def test_reload_back_forward_and_a_bookmark_return_to_the_game_in_progress(page: Any) -> None:
    code, game, move = find_deal(foundation_move)
    open_deal(page, code)
    two_moves(page, last_card(game, move["from"]))
    assert GAME_URL.search(page.url), page.url  # the address names the game, no longer the code
    first = page.url

    page.reload()
    board_ready(page)
    assert page.locator("#stat-moves").text_content() == "2"
    assert page.url == first

    page.locator("#new-button").click()
    page.locator("#confirm-go").click()
    page.locator("#new-start").click()
    page.wait_for_function(f"() => location.href !== {first!r}")
    board_ready(page)
    assert page.locator("#stat-moves").text_content() == "0"
    second = page.url

    page.go_back()
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '2'")
    assert page.url == first
    page.go_forward()
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '0'")
    assert page.url == second

    bookmark = page.context.new_page()  # the address opened anew, as from a bookmark
    bookmark.goto(first)
    board_ready(bookmark)
    assert bookmark.locator("#stat-moves").text_content() == "2"
    assert Game.objects.filter(code=code).count() == 1


def test_logging_in_on_another_browser_resumes_the_game_in_progress(new_page: Any) -> None:
    user = factories.user()
    code, game, move = find_deal(foundation_move)
    laptop = new_page()
    log_in(laptop, user)
    open_deal(laptop, code)
    two_moves(laptop, last_card(game, move["from"]))

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(phone, user)
    phone.goto("/")
    board_ready(phone)

    assert phone.locator("#stat-moves").text_content() == "2"
    assert phone.url.endswith(laptop.url[laptop.url.index("/?game=") :])
    assert "2 Züge" in phone.locator("#rule-note .rule-text").text_content()
    assert Game.objects.filter(owner=user).count() == 1  # nothing dealt on the second browser


def test_a_guests_untouched_deal_does_not_hide_the_accounts_game_after_logging_in(new_page: Any) -> None:
    """Issue 28 item 2: browser B visited as a guest first (a deal, no move), then logs in."""
    user = factories.user()
    code, game, move = find_deal(foundation_move)
    laptop = new_page()
    log_in(laptop, user)
    open_deal(laptop, code)
    two_moves(laptop, last_card(game, move["from"]))

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto("/")  # a guest: a fresh deal, untouched
    board_ready(phone)
    assert phone.locator("#stat-moves").text_content() == "0"
    phone.goto("/login")
    phone.fill("#username", user.username)
    phone.fill("#password", factories.PASSWORD)
    phone.locator("#auth-form button[type=submit]").click()
    phone.wait_for_url(lambda url: "/login" not in url)
    phone.goto("/")
    board_ready(phone)

    assert phone.locator("#stat-moves").text_content() == "2"
    assert phone.url.endswith(laptop.url[laptop.url.index("/?game=") :])
    assert Game.objects.filter(owner=user).count() == 1  # the untouched guest deal was dropped


def test_my_games_lists_them_newest_first_to_resume_or_replay(page: Any, screenshot: Any) -> None:
    page.goto("/")
    board_ready(page)
    key = session_key(page)
    now = timezone.now()
    won = factories.game(session_key=key, code="YU1-R-AAAAAAC", moves=140, score=625, status=StatusChoices.WON)
    started = now - timedelta(hours=3)
    Game.objects.filter(pk=won.pk).update(
        created_at=started, finished_at=started + timedelta(seconds=200), time_ms=200_000
    )
    unfinished = factories.game(session_key=key, engine=played("YU1-C-AAAAAAD", 12))
    Game.objects.filter(pk=unfinished.pk).update(created_at=now - timedelta(hours=1))
    for hours in range(24):  # older games: a second page
        old = factories.game(session_key=key, code="YU1-C-AAAABBB", moves=3)
        Game.objects.filter(pk=old.pk).update(created_at=now - timedelta(days=2, hours=hours))

    page.goto("/games")
    page.wait_for_function("() => document.body.dataset.gamesReady === '1'")
    screenshot(page, "games-desktop-de")
    rows = page.locator(".game-row")
    assert rows.count() == 20
    assert page.locator("#games-count").text_content() == "27 Spiele"
    assert rows.nth(1).locator(".game-row-deal").text_content() == "YU1-C-AAAAAAD"
    assert "Läuft" in rows.nth(1).text_content() and "12" in rows.nth(1).text_content()
    assert rows.nth(2).locator(".game-row-deal").text_content() == "YU1-R-AAAAAAC"
    assert "Gelockert" in rows.nth(2).text_content() and "Gewonnen" in rows.nth(2).text_content()
    assert "3:20" in rows.nth(2).text_content()
    page.locator("#games-next").click()
    page.wait_for_function("() => document.querySelectorAll('.game-row').length === 7")
    assert page.url.endswith("/games?page=2")
    page.locator("#games-prev").click()
    page.wait_for_function("() => document.querySelectorAll('.game-row').length === 20")

    page.locator(f".game-row[data-game='{unfinished.pk}'] a").click()  # Weiterspielen
    board_ready(page)
    assert page.locator("#stat-moves").text_content() == "12"
    page.goto("/games")
    won_row = page.locator(f".game-row[data-game='{won.pk}']")
    assert won_row.get_by_role("link", name="Wiedergabe").get_attribute("href") == f"/replay/{won.pk}"
    won_row.get_by_role("link", name="Nochmal spielen").click()  # the same deal, anew
    board_ready(page)
    assert page.locator("#code-text").text_content() == "YU1-R-AAAAAAC"
    assert page.locator("#stat-moves").text_content() == "0"


def test_my_games_hide_the_code_of_todays_daily_deal(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today)
    user = factories.user()
    factories.game(owner=user, code="YU1-C-AAAAAAB", daily=today, ranked=True, moves=5)
    page = new_page(locale="en-US")
    log_in(page, user)
    page.goto("/games")
    page.wait_for_function("() => document.body.dataset.gamesReady === '1'")
    row = page.locator(".game-row").first
    assert row.locator(".game-row-deal").text_content() == "Today's daily deal"
    assert "AAAAAAB" not in page.content()
    # "Ranked" capitalised like the badges beside it (issue 28 item 10).
    assert row.locator(".mark.ranked").text_content() == "Ranked" and "Resume" in row.text_content()


def test_a_new_game_asks_first_and_the_old_game_stays_resumable(page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(foundation_move)
    open_deal(page, code)
    two_moves(page, last_card(game, move["from"]))
    old = page.url

    page.locator("#new-button").click()
    confirm = page.locator("#confirm-dialog")
    confirm.wait_for(state="visible")
    assert "2 Züge" in confirm.text_content() and "Meine Spiele" in confirm.text_content()
    screenshot(page, "confirm-new-game", full_page=False)
    confirm.locator("[data-close]").click()  # keep playing
    assert page.locator("#new-dialog").is_hidden() and page.url == old

    page.locator("#table").focus()
    page.keyboard.press("n")  # the keyboard asks too
    confirm.wait_for(state="visible")
    page.locator("#confirm-go").click()
    page.locator("#new-start").click()
    page.wait_for_function(f"() => location.href !== {old!r}")
    page.goto("/games")
    page.wait_for_function("() => document.body.dataset.gamesReady === '1'")
    assert page.locator(".game-row").count() == 2
    resume = page.locator(f".game-row[data-game='{old.split('=')[1]}'] a")
    assert resume.text_content() == "Weiterspielen"


def test_opening_the_page_again_and_again_keeps_one_untouched_game_and_counts_only_real_play(new_page: Any) -> None:
    user = factories.user()
    page = new_page()
    log_in(page, user)
    for round in range(10):
        page.goto("/" if round % 2 else "/?code=YU1-C-AAAAAAB")
        board_ready(page)
    assert Game.objects.filter(owner=user, moves=0).count() <= 1
    won = factories.game(owner=user, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
    Game.objects.filter(pk=won.pk).update(moves=180, score=625, time_ms=300_000)

    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    assert page.locator("#tile-played strong").text_content() == "1"
    assert page.locator("#tile-winrate strong").text_content() == "100 %"


def test_a_ranked_attempt_started_on_one_device_is_offered_on_the_other(new_page: Any, screenshot: Any) -> None:
    today = clock.today()
    daily_deal(today)
    user = factories.user()
    first = new_page()
    log_in(first, user)
    first.goto("/daily")
    play_daily(first.locator("#daily-play"))
    board_ready(first)
    attempt = Game.objects.get(owner=user, ranked=True)
    legal = EngineGame.from_state(attempt.state).legal_moves()[0]
    game_play(game_id=attempt.pk, player=Player(user=user), move=legal)

    second = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US")
    play = daily_offer(second, user)
    assert second.locator("#daily-status").text_content() == "Your ranked attempt is in progress."
    assert play.text_content() == "Resume"
    play_daily(play)
    board_ready(second)
    assert second.locator("#stat-moves").text_content() == "1"
    assert second.locator("#rule-badge").text_content() == "Classic · Ranked"
    # On a phone the board comes first while the game is in progress.
    table = second.locator("#table").bounding_box()
    intro = second.locator("#daily-intro").bounding_box()
    notice = second.locator("#game-notice")  # in the day's last 15 minutes: "little time left"
    above = notice.bounding_box()["height"] if notice.is_visible() else 0
    assert table["y"] < intro["y"] and table["y"] < 260 + above
    screenshot(second, "daily-second-device-phone-en", full_page=False)
    assert Game.objects.filter(owner=user, daily=today).count() == 1  # no unranked game started


def test_my_games_says_when_a_game_left_alone_will_be_removed(page: Any) -> None:
    page.goto("/")
    board_ready(page)
    key = session_key(page)
    idle = factories.game(session_key=key, code="YU1-C-AAAAAAD")
    Game.objects.filter(pk=idle.pk).update(created_at=timezone.now() - timedelta(days=80))
    recent = factories.game(session_key=key, code="YU1-C-AAAAAAE")

    page.goto("/games")
    page.wait_for_function("() => document.body.dataset.gamesReady === '1'")
    notice = page.locator(f".game-row[data-game='{idle.pk}'] .game-row-removal")
    expected = (timezone.now() + timedelta(days=10)).date()
    months = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split()
    assert notice.text_content() == (
        f"Lange nicht gespielt: Es wird am {expected.day}. {months[expected.month - 1]} {expected.year} "
        "entfernt, wenn du bis dahin keinen Zug machst."
    )
    assert page.locator(f".game-row[data-game='{recent.pk}'] .game-row-removal").count() == 0
