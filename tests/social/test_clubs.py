"""Clubs: made, joined by an invite link, run by their owner, with a day's and a week's board
(docs/social.md)."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from rest_framework.test import APIClient

from games.competition import clock
from social import services
from social.models import Club, ClubWeekEntry, Membership
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import deal, result_for, won_ranked_game

pytestmark = pytest.mark.django_db


def _make(client, name="Büro-Patience"):
    return client.post("/api/v1/clubs", {"name": name}, format="json")


def test_a_club_is_made_joined_through_its_invite_and_seen_by_its_members_only():
    owner, friend, outsider = (factories.user(username=n) for n in ("Olga", "Finn", "Otto"))
    made = _make(factories.token_client(owner))
    assert made.status_code == 201, made.content
    club = made.json()
    assert (club["name"], club["owner"], club["members"], club["mine"]) == ("Büro-Patience", "Olga", 1, True)
    slug, invite = club["slug"], club["invite"]

    joined = factories.token_client(friend).post("/api/v1/clubs/join", {"invite": invite}, format="json")

    assert joined.status_code == 200 and joined.json()["invite"] is None  # (the link is the owner's to give)
    seen = factories.token_client(friend).get(f"/api/v1/clubs/{slug}").json()
    assert [m["username"] for m in seen["member_list"]] == ["Olga", "Finn"]
    assert factories.token_client(outsider).get(f"/api/v1/clubs/{slug}").status_code == 404
    assert APIClient().get(f"/api/v1/clubs/{slug}").status_code in (401, 403)
    assert [c["slug"] for c in factories.token_client(friend).get("/api/v1/clubs").json()] == [slug]
    # every member's list and the club's day count all its members, not the one asking
    assert [c["members"] for c in factories.token_client(friend).get("/api/v1/clubs").json()] == [2]
    deal(clock.today())
    day = factories.token_client(friend).get(f"/api/v1/clubs/{slug}/daily/{clock.today().isoformat()}")
    assert day.status_code == 200 and day.json()["members"] == 2


def test_club_names_are_unique_among_a_players_own_clubs_in_any_case_and_of_3_to_40_characters():
    client = factories.token_client(factories.user())
    assert _make(client, "Büro").status_code == 201
    assert _make(client, "BÜRO").json()["error"] == "club_name_taken"
    assert _make(client, "  ab ").json()["error"] == "bad_club_name"
    assert _make(client, "x" * 41).status_code == 400
    assert _make(client, "join").json()["slug"] != "join"  # (the path clubs/join stays the join's)


def test_a_stranger_learns_nothing_of_a_private_club_from_its_name_or_slug():
    olga, otto = factories.user(username="Olga"), factories.user(username="Otto")
    private = _make(factories.token_client(olga), "Büro-Patience").json()
    as_otto = factories.token_client(otto)

    # the same name in another case and width is free for him: no probe tells it is in use
    probes = [_make(as_otto, name) for name in ("BÜRO-PATIENCE", "Ｂüro-Patience")]

    assert [probe.status_code for probe in probes] == [201, 400]  # (the second is now his own name)
    assert probes[1].json()["error"] == "club_name_taken"
    mine = probes[0].json()
    assert mine["slug"] != private["slug"] and not mine["slug"].endswith("-2")
    assert private["slug"].startswith("buro-patience-") and len(private["slug"]) == len("buro-patience-") + 8
    assert as_otto.get(f"/api/v1/clubs/{private['slug']}").status_code == 404
    renamed = as_otto.patch(f"/api/v1/clubs/{mine['slug']}", {"name": "büro-patience!"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["slug"] == mine["slug"]
    assert Club.objects.count() == 2


def test_an_account_owns_at_most_5_clubs():
    client = factories.token_client(factories.user())
    for n in range(services.MAX_CLUBS_OWNED):
        assert _make(client, f"Club {n}").status_code == 201
    refused = _make(client, "One too many")
    assert refused.status_code == 400 and refused.json()["error"] == "club_limit"
    assert Club.objects.count() == services.MAX_CLUBS_OWNED


def test_a_revoked_an_old_or_a_forged_invite_lets_nobody_in_and_a_full_club_neither():
    owner = factories.user(username="Olga")
    club = services.club_create(user=owner, name="Stammtisch")
    old = services.invite_make(club=club)
    join = factories.token_client(factories.user()).post

    services.invite_revoke(user=owner, club=club)
    assert join("/api/v1/clubs/join", {"invite": old}, format="json").json()["error"] == "invite_expired"
    assert join("/api/v1/clubs/join", {"invite": old[:-2] + "xx"}, format="json").json()["error"] == "invite_expired"
    fresh = services.invite_make(club=club)
    with mock.patch("django.core.signing.time.time", return_value=__import__("time").time() + 8 * 86400):
        assert join("/api/v1/clubs/join", {"invite": fresh}, format="json").json()["error"] == "invite_expired"
    services.MAX_MEMBERS, saved = 1, services.MAX_MEMBERS
    try:
        full = join("/api/v1/clubs/join", {"invite": fresh}, format="json")
    finally:
        services.MAX_MEMBERS = saved
    assert full.json()["error"] == "club_full"
    assert Membership.objects.filter(club=club).count() == 1


def test_the_owner_renames_hands_over_removes_and_deletes_and_a_member_cannot():
    owner, member = factories.user(username="Olga"), factories.user(username="Finn")
    club = services.club_create(user=owner, name="Stammtisch")
    services.club_join(user=member, invite=services.invite_make(club=club))
    as_owner, as_member = factories.token_client(owner), factories.token_client(member)
    url = f"/api/v1/clubs/{club.slug}"

    assert as_member.patch(url, {"name": "Mine now"}, format="json").json()["error"] == "not_club_owner"
    assert as_member.delete(f"{url}/members/Olga").status_code == 403
    assert as_owner.patch(url, {"name": "Kaffeeküche"}, format="json").json()["name"] == "Kaffeeküche"
    handed = as_owner.patch(url, {"owner": "finn"}, format="json").json()
    assert handed["owner"] == "Finn" and handed["mine"] is False and handed["invite"] is None
    assert as_member.delete(f"{url}/members/Olga").status_code == 204
    assert list(Membership.objects.filter(club=club).values_list("user__username", flat=True)) == ["Finn"]
    assert as_member.delete(url).status_code == 204
    assert not Club.objects.exists()


def test_an_owner_who_leaves_or_is_deleted_hands_the_club_to_its_longest_member():
    owner, first, second = (factories.user(username=n) for n in ("Olga", "Finn", "Gus"))
    club = services.club_create(user=owner, name="Stammtisch")
    services.club_join(user=first, invite=services.invite_make(club=club))
    services.club_join(user=second, invite=services.invite_make(club=club))

    assert factories.token_client(owner).delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204

    club.refresh_from_db()
    assert club.owner == first
    assert sorted(Membership.objects.filter(club=club).values_list("user__username", flat=True)) == ["Finn", "Gus"]


def test_a_clubs_day_ranks_its_members_counted_results_and_its_week_adds_points_per_place(today):
    monday = today - timedelta(days=today.weekday())
    days = [monday, monday + timedelta(days=1)]
    for day in days:
        deal(day)
    names = ("Olga", "Finn", "Gus")
    olga, finn, gus = (factories.user(username=n) for n in names)
    club = services.club_create(user=olga, name="Stammtisch")
    for member in (finn, gus):
        services.club_join(user=member, invite=services.invite_make(club=club))
    outsider = factories.user(username="Otto")
    # Monday: Finn 1st, Olga 2nd, Gus 3rd (and a faster outsider); Tuesday: Gus 1st, Olga 2nd
    for owner, time_ms in ((outsider, 50_000), (finn, 60_000), (olga, 70_000), (gus, 80_000)):
        result_for(won_ranked_game(owner=owner, day=days[0], time_ms=time_ms))
    for owner, time_ms in ((gus, 65_000), (olga, 66_000)):
        result_for(won_ranked_game(owner=owner, day=days[1], time_ms=time_ms))
    won_ranked_game(owner=finn, day=days[1], time_ms=10_000, review="held")  # held: counts nowhere

    client = factories.token_client(finn)
    if days[1] <= today:
        day_board = client.get(f"/api/v1/clubs/{club.slug}/daily/{days[0].isoformat()}").json()
        assert [(e["username"], e["rank"], e["board_rank"]) for e in day_board["entries"]] == [
            ("Finn", 1, 2),
            ("Olga", 2, 3),
            ("Gus", 3, 4),
        ]
    services.club_week_rebuild(club_id=club.pk, week=monday)
    services.club_week_rebuild(club_id=club.pk, week=monday)  # (twice: the same lines)
    iso = monday.isocalendar()
    week = client.get(f"/api/v1/clubs/{club.slug}/week/{iso.year}-W{iso.week:02d}").json()

    # Monday 3 results: 3, 2, 1 points; Tuesday 2 results: 2, 1. Olga 2+1=3, Finn 3, Gus 1+2=3:
    # all tied on points, then the lower total time: Finn 60 s (one day), Olga 136 s, Gus 145 s.
    assert [(e["username"], e["points"], e["days"], e["rank"]) for e in week["entries"]] == [
        ("Finn", 3, 1, 1),
        ("Olga", 3, 2, 2),
        ("Gus", 3, 2, 3),
    ]
    assert ClubWeekEntry.objects.filter(club=club).count() == 3
    assert client.get(f"/api/v1/clubs/{club.slug}/week/2026-W54").json()["error"] == "bad_week"


def test_week_points_share_places_on_equal_results():
    key = (60_000, 100, None)
    totals = services.week_points([[(1, key), (2, key), (3, (61_000, 90, None))]])
    assert totals == {1: (3, 1, 60_000), 2: (3, 1, 60_000), 3: (1, 1, 61_000)}


def test_a_result_on_the_board_reaches_the_week_of_its_players_clubs_through_the_tasks(
    today, django_capture_on_commit_callbacks
):
    from social import receivers, tasks
    from stats import services as stats_services
    from stats import signals as stats_signals

    deal(today)
    olga = factories.user(username="Olga")
    club = services.club_create(user=olga, name="Stammtisch")
    game = won_ranked_game(owner=olga, day=today, time_ms=70_000)

    with django_capture_on_commit_callbacks() as sent:
        stats_services.game_results_record(game_id=game.pk)

    # stats tells the apps above once the result is on the board; social's receiver listens
    assert [(c.func.__self__, c.keywords) for c in sent] == [
        (stats_signals.daily_result_changed, {"sender": DailyResult, "game_ids": [str(game.pk)]})
    ]
    assert receivers.on_daily_result_changed in stats_signals.daily_result_changed._live_receivers(DailyResult)[0]
    tasks.club_weeks_update(str(game.pk))
    assert list(ClubWeekEntry.objects.filter(club=club).values_list("user__username", "points")) == [("Olga", 1)]
    game.review = "rejected"
    game.save(update_fields=["review"])
    stats_services.game_results_record(game_id=game.pk)
    tasks.club_weeks_update(str(game.pk))
    assert not ClubWeekEntry.objects.filter(club=club).exists()


@pytest.mark.usefixtures("eager_tasks")
def test_a_new_clubs_week_shows_its_owners_points_of_the_week_at_once(today, django_capture_on_commit_callbacks):
    """Issue 49 item 6: the owner's result of the day was on the week only once a member joined."""
    deal(today)
    olga = factories.user(username="Olga")
    result_for(won_ranked_game(owner=olga, day=today, time_ms=70_000))

    with django_capture_on_commit_callbacks(execute=True):
        club = services.club_create(user=olga, name="Stammtisch")

    week = factories.token_client(olga).get(f"/api/v1/clubs/{club.slug}/week/{today.strftime('%G-W%V')}").json()
    assert [(line["username"], line["points"]) for line in week["entries"]] == [("Olga", 1)]


