"""Where you stand on the day's deal (issue 19 item 1) in the browser: the histograms of times and
moves with the player's own bar marked (in words too, not by colour alone), "faster than N %" with
its ties explained, the live counts on the daily page and the day's board; the share block of a
won ranked game opened again on the play page (item 2); the export links of "My games" (item 6)."""

from __future__ import annotations

import csv
import io
import json
from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.competition import clock
from games.models import Game
from stats import tasks
from tests import factories
from tests.stats.helpers import win_as_a_human, won_ranked_game

from .conftest import PHONE
from .support import daily_deal, log_in, win_on_the_daily_page
from .test_archive import spoiler_free
from .test_axe import violations
from .test_daily import ranked_attempt_one_move_from_the_win

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_tasks")]


def won(day: date, seconds: int, owner: Any = None, moves: int = 110) -> Any:
    """A counted result of ``day`` (on its board, in its histograms)."""
    game = won_ranked_game(owner=owner or factories.user(), day=day, time_ms=seconds * 1000, moves=moves)
    tasks.game_results_update(str(game.id))
    return game


def table_of(page: Any, box: str, kind: str) -> list[list[str]]:
    """The rows of a histogram's table for screen readers: range, players, the player's mark."""
    return page.eval_on_selector_all(
        f'{box} [data-histogram="{kind}"] [data-table] tbody tr',
        "rows => rows.map((row) => [...row.cells].map((cell) => cell.textContent))",
    )


@pytest.mark.parametrize(
    ("locale", "phone", "texts"),
    [
        (
            "de-DE",
            False,
            {
                "live": "7 gestartet · 5 gewonnen",
                "me": "Du: 3:20, schneller als 50 % der Spieler",
                "ties": "1 anderer Spieler hatte dieselbe Zeit; ein Gleichstand zählt nicht als geschlagen.",
                "you": "Du",
                "bar": "3:00–3:30: 2 Spieler",
                "moves": "Züge der Sieger (du: 110 Züge)",
            },
        ),
        (
            "en-US",
            True,
            {
                "live": "7 started · 5 won",
                "me": "You: 3:20, faster than 50 % of players",
                "ties": "1 other player had the same time; a tie does not count as beaten.",
                "you": "You",
                "bar": "3:00–3:30: 2 players",
                "moves": "Moves of the winners (you: 110 moves)",
            },
        ),
    ],
    ids=["de-desktop", "en-phone"],
)
def test_the_daily_page_shows_where_a_won_attempt_stands_among_the_days_results(
    new_page: Any, screenshot: Any, locale: str, phone: bool, texts: dict[str, str]
) -> None:
    today = clock.today()
    daily_deal(today, players=7)
    user = factories.user()
    for seconds in (100, 200, 300, 310):
        won(today, seconds)
    won(today, 200, owner=user)  # the same time as one other: not beaten; faster than 2 of 4
    options = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {}
    page = new_page(locale=locale, **options)
    log_in(page, user)
    page.goto("/daily")
    box = page.locator("#daily-standing")
    box.wait_for(state="visible", timeout=15_000)
    assert page.locator("#daily-played").text_content() == texts["live"]
    assert box.locator("[data-standing-me]").text_content() == texts["me"]
    assert box.locator("[data-standing-ties]").text_content() == texts["ties"]
    # The player's bar: marked with a word (not only a colour), its count in its title.
    mine = box.locator('[data-histogram="time"] .bar.mine')
    assert mine.count() == 1 and mine.text_content() == texts["you"]
    assert mine.get_attribute("title") == texts["bar"]
    assert box.locator('[data-histogram="time"] .bar').count() >= 8  # 1:30 to 5:30 in bars of 30 s
    # What the bars show, for a screen reader: the bars with a result, the player's marked.
    assert table_of(page, "#daily-standing", "time") == [
        ["1:30–2:00", "1", ""],
        ["3:00–3:30", "2", texts["you"]],
        ["5:00–5:30", "2", ""],
    ]
    assert table_of(page, "#daily-standing", "moves") == [["110–119", "5", texts["you"]]]
    assert box.locator('[data-histogram="moves"] figcaption').text_content() == texts["moves"]
    assert box.locator("[data-bars]").first.get_attribute("aria-hidden") == "true"
    labelled = box.locator('[data-histogram="time"]').get_attribute("aria-labelledby")
    assert page.locator(f"#{labelled}").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    assert violations(page, "/daily, where you stand") == []
    screenshot(page, f"standing-daily-{locale[:2]}-{'phone' if phone else 'desktop'}")


