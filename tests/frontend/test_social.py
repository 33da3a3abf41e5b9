"""Friends and clubs in the browser (issue 37): following from a profile, making a club, joining
it through its link in a second browser, and the club's day and week boards."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import ApplicationError
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
    owner.wait_for_url("**/clubs/buro-patience-*")  # (the name made readable, and 8 random letters)
    slug = Club.objects.get().slug
    owner.locator("#club-invite").wait_for(state="visible")
    link = owner.locator("#club-invite").input_value()
    assert "/clubs/join/" in link

    friend = new_page(locale="de-DE", viewport=PHONE, has_touch=True)
    log_in(friend, finn)
    friend.goto(link)
    friend.locator("#club-join").click()
    friend.wait_for_url(f"**/clubs/{slug}?joined=1")
    friend.wait_for_function("() => document.body.dataset.clubReady === '1'")
    assert "beigetreten" in friend.locator("#club-note").inner_text()
    assert Membership.objects.filter(club__slug=slug).count() == 2
    day_rows = friend.locator("#club-day-body tr")
    assert day_rows.count() == 2 and "Finn" in day_rows.nth(0).inner_text()
    assert friend.locator("#club-invite-section").is_hidden()  # (the link is the owner's to give)
    assert "Gesamt" in friend.locator("#club-legend").inner_text()  # what ✓ and "≈ 3" mean

    # the week's standing as the tasks keep it
    services.club_week_rebuild(club_id=Club.objects.get().pk, week=today)
    owner.reload()
    owner.wait_for_function("() => document.body.dataset.clubReady === '1'")
    week = owner.locator("#club-week-body tr")
    assert week.count() == 2
    assert "Finn" in week.nth(0).inner_text() and "2" in week.nth(0).inner_text()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_the_owner_removes_a_member_who_stays_out_until_let_in_again_on_the_clubs_page(
    new_page: Any, locale: str, viewport: Any
) -> None:
    olga, finn = factories.user(username="Olga"), factories.user(username="Finn")
    club = services.club_create(user=olga, name="Stammtisch")
    link = services.invite_make(club=club)
    services.club_join(user=finn, invite=link)
    page = new_page(locale=locale, viewport=viewport, has_touch=viewport is PHONE)
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    log_in(page, olga)
    page.goto(f"/clubs/{club.slug}")
    page.wait_for_function("() => document.body.dataset.clubReady === '1'")
    assert page.locator("#club-removed-part").is_hidden()

    page.locator("#club-members button", has_text="Entfernen" if locale == "de-DE" else "Remove").click()

    page.locator("#club-removed-part").wait_for(state="visible")
    assert "Finn" in asked[0] and ("bis du es erlaubst" in asked[0] or "until you let them" in asked[0])
    assert "Finn" in page.locator("#club-removed").inner_text()
    assert not Membership.objects.filter(club=club, user=finn).exists()
    with pytest.raises(ApplicationError) as refused:
        services.club_join(user=finn, invite=link)
    assert refused.value.code == "club_removed"
    lift = "Wieder hereinlassen" if locale == "de-DE" else "Let in again"
    page.locator("#club-removed button", has_text=lift).click()
    page.locator("#club-removed-part").wait_for(state="hidden")
    assert services.club_join(user=finn, invite=link) == club


def test_a_club_invite_goes_through_the_phones_share_sheet_where_there_is_one(new_page: Any) -> None:
    """Issue 49 item 6: Web Share for invites (Chromium on Linux has none: the page's own stands in)."""
    olga = factories.user(username="Olga")
    club = services.club_create(user=olga, name="Stammtisch")
    page = new_page(locale="de-DE", viewport=PHONE, has_touch=True)
    page.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); };")
    log_in(page, olga)
    page.goto(f"/clubs/{club.slug}")
    page.wait_for_function("() => document.body.dataset.clubReady === '1'")

    page.locator("#club-invite-share").click()

    shared = page.wait_for_function("() => window.shared").json_value()
    assert shared["url"] == page.locator("#club-invite").input_value() and "/clubs/join/" in shared["url"]
    assert (
        shared["text"]
        == "Komm in meinen Club „Stammtisch“ bei Yukon Solitaire: das Tagesspiel, eine Bestenliste für uns."
    )


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_a_player_finds_the_clubs_in_the_header(new_page: Any, locale: str, viewport: Any) -> None:
    """Issue 49 item 6: the clubs were reachable only from the account page and the friends' tab."""
    page = new_page(locale=locale, viewport=viewport, has_touch=viewport is PHONE)
    log_in(page, factories.user(username="Lena"))
    page.goto("/stats")
    link = page.locator("#clubs-link")
    link.wait_for(state="visible")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= page.viewport_size["width"]

    link.click()
    page.wait_for_url("**/clubs")
    assert page.locator("#clubs-link").get_attribute("aria-current") == "page"


