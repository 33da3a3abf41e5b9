"""Accounts in the browser (issue 26): deleting one's account, the word that a session ended,
a login in another case on the phone, a player's profile from a board, and /login and /signup
for a player who is logged in already."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import caches

from common.sessions import SessionStore
from games.competition import clock
from games.engine import Game as EngineGame
from games.models import Game
from games.play.services import game_play
from games.players import Player
from stats import services as stats_services
from tests import factories
from tests.frontend.conftest import DESKTOP, PHONE
from tests.frontend.support import find_deal, foundation_move, last_card, open_deal
from tests.stats.helpers import deal, won_ranked_game

pytestmark = pytest.mark.browser

DEVICES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
LANGUAGES = [pytest.param("de-DE", id="de"), pytest.param("en-US", id="en")]


def log_in(page: Any, username: str, *, next_path: str = "/stats") -> None:
    page.goto(f"/login?next={next_path}")
    page.fill("#username", username)
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login" not in url)


@pytest.mark.parametrize("viewport", DEVICES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_player_deletes_the_account_with_the_password(new_page: Any, viewport: Any, locale: str, screenshot: Any):
    user = factories.user(username="Ruth")
    factories.game(owner=user, moves=3)
    page = new_page(locale=locale, viewport=viewport)
    log_in(page, "Ruth")
    page.goto("/account/delete")
    german = locale == "de-DE"
    assert page.locator("h1").inner_text() == ("Konto löschen" if german else "Delete your account")
    assert ("gelöschter Spieler" if german else "deleted player") in page.locator("main").inner_text()
    screenshot(page, f"account-delete-{viewport['width']}-{locale}")

    page.fill("#password", "not the password")
    page.click("#delete-submit")
    error = page.locator("#delete-error")
    error.wait_for(state="visible")
    assert error.inner_text() == (
        "Das Passwort stimmt nicht: Es wurde nichts geändert."
        if german
        else "The password is wrong: nothing was changed."
    )
    assert get_user_model().objects.filter(username="Ruth").exists()

    page.fill("#password", factories.PASSWORD)
    page.click("#delete-submit")
    page.wait_for_url(lambda url: url.endswith("/?account=deleted") or "/?game=" in url)
    notice = page.locator("#account-deleted")
    assert notice.inner_text().startswith("Dein Konto wurde gelöscht." if german else "Your account was deleted.")
    page.locator("#account .who.guest").wait_for(state="attached")
    assert not get_user_model().objects.filter(username="Ruth").exists()


def test_a_guest_is_sent_to_log_in_before_deleting(page: Any):
    page.goto("/account/delete")

    assert page.url.endswith("/login?next=/account/delete")


def _end_sessions_of(username: str) -> None:
    """What an expired session looks like to the server: it is gone (database and cache)."""
    user = get_user_model().objects.get(username=username)
    store = SessionStore()
    cache = caches["default"]
    for session in Session.objects.all():
        if str(store.decode(session.session_data).get("_auth_user_id")) == str(user.pk):
            cache.delete(SessionStore.cache_key_prefix + session.session_key)
            session.delete()


@pytest.mark.parametrize("viewport", DEVICES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_move_after_the_session_ended_says_so_and_leads_back_to_the_game(
    new_page: Any, viewport: Any, locale: str, screenshot: Any
):
    factories.user(username="Otto")
    code, game, move = find_deal(foundation_move)
    card = last_card(game, move["from"])
    page = new_page(locale=locale, viewport=viewport)
    log_in(page, "Otto")
    page.locator("#account .who:not(.guest)").wait_for(state="attached")
    open_deal(page, code)
    game_url = page.url
    assert "/?game=" in game_url

    _end_sessions_of("Otto")  # it expired while the player looked at the cards
    page.locator(f"#card-{card}").click()  # tapping the last card: to its foundation

    notice = page.locator("#signed-out")
    notice.wait_for()
    german = locale == "de-DE"
    assert notice.inner_text().startswith(
        "Du wurdest abgemeldet — melde dich an, um dieses Spiel weiterzuspielen."
        if german
        else "You were signed out — sign in to go on with this game."
    )
    assert "Dieses Spiel gibt es nicht mehr" not in page.locator("main").inner_text()
    page.locator("#account .who.guest").wait_for(state="attached")  # the header too
    screenshot(page, f"signed-out-{viewport['width']}-{locale}")

    notice.locator("a").click()
    page.fill("#username", "Otto")
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(game_url)
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    assert page.locator("#game-lost").is_hidden()
    page.locator(f"#card-{card}").click()  # and the move goes through now
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '1'")


def test_opening_the_game_again_after_the_session_ended_says_so_too(new_page: Any):
    factories.user(username="Otto")
    page = new_page(viewport=PHONE, locale="en-US")
    log_in(page, "Otto", next_path="/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    page.locator("#account .who:not(.guest)").wait_for(state="attached")
    game_url = page.url

    _end_sessions_of("Otto")
    page.reload()

    page.locator("#signed-out").wait_for()
    assert page.locator("#game-lost-text").inner_text() == "You were signed out — sign in to go on with this game."
    page.locator("#signed-out a").click()
    page.fill("#username", "Otto")
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(game_url)
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")


def test_a_move_by_a_guest_never_says_signed_out(page: Any):
    """A guest's refused write is no ended session: the page does not claim one."""
    other = factories.game(owner=factories.user(username="Someone"))
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    code = page.evaluate(
        f"""async () => {{
            const {{ games }} = await import('/static/frontend/api.js');
            try {{ await games.undo('{other.pk}'); }} catch (err) {{ return err.code; }}
        }}"""
    )

    assert code == "not_found"
    assert page.locator("#signed-out").count() == 0