def test_during_the_day_everyone_sees_the_live_counts_and_only_a_winner_the_histograms(
    new_page: Any, screenshot: Any
) -> None:
    today = clock.today()
    daily_deal(today, players=3)
    daily_deal(today - timedelta(days=1), code="YU1-C-AAAAAAC", players=9)
    won(today, 150)
    won(today, 250)
    guest = new_page(locale="en-US")
    guest.goto("/daily")
    guest.wait_for_function("() => document.getElementById('daily-played').textContent === '3 started · 2 won'")
    assert guest.locator("#daily-standing").is_hidden()  # no histograms before the day is over
    assert guest.locator("#daily-standing .bar").count() == 0
    player = factories.user()  # an account that has not won today: the counts, no histograms either
    page = new_page(locale="en-US")
    log_in(page, player)
    page.goto("/daily")
    page.wait_for_function("() => document.getElementById('daily-played').textContent === '3 started · 2 won'")
    assert page.locator("#daily-standing").is_hidden()
    page.goto("/leaderboards")
    live = page.locator("#lb-live")
    live.wait_for(state="visible")
    assert live.text_content() == "3 started · 2 won"
    assert page.locator("#lb-body tr").count() == 2
    screenshot(page, "standing-board-en")
    page.locator("#lb-prev").click()  # yesterday's board: no live counts
    page.wait_for_function("() => document.getElementById('lb-players').textContent.includes('9')")
    assert live.is_hidden()


