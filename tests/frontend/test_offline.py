"""The installed app and practice that goes on offline (docs/offline.md), in Chromium: the app is
installable, a practice game goes on move for move without the network (the server's own engine
in the page, Pyodide), a reload offline shows it, and back online the server replays the moves and
keeps the same game; today's deal says it needs the network."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import Move
from games.models import Game

from .conftest import CHROMIUM, CHROMIUM_ARGS, HOWTO_SEEN
from .support import daily_deal, drag, open_deal, point_of_card, point_of_column, settle, wait_for_moves

pytestmark = pytest.mark.browser

#: What the browser logs while the network is cut: the requests it could not send.
OFFLINE_NOISE = re.compile(r"ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_NETWORK_CHANGED")
ENGINE_TIMEOUT = 90_000  # Pyodide's first download and compile on a busy CI machine


def wait_for_engine(page: Any, game_id: str, moves: int) -> None:
    """Until the engine in the page holds this game at this move (it follows the server's)."""
    page.wait_for_function(
        f"() => document.documentElement.dataset.engineGame === '{game_id}:{moves}'", timeout=ENGINE_TIMEOUT
    )


def tableau_move(game: EngineGame) -> dict[str, str]:
    """A legal move of the game between two columns, taken on ``game`` (the test's own copy)."""
    for move in game.legal_moves():
        body = move.to_json()
        if body["to"][0] == "t" and body["from"][0] == "t":
            game.play(Move.from_json(body))
            return body
    raise AssertionError("no move between columns")


def drag_move(page: Any, move: dict[str, str]) -> None:
    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))


def shown_state(page: Any) -> list[list[str]]:
    """What the table shows: each column's cards top to bottom of the screen (face-down ones "XX")."""
    settle(page)
    return page.evaluate(
        """() => {
        const columns = [[], [], [], [], [], [], []];
        for (const el of document.querySelectorAll('#table .card')) {
            const place = el.dataset.place;
            if (!place || place[0] !== 't') continue;
            const top = el.getBoundingClientRect().top;
            columns[Number(place[1]) - 1].push([top, el.classList.contains('down') ? 'XX' : el.dataset.card]);
        }
        return columns.map(c => c.sort((a, b) => a[0] - b[0]).map(x => x[1]));
    }"""
    )


def test_the_app_is_installable_with_its_manifest_and_worker(browser: Any, live_server: Any, tmp_path: Any) -> None:
    # (a persistent profile: Chromium never finds an app installable in an incognito context)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        base_url=live_server.url,
        locale="en-US",
    )
    try:
        context.add_init_script(HOWTO_SEEN)
        page = context.new_page()
        page.goto("/")
        page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = page.evaluate("async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()")
        assert manifest["display"] == "standalone" and manifest["name"] == "Yukon Solitaire"
        assert {icon["purpose"] for icon in manifest["icons"]} == {"any", "maskable"}
        assert [shortcut["url"].split("?")[0] for shortcut in manifest["shortcuts"]] == ["/daily", "/"]
        for icon in manifest["icons"]:
            size = page.evaluate(
                """async src => { const b = await (await fetch(src)).blob(); const i = await createImageBitmap(b);
                return i.width + 'x' + i.height; }""",
                icon["src"],
            )
            assert size == icon["sizes"]
    finally:
        context.close()


def test_practice_goes_on_offline_and_the_server_keeps_the_same_game(
    new_page: Callable[..., Any], screenshot: Any
) -> None:
    page = new_page(service_workers="allow", locale="en-US", quiet=OFFLINE_NOISE)
    code = "YU1-C-AAAAAAB"
    mine = EngineGame.from_code(code)
    open_deal(page, code)
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    for n in (1, 2):
        drag_move(page, tableau_move(mine))
        wait_for_moves(page, n)
    wait_for_engine(page, game_id, 2)

    page.context.set_offline(True)
    for n in range(3, 23):
        drag_move(page, tableau_move(mine))
        wait_for_moves(page, n)
    page.click("#undo-button")
    mine.undo()
    wait_for_moves(page, 23)
    assert "Offline" in page.inner_text("#game-notice")
    assert Game.objects.get(id=game_id).moves == 2  # the server has not seen them yet
    screenshot(page, "offline-playing-desktop-en")

    page.reload()  # the page and the game come from this device
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    wait_for_moves(page, 23)
    assert shown_state(page) == mine.view()["tableau"]

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => /saved/.test(document.getElementById('rule-note').textContent)", timeout=20_000)
    settle(page)
    stored = Game.objects.get(id=game_id)
    assert stored.moves == 23 and stored.played_offline
    server = EngineGame.from_state(stored.state).view()
    assert server["tableau"] == mine.view()["tableau"] and server["score"] == mine.score
    assert shown_state(page) == mine.view()["tableau"]
    assert page.evaluate("new URLSearchParams(location.search).get('game')") == game_id