def test_a_week_is_named_back_as_it_was_asked_even_in_the_year_1():
    owner = factories.user(username="Olga")
    club = services.club_create(user=owner, name="Stammtisch")

    body = factories.token_client(owner).get(f"/api/v1/clubs/{club.slug}/week/0001-W01").json()

    assert (body["week"], body["starts"], body["entries"]) == ("0001-W01", "0001-01-01", [])


def _five_clubs(user):
    for n in range(services.MAX_CLUBS_OWNED):
        services.club_create(user=user, name=f"{user.username}'s club {n}")


def test_a_club_is_handed_over_only_to_a_member_who_owns_fewer_than_5():
    owner, busy, free = (factories.user(username=n) for n in ("Olga", "Busy", "Free"))
    club = services.club_create(user=owner, name="Stammtisch")
    for member in (busy, free):
        services.club_join(user=member, invite=services.invite_make(club=club))
    _five_clubs(busy)
    as_owner = factories.token_client(owner)

    refused = as_owner.patch(f"/api/v1/clubs/{club.slug}", {"owner": "busy", "name": "Neu"}, format="json")

    assert refused.status_code == 400 and refused.json()["error"] == "club_owner_limit"
    assert "Busy" in refused.json()["detail"] and "5" in refused.json()["detail"]
    club.refresh_from_db()
    assert (club.owner, club.name) == (owner, "Stammtisch")  # (nothing changed, the name neither)
    assert Club.objects.filter(owner=busy).count() == services.MAX_CLUBS_OWNED
    assert as_owner.patch(f"/api/v1/clubs/{club.slug}", {"owner": "free"}, format="json").json()["owner"] == "Free"


