"""The replay viewer (/replay/<id>): a finished game move by move on the play page's table, read
only, showing what the player saw (no face-down card before it is turned up); stepped, played at a
speed, jumped, driven by keys; the post-mortem marked. And its links: "My games", and a past
day's top 10 on the board, each ranked line with the server's check mark."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.competition import clock
from games.engine import CARD_NAMES, HIDDEN
from games.engine import Game as EngineGame
from games.models import Game, GamePostMortem, MoveLog, StatusChoices
from tests import factories
from tests.games.test_postmortem import LOST_CODE, LOST_LOG
from tests.stats.helpers import result_for, won_ranked_game

from .conftest import PHONE
from .support import answer_edited, daily_deal, log_in, settle

pytestmark = [pytest.mark.browser]

#: The lost game with an undo in it (after move 9) that takes back a move which turned a card up.
LOG = [*LOST_LOG[:9], "undo", *LOST_LOG[8:]]

#: What the page shows of the table: per column its cards top to bottom ("XX" face down), and the
#: top card of each foundation; read from the card elements and where they are placed.
SHOWN = """() => {
  const columns = Array.from({ length: 7 }, () => []);
  const foundations = { S: null, H: null, D: null, C: null };
  for (const el of document.querySelectorAll('#table .card')) {
    const place = el.dataset.place;
    const y = new DOMMatrix(getComputedStyle(el).transform).m42;
    const name = el.classList.contains('down') ? 'XX' : el.dataset.card;
    if (place[0] === 't') columns[Number(place.slice(1)) - 1].push([y, name]);
    else if (!el.classList.contains('under')) foundations[place[1]] = name;
  }
  return { tableau: columns.map((col) => col.sort((a, b) => a[0] - b[0]).map(([, name]) => name)), foundations };
}"""


@pytest.fixture(autouse=True)
def no_solver(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The post-mortems the replay asks for: noted, not solved beside the live server."""
    asked: list[str] = []
    monkeypatch.setattr("games.jobs.game_postmortem", asked.append)
    return asked


def lost_game(owner: Any, **fields: Any) -> Any:
    game = factories.played(owner, LOST_CODE, LOG, **fields)
    GamePostMortem.objects.create(
        game=game, moves=len(LOG), verdict="lost", lost_at=19, winnable_until=18, final="lost", par=104
    )
    return game


def open_replay(page: Any, game: Any) -> Any:
    response = page.goto(f"/replay/{game.id}")
    page.wait_for_function("() => document.body.dataset.replayReady === '1'")
    settle(page)
    return response


def watch_lost_game(new_page: Any, *, locale: str = "en-GB") -> tuple[Any, Any]:
    """A browser logged in as the owner of the lost game, on its replay."""
    account = factories.user()
    game = lost_game(account)
    page = new_page(locale=locale)
    log_in(page, account)
    open_replay(page, game)
    return page, game


