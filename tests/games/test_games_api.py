"""Starting, listing and reading games: docs/api.md."""

from __future__ import annotations

import uuid

import pytest

from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

STATE_KEYS = [
    "id",
    "code",
    "rule",
    "daily",
    "ranked",
    "closed",
    "closes_at",
    "closes_in_ms",
    "review",
    "held_for",
    "review_by",
    "attempt",
    "status",
    "tableau",
    "foundations",
    "score",
    "moves",
    "elapsed_ms",
    "paused",
    "played_offline",
    "pausable",
    "winnable_deal",
    "undo_available",
    "legal_moves",
    "finish_available",
    "last",
    "solution_length",
    "win",
]


def test_a_game_started_from_a_code_shows_that_deal_with_face_down_cards_hidden(player):
    response = player.post("/api/v1/games", {"code": "yu1-c-aaaaaab"})

    assert response.status_code == 201
    state = response.json()
    assert list(state) == STATE_KEYS
    assert state["code"] == "YU1-C-AAAAAAB" and state["rule"] == "classic" and state["daily"] is None
    assert state["tableau"][0] == ["7H"]
    assert state["tableau"][1] == ["XX", "4H", "8D", "8H", "5C", "JH"]
    assert state["tableau"][6][:6] == ["XX"] * 6
    assert state["foundations"] == {"S": None, "H": None, "D": None, "C": None}
    assert (state["status"], state["score"], state["moves"], state["undo_available"]) == ("playing", 0, 0, 0)
    assert state["last"] is None
    expected = EngineGame.new(GameCode.parse("YU1-C-AAAAAAB")).view()["legal_moves"]
    assert state["legal_moves"] == expected
    uuid.UUID(state["id"])


@pytest.mark.parametrize(("rule", "letter"), [("classic", "C"), ("relaxed", "R")])
def test_a_random_game_of_a_rule_gets_a_fresh_code_of_that_rule(player, rule, letter):
    first = player.post("/api/v1/games", {"rule": rule}).json()
    second = player.post("/api/v1/games", {"rule": rule}).json()

    assert first["rule"] == rule
    assert first["code"].startswith(f"YU1-{letter}-")
    assert first["code"] != second["code"]


def test_an_empty_body_starts_a_random_classic_game(player):
    response = player.post("/api/v1/games", content_type="application/json")

    assert response.status_code == 201
    assert response.json()["rule"] == "classic"


def test_a_relaxed_code_plays_the_same_deal_under_the_relaxed_rule(player):
    classic = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    relaxed = player.post("/api/v1/games", {"code": "YU1-R-AAAAAAB"}).json()

    assert relaxed["rule"] == "relaxed"
    assert relaxed["tableau"] == classic["tableau"]


def test_a_version_2_code_written_in_groups_with_spaces_starts_its_deal(player):
    grouped = "yu2-c-jihn pcwm gjot jurp sipg xics ovtx zhtu skgh focj azpd yzug"  # 65 characters

    response = player.post("/api/v1/games", {"code": grouped})

    assert response.status_code == 201, response.content
    state = response.json()
    assert state["code"] == "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG"  # = YU1-C-AAAAAAB
    assert state["tableau"] == player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()["tableau"]


@pytest.mark.parametrize(
    "code",
    [
        "YU1-X-AAAAAAB",
        "YU2-C-AAAAAAB",
        "YU1-C-AAAA",
        "",
        "YU1-C-AAAAAA1",
        "yu1-c-aaaaa\ufb00",  # the ligature "ff" upper-cases to "FF": only ASCII letters count
        "YU2-C-" + "A" * 46 + "\ufb00",
    ],
)
def test_a_bad_code_is_refused_with_bad_code(player, code):
    body = assert_error(player.post("/api/v1/games", {"code": code}), 400, "bad_code")

    assert "YU1-C-AAAAAAB" in body["detail"]
    assert Game.objects.count() == 0


def test_rule_and_code_together_are_a_bad_request(player):
    assert_error(player.post("/api/v1/games", {"rule": "classic", "code": "YU1-C-AAAAAAB"}), 400, "bad_request")


def test_an_unknown_rule_is_a_bad_request(player):
    assert_error(player.post("/api/v1/games", {"rule": "easy"}), 400, "bad_request")