def test_without_a_share_sheet_the_invite_is_copied(new_page: Any) -> None:
    olga = factories.user(username="Olga")
    club = services.club_create(user=olga, name="Stammtisch")
    page = new_page(locale="en-US")
    page.add_init_script("delete Navigator.prototype.share;")
    log_in(page, olga)
    page.goto(f"/clubs/{club.slug}")
    page.wait_for_function("() => document.body.dataset.clubReady === '1'")
    assert page.locator("#club-invite-share").is_hidden() and page.locator("#club-invite-copy").is_visible()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_the_daily_page_has_a_friends_tab_with_the_people_one_follows(
    new_page: Any, locale: str, viewport: Any
) -> None:
    today = clock.today()
    daily_deal(today)
    lena, tom, held, stranger = (factories.user(username=name) for name in ("Lena", "Tom", "Held", "Stranger"))
    for followed in (tom, held):
        services.follow_add(user=lena, username=followed.username)
    result_for(won_ranked_game(owner=stranger, day=today, time_ms=50_000))
    result_for(won_ranked_game(owner=tom, day=today, time_ms=61_000))
    result_for(won_ranked_game(owner=lena, day=today, time_ms=75_000))
    won_ranked_game(owner=held, day=today, time_ms=40_000, review="held")  # on no board

    page = new_page(locale=locale, viewport=viewport, has_touch=viewport is PHONE)
    log_in(page, lena)
    page.goto("/daily")
    tab = page.locator("#daily-tab-friends")
    tab.wait_for(state="visible")
    assert page.locator("#daily-panel-friends").is_hidden()
    assert page.locator("#daily-top-body tr").count() == 3  # everyone's board: Stranger, Tom, Lena

    tab.click()
    rows = page.locator("#daily-friends-body tr")
    assert page.locator("#daily-panel-all").is_hidden()
    assert [rows.nth(i).locator("th").inner_text().split()[0] for i in range(rows.count())] == ["Tom", "Lena"]
    assert rows.nth(0).locator("td").nth(0).inner_text() == "1"
    assert rows.nth(1).locator("td").nth(-1).inner_text() == "#3"  # Lena's place on everyone's board
    assert "mine" in (rows.nth(1).get_attribute("class") or "")
    # The legend under the boards explains the friends' "Overall" column too.
    assert page.locator("#daily-legend").is_visible() and page.locator("#daily-legend-overall").is_visible()

    # The tab chosen is the one the page opens on next time; the arrow keys move between the tabs.
    page.reload()
    page.locator("#daily-friends-body tr").first.wait_for()
    assert page.locator("#daily-tab-friends").get_attribute("aria-selected") == "true"
    page.locator("#daily-tab-friends").focus()
    page.keyboard.press("ArrowLeft")
    assert page.locator("#daily-tab-all").get_attribute("aria-selected") == "true"
    assert page.evaluate("document.activeElement.id") == "daily-tab-all"
    assert page.locator("#daily-panel-all").is_visible()


def test_a_player_who_follows_nobody_is_told_how_to_fill_the_friends_tab(new_page: Any) -> None:
    daily_deal(clock.today())
    page = new_page(locale="en-US")
    log_in(page, factories.user(username="Lena"))
    page.goto("/daily")
    page.locator("#daily-tab-friends").click()
    assert "You follow nobody yet" in page.locator("#daily-friends-empty").inner_text()
    assert page.locator("#daily-panel-friends a[href='/clubs']").is_visible()


def test_a_guest_sees_everyones_board_without_tabs(page: Any) -> None:
    today = clock.today()
    daily_deal(today)
    result_for(won_ranked_game(owner=factories.user(username="Tom"), day=today, time_ms=61_000))
    page.goto("/daily")
    page.locator("#daily-top-body tr").first.wait_for()
    assert page.locator("#daily-tabs").is_hidden()
    assert page.locator("#daily-legend").is_visible()  # ✓ and par, but no column "Overall" to explain
    assert page.locator("#daily-legend-overall").is_hidden()


