"""The daily deal page: an account's ranked attempt and its countdown to 00:00 UTC, a guest's view
of today's board, the deal still being prepared (503), and long version-2 codes in the game bar.

Where the moment matters, the server's clock is moved (``time_machine``: minutes before midnight)
or its answers are changed on their way to the page (``answer_edited``: hours left, the close
itself). Either way the browser's clock stays where it is: the page must take the time left from
``closes_in_ms`` as received, never from its own clock.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta
from typing import Any
from uuid import UUID

import pytest
import time_machine
from django.utils import timezone

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game
from stats import standing
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import play_all_but_the_last

from .conftest import PHONE
from .support import answer_edited, daily_deal, daily_offer, log_in, open_deal, play_daily, settle

pytestmark = pytest.mark.browser

MINUTE = 60_000
HOUR = 60 * MINUTE
# The API's own answers: today's deal, the games of the player and their moves.
DAILY_AND_GAMES = r"/api/v1/(daily|games(/[0-9a-f-]+(/moves|/undo)?)?)$"
YU2 = "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG"  # = YU1-C-AAAAAAB (docs/codes.md)

CLOSE_WARNING = "Weniger als 15 Minuten übrig: Der gewertete Versuch zählt nur, wenn du vor 00:00 UTC gewinnst."


def closing_in(ms: int) -> Any:
    """An edit: today's deal, and every ranked attempt still being played, close ``ms`` from now."""

    def edit(request: Any, body: dict[str, Any]) -> None:
        if "played" in body or (body.get("ranked") and body.get("status") == "playing"):
            body["closes_in_ms"] = ms

    return edit


def cards_dealt(page: Any) -> None:
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)


def test_a_ranked_attempt_shows_a_countdown_to_the_close_that_ticks(new_page: Any, screenshot: Any) -> None:
    daily_deal(clock.today())
    page = new_page()
    log_in(page, factories.user())
    answer_edited(page, DAILY_AND_GAMES, closing_in(3 * HOUR))
    page.goto("/daily")
    play = page.locator("#daily-play")
    play.wait_for(state="visible")
    assert play.text_content() == "Tagesspiel spielen"
    closes = page.locator("#daily-closes").text_content()
    assert re.fullmatch(r"Gewertet wird bis 00:00 UTC – noch (3:00:00|2:59:5\d)", closes), closes
    screenshot(page, "daily-account")

    play.click()
    cards_dealt(page)
    assert page.locator("#code-text").text_content() == "Tagesspiel"  # its code stays hidden today
    assert page.locator("#rule-badge").text_content() == "Klassisch · Gewertet"
    # No help for today's daily deal: the hint and the winnable check are not offered.
    assert page.locator("#hint-button").is_hidden() and page.locator("#winnable-button").is_hidden()
    figure = page.locator("#close-figure")
    assert figure.is_visible() and figure.locator(".figure-label").text_content() == "Endet in"
    first = page.locator("#stat-close").text_content()
    assert re.fullmatch(r"3:00:00|2:59:5\d", first), first
    page.wait_for_function(f"() => document.getElementById('stat-close').textContent !== {first!r}", timeout=3000)
    assert re.fullmatch(r"2:59:5\d", page.locator("#stat-close").text_content())
    assert "urgent" not in (figure.get_attribute("class") or "")
    assert page.locator("#game-notice").is_hidden()  # hours left: nothing to warn about
    screenshot(page, "daily-countdown", full_page=False)


def test_less_than_15_minutes_before_the_close_the_player_is_warned_before_the_attempt_starts(
    new_page: Any, screenshot: Any
) -> None:
    # The server's clock at 23:50 UTC (the browser's is not moved: the page goes by closes_in_ms).
    day = clock.today()
    with time_machine.travel(datetime.combine(day, time(23, 50), tzinfo=UTC), tick=True):
        daily_deal(day)
        user = factories.user()
        page = new_page()
        log_in(page, user)
        page.goto("/daily")
        page.locator("#daily-play").click()

        dialog = page.locator("#warn-dialog")
        dialog.wait_for(state="visible")
        assert CLOSE_WARNING in dialog.text_content()
        assert re.search(r"Noch (10:00|9:5\d) bis 00:00 UTC", page.locator("#warn-left").text_content())
        screenshot(page, "daily-warning", full_page=False)
        dialog.locator("[data-close]").click()
        assert dialog.is_hidden()
        assert not Game.objects.filter(owner=user).exists()  # cancelled: the attempt is not used up

        page.locator("#daily-play").click()
        page.locator("#warn-go").click()
        cards_dealt(page)
        assert Game.objects.get(owner=user).ranked
        notice = page.locator("#game-notice")
        assert notice.is_visible() and page.locator("#game-notice-text").text_content() == CLOSE_WARNING
        assert "urgent" in page.locator("#close-figure").get_attribute("class")
        assert re.fullmatch(r"10:00|9:5\d", page.locator("#stat-close").text_content())


