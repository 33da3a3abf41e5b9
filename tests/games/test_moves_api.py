"""Moves, undo and the move log: every change is checked by the engine and logged."""

from __future__ import annotations

from uuid import uuid4

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from games.engine import Game as EngineGame
from games.models import Game, MoveLog
from games.play import services
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAB"  # t7's TS fits on t2's JH and uncovers 8S (see the engine's doctest)


@pytest.fixture
def game(player):
    return player.post("/api/v1/games", {"code": CODE}).json()


def moves_url(game):
    return f"/api/v1/games/{game['id']}/moves"


def test_a_legal_move_is_applied_logged_and_scored(player, game):
    response = player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"})

    assert response.status_code == 200
    state = response.json()
    assert state["moves"] == 1 and state["score"] == 5 and state["undo_available"] == 1
    assert state["last"] == {"points": 5, "flipped": "8S"}
    assert state["tableau"][6][-1] == "8S"
    stored = Game.objects.get(pk=game["id"])
    assert (stored.moves, stored.score, stored.version) == (1, 5, 1)
    log = list(MoveLog.objects.filter(game=stored))
    assert [(e.seq, e.move, e.points, e.flipped) for e in log] == [(1, "t7:TS>t2", 5, "8S")]


def test_the_double_tap_target_is_resolved_and_logged_as_the_concrete_move(player, game):
    state = player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "auto"}).json()

    assert state["moves"] == 1
    assert MoveLog.objects.get(game_id=game["id"]).move == "t7:TS>t2"


def test_moves_are_case_insensitive_like_codes(player, game):
    response = player.post(moves_url(game), {"from": "T7", "card": "ts", "to": "T2"})

    assert response.status_code == 200


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ({"from": "t1", "card": "7H", "to": "t3"}, "does_not_fit"),
        ({"from": "t1", "to": "f"}, "not_next_on_foundation"),
        ({"from": "t2", "card": "AS", "to": "t3"}, "card_not_available"),
        ({"from": "fS", "to": "t1"}, "empty_source"),
        ({"from": "t2", "card": "4H", "to": "t2"}, "same_column"),
        ({"from": "t2", "card": "4H", "to": "f"}, "illegal_move"),
    ],
)
def test_a_move_the_rules_refuse_is_422_with_the_reason_and_changes_nothing(player, game, move, reason):
    body = assert_error(player.post(moves_url(game), move), 422, reason)

    assert body["detail"]
    stored = Game.objects.get(pk=game["id"])
    assert (stored.moves, stored.version) == (0, 0)
    assert not MoveLog.objects.filter(game=stored).exists()


def test_the_rule_is_explained_in_german_by_default_and_in_english_on_request(player, game):
    move = {"from": "t1", "card": "7H", "to": "t3"}
    german = player.post(moves_url(game), move).json()["detail"]
    english = player.post(moves_url(game), move, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").json()["detail"]
    french = player.post(moves_url(game), move, HTTP_ACCEPT_LANGUAGE="fr-FR").json()["detail"]
    prefers_german = player.post(moves_url(game), move, HTTP_ACCEPT_LANGUAGE="de-AT,en;q=0.5").json()["detail"]

    assert german == french == prefers_german
    assert "Gegenfarbe" in german
    assert english == "A card fits only on a face-up card of the other colour that is exactly one rank higher."


def test_the_relaxed_rule_explains_its_own_fit(player):
    game = player.post("/api/v1/games", {"code": "YU1-R-AAAAAAB"}).json()

    body = assert_error(
        player.post(moves_url(game), {"from": "t1", "card": "7H", "to": "t3"}, HTTP_ACCEPT_LANGUAGE="en"),
        422,
        "does_not_fit",
    )
    assert "colour" not in body["detail"]


@pytest.mark.parametrize(
    "move",
    [
        {"from": "t9", "to": "t1"},
        {"from": "t1", "to": "x"},
        {"from": "t1", "card": "1X", "to": "t2"},
        {"from": "f", "to": "t2"},
        {"from": "t1", "to": "t2", "color": "red"},
        {"from": 3, "to": "t1"},
    ],
)
def test_a_malformed_move_is_bad_move(player, game, move):
    assert_error(player.post(moves_url(game), move), 400, "bad_move")
    english = assert_error(player.post(moves_url(game), move, HTTP_ACCEPT_LANGUAGE="en"), 400, "bad_move")
    assert english["detail"].startswith("That is not a valid move: ")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"to": "t1"},
        {"from": {"t": 3}, "to": "t1"},
        {"from": True, "to": "t1"},
        {"from": "t1", "to": "f", "seq": "x"},
        {"from": "t1", "to": ["f"]},
        [],
    ],
)
def test_a_body_that_is_no_move_is_bad_request(player, game, body):
    assert_error(player.post(moves_url(game), body), 400, "bad_request")