def test_the_win_dialog_of_the_ranked_attempt_shows_where_it_stands(new_page: Any, screenshot: Any) -> None:
    today = clock.today()
    daily_deal(today, players=3)
    won(today, 20)
    won(today, 3000)
    user = factories.user()
    game, card = ranked_attempt_one_move_from_the_win(user, today, pace_ms=1000)
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, user)
    win_on_the_daily_page(page, card)
    box = page.locator("#win-standing")
    box.wait_for(state="visible", timeout=15_000)
    page.locator("#win-share").wait_for(state="visible", timeout=15_000)
    game.refresh_from_db()
    minutes, seconds = divmod(game.time_ms // 1000, 60)
    assert (
        box.locator("[data-standing-me]").text_content()
        == f"Du: {minutes}:{seconds:02d}, schneller als 50 % der Spieler"
    )
    assert box.locator("[data-standing-ties]").is_hidden()  # no tie
    assert box.locator('[data-histogram="time"] .bar.mine').text_content() == "Du"
    assert box.locator('[data-histogram="moves"] .bar.mine').count() == 1
    assert [row[2] for row in table_of(page, "#win-standing", "time")].count("Du") == 1
    text = page.locator("#win-share [data-share-text]").text_content()
    assert text.split("\n")[0].endswith("· Top 50 %")
    spoiler_free(text, game.code)
    assert violations(page, "the win dialog, where you stand") == []
    # The page with the game and the dialog is no wider than the phone (else it is zoomed out).
    assert page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [PHONE["width"]] * 2
    rect = page.locator("#win-dialog").bounding_box()
    left, right = rect["x"], rect["x"] + rect["width"]
    assert 0 <= left and right <= PHONE["width"]
    screenshot(page, "standing-win-dialog-de-phone", full_page=False)


def test_a_won_ranked_game_opened_again_on_the_play_page_still_offers_its_share_text(
    new_page: Any, screenshot: Any
) -> None:
    today = clock.today()
    daily_deal(today, players=2)
    won(today, 9000)
    user = factories.user()
    game = factories.game(owner=user, daily=today, ranked=True)
    win_as_a_human(factories.token_client(user), game.pk)  # won elsewhere; its board task has run
    game.refresh_from_db()
    page = new_page(locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, user)
    page.goto(f"/?game={game.pk}")
    dialog_text = page.locator("#win-share [data-share-text]")
    page.locator("#win-share").wait_for(state="visible", timeout=15_000)
    text = dialog_text.text_content()
    minutes, seconds = divmod(game.time_ms // 1000, 60)
    assert (
        text.split("\n")[0]
        == f"Yukon #{clock.daily_number(today)} · {minutes}:{seconds:02d} · {game.moves} moves · top 1 %"
    )
    spoiler_free(text, game.code)
    assert page.locator("#win-standing [data-standing-me]").text_content().endswith("faster than 100 % of players")
    assert page.locator("#win-rank").get_attribute("href") == f"/leaderboards?date={today.isoformat()}"
    page.locator("#win-dialog [data-close]").click()
    # Closed: the result stays on the page below the table, and comes back on a reload.
    for reload in (False, True):
        if reload:
            page.reload()
            page.locator("#win-share").wait_for(state="visible", timeout=15_000)
            page.locator("#win-dialog [data-close]").click()
        block = page.locator("#play-share")
        block.wait_for(state="visible", timeout=15_000)
        assert block.locator("[data-share-text]").text_content() == text
        assert page.locator("#play-standing .bar.mine").count() == 2  # time and moves
    assert page.locator("#game-notice").is_hidden()  # no "your game in progress" for a won game
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "standing-play-reopened-en-phone")


def test_a_practice_game_on_the_play_page_shows_no_standing_nor_share(new_page: Any) -> None:
    user = factories.user()
    game = factories.game(owner=user, code="YU1-C-AAAAAAB")
    win_as_a_human(factories.token_client(user), game.pk)
    page = new_page()
    log_in(page, user)
    page.goto(f"/?game={game.pk}")
    page.locator("#win-dialog").wait_for(state="visible")
    page.wait_for_load_state("networkidle")
    assert page.locator("#win-standing").is_hidden() and page.locator("#win-share").is_hidden()
    assert page.locator("#win-rank").is_hidden()
    assert page.locator("#play-result").is_hidden()
    loaded = page.evaluate("performance.getEntriesByType('resource').map((entry) => entry.name)")
    # The play page stays light: no standing (share.js comes after a win, for its challenge: win.js).
    assert not [name for name in loaded if name.endswith("/standing.js")]
    assert page.locator("#win-challenge").is_visible()


def test_my_games_links_the_export_in_both_formats(new_page: Any, screenshot: Any) -> None:
    user = factories.user()
    game = factories.game(owner=user, code="YU1-C-AAAAAAB")
    page = new_page()
    log_in(page, user)
    page.goto("/games")
    page.locator("#games-list li").first.wait_for()
    links = page.locator("#games-export a")
    assert [links.nth(i).text_content() for i in range(links.count())] == ["NDJSON", "CSV"]
    assert page.locator("#games-export").text_content().startswith("Alle deine Spiele exportieren:")
    for fmt in ("csv", "ndjson"):
        with page.expect_download() as download:
            page.locator(f"#games-export a[href$='format={fmt}']").click()
        assert download.value.suggested_filename == f"yukon-games.{fmt}"
        body = open(download.value.path(), encoding="utf-8").read()
        if fmt == "csv":
            table = list(csv.DictReader(io.StringIO(body)))
            assert [row["id"] for row in table] == [str(game.pk)] and table[0]["code"] == "YU1-C-AAAAAAB"
        else:
            assert [json.loads(line)["id"] for line in body.splitlines()] == [str(game.pk)]
    screenshot(page, "games-export-de", full_page=False)


def test_a_held_result_is_said_to_be_under_review_everywhere_and_compared_with_nobody(
    new_page: Any, screenshot: Any
) -> None:
    """Issue 28 item 1, issue 24 item 6: a held 0:55 win, one counted result beside it."""
    today = clock.today()
    daily_deal(today, players=2)
    won(today, 300, moves=100)
    user = factories.user()
    won_ranked_game(owner=user, day=today, time_ms=55_000, moves=104, review="held")
    page = new_page(locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, user)
    page.goto("/daily")
    box = page.locator("#daily-standing")
    box.wait_for(state="visible", timeout=15_000)
    counts = "2 started · 1 won · 1 more under review"
    page.wait_for_function(f"() => document.getElementById('daily-played').textContent === {counts!r}")
    me = box.locator("[data-standing-me]").text_content()
    assert me == "You: 0:55 – under review: it is compared with the others once staff have checked it."
    assert "faster" not in box.text_content()
    assert box.locator(".bar.mine").count() == 0  # not placed among the others
    assert page.locator("#daily-status").text_content().startswith("Under review")
    share = page.locator("#daily-share [data-share-text]")
    page.locator("#daily-share").wait_for(state="visible", timeout=15_000)
    first = share.text_content().split("\n")[0]
    assert (
        first == f"Yukon #{clock.daily_number(today)} · 0:55 · 104 moves · under review (time check)"
    )  # the kind, no figure
    screenshot(page, "standing-held-daily-en-phone")
    page.goto(f"/leaderboards?date={today.isoformat()}")
    review = page.locator("#lb-review")
    review.wait_for(state="visible")
    assert review.text_content() == (
        "Your win in 0:55 with 104 moves is under review: it appears on the board once staff have checked it."
    )
    assert page.locator("#lb-live").text_content() == counts
    assert page.locator("#lb-body tr").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "standing-held-board-en-phone")


