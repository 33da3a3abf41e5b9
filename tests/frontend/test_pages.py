"""The settings, the languages, a phone, and the pages around the game: leaderboards,
statistics, sign up, log in, log out (the daily deal: test_daily.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from common.errors import explain
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game
from tests import factories

from .conftest import PHONE
from .support import (
    drag,
    find_deal,
    foundation_move,
    last_card,
    log_in,
    open_deal,
    place_of,
    point_of_card,
    point_of_column,
    session_key,
    settle,
    wait_for_moves,
)
from .test_play import refused_drop

pytestmark = pytest.mark.browser


def open_settings(page: Any) -> Any:
    page.locator("#settings-button").click()
    dialog = page.locator("#settings-dialog")
    dialog.wait_for(state="visible")
    return dialog


def toggle(page: Any, name: str) -> None:
    page.locator(f"label:has(#setting-{name})").click()
    page.wait_for_function("() => document.querySelector('#settings-dialog .settings-status').textContent !== ''")


def checked(page: Any) -> dict[str, bool]:
    return page.eval_on_selector_all(
        "#settings-dialog input[type=checkbox]", "els => Object.fromEntries(els.map(e => [e.name, e.checked]))"
    )


def test_the_settings_start_at_their_defaults_and_survive_a_reload(page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(refused_drop)
    open_deal(page, code)
    open_settings(page)
    assert checked(page) == {
        "double_click": True,
        "drop_hints": True,
        "interactive_rules": True,
        "auto_drop": False,
        "four_color": False,
    }
    screenshot(page, "play-settings-dialog", full_page=False)
    toggle(page, "drop_hints")
    toggle(page, "interactive_rules")
    toggle(page, "four_color")
    page.locator("#settings-dialog [data-close]").click()

    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    open_settings(page)
    assert checked(page) == {
        "double_click": True,
        "drop_hints": False,
        "interactive_rules": False,
        "auto_drop": False,
        "four_color": True,
    }
    page.locator("#settings-dialog [data-close]").click()
    assert "four-color" in page.locator("#table").get_attribute("class")
    # Interaktive Regeln off: a refused drop slides back without the rule note.
    settle(page)
    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))
    page.wait_for_function("() => document.getElementById('live').textContent !== ''")
    assert page.locator("#rule-note").is_hidden()


def test_signing_up_keeps_the_settings_in_the_account_then_log_out_and_in(page: Any, screenshot: Any) -> None:
    page.goto("/signup")
    screenshot(page, "signup")
    page.fill("#username", "alice")
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url("**/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    assert page.locator("#account .who").text_content() == "alice"

    open_settings(page)
    toggle(page, "auto_drop")
    toggle(page, "double_click")
    assert page.locator("#settings-dialog .settings-status").text_content() == "Gespeichert in deinem Konto."
    from accounts.models import Profile

    profile = Profile.objects.get(user__username="alice")
    assert (profile.auto_drop, profile.double_click) == (True, False)

    page.evaluate("localStorage.removeItem('yukon.settings')")  # the account, not the browser, remembers them
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    page.wait_for_function("() => document.querySelector('#account .who') !== null")
    open_settings(page)
    page.wait_for_function("() => document.getElementById('setting-auto_drop').checked")
    assert checked(page)["double_click"] is False
    page.locator("#settings-dialog [data-close]").click()

    page.locator("#logout-button").click()
    page.wait_for_function("() => document.querySelector('#account .who.guest') !== null")
    page.goto("/login")
    screenshot(page, "login")
    page.fill("#username", "alice")
    page.fill("#password", "wrong password")
    page.locator("#auth-form button[type=submit]").click()
    page.locator("#auth-error").wait_for(state="visible")
    assert page.locator("#auth-error").text_content() == "Benutzername oder Passwort stimmt nicht."
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url("**/")
    page.wait_for_function("() => document.querySelector('#account .who:not(.guest)') !== null")


def test_the_page_speaks_german_or_english_by_the_browser_language(new_page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(refused_drop)
    expectations = {
        "de-DE": ("de", "Neues Spiel", "Rückgängig", explain("does_not_fit", "de")),
        "en-US": ("en", "New game", "Undo", explain("does_not_fit", "en")),
        "fr-FR": ("de", "Neues Spiel", "Rückgängig", explain("does_not_fit", "de")),  # neither: German
    }
    for locale, (lang, new_game, undo, rule) in expectations.items():
        page = new_page(locale=locale)
        open_deal(page, code)
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("#new-button").text_content().strip() == new_game
        assert page.locator("#undo-button").text_content().strip() == undo
        assert "{" not in page.locator("body").inner_text()  # no placeholder left unfilled
        drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))
        page.locator("#rule-note").wait_for(state="visible")
        assert page.locator("#rule-note .rule-text").text_content() == rule
        if locale == "en-US":
            screenshot(page, "play-desktop-en", full_page=False)
            page.goto("/stats")
            assert page.locator("h1").text_content() == "Statistics"


def test_a_phone_shows_the_whole_table_and_plays_by_touch(new_page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(foundation_move)
    card = last_card(game, move["from"])
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    open_deal(page, code)
    screenshot(page, "play-phone")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    lanes = [page.locator(f".lane[data-target=t{n}]").bounding_box() for n in range(1, 8)]
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1 for box in lanes)
    card_box = page.locator(f"#card-{card}").bounding_box()
    assert card_box["width"] >= 40
    corner = page.locator(f"#card-{card} .corner:not(.bottom) .rank").evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert corner >= 13  # readable rank on a phone

    page.locator(f"#card-{card}").tap()
    wait_for_moves(page, 1)
    assert place_of(page, card) == f"f{card[1]}"


def won_game() -> EngineGame:
    """A won game of a deal of its own (a deal played before counts for no best)."""
    return EngineGame.from_layout(
        [[], [], [], [], [], [], []],
        {"S": "KS", "H": "KH", "D": "KD", "C": "KC"},
        code=GameCode.parse(factories.fresh_code()),
    )


def test_the_statistics_page_draws_its_chart(page: Any, screenshot: Any) -> None:
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    key = session_key(page)
    now = timezone.now()
    minutes = [7, 12, 5, 9, 6]  # five won games over five days, one a day
    for day, length in enumerate(minutes):
        game = factories.game(session_key=key, engine=won_game())
        started = now - timedelta(days=len(minutes) - day, minutes=length)
        Game.objects.filter(pk=game.pk).update(
            created_at=started,
            finished_at=started + timedelta(minutes=length),
            time_ms=length * 60_000,
            moves=120 + day,
        )

    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    # The game dealt at "/" was never touched: it counts nothing (docs/statistics.md).
    assert page.locator("#tile-played strong").text_content() == "5"
    assert page.locator("#tile-won strong").text_content() == "5"
    assert page.locator("#tile-winrate strong").text_content() == "100 %"
    assert page.locator("#tile-besttime strong").text_content() == "5:00"
    page.wait_for_timeout(500)  # the chart's own short animation
    painted = page.evaluate(
        """() => {
            const c = document.getElementById('history-chart');
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
            return n;
        }"""
    )
    assert painted > 2000
    assert page.evaluate("window.yukonChart.data.datasets.length") == 3
    screenshot(page, "stats")


def test_an_accounts_chart_shows_unfinished_games_and_tells_games_of_one_day_apart(
    new_page: Any, screenshot: Any
) -> None:
    """Issue 28 item 8: the grey "Nicht beendet" bars were missing for an account, every label of
    one day read "1. Dez.", and the time axis read "0.9"."""
    user = factories.user()
    start = timezone.now().replace(hour=9, minute=0, second=0, microsecond=0) - timedelta(days=1)
    for n, (seconds, won) in enumerate(((54, True), (150, False), (95, True))):  # three games of one day
        game = factories.game(owner=user, engine=won_game() if won else None, moves=40 + n)
        created = start + timedelta(hours=n)
        Game.objects.filter(pk=game.pk).update(
            created_at=created,
            finished_at=created + timedelta(seconds=seconds) if won else None,
            time_ms=seconds * 1000 if won else None,
        )
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    log_in(page, user)
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    chart = page.evaluate(
        """() => {
            const chart = window.yukonChart;
            const [won, open] = chart.data.datasets.filter((set) => set.type === 'bar').map((set) => set.data);
            return { labels: chart.data.labels.map((label) => label.join(' ')), won, open,
                     ticks: chart.scales.y.ticks.map((tick) => tick.label) };
        }"""
    )
    assert chart["won"][1] is None and chart["open"][1] > 0  # the unfinished game's grey bar
    assert len(set(chart["labels"])) == 3  # one day, three games: each its own label
    assert all(re.fullmatch(r"\d+:\d\d", tick) for tick in chart["ticks"]), chart["ticks"]  # 0:30, never 0.9
    screenshot(page, "stats-account-phone")


def test_a_game_left_open_beyond_the_charts_axis_stands_to_its_top_and_says_so(new_page: Any) -> None:
    """Issue 49 item 6: the grey bar of a game left open for hours was cut at the axis."""
    user = factories.user()
    start = timezone.now() - timedelta(days=1)
    for n, (seconds, won) in enumerate(((60, True), (7200, False), (80, True))):
        game = factories.game(owner=user, engine=won_game() if won else None, moves=40 + n)
        created = start + timedelta(hours=3 * n)
        Game.objects.filter(pk=game.pk).update(
            created_at=created,
            finished_at=created + timedelta(seconds=seconds) if won else None,
            time_ms=seconds * 1000 if won else None,
        )
    Game.objects.filter(owner=user, status="playing").update(paused_at=start + timedelta(hours=5))
    page = new_page(locale="en-US")
    log_in(page, user)
    page.goto("/stats")
    page.wait_for_function("() => document.body.dataset.statsReady === '1'")
    chart = page.evaluate(
        """() => {
            const chart = window.yukonChart;
            const open = chart.data.datasets.filter((set) => set.type === 'bar')[1];
            const index = open.data.findIndex((v) => v != null);
            const item = { dataset: open, dataIndex: index, raw: open.data[index] };
            const label = chart.options.plugins.tooltip.callbacks.label(item);
            return { top: chart.scales.y.max, value: open.data[index], label };
        }"""
    )
    assert chart["value"] == chart["top"]  # to the axis's top, not past it
    assert "beyond the axis" in chart["label"], chart["label"]


def test_the_leaderboards_page_answers_for_a_date(page: Any, screenshot: Any) -> None:
    page.goto("/leaderboards?date=2026-01-15")
    page.wait_for_function("() => !document.getElementById('lb-message').textContent.includes('…')")
    assert page.locator("#lb-date").input_value() == "2026-01-15"
    assert page.locator("#lb-heading").text_content() == "15. Januar 2026"
    message = page.locator("#lb-message").text_content()
    table = page.locator("#lb-table")
    assert table.is_visible() or message  # a table, or a friendly word why there is none
    screenshot(page, "leaderboards")
    assert page.locator("#lb-bad-date").is_hidden()

    # A date that is none (issue 28 item 6): said so, and today's board instead of a broken page.
    page.goto("/leaderboards?date=2026-13-45")
    page.wait_for_function("() => !document.getElementById('lb-message').textContent.includes('…')")
    today = timezone.now().date()
    assert page.locator("#lb-bad-date").text_content() == (
        "„2026-13-45“ ist kein gültiges Datum – hier die Bestenliste von heute."
    )
    assert page.locator("#lb-date").input_value() == today.isoformat()
    assert page.locator("#lb-heading").text_content() == f"{today.day}. {GERMAN_MONTHS[today.month - 1]} {today.year}"
    page.locator("#lb-prev").click()  # another day: the note has said its word
    page.wait_for_function("() => document.getElementById('lb-bad-date').hidden")


GERMAN_MONTHS = "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split()