def test_a_stale_seq_is_409_and_changes_nothing(player, game):
    assert player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2", "seq": 0}).status_code == 200

    body = assert_error(player.post(moves_url(game), {"from": "t1", "to": "t3", "seq": 0}), 409, "stale")

    assert "1" in body["detail"]
    stored = Game.objects.get(pk=game["id"])
    assert (stored.moves, stored.version) == (1, 1)
    assert_error(player.post(f"/api/v1/games/{game['id']}/undo", {"seq": 5}), 409, "stale")
    assert player.post(f"/api/v1/games/{game['id']}/undo", {"seq": 1}).status_code == 200


def test_undo_restores_the_position_and_counts_as_a_move(player, game):
    player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"})

    response = player.post(f"/api/v1/games/{game['id']}/undo")

    assert response.status_code == 200
    state = response.json()
    assert state["tableau"] == game["tableau"]
    assert (state["score"], state["moves"], state["undo_available"]) == (0, 2, 0)
    assert state["last"] == {"points": -5, "flipped": None}
    assert list(MoveLog.objects.filter(game_id=game["id"]).values_list("seq", "move", "points")) == [
        (1, "t7:TS>t2", 5),
        (2, "undo", -5),
    ]


def test_undo_with_nothing_to_undo_is_422(player, game):
    assert_error(player.post(f"/api/v1/games/{game['id']}/undo"), 422, "nothing_to_undo")
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_the_winning_move_ends_the_game_and_stops_its_clock(account, player):
    stored = factories.game(owner=account, engine=factories.one_move_from_winning())
    url = f"/api/v1/games/{stored.id}"

    won = player.post(f"{url}/moves", {"from": "t1", "to": "f"}).json()

    assert won["status"] == "won" and won["legal_moves"] == [] and won["undo_available"] == 0
    stored.refresh_from_db()
    assert stored.status == "won" and stored.finished_at is not None
    later = player.get(url).json()
    assert later["elapsed_ms"] == won["elapsed_ms"] == stored.elapsed_ms(stored.finished_at)
    assert_error(player.post(f"{url}/moves", {"from": "fS", "to": "t1"}), 422, "game_over")
    assert_error(player.post(f"{url}/undo"), 422, "game_over")


def test_elapsed_time_runs_from_creation_while_playing(player, game):
    Game.objects.filter(pk=game["id"]).update(created_at=Game.objects.get(pk=game["id"]).created_at.replace(year=2020))

    state = player.get(f"/api/v1/games/{game['id']}").json()

    assert state["elapsed_ms"] > 3 * 365 * 24 * 3600 * 1000


def test_the_move_log_lists_every_accepted_move_in_order(player, game):
    player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"})
    player.post(moves_url(game), {"from": "t1", "to": "t3"})  # refused: not logged
    player.post(f"/api/v1/games/{game['id']}/undo")

    body = player.get(moves_url(game)).json()

    assert body["count"] == 2
    assert [(e["seq"], e["move"], e["points"], e["flipped"]) for e in body["results"]] == [
        (1, "t7:TS>t2", 5, "8S"),
        (2, "undo", -5, None),
    ]
    assert all(set(e) == {"seq", "move", "from", "card", "to", "points", "flipped", "at"} for e in body["results"])
    # the move's fields beside its text, as in a move's body: the pages read these (issue 35, point 4)
    assert [(e["from"], e["card"], e["to"]) for e in body["results"]] == [("t7", "TS", "t2"), (None, None, None)]