def test_at_the_close_the_attempt_says_it_now_counts_as_practice(new_page: Any, screenshot: Any) -> None:
    daily_deal(clock.today())
    page = new_page(locale="en-US")
    log_in(page, factories.user())

    def edit(request: Any, body: dict[str, Any]) -> None:
        if "played" in body:
            body["closes_in_ms"] = MINUTE
        elif body.get("ranked") and body.get("status") == "playing":
            if request.method == "GET":  # asked again once the countdown reached zero
                body.update(ranked=False, closed=True, closes_in_ms=None, closes_at=None)
            else:
                body["closes_in_ms"] = 2500

    answer_edited(page, DAILY_AND_GAMES, edit)
    page.goto("/daily")
    page.locator("#daily-play").click()
    page.locator("#warn-go").click()  # one minute left: warned first
    cards_dealt(page)
    assert page.locator("#rule-badge").text_content() == "Classic · Ranked"

    text = page.locator("#game-notice-text")
    page.wait_for_function(
        "() => document.getElementById('game-notice-text').textContent.startsWith('The day is over')", timeout=6000
    )
    assert text.text_content() == (
        "The day is over: this game no longer counts for the leaderboard; you can play on as practice."
    )
    assert page.locator("#close-figure").is_hidden()
    page.wait_for_function("() => document.getElementById('rule-badge').textContent === 'Classic · Practice'")
    assert page.locator("#undo-button").is_visible()  # it may be played on
    screenshot(page, "daily-closed", full_page=False)


def ranked_attempt_one_move_from_the_win(user: Any, day: Any, *, pace_ms: int) -> tuple[Game, str]:
    """``user``'s ranked attempt of ``day``'s deal, played (in its log) up to the last move of a
    winning line at one move per ``pace_ms``; and the card that the last move puts away."""
    game = factories.game(owner=user, daily=day, ranked=True)
    last = play_all_but_the_last(game.pk, pace_ms=pace_ms).to_json()
    game.refresh_from_db()
    column = EngineGame.from_state(game.state).view()["tableau"][int(last["from"][1]) - 1]
    return game, column[-1]


def test_a_win_faster_than_a_human_says_it_is_under_review(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today, players=1)
    user = factories.user()
    game, card = ranked_attempt_one_move_from_the_win(user, today, pace_ms=100)  # 100 ms a move
    page = new_page()
    play = daily_offer(page, user)
    assert play.text_content() == "Weiterspielen"  # GET daily's attempt: in progress
    assert page.locator("#daily-status").text_content() == "Dein gewerteter Versuch läuft."
    play_daily(play)
    page.wait_for_function(f"() => document.getElementById('card-{card}') !== null")
    settle(page)
    page.locator(f"#card-{card}").click()  # to its foundation: won

    page.locator("#win-dialog").wait_for(state="visible")
    # Which kind of check holds it and by when staff look, never a figure (docs/fair-play.md).
    held = "In Prüfung: Die Prüfung der Zeit, in der es gespielt wurde, hält dein Ergebnis an."
    months = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split()
    look = today + timedelta(days=2)  # the day's close, 00:00 UTC, and FAIRPLAY_REVIEW_HOURS (24) after it
    by = f"Das Team sieht es sich bis {look.day}. {months[look.month - 1]} {look.year} um 00:00 UTC an"
    page.wait_for_function(f"() => document.getElementById('win-extra').textContent.startsWith({held!r})")
    assert by in page.locator("#win-extra").text_content()
    assert page.locator("#daily-status").text_content().startswith(held)
    # Shown as a hold, not a success (issue 46, item 7): the warning's amber, never the winner's green.
    assert "hold" in page.locator("#win-extra").get_attribute("class").split()
    assert page.locator("#win-extra").evaluate("e => getComputedStyle(e).color") == "rgb(122, 67, 0)"
    assert "warn" in page.locator("#daily-status").get_attribute("class").split()
    assert " ms" not in page.locator("#daily-status").text_content()
    game.refresh_from_db()
    assert game.review == "held"
    share = page.locator("#win-share [data-share-text]")
    share.wait_for(state="visible")
    assert "wird geprüft (Zeitprüfung)" in share.text_content()

    page.goto("/daily")  # later: the page still says so, from GET daily's attempt, with time and moves
    page.wait_for_function(f"() => document.getElementById('daily-status').textContent.startsWith({held!r})")
    assert page.locator("#daily-status").text_content().endswith(f"mit {game.moves} Zügen.")
    assert page.locator("#daily-play").text_content() == "Nochmal spielen (Übung)"
    assert "warn" in page.locator("#daily-status").get_attribute("class").split()