def test_an_owner_who_leaves_hands_the_club_to_the_longest_member_under_the_limit_or_cannot_leave():
    owner, busy, free = (factories.user(username=n) for n in ("Olga", "Busy", "Free"))
    club = services.club_create(user=owner, name="Stammtisch")
    services.club_join(user=busy, invite=services.invite_make(club=club))
    _five_clubs(busy)
    as_owner = factories.token_client(owner)

    refused = as_owner.delete(f"/api/v1/clubs/{club.slug}/members/Olga")

    assert refused.status_code == 400 and refused.json()["error"] == "club_no_heir"
    assert Membership.objects.filter(club=club, user=owner).exists()
    assert Club.objects.get(pk=club.pk).owner == owner
    services.club_join(user=free, invite=services.invite_make(club=club))
    assert as_owner.delete(f"/api/v1/clubs/{club.slug}/members/Olga").status_code == 204
    assert Club.objects.get(pk=club.pk).owner == free  # (Busy joined first, but owns 5 already)
    assert Club.objects.filter(owner=busy).count() == services.MAX_CLUBS_OWNED


def test_a_deleted_owners_club_goes_to_a_member_under_the_limit_or_goes_with_them():
    owner, busy, free = (factories.user(username=n) for n in ("Olga", "Busy", "Free"))
    kept = services.club_create(user=owner, name="Stammtisch")
    lost = services.club_create(user=owner, name="Skatrunde")
    services.club_join(user=busy, invite=services.invite_make(club=kept))
    services.club_join(user=free, invite=services.invite_make(club=kept))
    services.club_join(user=busy, invite=services.invite_make(club=lost))
    _five_clubs(busy)

    assert factories.token_client(owner).delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204

    assert Club.objects.get(pk=kept.pk).owner == free
    assert not Club.objects.filter(pk=lost.pk).exists()  # (nobody in it may own one more)
    assert Club.objects.filter(owner=busy).count() == services.MAX_CLUBS_OWNED