def test_a_game_can_be_read_back_by_its_owner(player):
    created = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAA"}).json()

    response = player.get(f"/api/v1/games/{created['id']}")

    assert response.status_code == 200
    state = response.json()
    assert {k: v for k, v in state.items() if k != "elapsed_ms"} == {
        k: v for k, v in created.items() if k != "elapsed_ms"
    }
    assert state["elapsed_ms"] >= created["elapsed_ms"]


def test_another_players_game_is_not_found(player):
    other = factories.game(owner=factories.user())

    assert_error(player.get(f"/api/v1/games/{other.id}"), 404, "not_found")
    assert_error(player.get(f"/api/v1/games/{other.id}/moves"), 404, "not_found")
    assert_error(player.post(f"/api/v1/games/{other.id}/moves", {"from": "t1", "to": "f"}), 404, "not_found")
    assert_error(player.post(f"/api/v1/games/{other.id}/undo"), 404, "not_found")


def test_a_guest_game_of_another_session_is_not_found(guest, player):
    guest_game = guest.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()

    assert_error(player.get(f"/api/v1/games/{guest_game['id']}"), 404, "not_found")
    from rest_framework.test import APIClient

    assert_error(APIClient().get(f"/api/v1/games/{guest_game['id']}"), 404, "not_found")
    assert guest.get(f"/api/v1/games/{guest_game['id']}").status_code == 200


def test_a_game_that_does_not_exist_is_not_found(player):
    assert_error(player.get(f"/api/v1/games/{uuid.uuid4()}"), 404, "not_found")


@pytest.mark.parametrize("game_id", ["123", "not-a-uuid", "00000000-0000-0000-0000-00000000000g", "%00"])
def test_an_id_that_is_no_uuid_is_a_json_not_found(player, game_id):
    # (a NUL is refused before any view: tests/site/test_nul_characters.py)
    status, code = (400, "bad_character") if game_id == "%00" else (404, "not_found")
    assert_error(player.get(f"/api/v1/games/{game_id}"), status, code)
    assert_error(player.post(f"/api/v1/games/{game_id}/moves", {"from": "t1", "to": "f"}), status, code)


def test_the_game_list_holds_only_ones_own_games_newest_first_and_is_paginated(account, player):
    mine = [factories.game(owner=account) for _ in range(3)]
    factories.game(owner=factories.user())
    factories.game()

    body = player.get("/api/v1/games?page_size=2").json()

    assert body["count"] == 3
    assert [g["id"] for g in body["results"]] == [str(g.id) for g in reversed(mine)][:2]
    assert body["next"] and body["previous"] is None
    assert set(body["results"][0]) == {
        "id",
        "code",
        "rule",
        "daily",
        "ranked",
        "closed",
        "review",
        "attempt",
        "status",
        "score",
        "moves",
        "elapsed_ms",
        "paused",
        "played_offline",
        "created_at",
        "finished_at",
        "removal_at",
    }
    second = player.get(body["next"]).json()
    assert [g["id"] for g in second["results"]] == [str(mine[0].id)]


def test_a_page_past_the_end_is_not_found(player):
    assert_error(player.get("/api/v1/games?page=9"), 404, "not_found")


def test_a_guest_lists_the_games_of_its_session(guest):
    guest.post("/api/v1/games", {"rule": "classic"})
    guest.post("/api/v1/games", {"rule": "relaxed"})

    assert guest.get("/api/v1/games").json()["count"] == 2


def test_a_visitor_without_a_session_has_no_games(guest):
    body = guest.get("/api/v1/games").json()

    assert body["count"] == 0 and body["results"] == []


def test_an_unsupported_method_is_method_not_allowed(player):
    game = player.post("/api/v1/games", {}).json()

    assert_error(player.delete("/api/v1/games"), 405, "method_not_allowed")
    assert_error(player.put(f"/api/v1/games/{game['id']}", {}), 405, "method_not_allowed")
    assert_error(player.get(f"/api/v1/games/{game['id']}/undo"), 405, "method_not_allowed")


def test_an_unknown_api_path_is_a_json_not_found(player):
    assert_error(player.get("/api/v1/nothing-here"), 404, "not_found")
    assert_error(player.post("/api/v2/games", {}), 404, "not_found")
    assert_error(player.get("/api/v1/games/"), 404, "not_found")


def test_starting_games_is_throttled(player, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "game_start": "2/minute"}}
    for _ in range(2):
        assert player.post("/api/v1/games", {}).status_code == 201

    assert_error(player.post("/api/v1/games", {}), 429, "throttled")
    assert player.get("/api/v1/games").status_code == 200