def winner(day: Any, username: str, *, time_ms: int, moves: int) -> None:
    """A won ranked attempt of ``day`` on its board."""
    user = factories.user(username=username)
    finished = timezone.now()
    game = factories.game(
        owner=user,
        daily=day,
        ranked=True,
        engine=factories.one_move_from_winning(),
        status="won",
        review="verified",
        created_at=finished - timedelta(milliseconds=time_ms),
        finished_at=finished,
    )
    DailyResult.objects.create(
        day=day, user=user, game=game, time_ms=time_ms, moves=moves, score=625, finished_at=finished
    )
    standing.standing_record(game_id=game.id)  # its bars of the day's histograms, as the board's task does


def test_on_the_sites_first_day_a_guests_daily_page_asks_nothing_that_fails(new_page: Any) -> None:
    daily_deal(clock.today())  # no deal before today: nothing to practise, and no 404 in the console
    page = new_page()
    failed: list[str] = []
    page.on("response", lambda response: response.status >= 400 and failed.append(f"{response.status} {response.url}"))
    page.goto("/daily")
    page.locator("#daily-guest").wait_for(state="visible")
    page.wait_for_load_state("networkidle")

    assert failed == []
    assert page.locator("#daily-past").is_hidden()


def test_a_guest_sees_todays_board_and_a_sign_up_prompt_but_cannot_play_todays_deal(
    new_page: Any, screenshot: Any
) -> None:
    today = clock.today()
    daily_deal(today, players=2)
    daily_deal(today - timedelta(days=1), code=YU2)
    winner(today, "alice", time_ms=245_000, moves=120)
    page = new_page()
    page.goto("/daily")
    page.locator("#daily-top-body tr").first.wait_for()

    cells = page.locator("#daily-top-body tr").first.locator("th, td").all_text_contents()
    assert cells == ["1", "alice", "4:05", "120"]
    page.wait_for_function("() => document.getElementById('daily-played').textContent === '2 gestartet · 1 gewonnen'")
    page.locator("#daily-guest").wait_for(state="visible")
    assert page.locator("#daily-signup").get_attribute("href") == "/signup?next=/daily"
    assert page.locator("#daily-login").get_attribute("href") == "/login?next=/daily"
    assert page.locator("#daily-play").is_hidden()
    assert page.get_by_role("button", name="Tagesspiel spielen").count() == 0
    past = page.locator("#daily-past")
    past.wait_for(state="visible")
    assert past.get_attribute("href") == f"/?code={YU2}"
    screenshot(page, "daily-guest")

    # Nor can the API be talked into it: today's deal is for accounts.
    refused = page.evaluate(
        """async () => {
            const csrf = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const r = await fetch('/api/v1/games', {method: 'POST', body: JSON.stringify({daily: true}),
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': csrf}});
            return [r.status, (await r.json()).error];
        }"""
    )
    assert refused == [403, "daily_needs_account"]

    past.click()  # yesterday's deal, as practice
    page.wait_for_url(f"**/?code={YU2}")
    cards_dealt(page)
    assert page.locator("#code-text").text_content() == "YU2-C-JIHN…YZUG"
    assert YU2 in page.locator("#code-button").get_attribute("aria-label")


def test_the_log_in_and_sign_up_forms_lead_back_to_the_daily_deal(new_page: Any) -> None:
    page = new_page()
    page.goto("/login?next=/daily")
    assert page.locator(".switch-auth a[href^='/signup']").get_attribute("href") == "/signup?next=%2Fdaily"
    user = factories.user()
    page.fill("#username", user.username)
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    # (a path, not a glob: "**/daily" matched /login?next=/daily at once, and the test ended with
    # the login on its way, racing the database's flush)
    page.wait_for_url(lambda url: url.split("?")[0].endswith("/daily") and "/login" not in url)


