"""Friends and clubs in the browser (issue 37): following from a profile, making a club, joining
it through its link in a second browser, and the club's day and week boards."""

from __future__ import annotations

from typing import Any

import pytest

from games.competition import clock
from social import services
from social.models import Club, Follow, Membership
from tests import factories
from tests.frontend.conftest import DESKTOP, PHONE
from tests.frontend.support import daily_deal, log_in
from tests.stats.helpers import result_for, won_ranked_game

pytestmark = pytest.mark.browser

WAYS = [pytest.param("de-DE", DESKTOP, id="desktop-de"), pytest.param("en-US", PHONE, id="phone-en")]


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_a_player_follows_another_from_the_profile_and_stops(new_page: Any, locale: str, viewport: Any) -> None:
    lena, tom = factories.user(username="Lena"), factories.user(username="Tom")
    page = new_page(locale=locale, viewport=viewport, has_touch=viewport is PHONE)
    log_in(page, lena)
    page.goto("/players/Tom")
    button = page.locator("#follow")
    button.wait_for(state="visible")
    assert button.get_attribute("aria-pressed") == "false"
    assert page.locator("#followers").inner_text() in ("0 Follower", "0 followers")

    button.click()
    page.wait_for_function("() => document.querySelector('#follow').getAttribute('aria-pressed') === 'true'")
    assert Follow.objects.filter(follower=lena, followed=tom).exists()
    assert page.locator("#followers").inner_text() in ("1 Follower", "1 follower")

    button.click()
    page.wait_for_function("() => document.querySelector('#follow').getAttribute('aria-pressed') === 'false'")
    assert not Follow.objects.exists()


def test_a_guest_sees_no_follow_button_but_a_way_to_log_in(page: Any) -> None:
    factories.user(username="Tom")
    page.goto("/players/Tom")
    page.locator("#follow-login").wait_for(state="visible")
    assert page.locator("#follow").is_hidden()


def test_a_club_is_made_its_link_joins_a_second_browser_and_both_see_the_boards(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today)
    olga, finn = factories.user(username="Olga"), factories.user(username="Finn")
    result_for(won_ranked_game(owner=finn, day=today, time_ms=61_000))
    result_for(won_ranked_game(owner=olga, day=today, time_ms=75_000))

    owner = new_page(locale="en-US")
    log_in(owner, olga)
    owner.goto("/clubs")
    owner.locator("#club-name").fill("Büro-Patience")
    owner.locator("#club-create button[type=submit]").click()
    owner.wait_for_url("**/clubs/buro-patience")
    owner.locator("#club-invite").wait_for(state="visible")
    link = owner.locator("#club-invite").input_value()
    assert "/clubs/join/" in link

    friend = new_page(locale="de-DE", viewport=PHONE, has_touch=True)
    log_in(friend, finn)
    friend.goto(link)
    friend.locator("#club-join").click()
    friend.wait_for_url("**/clubs/buro-patience?joined=1")
    friend.wait_for_function("() => document.body.dataset.clubReady === '1'")
    assert "beigetreten" in friend.locator("#club-note").inner_text()
    assert Membership.objects.filter(club__slug="buro-patience").count() == 2
    day_rows = friend.locator("#club-day-body tr")
    assert day_rows.count() == 2 and "Finn" in day_rows.nth(0).inner_text()
    assert friend.locator("#club-invite-section").is_hidden()  # (the link is the owner's to give)

    # the week's standing as the tasks keep it
    services.club_week_rebuild(club_id=Club.objects.get().pk, week=today)
    owner.reload()
    owner.wait_for_function("() => document.body.dataset.clubReady === '1'")
    week = owner.locator("#club-week-body tr")
    assert week.count() == 2
    assert "Finn" in week.nth(0).inner_text() and "2" in week.nth(0).inner_text()


def test_a_revoked_link_joins_nobody_and_says_why(new_page: Any) -> None:
    olga = factories.user(username="Olga")
    club = services.club_create(user=olga, name="Stammtisch")
    old = services.invite_make(club=club)
    services.invite_revoke(user=olga, club=club)
    page = new_page(locale="en-US")
    log_in(page, factories.user(username="Finn"))
    page.goto(f"/clubs/join/{old}")
    page.locator("#club-join").click()
    page.locator("#clubs-error").wait_for(state="visible")
    assert "no longer valid" in page.locator("#clubs-error").inner_text()
    assert Membership.objects.filter(club=club).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_friends_and_clubs_pages_have_no_wcag_violation(new_page: Any, device: str, locale: str) -> None:
    from tests.frontend.test_axe import DEVICES, violations

    today = clock.today()
    daily_deal(today)
    olga, finn = factories.user(username="Olga"), factories.user(username="Finn")
    club = services.club_create(user=olga, name="Büro-Patience")
    services.club_join(user=finn, invite=services.invite_make(club=club))
    for owner, time_ms in ((finn, 61_000), (olga, 75_000)):
        result_for(won_ranked_game(owner=owner, day=today, time_ms=time_ms))
    services.club_week_rebuild(club_id=club.pk, week=today)
    page = new_page(locale=locale, **DEVICES[device])
    found: list[str] = []
    for path, ready in (("/clubs", "clubsReady"), ("/players/Finn", "playerReady")):
        page.goto(path, wait_until="networkidle")
        page.wait_for_function(f"() => document.body.dataset.{ready} === '1'")
        found += violations(page, f"{path} guest")
    log_in(page, olga)
    for path, ready in (
        ("/clubs", "clubsReady"),
        (f"/clubs/{club.slug}", "clubReady"),
        ("/players/Finn", "playerReady"),
    ):
        page.goto(path, wait_until="networkidle")
        page.wait_for_function(f"() => document.body.dataset.{ready} === '1'")
        found += violations(page, f"{path} logged in")
    page.goto(f"/clubs/join/{services.invite_make(club=club)}", wait_until="networkidle")
    found += violations(page, "/clubs/join")

    assert not found, "\n".join(found)