def test_a_win_still_being_checked_is_waited_for_as_long_as_the_server_says(new_page: Any) -> None:
    """Issue 35, point 4: the page asks again when the standing's answer says (``board`` pending,
    ``retry_after_ms``), not a count of rounds of its own: a verdict that reaches the board 10 s
    after the win (the page used to stop after 8 rounds of a second) still shows the rank."""
    today = clock.today()
    daily_deal(today, players=1)
    user = factories.user()
    game = won_ranked_game(
        owner=user, day=today, time_ms=70_000, moves=104, review="pending", finished_at=timezone.now()
    )
    page = new_page(locale="en-US")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/standing") else None)
    log_in(page, user)
    page.goto("/daily")
    page.wait_for_function(
        "() => document.getElementById('daily-status').textContent.startsWith('You won! Your result is being checked')"
    )
    page.wait_for_timeout(10_000)
    assert page.locator("#daily-status").text_content().startswith("You won! Your result is being checked")
    waiting = len(asked)
    Game.objects.filter(pk=game.pk).update(review="verified")  # the review's verdict, then stats' task
    tasks.game_results_update(str(game.pk))

    page.wait_for_function(
        "() => document.getElementById('daily-status').textContent.startsWith('Your rank: 1 of 1.')", timeout=15_000
    )
    assert 3 <= waiting <= 8  # asked again and again, less often as the wait grows


def test_the_players_mark_leaves_the_others_in_its_bar_visible(new_page: Any) -> None:
    """Issue 28 item 1: in a bar of three results the hatched part is the player's one third."""
    today = clock.today()
    daily_deal(today, players=3)
    user = factories.user()
    won(today, 100, moves=110)
    won(today, 200, moves=112)
    won(today, 300, owner=user, moves=115)
    page = new_page(locale="en-US")
    log_in(page, user)
    page.goto("/daily")
    own_part = page.locator('#daily-standing [data-histogram="moves"] .bar.mine .bar-own')
    own_part.wait_for(state="visible", timeout=15_000)
    # Both heights in one look: the standing is drawn again when it refreshes, and a bar found
    # before that is gone after it.
    whole, own = page.evaluate(
        """(() => {
          const bar = document.querySelector('#daily-standing [data-histogram="moves"] .bar.mine');
          return [bar.getBoundingClientRect().height, bar.querySelector('.bar-own').getBoundingClientRect().height];
        })()"""
    )
    assert abs(own - whole / 3) < 1.5, (own, whole)