def test_while_todays_deal_is_being_prepared_the_page_says_so_and_tries_again(new_page: Any) -> None:
    page = new_page(locale="en-US")
    log_in(page, factories.user())
    preparing = "Today's deal is being prepared. The page tries again by itself in a moment."
    page.goto(f"/leaderboards?date={clock.today()}")  # no deal yet: 503 daily_not_ready
    page.wait_for_function(f"() => document.getElementById('lb-message').textContent === {preparing!r}")

    page.goto("/daily")
    status = page.locator("#daily-status")
    status.wait_for(state="visible")
    assert status.text_content() == preparing
    assert page.locator("#daily-play").is_hidden()

    daily_deal(clock.today(), players=1)  # ready now
    play = page.locator("#daily-play")
    play.wait_for(state="visible", timeout=10_000)  # asked again after Retry-After (5 s)
    assert status.is_hidden()
    page.wait_for_function("() => document.getElementById('daily-played').textContent === '1 started · 0 won'")

    # The same when starting the attempt: said plainly, then the page asks again.
    not_ready = {"error": "daily_not_ready", "detail": "Today's deal is being prepared."}
    starts: list[str] = []

    def start_not_ready(route: Any) -> None:
        starts.append(route.request.method)
        if route.request.method == "POST" and len(starts) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1"}, json=not_ready)
        else:
            route.continue_()

    page.route(re.compile(r"/api/v1/games$"), start_not_ready)
    play_daily(play)
    page.wait_for_function(f"() => document.getElementById('daily-status').textContent === {preparing!r}")
    assert play.is_hidden()
    play.wait_for(state="visible", timeout=5000)
    play_daily(play)
    cards_dealt(page)


def test_a_version_2_code_fits_the_game_bar_of_a_phone_and_is_copied_whole(new_page: Any, screenshot: Any) -> None:
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_deal(page, YU2)  # e.g. a past daily deal's code

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#code-text").text_content() == "YU2-C-JIHN…YZUG"
    button = page.locator("#code-button")
    assert YU2 in button.get_attribute("aria-label") and YU2 in button.get_attribute("title")
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "play-phone-yu2", full_page=False)
    button.tap()
    page.locator("#code-copied").wait_for(state="visible")
    assert page.evaluate("navigator.clipboard.readText()") == YU2

    page.locator("#new-button").tap()
    field = page.locator("#new-code")
    field.fill(YU2.lower())
    assert field.input_value() == YU2.lower()  # the whole code: no maxlength or pattern cuts it
    assert page.evaluate("document.querySelector('#new-dialog form').checkValidity()")


def test_a_newcomers_win_says_in_words_it_is_not_on_the_public_board_yet_its_place_and_when_it_counts(
    new_page: Any, settings: Any
) -> None:
    """Issue 46, item 5: the account was made today, so its win is off the public board (docs/daily.md,
    "Who is on the public board"); the daily page and the board's page say so, and what it would be."""
    settings.BOARD_ESTABLISHED_DAYS = 1
    today = clock.today()
    daily_deal(today, players=2)
    winner(today, "Vera", time_ms=100_000, moves=90)  # established (its result was written public)
    user = factories.user()
    game = factories.game(
        owner=user,
        daily=today,
        ranked=True,
        engine=factories.one_move_from_winning(),
        status="won",
        review="verified",
        created_at=timezone.now() - timedelta(seconds=200),
        finished_at=timezone.now(),
    )
    DailyResult.objects.create(
        day=today,
        user=user,
        game=game,
        time_ms=200_000,
        moves=95,
        score=625,
        finished_at=game.finished_at,
        public=False,
    )
    words = (
        "Dein Sieg steht noch nicht auf der öffentlichen Bestenliste: Die Ergebnisse eines neuen Kontos zählen dort, "
        "sobald es an einem früheren Tag gespielt hat. Er stünde auf Platz 2; für deine Bestwerte, deine Serie, deine "
        "Freunde und deine Clubs zählt er. Deine Ergebnisse zählen dort ab dem nächsten Tag, an dem du spielst."
    )
    page = new_page()
    log_in(page, user)

    page.goto("/daily")
    page.wait_for_function("() => document.getElementById('daily-status').textContent.startsWith('Dein Sieg')")
    assert page.locator("#daily-status").text_content().startswith(words + " Gewonnen in 3:20")
    assert page.locator("#daily-top-body tr").count() == 1  # Vera alone on the public board
    page.goto(f"/leaderboards?date={today.isoformat()}")
    page.locator("#lb-newcomer").wait_for(state="visible")
    assert page.locator("#lb-newcomer").text_content() == words
    assert page.locator("#lb-body tr").count() == 1


