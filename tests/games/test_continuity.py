"""The player's games are never lost and never pile up (issue 16): the unfinished ones are listed
for resuming, and dealt games nobody touched are not kept."""

from __future__ import annotations

import pytest

from games.competition import clock
from games.models import Game
from tests import factories
from tests.stats.helpers import deal
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def _move(client, state):
    response = client.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])
    assert response.status_code == 200, response.content
    return response.json()


def test_status_playing_lists_only_the_unfinished_games_newest_first(account, player):
    won = factories.game(owner=account, engine=factories.one_move_from_winning())
    Game.objects.filter(pk=won.pk).update(status="won")
    older = factories.game(owner=account, moves=5)
    newer = factories.game(owner=account, moves=2)

    body = player.get("/api/v1/games?status=playing").json()

    assert [g["id"] for g in body["results"]] == [str(newer.id), str(older.id)]
    assert player.get("/api/v1/games?status=won").json()["count"] == 1
    assert player.get("/api/v1/games").json()["count"] == 3


@pytest.mark.parametrize("value", ["", "lost", "PLAYING", "playing,won"])
def test_a_status_that_is_none_is_a_bad_request_with_a_clear_text(player, value):
    response = player.get("/api/v1/games", {"status": value}, HTTP_ACCEPT_LANGUAGE="en")

    assert_error(response, 400, "bad_request")
    assert "playing, won" in response.json()["detail"]
    german = player.get("/api/v1/games", {"status": value}, HTTP_ACCEPT_LANGUAGE="de").json()["detail"]
    assert german.startswith("Unbekannter Status")


def test_a_new_deal_replaces_the_untouched_ones_and_keeps_games_with_a_move(player, account):
    touched = player.post("/api/v1/games", {"rule": "classic", "replace_untouched": True}).json()
    _move(player, touched)
    for _ in range(9):
        latest = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB", "replace_untouched": True}).json()

    games = Game.objects.filter(owner=account)
    assert games.count() == 2
    assert {str(pk) for pk in games.values_list("pk", flat=True)} == {touched["id"], latest["id"]}
    assert games.filter(moves=0).count() == 1


def test_a_guests_untouched_games_are_replaced_in_its_own_session_only(guest):
    other = factories.game()  # another session's untouched game
    for _ in range(3):
        guest.post("/api/v1/games", {"rule": "relaxed", "replace_untouched": True})

    assert guest.get("/api/v1/games").json()["count"] == 1
    assert Game.objects.filter(pk=other.pk).exists()


def test_daily_games_are_never_replaced_even_untouched(player, account):
    deal(clock.today())
    ranked = player.post("/api/v1/games", {"daily": True}).json()

    player.post("/api/v1/games", {"rule": "classic", "replace_untouched": True})
    player.post("/api/v1/games", {"rule": "classic", "replace_untouched": True})

    assert Game.objects.filter(pk=ranked["id"], ranked=True).exists()
    assert Game.objects.filter(owner=account).count() == 2


def test_without_replace_untouched_an_api_client_keeps_every_game_it_deals(player, account):
    for _ in range(3):
        player.post("/api/v1/games", {"rule": "classic"})

    assert Game.objects.filter(owner=account, moves=0).count() == 3
