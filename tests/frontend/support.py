"""What the browser tests share: finding deals with the engine, driving the table, and setting
up the daily deal (an account's session, the server's answers at another moment)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

from django.conf import settings
from django.test import Client

from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.models import DailyDeal

Finder = Callable[[EngineGame], Any]


def find_deal(found: Finder, *, rule: Rule = Rule.CLASSIC, start: int = 1) -> tuple[str, EngineGame, Any]:
    """The first deal (by number) for which ``found(game)`` gives something: a fixed choice."""
    for number in range(start, start + 20_000):
        game = EngineGame.new(GameCode(rule, number))
        hit = found(game)
        if hit:
            return str(game.code), game, hit
    raise AssertionError("no such deal among the first 20,000")


def group_move(game: EngineGame) -> dict[str, str] | None:
    """A legal move of at least three cards onto another column."""
    tableau = game.view()["tableau"]
    for move in game.legal_moves():
        m = move.to_json()
        if m["from"][0] == "t" and m["to"][0] == "t":
            col = tableau[int(m["from"][1]) - 1]
            if len(col) - col.index(m["card"]) >= 3 and tableau[int(m["to"][1]) - 1]:
                return m
    return None


def foundation_move(game: EngineGame) -> dict[str, str] | None:
    for move in game.legal_moves():
        m = move.to_json()
        if m["to"] == "f":
            return m
    return None


def last_card(game: EngineGame, column: str) -> str:
    return str(game.view()["tableau"][int(column[1]) - 1][-1])


def open_deal(page: Any, code: str) -> None:
    """Play the deal ``code`` and wait until its cards lie on the table."""
    page.goto(f"/?code={code}")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '0'")
    settle(page)


def point_of_card(page: Any, card: str) -> tuple[float, float]:
    """A point on the visible top strip of a card."""
    box = page.locator(f"#card-{card}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + min(10, box["height"] / 6)


def point_of_column(page: Any, column: str) -> tuple[float, float]:
    box = page.locator(f".lane[data-target={column}]").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + 60


def point_of_foundation(page: Any, suit: str) -> tuple[float, float]:
    box = page.locator(f"#slot-f{suit}").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 8, start[1] + 8, steps=2)
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def place_of(page: Any, card: str) -> str:
    """Where the page shows a card: "t1".."t7" or "fS".."fC"."""
    return str(page.locator(f"#card-{card}").get_attribute("data-place"))


def wait_for_moves(page: Any, moves: int) -> None:
    """Until the game bar counts ``moves`` and the cards have stopped moving."""
    page.wait_for_function(f"() => document.getElementById('stat-moves').textContent === '{moves}'")
    settle(page)


def settle(page: Any) -> None:
    """Until no card is sliding or turning over."""
    page.wait_for_function(
        "() => document.getAnimations().filter(a => a.playState === 'running' && a.effect && a.effect.target"
        " && a.effect.target.closest && a.effect.target.closest('.card-layer')).length === 0"
    )


def server_state(page: Any) -> dict[str, Any]:
    """The current game as the API tells it to this browser."""
    return page.evaluate("async () => (await fetch('/api/v1/games/' + localStorage.getItem('yukon.game'))).json()")


def session_key(page: Any) -> str:
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return cookies["sessionid"]


#: Page script: note when the pointer is released over the table and when ``card`` first moves
#: after it (``window.__drop``, ``window.__moved``); the animation-latency test and bench share it.
WATCH_DROP = """card => {
    const el = document.getElementById('card-' + card);
    window.__drop = null; window.__moved = null;
    document.getElementById('table').addEventListener('pointerup', () => {
        window.__drop = performance.now();
        const start = el.getBoundingClientRect();
        const watch = () => {
            const now = el.getBoundingClientRect();
            if (now.x !== start.x || now.y !== start.y) window.__moved = performance.now();
            else requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
    }, { capture: true, once: true });
}"""


def daily_deal(day: date, *, code: str = "YU1-C-AAAAAAB", players: int = 0) -> DailyDeal:
    """A day's deal, ready as the beat task leaves it (drawing and certifying one takes the
    solver a while); YU1-C-AAAAAAB is a known winnable deal."""
    return DailyDeal.objects.create(date=day, code=code, rule="classic", solution_length=90, players=players)


def log_in(page: Any, user: Any) -> None:
    """Give the browser ``user``'s session, as after logging in (no form to fill)."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "domain": "localhost", "path": "/"}]
    )


def daily_offer(page: Any, user: Any) -> Any:
    """Log ``user`` in, open the daily page and return its play button once it shows what it offers."""
    log_in(page, user)
    page.goto("/daily")
    play = page.locator("#daily-play")
    play.wait_for(state="visible")
    return play


def play_daily(button: Any) -> None:
    """Click the daily page's play button as a player who means it: in the last 15 minutes of a
    UTC day the page first warns that little time is left (``test_daily``'s warning tests), and
    this says go on, so that a test started at 23:50 UTC tests what it names, not the hour."""
    button.click()
    # The warning is opened inside the click's own handler, so it is open by now if it comes.
    go = button.page.locator("#warn-go")
    if go.is_visible():
        go.click()


def answer_edited(page: Any, pattern: str, edit: Callable[[Any, dict[str, Any]], None]) -> None:
    """Let the server answer the API requests whose path matches ``pattern``, then change their
    JSON with ``edit(request, body)`` before the page sees it: what the backend would say at
    another moment (near midnight, after the close)."""

    def handle(route: Any) -> None:
        response = route.fetch()
        try:
            body = response.json()
        except ValueError:
            route.fulfill(response=response)
            return
        if isinstance(body, dict):
            edit(route.request, body)
        route.fulfill(response=response, json=body)

    page.route(re.compile(pattern), handle)


def win_on_the_daily_page(page: Any, card: str) -> None:
    """Open /daily, start (or resume) the ranked attempt and put ``card`` away with a tap: the
    attempt's last move (see ``test_daily.ranked_attempt_one_move_from_the_win``)."""
    page.goto("/daily")
    play_daily(page.locator("#daily-play"))
    page.wait_for_function(f"() => document.getElementById('card-{card}') !== null")
    settle(page)
    page.locator(f"#card-{card}").click()