def test_a_removed_member_stays_out_with_any_link_until_the_owner_lets_them_in_again():
    owner, finn = factories.user(username="Olga"), factories.user(username="Finn")
    club = services.club_create(user=owner, name="Stammtisch")
    link = services.invite_make(club=club)
    services.club_join(user=finn, invite=link)
    as_owner, as_finn = factories.token_client(owner), factories.token_client(finn)

    assert as_owner.delete(f"/api/v1/clubs/{club.slug}/members/Finn").status_code == 204
    again = as_finn.post("/api/v1/clubs/join", {"invite": link}, format="json")
    fresh = as_finn.post("/api/v1/clubs/join", {"invite": services.invite_make(club=club)}, format="json")

    assert again.status_code == 403 and again.json()["error"] == "club_removed"
    assert fresh.json()["error"] == "club_removed"
    assert not Membership.objects.filter(club=club, user=finn).exists()
    seen = as_owner.get(f"/api/v1/clubs/{club.slug}").json()
    assert [row["username"] for row in seen["removed"]] == ["Finn"]
    assert as_owner.delete(f"/api/v1/clubs/{club.slug}/removed/finn").status_code == 204
    assert as_finn.post("/api/v1/clubs/join", {"invite": link}, format="json").status_code == 200
    assert as_owner.get(f"/api/v1/clubs/{club.slug}").json()["removed"] == []


