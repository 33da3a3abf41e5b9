"""Idempotency-Key: a retried request gets the first answer and nothing is applied twice."""

from __future__ import annotations

import pytest

from games.models import Game, IdempotencyRecord, MoveLog
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

MOVE = {"from": "t7", "card": "TS", "to": "t2"}


@pytest.fixture
def game(player):
    return player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()


def post_move(client, game, body, key):
    return client.post(f"/api/v1/games/{game['id']}/moves", body, HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_move_returns_the_first_answer_and_is_applied_once(player, game):
    first = post_move(player, game, MOVE, "move-1")
    retry = post_move(player, game, MOVE, "move-1")

    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    stored = Game.objects.get(pk=game["id"])
    assert (stored.moves, stored.version) == (1, 1)
    assert MoveLog.objects.filter(game=stored).count() == 1


def test_a_retried_undo_is_applied_once(player, game):
    post_move(player, game, MOVE, "m")
    url = f"/api/v1/games/{game['id']}/undo"

    first = player.post(url, HTTP_IDEMPOTENCY_KEY="u")
    retry = player.post(url, HTTP_IDEMPOTENCY_KEY="u")

    assert first.json() == retry.json()
    assert Game.objects.get(pk=game["id"]).moves == 2


def test_a_refusal_is_kept_and_returned_again(player, game):
    refused = post_move(player, game, {"from": "t1", "to": "t3"}, "k")

    assert_error(refused, 422, "does_not_fit")
    assert post_move(player, game, {"from": "t1", "to": "t3"}, "k").json() == refused.json()
    assert IdempotencyRecord.objects.get(key="k").response_status == 422


def test_the_same_key_for_a_different_move_is_a_conflict(player, game):
    post_move(player, game, MOVE, "k")

    assert_error(post_move(player, game, {"from": "t1", "to": "t3"}, "k"), 422, "idempotency_conflict")
    assert Game.objects.get(pk=game["id"]).moves == 1


def test_the_same_key_on_another_game_is_a_conflict(player, game):
    other = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    post_move(player, game, MOVE, "k")

    assert_error(post_move(player, other, MOVE, "k"), 422, "idempotency_conflict")
    assert Game.objects.get(pk=other["id"]).moves == 0


def test_keys_belong_to_one_player(player, game):
    post_move(player, game, MOVE, "shared")
    someone = factories.user()
    client = factories.token_client(someone)
    theirs = client.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()

    response = post_move(client, theirs, MOVE, "shared")

    assert response.status_code == 200 and "Idempotent-Replayed" not in response.headers
    assert Game.objects.get(pk=theirs["id"]).moves == 1


def test_a_stale_answer_is_kept_for_its_key(player, game):
    assert_error(post_move(player, game, {**MOVE, "seq": 3}, "s"), 409, "stale")
    # The game moves on to move 3 meanwhile: answered afresh, the retry would now be played.
    state = game
    for _ in range(3):
        state = player.post(f"/api/v1/games/{game['id']}/moves", state["legal_moves"][0], format="json").json()
    assert state["moves"] == 3

    retry = post_move(player, game, {**MOVE, "seq": 3}, "s")
    assert_error(retry, 409, "stale")  # the first answer, kept for its key
    assert Game.objects.get(pk=game["id"]).moves == 3


@pytest.mark.parametrize("key", ["", " ", "x" * 256, "tab\tkey", "ümlaut"])
def test_a_malformed_key_is_a_bad_request(player, game, key):
    assert_error(post_move(player, game, MOVE, key), 400, "bad_idempotency_key")
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_a_guest_can_retry_with_a_key(guest):
    game = guest.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()

    first = post_move(guest, game, MOVE, "g")
    retry = post_move(guest, game, MOVE, "g")

    assert first.json() == retry.json()
    assert Game.objects.get(pk=game["id"]).moves == 1