def test_the_move_log_replays_to_the_stored_state(player, game):
    state = game
    for _ in range(40):
        if not state["legal_moves"]:
            break
        state = player.post(moves_url(game), state["legal_moves"][-1]).json()
        if state["moves"] % 7 == 0:
            state = player.post(f"/api/v1/games/{game['id']}/undo").json()

    log = [e["move"] for e in player.get(moves_url(game)).json()["results"]]
    stored = Game.objects.get(pk=game["id"])
    assert EngineGame.replay(CODE, log).to_state() == stored.state
    assert stored.moves == len(log) == state["moves"]


def test_a_guest_plays_with_the_session_cookie(guest):
    game = guest.post("/api/v1/games", {"code": CODE}).json()

    assert guest.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"}).status_code == 200
    assert guest.post(f"/api/v1/games/{game['id']}/undo").status_code == 200
    assert guest.get(moves_url(game)).json()["count"] == 2


# -- who may move, and how a move is refused (kept from the retired token fast path's tests) ------


def test_a_game_of_someone_else_or_none_at_all_is_not_found(player):
    other = APIClient()
    theirs = other.post("/api/v1/games", {"code": CODE}).json()
    for url in (moves_url(theirs), f"/api/v1/games/{uuid4()}/moves"):
        assert_error(player.post(url, {"from": "t7", "card": "TS", "to": "t2"}), 404, "not_found")
    assert Game.objects.get(pk=theirs["id"]).moves == 0


def test_a_request_with_neither_token_nor_session_owns_no_game(player, game):
    assert_error(APIClient().post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"}), 404, "not_found")
    assert Game.objects.get(pk=game["id"]).moves == 0


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("moves", {"from": "t1", "card": "7H", "to": "t3"}, 422, "does_not_fit"),
        ("moves", {"from": "t7", "card": "TS", "to": "t2", "seq": 5}, 409, "stale"),
        ("moves", {"from": "x9", "to": "t2"}, 400, "bad_move"),
        ("undo", {}, 422, "nothing_to_undo"),
    ],
)
def test_refusals_are_answered_in_the_request_s_language(player, game, action, body, status, code, language):
    answer = player.post(f"/api/v1/games/{game['id']}/{action}", body, HTTP_ACCEPT_LANGUAGE=language)
    assert_error(answer, status, code)
    assert answer.headers["Content-Language"] == language
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_malformed_bodies_count_once_each_toward_the_move_limit(player, game, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "moves": "4/minute"}}
    for body in ({"from": "t7", "to": ["t2"]}, {"from": "t7", "card": "TS", "to": "t2", "seq": "zero"}, ["t7"]):
        assert_error(player.post(moves_url(game), body), 400, "bad_request")
    assert player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"}).status_code == 200  # the 4th

    over = player.post(f"/api/v1/games/{game['id']}/undo", {"seq": 1})

    assert_error(over, 429, "throttled")
    assert int(over.headers["Retry-After"]) > 0
    assert Game.objects.get(pk=game["id"]).moves == 1


def test_an_inactive_account_s_token_cannot_move(account, player, game):
    account.is_active = False
    account.save()
    assert_error(player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"}), 401, "authentication_failed")
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_a_database_outage_during_a_move_is_a_503_with_retry_after(player, game, monkeypatch):
    def down(**kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "game_play", down)
    answer = player.post(moves_url(game), {"from": "t7", "card": "TS", "to": "t2"})
    assert_error(answer, 503, "service_unavailable")
    assert answer.headers["Retry-After"] == "5"


def test_a_logged_in_browser_moves_with_its_session_cookie_and_csrf_token(account):
    browser = APIClient(enforce_csrf_checks=True)
    browser.get("/api/v1/auth/me")
    login = {"username": account.username, "password": factories.PASSWORD}
    assert (
        browser.post("/api/v1/auth/login", login, HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value).status_code
        == 200
    )
    csrf = browser.cookies["csrftoken"].value  # a new one with the login
    game = browser.post("/api/v1/games", {"code": CODE}, HTTP_X_CSRFTOKEN=csrf).json()
    move = {"from": "t7", "card": "TS", "to": "t2"}

    assert_error(browser.post(moves_url(game), move), 403, "permission_denied")
    answer = browser.post(moves_url(game), move, HTTP_X_CSRFTOKEN=csrf)

    assert answer.status_code == 200 and answer.json()["moves"] == 1
    assert Game.objects.get(pk=game["id"]).owner_id == account.pk