def test_a_member_may_leave_and_come_back_but_cannot_lift_a_removal():
    owner, finn, gus = (factories.user(username=n) for n in ("Olga", "Finn", "Gus"))
    club = services.club_create(user=owner, name="Stammtisch")
    link = services.invite_make(club=club)
    for member in (finn, gus):
        services.club_join(user=member, invite=link)
    services.member_remove(user=owner, club=club, username="Gus")

    assert factories.token_client(finn).delete(f"/api/v1/clubs/{club.slug}/removed/Gus").status_code == 403
    assert factories.token_client(finn).delete(f"/api/v1/clubs/{club.slug}/members/Finn").status_code == 204
    back = factories.token_client(finn).post("/api/v1/clubs/join", {"invite": link}, format="json")
    assert back.status_code == 200  # (leaving is no removal)
    refused = factories.token_client(gus).post("/api/v1/clubs/join", {"invite": link}, format="json")
    assert refused.json()["error"] == "club_removed"


def test_a_player_who_left_is_on_none_of_the_clubs_week_boards_a_later_member_sees(
    today, django_capture_on_commit_callbacks, eager_tasks
):
    monday = today - timedelta(days=today.weekday()) - timedelta(days=21)  # three weeks ago
    deal(monday)
    olga, leaver, later = (factories.user(username=n) for n in ("Olga", "Leaver", "Later"))
    club = services.club_create(user=olga, name="Stammtisch")
    services.club_join(user=leaver, invite=services.invite_make(club=club))
    for owner, time_ms in ((leaver, 60_000), (olga, 70_000)):
        result_for(won_ranked_game(owner=owner, day=monday, time_ms=time_ms))
    services.club_week_rebuild(club_id=club.pk, week=monday)
    iso = monday.isocalendar()
    week_url = f"/api/v1/clubs/{club.slug}/week/{iso.year}-W{iso.week:02d}"
    before = factories.token_client(olga).get(week_url).json()["entries"]
    assert [(e["username"], e["points"]) for e in before] == [("Leaver", 2), ("Olga", 1)]

    with django_capture_on_commit_callbacks(execute=True):
        assert factories.token_client(leaver).delete(f"/api/v1/clubs/{club.slug}/members/Leaver").status_code == 204
    services.club_join(user=later, invite=services.invite_make(club=club))

    seen = factories.token_client(later).get(week_url).json()["entries"]
    assert [(e["username"], e["rank"], e["points"]) for e in seen] == [("Olga", 1, 1)]  # (recomputed without them)