def test_the_account_page_switches_the_profile_to_followers_only(new_page: Any) -> None:
    lena = factories.user(username="Lena")
    page = new_page(locale="en-US")
    log_in(page, lena)
    page.goto("/account")
    switch = page.locator("#privacy-hidden")
    page.wait_for_function("() => !document.getElementById('privacy-hidden').disabled")
    assert not switch.is_checked()
    page.locator("label:has(#privacy-hidden)").click()
    page.wait_for_function("() => document.getElementById('privacy-status').textContent.trim() !== ''")
    assert services_privacy_hidden(lena)
    page.reload()
    page.wait_for_function("() => !document.getElementById('privacy-hidden').disabled")
    assert switch.is_checked()


@pytest.mark.parametrize(("locale", "viewport"), WAYS)
def test_a_private_profile_reads_as_private_not_as_empty_tables(new_page: Any, locale: str, viewport: Any) -> None:
    factories.user(username="Tom")
    services.profile_hidden_set(user=factories.user(username="Mia"), hidden=True)
    page = new_page(locale=locale, viewport=viewport, has_touch=viewport is PHONE)
    log_in(page, factories.user(username="Lena"))
    page.goto("/players/Mia")
    page.wait_for_function("() => document.body.dataset.playerReady === '1'")

    assert page.locator("#player-private").is_visible()
    assert page.locator("#player-private h2").inner_text() in ("A private profile", "Ein privates Profil")
    assert page.locator("#player-rules").is_hidden() and page.locator("#player-recent-title").is_hidden()
    assert page.locator("#player-note").is_hidden()
    page.goto("/players/Tom")  # a public one still shows its tables
    page.wait_for_function("() => document.body.dataset.playerReady === '1'")
    assert page.locator("#player-rules").is_visible() and page.locator("#player-private").is_hidden()


def services_privacy_hidden(user: Any) -> bool:
    from social import selectors

    return selectors.profile_hidden(user=user)


def test_the_share_text_names_a_club_and_the_place_in_it(new_page: Any) -> None:
    today = clock.today()
    daily_deal(today, players=3)
    lena, tom, ina = (factories.user(username=name) for name in ("Lena", "Tom", "Ina"))
    office = services.club_create(user=lena, name="Büro-Patience")
    family = services.club_create(user=lena, name="Familie")
    services.club_join(user=tom, invite=services.invite_make(club=office))
    services.club_join(user=ina, invite=services.invite_make(club=family))
    result_for(won_ranked_game(owner=tom, day=today, time_ms=61_000))
    result_for(won_ranked_game(owner=lena, day=today, time_ms=75_000, moves=104))
    result_for(won_ranked_game(owner=ina, day=today, time_ms=90_000))

    page = new_page(locale="en-US")
    log_in(page, lena)
    page.goto("/daily")
    choice = page.locator("#daily-share [data-share-club] select")
    choice.wait_for(state="visible", timeout=15_000)
    share = page.locator("#daily-share [data-share-text]")
    text = "() => document.querySelector('#daily-share [data-share-text]').textContent"
    page.wait_for_function(f"{text}.includes(' today')")
    lines = share.text_content().split("\n")
    assert lines[1] in ("2nd of 2 in Büro-Patience today", "1st of 2 in Familie today")

    choice.select_option(label="Familie")
    page.wait_for_function(f"{text}.includes('Familie')")
    assert share.text_content().split("\n")[1] == "1st of 2 in Familie today"
    choice.select_option(value="")
    page.wait_for_function(f"() => !({text})().includes(' today')")
    assert "Familie" not in share.text_content() and "Büro" not in share.text_content()


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
    page.evaluate("localStorage.clear()")  # (as the login form leaves it: not the guest's hint)
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
    services.follow_add(user=olga, username="Finn")
    page.goto("/daily", wait_until="networkidle")
    page.locator("#daily-tab-friends").click()
    page.locator("#daily-share [data-share-club]").wait_for(state="visible")
    found += violations(page, "/daily friends' tab, share with a club")
    page.goto("/account", wait_until="networkidle")
    page.wait_for_function("() => !document.getElementById('privacy-hidden').disabled")
    found += violations(page, "/account privacy")

    assert not found, "\n".join(found)