def test_a_name_registered_as_Jonas_logs_in_as_jonas_on_the_phone(new_page: Any):
    factories.user(username="Jonas")
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True)

    log_in(page, "jonas")

    page.locator("#account .who:not(.guest)").wait_for(state="attached")
    assert page.locator("#account .who").inner_text() == "Jonas"


@pytest.mark.parametrize("viewport", DEVICES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_a_name_on_the_board_opens_the_players_profile(new_page: Any, viewport: Any, locale: str, screenshot: Any):
    day = clock.today() - timedelta(days=1)
    deal(day, code="YU1-C-AAAAAAB")
    mara, gone = factories.user(username="Mara"), factories.user(username="Gone")
    won_ranked_game(owner=mara, day=day, time_ms=150_000, moves=95)
    won_ranked_game(owner=gone, day=day, time_ms=100_000, moves=90)
    stats_services.daily_board_rebuild(day=day)
    from accounts.actions.deletion import account_delete

    account_delete(user=gone, password=factories.PASSWORD)
    page = new_page(locale=locale, viewport=viewport)
    page.goto(f"/leaderboards?date={day.isoformat()}")
    rows = page.locator("#lb-body tr")
    rows.nth(1).wait_for()
    german = locale == "de-DE"
    assert rows.nth(0).locator("th .deleted-player").inner_text() == (
        "gelöschter Spieler" if german else "deleted player"
    )
    assert rows.nth(0).locator("th a").count() == 0

    rows.nth(1).locator("th a", has_text="Mara").click()
    page.wait_for_url("**/players/Mara")
    page.wait_for_selector("body[data-player-ready]")
    assert page.locator("h1").inner_text() == "Mara"
    recent = page.locator("#player-recent-body tr")
    assert recent.count() == 1 and recent.nth(0).locator("td").nth(1).inner_text() == "#2"
    assert page.locator("#tile-bestrank strong").inner_text() == "#2"
    screenshot(page, f"profile-{viewport['width']}-{locale}")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_an_unknown_or_deleted_name_gets_the_sites_404(new_page: Any, locale: str):
    page = new_page(locale=locale)
    response = page.goto("/players/nobody-here")

    assert response.status == 404
    german = locale == "de-DE"
    assert page.locator("h1").inner_text() == ("Spieler nicht gefunden" if german else "No such player")
    assert page.locator(".topbar").is_visible()


def test_login_and_signup_for_a_logged_in_player_offer_to_go_on_or_log_out(new_page: Any):
    factories.user(username="Ida")
    page = new_page(locale="en-US")
    log_in(page, "Ida")

    page.goto("/signup?next=/daily")
    assert "You are logged in as Ida." in page.locator("#signed-in").inner_text()
    assert page.locator("#auth-form").count() == 0
    page.click("#signed-in-continue")
    page.wait_for_url("**/daily")

    page.goto("/login?next=//evil.example")
    assert page.locator("#signed-in-continue").get_attribute("href") == "/"
    page.click("#signed-in-logout")
    page.locator("#auth-form").wait_for()
    page.locator("#account .who.guest").wait_for(state="attached")


@pytest.mark.parametrize("viewport", DEVICES)
@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_new_pages_have_no_wcag_violation(new_page: Any, viewport: Any, locale: str):
    from tests.frontend.test_axe import violations

    day = clock.today() - timedelta(days=1)
    deal(day, code="YU1-C-AAAAAAB")
    won_ranked_game(owner=factories.user(username="Mara"), day=day, time_ms=150_000, moves=95)
    stats_services.daily_board_rebuild(day=day)
    factories.user(username="Vera")
    page = new_page(locale=locale, viewport=viewport)
    found: list[str] = []
    page.goto("/players/mara", wait_until="networkidle")
    page.wait_for_selector("body[data-player-ready]")
    found += violations(page, "profile")
    page.goto("/players/nobody", wait_until="networkidle")
    found += violations(page, "profile 404")
    log_in(page, "Vera")
    for path in ("/account/delete", "/login", "/signup", "/?account=deleted"):
        page.goto(path, wait_until="networkidle")
        found += violations(page, path)

    assert found == []


def test_after_signing_up_the_page_says_once_that_the_guests_games_were_kept(new_page: Any) -> None:
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)  # German
    open_deal(page, "YU1-C-AAAAAAB")
    game = Game.objects.get()
    move = EngineGame.from_state(game.state).legal_moves()[0]
    game_play(game_id=game.pk, player=Player(session_key=game.guest_session_key), move=move)

    page.goto("/signup")
    page.fill("#username", "Wiebke")
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(lambda url: "/signup" not in url)
    kept = page.locator("#games-kept")
    kept.wait_for(state="visible")
    assert kept.text_content() == "Dein Spiel als Gast gehört jetzt deinem Konto: Es zählt in deiner Statistik."
    assert Game.objects.get().owner.username == "Wiebke"
    page.reload()  # said once
    page.wait_for_function("() => document.querySelector('#account a.who') !== null")
    assert page.locator("#games-kept").count() == 0
