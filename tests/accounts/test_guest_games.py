"""Guests play with their session and keep their games when they sign up or log in."""

from __future__ import annotations

import pytest

from games.models import Game
from tests import factories

pytestmark = pytest.mark.django_db


def play_as_guest(client):
    game = client.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    client.post(f"/api/v1/games/{game['id']}/moves", {"from": "t7", "card": "TS", "to": "t2"})
    return game


def test_signing_up_keeps_the_guests_games(guest):
    games = [play_as_guest(guest), play_as_guest(guest)]

    answer = guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"}).json()
    token = answer["token"]
    assert answer["games_kept"] == 2  # what the next page tells the player

    listed = guest.get("/api/v1/games").json()
    assert {g["id"] for g in listed["results"]} == {g["id"] for g in games}
    assert all(Game.objects.get(pk=g["id"]).owner.username == "lena" for g in games)
    state = guest.get(f"/api/v1/games/{games[0]['id']}").json()
    assert state["moves"] == 1
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/games").json()["count"] == 2
    assert api.post(f"/api/v1/games/{games[0]['id']}/undo").status_code == 200


def test_logging_in_keeps_the_guests_games_beside_the_accounts_own(guest):
    account = factories.user()
    earlier = factories.game(owner=account)
    game = play_as_guest(guest)

    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})

    ids = {g["id"] for g in guest.get("/api/v1/games").json()["results"]}
    assert ids == {str(earlier.id), game["id"]}
    assert Game.objects.get(pk=game["id"]).guest_session_key == ""


def test_only_the_games_of_the_signing_in_session_move(guest):
    from rest_framework.test import APIClient

    other_browser = APIClient()
    theirs = play_as_guest(other_browser)
    play_as_guest(guest)

    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    assert Game.objects.get(pk=theirs["id"]).owner is None
    assert other_browser.get(f"/api/v1/games/{theirs['id']}").status_code == 200
    assert guest.get(f"/api/v1/games/{theirs['id']}").status_code == 404


def test_after_logout_the_accounts_games_are_not_the_browsers(guest):
    game = play_as_guest(guest)
    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    guest.post("/api/v1/auth/logout")

    assert guest.get(f"/api/v1/games/{game['id']}").status_code == 404
    assert guest.get("/api/v1/games").json()["count"] == 0


def test_a_guests_untouched_deal_is_dropped_beside_the_accounts_game_in_progress(guest):
    """Issue 28 item 2: the untouched deal would be the newest game and hide the one with moves."""
    account = factories.user()
    mine = factories.game(owner=account, moves=5)
    untouched = guest.post("/api/v1/games", {"code": "YU1-C-AAAAAAC"}).json()
    played = play_as_guest(guest)

    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})

    listed = guest.get("/api/v1/games?status=playing").json()["results"]
    assert [g["id"] for g in listed] == [played["id"], str(mine.id)]
    assert not Game.objects.filter(pk=untouched["id"]).exists()


def test_a_guests_untouched_deal_is_kept_when_the_account_has_no_game_in_progress(guest):
    account = factories.user()
    untouched = guest.post("/api/v1/games", {"code": "YU1-C-AAAAAAC"}).json()

    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})

    assert Game.objects.get(pk=untouched["id"]).owner == account
