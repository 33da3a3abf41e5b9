"""The archive page (/archive): the past daily deals newest first, a page at a time, with the
player's own result and rank, and each day's deal to play again as practice (guests too)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from games.competition import clock
from games.competition.clock import day_end
from games.engine import Game as EngineGame
from games.engine import GameCode, Move
from games.models import DailyDeal, Game
from games.play.presenters import move_fields
from stats import tasks
from tests import factories
from tests.games.test_assist_api import V2_OF_AAAAAAB
from tests.stats.helpers import play_all_but_the_last, won_ranked_game

from .conftest import PHONE
from .support import daily_deal, log_in, play_daily, settle

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_tasks")]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def code_of(n: int) -> str:
    return f"YU1-C-AAAAAB{LETTERS[n]}"


def past_days(count: int) -> list[date]:
    """``count`` past days with a deal each (and today's, which is not in the archive)."""
    today = clock.today()
    daily_deal(today, code="YU1-C-AAAAAAB")
    days = [today - timedelta(days=n) for n in range(1, count + 1)]
    for n, day in enumerate(days):
        daily_deal(day, code=code_of(n), players=3 + n)
    return days


def won(day: date, seconds: int, owner: Any = None) -> Any:
    game = won_ranked_game(owner=owner or factories.user(), day=day, time_ms=seconds * 1000, moves=110)
    tasks.game_results_update(str(game.id))
    return game


def rows(page: Any) -> list[str]:
    return page.eval_on_selector_all("#archive-body tr", "rows => rows.map((row) => row.dataset.date)")


def ready(page: Any, number: int = 1) -> None:
    page.wait_for_function(f"() => document.body.dataset.archiveReady === '{number}'")


def test_a_guest_pages_through_the_past_days_and_plays_one_as_practice(new_page: Any, screenshot: Any) -> None:
    days = past_days(25)
    won(days[0], 125)
    won(days[0], 95)
    DailyDeal.objects.filter(date=days[1]).update(code=V2_OF_AAAAAAB)  # a version-2 deal, as the days are now
    page = new_page()
    page.goto("/archive")
    ready(page)
    assert rows(page) == [day.isoformat() for day in days[:20]]  # newest first, today not among them
    first = page.locator("#archive-body tr").first
    cells = first.locator("td").all_text_contents()
    assert cells[:4] == ["3", "2", "1:35", "90 Züge"]  # players, winners, winning time, par
    assert page.locator("#archive-mine-head").is_hidden()  # a guest has no result of its own
    assert page.locator("#archive-count").text_content() == "25 Tage"
    assert page.locator("#archive-page").text_content() == "Seite 1 von 2"
    assert first.locator("a.archive-board").get_attribute("href") == f"/leaderboards?date={days[0].isoformat()}"
    assert page.locator("#archive-prev").is_disabled()
    screenshot(page, "archive-guest-de")

    page.locator("#archive-next").click()
    ready(page, 2)
    assert rows(page) == [day.isoformat() for day in days[20:]]
    assert page.url.endswith("/archive?page=2") and page.locator("#archive-next").is_disabled()
    page.locator("#archive-prev").click()
    ready(page)
    assert rows(page)[0] == days[0].isoformat()

    play = page.locator(f"#archive-body tr[data-date='{days[1].isoformat()}'] a.archive-play")
    assert play.text_content() == "Dieses Spiel spielen"
    play.click()
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    settle(page)
    assert page.locator("#code-text").text_content() == "YU2-C-JIHN…YZUG"
    # The deal's par, as on its closed ranked attempt (issue 28 item 11).
    assert page.locator("#rule-badge").text_content() == "Klassisch · Lösbar in 90 Zügen"
    game = Game.objects.get(code=V2_OF_AAAAAAB)
    assert not game.ranked and game.owner is None  # practice, for a guest


def test_an_account_sees_its_own_result_and_rank_in_english_on_a_phone(new_page: Any, screenshot: Any) -> None:
    days = past_days(4)
    user = factories.user()
    won(days[0], 80)
    won(days[0], 200, owner=user)
    factories.game(owner=user, code=code_of(1), daily=days[1], ranked=True, closed_at=day_end(days[1]))
    # Its day is over and the beat task has not closed it yet: "day over" all the same, not "in progress".
    factories.game(owner=user, code=code_of(2), daily=days[2], ranked=True, moves=12)
    for viewport, name in ((None, "archive-account-en"), (PHONE, "archive-account-en-phone")):
        options = {"viewport": viewport, "is_mobile": True, "has_touch": True} if viewport else {}
        page = new_page(locale="en-US", **options)
        log_in(page, user)
        page.goto("/archive")
        ready(page)
        assert page.locator("h1").text_content() == "Archive"
        mine = page.locator(f"#archive-body tr[data-date='{days[0].isoformat()}']")
        cells = mine.locator("td").all_text_contents()
        assert cells[4:7] == ["3:20 · 110 moves", "2", "BoardPlay this deal"]
        for day in days[1:3]:
            other = page.locator(f"#archive-body tr[data-date='{day.isoformat()}'] td").all_text_contents()
            assert other[4:6] == ["day over", "–"]
        assert page.locator(f"#archive-body tr[data-date='{days[3].isoformat()}'] td").nth(4).text_content() == (
            "not played"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= (viewport or {"width": 1280})["width"]
        # The table, its highlighted row and its buttons stay inside the card (issue 28 item 3).
        inside = page.evaluate(
            """() => {
                const sheet = document.querySelector('.sheet').getBoundingClientRect();
                const edge = sheet.right - parseFloat(getComputedStyle(document.querySelector('.sheet')).paddingRight);
                const parts = [...document.querySelectorAll('#archive-body tr, #archive-body a.button')];
                return parts.every((part) => part.getBoundingClientRect().right <= edge + 0.5);
            }"""
        )
        assert inside
        screenshot(page, name)


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("width", [360, 390])
def test_the_header_with_the_archive_link_fits_a_phone(new_page: Any, locale: str, width: int) -> None:
    page = new_page(locale=locale, viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True)
    log_in(page, factories.user(username="a-long-username"))
    page.goto("/archive")
    ready(page)
    nav = page.locator(".site-nav")
    assert nav.evaluate("(nav) => nav.scrollWidth <= nav.clientWidth")  # all six links, no hidden one
    assert page.locator(".site-nav a[aria-current=page]").get_attribute("href") == "/archive"


# -- the result to share (issue 19 item 2) ---------------------------------------------------------
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b|\b10[SHDC]\b")
BIG = "YU1-C-QZXWVUT"  # deal number 5250598671: a number that could not hide in the figures
SQUARES = "\u2b1c\U0001f7e8\U0001f7e7\U0001f7e6\U0001f7e9"


def spoiler_free(text: str, code: str) -> None:
    """No card, no game code, no deal number (nor the deal's rule letter-code) in the text."""
    assert not CARD.search(text), text
    assert "YU1" not in text and "YU2" not in text and code.split("-")[-1] not in text
    number = str(GameCode.parse(code).number)
    assert len(number) < 4 or number not in text


def test_the_win_dialog_of_a_ranked_daily_game_offers_a_spoiler_free_text_to_copy(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    today = clock.today()
    daily_deal(today, players=1)
    user = factories.user()
    game = factories.game(owner=user, daily=today, ranked=True)
    last = play_all_but_the_last(game.pk, pace_ms=1000).to_json()  # a real winning line, a human's pace
    game.refresh_from_db()
    card = EngineGame.from_state(game.state).view()["tableau"][int(last["from"][1]) - 1][-1]
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, user)
    page.goto("/daily")
    play_daily(page.locator("#daily-play"))
    page.wait_for_function(f"() => document.getElementById('card-{card}') !== null")
    settle(page)
    page.locator(f"#card-{card}").click()
    box = page.locator("#win-share")
    box.wait_for(state="visible", timeout=15_000)
    game.refresh_from_db()
    text = box.locator("[data-share-text]").text_content()
    head, strip, streak, link = text.split("\n")
    minutes, seconds = divmod(game.time_ms // 1000, 60)
    # The deal's number names the day; the only player: no percentile, so no "Top" part.
    assert head == f"Yukon #{clock.daily_number(today)} · {minutes}:{seconds:02d} · {game.moves} Züge"
    assert len(strip) == 5 and set(strip) <= set(SQUARES) and strip[-1] == "\U0001f7e9"  # won: all 52 at the end
    assert streak == "Serie: 1 Tag"  # the first counted day in a row
    assert link == f"{live_server.url}/leaderboards?date={today.isoformat()}"
    # The squares are explained beside the text.
    assert "grün: alle 52" in box.locator(".squares-legend").inner_text()
    spoiler_free(text, game.code)
    assert box.locator("[data-share-copy]").text_content() == "Kopieren"
    box.locator("[data-share-copy]").click()
    box.locator("[data-share-done]").wait_for(state="visible")
    assert box.locator("[data-share-done]").text_content() == "In die Zwischenablage kopiert."
    assert page.evaluate("navigator.clipboard.readText()") == text
    native = page.evaluate("typeof navigator.share === 'function'")
    assert box.locator("[data-share-native]").is_visible() == native  # the Web Share API where it exists
    screenshot(page, "share-win-de", full_page=False)


def test_the_daily_page_shares_a_won_attempt_with_its_percentile_in_english(new_page: Any, screenshot: Any) -> None:
    today = clock.today()
    daily_deal(today, code=BIG, players=3)
    user = factories.user()
    won(today, 300)
    won(today, 100)
    mine = won(today, 200, owner=user)  # faster than one of the two others: top 50 %
    Game.objects.filter(daily=today).update(code=BIG)
    page = new_page(locale="en-US", viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, user)
    page.goto("/daily")
    box = page.locator("#daily-share")
    box.wait_for(state="visible", timeout=15_000)
    text = box.locator("[data-share-text]").text_content()
    assert text.split("\n")[0] == f"Yukon #{clock.daily_number(today)} · 3:20 · 110 moves · top 50 %"
    assert box.locator("[data-share-copy]").text_content() == "Copy"
    spoiler_free(text, mine.code)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "share-daily-en-phone")


def test_the_progress_strip_counts_the_foundations_through_undos(page: Any) -> None:
    page.goto("/archive")
    texts = ["t1:AS>f", "t2:2S>f", "undo", "t3:5H>t4", "fS:AS>t5", "undo", "t2:2S>f"]
    # the entries as GET games/{id}/moves sends them: the move's fields beside its text
    log = [{"move": text, **move_fields(None if text == "undo" else Move.parse(text))} for text in texts]
    counts = page.evaluate(
        """async (log) => {
            const share = await import('/static/frontend/share.js');
            return share.foundationCounts(log);
        }""",
        log,
    )
    assert counts == [1, 2, 1, 1, 0, 1, 2]
