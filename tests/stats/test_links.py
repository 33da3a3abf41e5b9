"""docs/fair-play.md, "One person, one result": each start of today's deal records its device and
network (IPv4 /24, IPv6 /64), so that staff see the accounts linked to a held win; since every
account has its own arrangement of the face-down cards (issue 46), a link alone holds no win: two
accounts of one household both win on the board."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from common.devices import DEVICE_COOKIE
from games.competition.links import linked_users, network_hash
from games.models import DailyStartLink, Game
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import win_as_a_human

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _client(**defaults: str) -> APIClient:
    return factories.token_client(factories.user(), **defaults)


def _win(client: APIClient, callbacks) -> Game:
    game_id = client.post("/api/v1/games", {"daily": True}).json()["id"]
    with callbacks(execute=True):
        win_as_a_human(client, game_id, pace_ms=700)
    return Game.objects.get(pk=game_id)


@pytest.mark.parametrize(
    ("scout", "second"),
    [("203.0.113.5", "203.0.113.200"), ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9")],
)
def test_a_second_account_from_the_same_network_wins_on_the_board_and_the_link_is_kept_for_staff(
    todays_deal, django_capture_on_commit_callbacks, scout, second
):
    first = _win(_client(REMOTE_ADDR=scout), django_capture_on_commit_callbacks)

    game = _win(_client(REMOTE_ADDR=second), django_capture_on_commit_callbacks)

    assert (first.review, game.review) == ("verified", "verified") and game.hold_reasons == []
    assert set(DailyResult.objects.values_list("game_id", flat=True)) == {first.pk, game.pk}
    assert linked_users(game=game, before_own_start=True) == {first.owner_id}  # evidence for staff


def test_the_same_device_links_across_networks_and_holds_nothing(todays_deal, django_capture_on_commit_callbacks):
    device = "d" * 32
    scout = _client(REMOTE_ADDR="198.51.100.1")
    scout.cookies[DEVICE_COOKIE] = device
    scout_id = scout.post("/api/v1/games", {"daily": True}).json()["id"]
    second = _client(REMOTE_ADDR="192.0.2.1")
    second.cookies[DEVICE_COOKIE] = device

    game = _win(second, django_capture_on_commit_callbacks)

    assert game.review == "verified" and DailyResult.objects.filter(game=game).exists()
    assert linked_users(game=game, before_own_start=False) == {Game.objects.get(pk=scout_id).owner_id}


def test_other_networks_without_a_cookie_are_not_linked(todays_deal, django_capture_on_commit_callbacks):
    _client(REMOTE_ADDR="198.51.100.1").post("/api/v1/games", {"daily": True})

    game = _win(_client(REMOTE_ADDR="198.51.101.1"), django_capture_on_commit_callbacks)

    assert game.review == "verified"
    assert DailyResult.objects.filter(game=game).exists()
    assert linked_users(game=game, before_own_start=False) == set()


def test_a_later_account_does_not_hold_the_earlier_win(todays_deal, django_capture_on_commit_callbacks):
    game = _win(_client(REMOTE_ADDR="203.0.113.5"), django_capture_on_commit_callbacks)
    _client(REMOTE_ADDR="203.0.113.6").post("/api/v1/games", {"daily": True})

    assert Game.objects.get(pk=game.pk).review == "verified"


def test_the_address_is_stored_only_as_a_hash_salted_per_day(todays_deal):
    _client(REMOTE_ADDR="203.0.113.5").post("/api/v1/games", {"daily": True})

    link = DailyStartLink.objects.get()
    assert "203.0.113" not in link.address and link.address == network_hash("203.0.113.77", link.day)
    assert network_hash("203.0.113.5", date(2020, 1, 1)) != network_hash("203.0.113.5", date(2020, 1, 2))


def test_a_page_visit_sets_the_device_cookie_and_the_api_does_not(client):
    cookie = client.get("/").cookies[DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and len(cookie.value) == 32
    assert DEVICE_COOKIE not in APIClient().get("/api/v1/daily").cookies