def test_a_game_dealt_offline_is_made_on_the_server_when_back(new_page: Callable[..., Any]) -> None:
    page = new_page(service_workers="allow", locale="en-US", quiet=OFFLINE_NOISE)
    open_deal(page, "YU1-C-AAAAAAB")
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    wait_for_engine(page, game_id, 0)
    page.context.set_offline(True)
    page.click("#new-button")
    page.click("#new-dialog button[type=submit]")
    page.wait_for_function("() => new URLSearchParams(location.search).get('game').startsWith('local-')")
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '0'")
    code = page.inner_text("#code-text").strip()
    mine = EngineGame.from_code(code)
    assert shown_state(page) == mine.view()["tableau"]
    drag_move(page, tableau_move(mine))
    wait_for_moves(page, 1)

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    made_on_server = "() => !new URLSearchParams(location.search).get('game').startsWith('local-')"
    page.wait_for_function(made_on_server, timeout=20_000)
    made = Game.objects.get(id=page.evaluate("new URLSearchParams(location.search).get('game')"))
    assert made.code == code and made.moves == 1 and made.played_offline
    assert EngineGame.from_state(made.state).view()["tableau"] == mine.view()["tableau"]


def test_the_daily_page_offline_says_it_needs_the_network(new_page: Callable[..., Any], screenshot: Any) -> None:
    daily_deal(clock.today())
    page = new_page(service_workers="allow", locale="en-US", quiet=OFFLINE_NOISE)
    page.goto("/daily")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    page.reload()  # now through the worker, which keeps a copy
    page.wait_for_load_state("networkidle")
    page.context.set_offline(True)
    page.reload()
    page.wait_for_function("() => /needs the network/.test(document.getElementById('daily-status').textContent)")
    assert "face-down cards never leave the server" in page.inner_text("#daily-status")
    screenshot(page, "offline-daily-desktop-en")


def test_a_forged_batch_is_refused_and_the_game_stays_as_it_was(new_page: Callable[..., Any]) -> None:
    page = new_page(service_workers="allow", locale="en-US")
    code = "YU1-C-AAAAAAB"
    mine = EngineGame.from_code(code)
    open_deal(page, code)
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    drag_move(page, tableau_move(mine))
    wait_for_moves(page, 1)
    wait_for_engine(page, game_id, 1)
    # What a cheater could leave on the device: a move the rules refuse, as if played offline.
    forged = page.evaluate(
        """id => {
        const key = 'yukon.offline.' + id;
        const record = JSON.parse(localStorage.getItem(key));
        record.pending = [{from: 't1', card: 'KS', to: 't2'}];
        record.log.push('t1:KS>t2');
        localStorage.setItem(key, JSON.stringify(record));
        return record.pending.length;
    }""",
        game_id,
    )
    assert forged == 1

    page.reload()  # the page sends what the device kept first
    page.wait_for_function("() => /0 of your 1/.test(document.getElementById('rule-note').textContent)")
    wait_for_moves(page, 1)
    stored = Game.objects.get(id=game_id)
    assert stored.moves == 1 and not stored.played_offline
    assert EngineGame.from_state(stored.state).view()["tableau"] == mine.view()["tableau"]
    assert shown_state(page) == mine.view()["tableau"]
    assert page.evaluate(f"localStorage.getItem('yukon.offline.{game_id}')") is None or not page.evaluate(
        f"JSON.parse(localStorage.getItem('yukon.offline.{game_id}')).pending.length"
    )


def test_a_move_whose_answer_was_lost_is_not_played_twice(new_page: Callable[..., Any]) -> None:
    page = new_page(service_workers="allow", locale="en-US", quiet=OFFLINE_NOISE)
    code = "YU1-C-AAAAAAB"
    mine = EngineGame.from_code(code)
    open_deal(page, code)
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    wait_for_engine(page, game_id, 0)

    def lost_answer(route: Any) -> None:
        route.fetch()  # the move reaches the server...
        route.abort("internetdisconnected")  # ...and its answer never comes back

    page.route("**/api/v1/games/*/moves", lost_answer)
    drag_move(page, tableau_move(mine))
    wait_for_moves(page, 1)  # played on the device
    page.unroute("**/api/v1/games/*/moves")
    assert Game.objects.get(id=game_id).moves == 1  # the server has it too
    drag_move(page, tableau_move(mine))
    wait_for_moves(page, 2)

    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("() => /saved/.test(document.getElementById('rule-note').textContent)", timeout=20_000)
    stored = Game.objects.get(id=game_id)
    assert stored.moves == 2
    assert EngineGame.from_state(stored.state).view()["tableau"] == mine.view()["tableau"]
    assert shown_state(page) == mine.view()["tableau"]