def test_a_won_attempt_shows_its_rank_then_further_games_are_practice(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today, players=1)  # the attempt below, made directly, started the count
    user = factories.user()
    game, card = ranked_attempt_one_move_from_the_win(user, today, pace_ms=1000)  # a human's pace
    page = new_page()
    log_in(page, user)
    page.goto("/daily")
    page.locator("#daily-play").click()
    page.wait_for_function(f"() => document.getElementById('card-{card}') !== null")
    settle(page)
    page.locator(f"#card-{card}").click()
    page.locator("#win-dialog").wait_for(state="visible")
    page.wait_for_function(
        "() => document.getElementById('win-extra').textContent.startsWith('Dein Rang')", timeout=12_000
    )
    assert page.locator("#win-extra").text_content() == "Dein Rang: 1 von 1"

    page.goto("/daily")  # later that day: the rank, the time and the moves, and practice
    page.wait_for_function(
        "() => document.getElementById('daily-status').textContent.startsWith('Dein Rang: 1 von 1. ')"
    )
    won = Game.objects.get(pk=game.pk)
    assert page.locator("#daily-status").text_content() == (
        f"Dein Rang: 1 von 1. Gewonnen in {won.time_ms // 60000}:{won.time_ms // 1000 % 60:02d} mit {won.moves} Zügen."
    )
    # Replayed and verified by the server: the mark of the full board, which the legend below explains.
    assert page.locator("#daily-top-body tr.mine th").text_content() == f"{user.username} \u2713"
    assert "geprüft" in page.locator("#daily-legend").inner_text()
    play = page.locator("#daily-play")
    assert play.text_content() == "Nochmal spielen (Übung)"
    assert page.locator("#daily-note").text_content() == (
        "Weitere Spiele des heutigen Tagesspiels sind Übung und werden nicht gewertet."
    )
    play_daily(play)
    cards_dealt(page)
    assert page.locator("#rule-badge").text_content() == "Klassisch · Übung"
    assert page.locator("#close-figure").is_hidden()  # practice: nothing closes


def test_the_daily_page_says_where_the_player_stands_before_the_attempt_and_after_its_close(new_page: Any) -> None:
    """Issue 16, item 6: not started, then closed (the other two states: test_continuity, and the
    won attempt above); a closed attempt is played on as practice, and no other game is dealt."""
    today = clock.today()
    daily_deal(today)
    user = factories.user()
    page = new_page(locale="en-US")
    play = daily_offer(page, user)
    assert page.locator("#daily-note").text_content() == "Your first game today is your ranked attempt."
    assert play.text_content() == "Play today's deal"
    assert page.locator("#daily-status").is_hidden()

    engine = EngineGame.new(GameCode.parse("YU1-C-AAAAAAB"))
    while engine.moves < 4:  # a move and its undo, twice
        engine.play(engine.legal_moves()[0])
        engine.undo()
    attempt = factories.game(owner=user, engine=engine, daily=today, ranked=True)
    Game.objects.filter(pk=attempt.pk).update(closed_at=timezone.now())  # closed, as at 00:00 UTC
    page.reload()
    page.wait_for_function("() => document.getElementById('daily-play').textContent === 'Play on as practice'")
    assert page.locator("#daily-status").text_content() == (
        "The day ended before your ranked attempt was won: it does not count for the leaderboard. "
        "You can play it on as practice."
    )
    play_daily(play)
    cards_dealt(page)
    assert page.locator("#rule-badge").text_content() == "Classic · Practice"
    assert page.locator("#stat-moves").text_content() == "4"
    assert Game.objects.filter(owner=user, daily=today).count() == 1


def test_an_attempt_started_on_another_device_meanwhile_is_offered_not_a_practice_copy(new_page: Any) -> None:
    daily_deal(clock.today())
    user = factories.user()
    page = new_page(locale="en-US")
    play = daily_offer(page, user)
    assert play.text_content() == "Play today's deal"
    attempt = factories.token_client(user).post("/api/v1/games", {"daily": True}, format="json").json()

    play_daily(play)  # the page still offers the first attempt: the server refuses a copy beside it

    page.wait_for_function("() => document.getElementById('daily-play').textContent === 'Resume'")
    assert Game.objects.filter(owner=user).count() == 1
    play_daily(play)
    cards_dealt(page)
    assert page.locator("#rule-badge").text_content() == "Classic · Ranked"
    assert Game.objects.filter(owner=user).get().pk == UUID(attempt["id"])