def at(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.replayAt"))


def shown(page: Any) -> dict[str, Any]:
    settle(page)
    return page.evaluate(SHOWN)


def api_replay(page: Any, game: Any) -> dict[str, Any]:
    return page.evaluate(f"async () => (await fetch('/api/v1/games/{game.id}/replay')).json()")


def test_stepping_shows_the_apis_positions_and_no_face_down_card_before_it_is_turned_up(
    new_page: Any, screenshot: Any
) -> None:
    page, game = watch_lost_game(new_page, locale="de-DE")
    body = api_replay(page, game)
    positions = [body["start"], *body["steps"]]
    deal = EngineGame.from_code(LOST_CODE)
    face_down = {CARD_NAMES[c] for col, d in zip(deal.columns, deal.down, strict=True) for c in col[:d]}
    seen: set[str] = set()

    assert page.locator("#replay-counter").text_content() == f"Zug 0 von {len(LOG)}"
    assert page.locator("#replay-counter").get_attribute("aria-live") == "polite"
    for n, position in enumerate(positions):
        if n:
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => document.body.dataset.replayAt === '{n}'")
        table = shown(page)
        assert table["tableau"] == position["tableau"], n
        assert table["foundations"] == position["foundations"], n
        seen |= {position["flipped"]} if n and position["flipped"] else set()
        # No card that is still face down (by the log so far) is named anywhere in the page.
        hidden_now = face_down - seen
        named = page.evaluate("() => [...document.querySelectorAll('#table [id^=card-]')].map((el) => el.id.slice(5))")
        assert not hidden_now & set(named), n
        downs = [col.count(HIDDEN) for col in position["tableau"]]
        assert [col.count(HIDDEN) for col in table["tableau"]] == downs, n
    assert page.locator("#replay-counter").text_content() == f"Zug {len(LOG)} von {len(LOG)}"
    assert page.locator("#replay-forward").is_disabled()
    screenshot(page, "replay-end-desktop-de")

    # Back by one, to the start (Home) and to the end (End).
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{len(LOG) - 1}'")
    assert shown(page)["tableau"] == positions[-2]["tableau"]
    page.keyboard.press("Home")
    page.wait_for_function("() => document.body.dataset.replayAt === '0'")
    assert shown(page)["tableau"] == positions[0]["tableau"]
    assert page.locator("#replay-back").is_disabled()
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{len(LOG)}'")
    assert shown(page)["tableau"] == positions[-1]["tableau"]


def test_an_undo_that_turned_a_card_down_again_shows_it_face_down(new_page: Any) -> None:
    page, game = watch_lost_game(new_page)
    flipped = MoveLog.objects.get(game=game, seq=9).flipped
    assert flipped  # the 9th move turned a card up; the 10th (undo) takes it back

    page.locator("#replay-jump").fill("9")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.replayAt === '9'")
    assert page.locator(f"#card-{flipped}").count() == 1
    assert "turned face up" in page.locator("#replay-move").text_content()
    page.locator("#replay-forward").click()
    page.wait_for_function("() => document.body.dataset.replayAt === '10'")
    assert page.locator("#replay-move").text_content() == "Move 10: undo."
    assert page.locator(f"#card-{flipped}").count() == 0  # face down again, as the player saw it


def test_play_runs_at_the_chosen_speed_space_pauses_and_it_stops_at_the_end(new_page: Any) -> None:
    page, _ = watch_lost_game(new_page)
    play = page.locator("#replay-play")
    assert play.get_attribute("aria-label") == "Play (Space)"

    page.locator("#replay-speed").select_option("200")  # 4x
    play.click()
    assert play.get_attribute("aria-label") == "Pause (Space)"
    page.wait_for_function("() => Number(document.body.dataset.replayAt) >= 3")
    page.keyboard.press("Space")  # the focus is on the play button: Space still pauses once
    page.wait_for_function("() => document.body.dataset.replayPlaying === ''")
    paused = at(page)
    page.wait_for_timeout(700)
    assert at(page) == paused
    assert play.get_attribute("aria-label") == "Play (Space)"

    page.locator("#table").click(position={"x": 5, "y": 5})  # the focus elsewhere: Space plays on
    page.keyboard.press("Space")
    page.wait_for_function(f"() => document.body.dataset.replayAt === '{len(LOG)}'", timeout=15_000)
    page.wait_for_function("() => document.body.dataset.replayPlaying === ''")
    assert page.locator("#replay-counter").text_content() == f"move {len(LOG)} of {len(LOG)}"


def test_the_slider_and_the_post_mortems_move_jump_there(new_page: Any) -> None:
    page, _ = watch_lost_game(new_page)

    verdict = page.locator("#replay-verdict-text").text_content()
    assert verdict == "Winnable until move 18; after move 19 it could no longer be won."
    assert page.locator("#replay-par").text_content() == "104 moves"
    assert page.locator("#replay-mark").is_visible()  # the move that lost it, marked on the slider
    page.locator("#replay-slider").fill("5")
    page.wait_for_function("() => document.body.dataset.replayAt === '5'")
    assert page.locator("#replay-jump").input_value() == "5"
    page.get_by_role("button", name="Go to move 18").click()
    page.wait_for_function("() => document.body.dataset.replayAt === '18'")
    assert page.locator("#replay-slider").input_value() == "18"


def _pm(verdict: str, lost_at: int | None = None, until: int | None = None, rescued: int | None = None) -> Any:
    return {"verdict": verdict, "lost_at": lost_at, "winnable_until": until, "rescued_at": rescued}


@pytest.mark.parametrize(
    ("postmortem", "pending", "text"),
    [
        (_pm("winnable"), False, "Winnable throughout"),
        (_pm("lost", 4, 3, 7), False, "An undo at move 7 made it winnable again."),
        (_pm("unknown", until=6), False, "Unknown after move 6"),
        (_pm("unknown"), False, "Unknown: the solver"),
        (None, True, "Not analysed yet: the solver is on it."),
        (None, False, "Not analysed yet."),
    ],
)
def test_the_post_mortem_is_told_honestly(new_page: Any, postmortem: Any, pending: bool, text: str) -> None:
    account = factories.user()
    game = factories.played(account, LOST_CODE, LOG)
    page = new_page(locale="en-GB")
    log_in(page, account)

    def edit(request: Any, body: dict[str, Any]) -> None:
        body["postmortem"] = postmortem and {**postmortem, "final": "won", "moves": len(LOG), "solved": 3, "unknown": 0}
        body["postmortem_pending"] = pending
        body["status"] = "won"

    answer_edited(page, r"/api/v1/games/.+/replay$", edit)
    open_replay(page, game)
    assert text in page.locator("#replay-verdict-text").text_content()


def test_a_daily_game_of_today_keeps_its_deal_and_its_analysis_for_later(new_page: Any) -> None:
    account = factories.user()
    today = clock.today()
    daily_deal(today, code=LOST_CODE)
    game = factories.played(account, LOST_CODE, LOG[:6], daily=today, ranked=True)
    page = new_page(locale="en-GB")
    log_in(page, account)
    open_replay(page, game)

    assert LOST_CODE not in page.content()
    assert page.locator("#replay-par").text_content() == "–"
    assert page.locator("#replay-verdict-text").text_content() == "Analysed once the day of this daily deal is over."


def test_a_replay_one_may_not_see_is_a_404_page_and_a_broken_one_says_so(new_page: Any) -> None:
    account = factories.user()
    theirs = lost_game(factories.user())
    broken = factories.played(account, LOST_CODE, LOST_LOG[:3])
    MoveLog.objects.filter(game=broken, seq=2).update(move="t1:KS>t2")  # no such move: the log is damaged
    page = new_page(locale="en-GB")
    log_in(page, account)

    response = page.goto(f"/replay/{theirs.id}")
    assert response.status == 404
    assert "This replay is not there for you" in page.locator("#replay-error").text_content()
    assert page.locator("#table").count() == 0

    page.goto(f"/replay/{broken.id}")
    page.wait_for_function("() => document.body.dataset.replayReady === 'error'")
    assert page.locator("#replay-error").is_visible()
    assert "cannot be replayed" in page.locator("#replay-error-text").text_content()
    assert page.locator("#replay").is_hidden()


def test_on_a_360_px_phone_it_fits_and_answers_taps(new_page: Any, screenshot: Any) -> None:
    account = factories.user()
    game = lost_game(account)
    for locale, name in (("de-DE", "de"), ("en-GB", "en")):
        page = new_page(locale=locale, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
        log_in(page, account)
        open_replay(page, game)
        page.locator("#replay-forward").tap()
        page.wait_for_function("() => document.body.dataset.replayAt === '1'")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        for button in ("first", "back", "play", "forward", "last"):
            assert page.locator(f"#replay-{button}").get_attribute("aria-label")
        screenshot(page, f"replay-phone-{name}")
    page = new_page(locale="en-GB", viewport=PHONE)
    log_in(page, account)
    open_replay(page, game)
    screenshot(page, "replay-phone-390-en")


def test_my_games_link_the_replay_of_each_finished_game(new_page: Any) -> None:
    account = factories.user()
    finished = lost_game(account)
    Game.objects.filter(pk=finished.pk).update(status=StatusChoices.WON)
    playing = factories.played(account, LOST_CODE, LOST_LOG[:2])
    page = new_page(locale="en-GB")
    log_in(page, account)
    page.goto("/games")
    page.wait_for_function("() => document.body.dataset.gamesReady === '1'")

    won_row = page.locator(f"[data-game='{finished.id}']")
    assert won_row.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{finished.id}"
    assert page.locator(f"[data-game='{playing.id}'] a[href^='/replay/']").count() == 0
    won_row.get_by_role("link", name="Replay").click()
    page.wait_for_function("() => document.body.dataset.replayReady === '1'")


def test_the_board_links_the_top_10_replays_only_once_the_day_is_over(new_page: Any) -> None:
    today = clock.today()
    yesterday = today - timedelta(days=1)
    daily_deal(today, code="YU1-C-AAAAAAB", players=1)
    daily_deal(yesterday, code="YU1-C-AAAAAAC", players=11)
    for i in range(11):
        result_for(won_ranked_game(owner=factories.user(), day=yesterday, time_ms=60_000 + i))
    result_for(won_ranked_game(owner=factories.user(), day=today, time_ms=60_000))
    page = new_page(locale="en-GB")

    page.goto(f"/leaderboards?date={today.isoformat()}")
    page.locator("#lb-body tr").first.wait_for()
    assert page.locator("#lb-body a[href^='/replay/']").count() == 0  # today's games stay private
    check = page.get_by_role("img", name="replayed and verified by the server")
    assert check.count() == 1 and check.get_attribute("title") == "replayed and verified by the server"

    page.goto(f"/leaderboards?date={yesterday.isoformat()}")
    page.wait_for_function("() => document.querySelectorAll('#lb-body tr').length === 11")
    links = page.locator("#lb-body a[href^='/replay/']")
    assert links.count() == 10
    assert page.locator("#lb-body tr").nth(10).locator("a[href^='/replay/']").count() == 0
    assert page.get_by_role("img", name="replayed and verified by the server").count() == 11
    links.first.click()  # a guest may watch it
    page.wait_for_function("() => document.body.dataset.replayReady === '1'")
    assert page.locator("#replay-deal-label").text_content().endswith("'s game")  # another player's


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_replay_and_the_board_with_its_links_have_no_wcag_violation(
    new_page: Any, device: str, locale: str
) -> None:
    from .test_axe import DEVICES, violations

    account = factories.user()
    game = lost_game(account)
    yesterday = clock.today() - timedelta(days=1)
    daily_deal(yesterday, players=1)
    result_for(won_ranked_game(owner=account, day=yesterday, time_ms=60_000))
    page = new_page(locale=locale, **DEVICES[device])
    log_in(page, account)
    open_replay(page, game)
    found = violations(page, "replay")
    page.locator("#replay-forward").click()
    page.locator("#replay-play").click()
    found += violations(page, "replay playing")
    page.goto(f"/leaderboards?date={yesterday.isoformat()}")
    page.locator("#lb-body a[href^='/replay/']").wait_for()
    found += violations(page, "board with replay links")
    page.goto(f"/replay/{lost_game(factories.user()).id}")
    found += violations(page, "replay not found")
    assert not found, "\n".join(found)
