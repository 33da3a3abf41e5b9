"""Moves played offline: a batch the server replays with the engine like any move (docs/api.md,
"Played offline"), kept up to its last legal move, and a game played offline is no best."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import Move
from games.models import DailyDeal, Game, MoveLog
from stats.models import PersonalBest
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAB"
# Fields of a state that differ between two games of the same deal played the same way.
OWN = {"id", "elapsed_ms", "played_offline", "pausable", "batch"}


def line(code: str = CODE, moves: int = 20) -> list[dict[str, str]]:
    """``moves`` legal moves of ``code``'s deal, a varied but fixed choice among the legal ones."""
    engine = EngineGame.from_code(code)
    played = []
    for n in range(moves):
        legal = engine.legal_moves()
        move = legal[(7 * n + 3) % len(legal)]
        engine.play(move)
        played.append(move.to_json())
    return played


def batch_url(game_id) -> str:
    return f"/api/v1/games/{game_id}/batch"


def log_of(game_id) -> list[tuple]:
    return list(
        MoveLog.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "move", "points", "flipped", "step", "below")
    )


def same_game(one: dict, other: dict) -> bool:
    return {k: v for k, v in one.items() if k not in OWN} == {k: v for k, v in other.items() if k not in OWN}


@pytest.fixture
def game(player):
    return player.post("/api/v1/games", {"code": CODE}).json()


def test_a_batch_of_20_moves_and_an_undo_equals_the_moves_played_one_by_one(player, game):
    entries = [*line(), {"undo": True}]
    online = player.post("/api/v1/games", {"code": CODE}).json()
    for entry in entries:
        path = "undo" if "undo" in entry else "moves"
        assert player.post(f"/api/v1/games/{online['id']}/{path}", {} if "undo" in entry else entry).status_code == 200

    response = player.post(batch_url(game["id"]), {"seq": 0, "moves": entries, "elapsed_ms": 60_000}, format="json")

    assert response.status_code == 200, response.content[:300]
    state = response.json()
    assert state["batch"] == {"applied": 21} and state["played_offline"] is True
    assert state["moves"] == 21
    assert same_game(state, player.get(f"/api/v1/games/{online['id']}").json())
    assert log_of(game["id"]) == log_of(online["id"])
    stored, one_by_one = Game.objects.get(pk=game["id"]), Game.objects.get(pk=online["id"])
    assert (stored.state, stored.score, stored.moves) == (one_by_one.state, one_by_one.score, one_by_one.moves)
    assert stored.version == 1  # one write for the whole batch
    # The game goes on online from there, its undo reading the log the batch wrote.
    assert player.post(f"/api/v1/games/{game['id']}/undo", {"seq": 21}).json()["moves"] == 22


def test_undos_reach_back_past_the_batch_into_moves_played_online(player, game):
    first = line(moves=3)
    for entry in first:
        player.post(f"/api/v1/games/{game['id']}/moves", entry)

    state = player.post(
        batch_url(game["id"]), {"seq": 3, "moves": [{"undo": True}] * 3, "elapsed_ms": 1000}, format="json"
    ).json()

    assert state["moves"] == 6 and state["undo_available"] == 0
    assert same_game(state, player.post("/api/v1/games", {"code": CODE}).json() | {"moves": 6, "last": state["last"]})


def test_a_repeated_batch_gets_the_same_answer_and_changes_nothing(player, game):
    body = {"seq": 0, "moves": line(moves=5), "elapsed_ms": 30_000}
    first = player.post(batch_url(game["id"]), body, format="json", HTTP_IDEMPOTENCY_KEY="offline-1")
    version = Game.objects.get(pk=game["id"]).version

    again = player.post(batch_url(game["id"]), body, format="json", HTTP_IDEMPOTENCY_KEY="offline-1")

    assert again.status_code == first.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    stored = Game.objects.get(pk=game["id"])
    assert (stored.moves, stored.version) == (5, version)
    assert MoveLog.objects.filter(game_id=game["id"]).count() == 5


def test_a_forged_batch_is_refused_and_leaves_the_game_as_it_was(player, game):
    before = Game.objects.get(pk=game["id"])
    forged = [{"from": "t1", "card": "7H", "to": "f"}, *line(moves=3)]

    response = player.post(batch_url(game["id"]), {"seq": 0, "moves": forged, "elapsed_ms": 5}, format="json")

    assert response.status_code == 422
    body = response.json()
    refusal = (body["error"], body["index"], body["applied"], body["reason"])
    assert refusal == ("batch_refused", 0, 0, "not_next_on_foundation")
    assert "1" in body["detail"]
    as_it_is = player.get(f"/api/v1/games/{game['id']}").json()
    assert body["state"] == {**as_it_is, "elapsed_ms": body["state"]["elapsed_ms"]}
    after = Game.objects.get(pk=game["id"])
    assert (after.version, after.moves, after.state, after.played_offline) == (before.version, 0, before.state, False)
    assert not MoveLog.objects.filter(game_id=game["id"]).exists()


def test_an_illegal_entry_in_the_middle_keeps_the_legal_moves_before_it(player, game):
    legal = line(moves=8)
    entries = [*legal[:5], {"from": "t1", "card": "7H", "to": "f"}, *legal[5:]]

    response = player.post(batch_url(game["id"]), {"seq": 0, "moves": entries, "elapsed_ms": 9000}, format="json")

    body = response.json()
    assert response.status_code == 422 and body["error"] == "batch_refused"
    assert (body["index"], body["applied"], body["state"]["moves"]) == (5, 5, 5)
    assert body["state"]["played_offline"] is True
    assert [entry[0] for entry in log_of(game["id"])] == [1, 2, 3, 4, 5]
    assert player.get(f"/api/v1/games/{game['id']}").json()["moves"] == 5


def test_an_entry_that_is_no_move_stops_the_batch_as_a_bad_move(player, game):
    entries = [*line(moves=2), {"from": "t9", "to": "t1"}, {"undo": True}]

    body = player.post(batch_url(game["id"]), {"seq": 0, "moves": entries, "elapsed_ms": 1}, format="json").json()

    assert (body["error"], body["index"], body["applied"], body["reason"]) == ("batch_refused", 2, 2, "bad_move")


def test_an_undo_with_nothing_to_undo_is_refused_like_a_move(player, game):
    body = player.post(batch_url(game["id"]), {"seq": 0, "moves": [{"undo": True}], "elapsed_ms": 1}, format="json")

    assert body.status_code == 422 and body.json()["reason"] == "nothing_to_undo"


def test_a_refused_batch_with_a_key_is_answered_the_same_again(player, game):
    body = {"seq": 0, "moves": [*line(moves=2), {"from": "t1", "card": "7H", "to": "f"}], "elapsed_ms": 10}
    first = player.post(batch_url(game["id"]), body, format="json", HTTP_IDEMPOTENCY_KEY="k")
    again = player.post(batch_url(game["id"]), body, format="json", HTTP_IDEMPOTENCY_KEY="k")

    assert first.status_code == again.status_code == 422
    assert again.json() == first.json()
    assert Game.objects.get(pk=game["id"]).moves == 2


def test_a_batch_from_another_move_counter_is_stale_and_changes_nothing(player, game):
    response = player.post(batch_url(game["id"]), {"seq": 3, "moves": line(moves=2), "elapsed_ms": 1}, format="json")

    assert_error(response, 409, "stale")
    assert Game.objects.get(pk=game["id"]).moves == 0


def test_a_daily_game_is_refused_as_a_whole(player):
    DailyDeal.objects.create(date=clock.today(), code=CODE, solution_length=97)
    state = player.post("/api/v1/games", {"daily": True}).json()

    response = player.post(batch_url(state["id"]), {"seq": 0, "moves": [state["legal_moves"][0]], "elapsed_ms": 1})

    assert_error(response, 422, "daily_online_only")
    assert Game.objects.get(pk=state["id"]).moves == 0


def test_a_won_game_is_refused_as_a_whole(player, account):
    won = factories.game(owner=account, engine=factories.one_move_from_winning())
    player.post(f"/api/v1/games/{won.id}/moves", {"from": "t1", "to": "f"})

    response = player.post(batch_url(won.id), {"seq": 1, "moves": [{"undo": True}], "elapsed_ms": 1}, format="json")

    assert_error(response, 422, "game_over")


def test_someone_elses_game_is_not_found(player, guest):
    other = guest.post("/api/v1/games", {"code": CODE}).json()

    response = player.post(batch_url(other["id"]), {"seq": 0, "moves": line(moves=1), "elapsed_ms": 1}, format="json")

    assert_error(response, 404, "not_found")


def test_a_paused_game_is_resumed_by_its_batch(player, game):
    player.post(f"/api/v1/games/{game['id']}/pause")

    state = player.post(batch_url(game["id"]), {"seq": 0, "moves": line(moves=2), "elapsed_ms": 1}, format="json")

    assert state.status_code == 200 and state.json()["paused"] is False
    assert Game.objects.get(pk=game["id"]).paused_at is None


def test_the_devices_clock_is_kept_within_what_the_server_knows(player, account):
    dealt = timezone.now() - timedelta(minutes=10)
    stored = factories.game(owner=account, code=CODE, created_at=dealt, paused_ms=300_000)
    body = {"seq": 0, "moves": line(moves=1), "elapsed_ms": 400_000}

    state = player.post(batch_url(stored.id), body, format="json").json()

    assert 400_000 <= state["elapsed_ms"] < 401_000  # the device's clock, between the two bounds
    # More than the time since the deal: no more than that; less than the server's clock: that.
    late = factories.game(owner=account, code=CODE, created_at=dealt)
    state = player.post(batch_url(late.id), {**body, "elapsed_ms": 10**12}, format="json").json()
    assert 600_000 <= state["elapsed_ms"] < 601_000
    early = factories.game(owner=account, code=CODE, created_at=dealt, paused_ms=60_000)
    state = player.post(batch_url(early.id), {**body, "elapsed_ms": 0}, format="json").json()
    assert 540_000 <= state["elapsed_ms"] < 541_000


def test_an_offline_win_counts_as_a_win_but_never_for_a_best(
    player, account, eager_tasks, django_capture_on_commit_callbacks
):
    slow = factories.game(
        owner=account, engine=factories.one_move_from_winning(), created_at=timezone.now() - timedelta(hours=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        player.post(f"/api/v1/games/{slow.id}/moves", {"from": "t1", "to": "f"})
    assert PersonalBest.objects.get(user=account).best_time_ms >= 3_600_000
    fast = factories.game(owner=account, engine=factories.one_move_from_winning())

    with django_capture_on_commit_callbacks(execute=True):
        state = player.post(
            batch_url(fast.id), {"seq": 0, "moves": [{"from": "t1", "to": "f"}], "elapsed_ms": 1000}, format="json"
        ).json()

    assert state["status"] == "won" and state["played_offline"] is True
    assert state["win"]["counts_for_bests"] is False and state["win"]["best_time"] is False
    assert state["win"]["fewest_moves"] is False
    stats = player.get("/api/v1/me/stats").json()["rules"]["classic"]
    assert (stats["played"], stats["won"]) == (2, 2)
    assert stats["best_time_ms"] >= 3_600_000
    assert PersonalBest.objects.get(user=account).best_time_ms >= 3_600_000
    # A later online win is measured against the online one alone.
    later = factories.game(owner=account, engine=factories.one_move_from_winning())
    win = player.post(f"/api/v1/games/{later.id}/moves", {"from": "t1", "to": "f"}).json()["win"]
    assert win["before"]["wins"] == 2 and win["before"]["best_time_ms"] >= 3_600_000 and win["best_time"] is True


def test_a_guests_offline_win_is_no_best_of_its_browser(guest):
    code = factories.fresh_code()
    engine = factories.one_move_from_winning(code)
    first = guest.post("/api/v1/games", {"code": CODE}).json()  # (starts the guest's session)
    stored = Game.objects.get(pk=first["id"])
    won = factories.game(session_key=stored.guest_session_key, engine=engine)

    guest.post(batch_url(won.id), {"seq": 0, "moves": [{"from": "t1", "to": "f"}], "elapsed_ms": 5}, format="json")

    stats = guest.get("/api/v1/me/stats").json()["rules"]["classic"]
    assert stats["won"] == 1 and stats["best_time_ms"] is None and stats["fewest_moves"] is None


def test_the_list_and_the_export_say_which_games_were_played_offline(player, game):
    player.post(batch_url(game["id"]), {"seq": 0, "moves": line(moves=1), "elapsed_ms": 1}, format="json")

    listed = player.get("/api/v1/games").json()["results"]
    assert [g["played_offline"] for g in listed] == [True]
    exported = player.get("/api/v1/games/export?format=ndjson")
    assert b'"played_offline":true' in b"".join(exported.streaming_content)


# -- a game dealt offline ------------------------------------------------------------------------


def test_a_game_dealt_offline_is_made_once_whatever_the_retries(player, account):
    body = {"code": CODE, "moves": line(moves=6), "elapsed_ms": 90_000}

    first = player.post("/api/v1/games/offline", body, format="json", HTTP_IDEMPOTENCY_KEY="device-game-1")
    again = player.post("/api/v1/games/offline", body, format="json", HTTP_IDEMPOTENCY_KEY="device-game-1")

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    state = first.json()
    assert (state["moves"], state["batch"], state["played_offline"]) == (6, {"applied": 6}, True)
    assert 90_000 <= state["elapsed_ms"] < 91_000
    assert Game.objects.filter(owner=account).count() == 1
    stored = Game.objects.get(owner=account)
    assert timezone.now() - stored.created_at >= timedelta(seconds=90)
    # The same key for another game is a conflict, and makes none.
    other = player.post(
        "/api/v1/games/offline", {**body, "moves": line(moves=2)}, format="json", HTTP_IDEMPOTENCY_KEY="device-game-1"
    )
    assert_error(other, 422, "idempotency_conflict")
    assert Game.objects.filter(owner=account).count() == 1


def test_a_game_dealt_offline_is_kept_up_to_its_last_legal_move(player, account):
    moves = [*line(moves=3), {"from": "t1", "card": "7H", "to": "f"}]

    body = {"code": CODE, "moves": moves, "elapsed_ms": 1}
    response = player.post("/api/v1/games/offline", body, format="json", HTTP_IDEMPOTENCY_KEY="g")

    body = response.json()
    assert response.status_code == 422 and (body["error"], body["index"], body["applied"]) == ("batch_refused", 3, 3)
    assert Game.objects.get(owner=account).moves == 3
    assert body["state"]["id"] == str(Game.objects.get(owner=account).pk)


def test_a_game_dealt_offline_needs_a_key_and_a_code_that_is_no_secret(player, account):
    body = {"code": CODE, "moves": [], "elapsed_ms": 0}
    assert_error(player.post("/api/v1/games/offline", body, format="json"), 400, "bad_idempotency_key")
    assert_error(
        player.post("/api/v1/games/offline", {**body, "code": "YU1-C-!"}, format="json", HTTP_IDEMPOTENCY_KEY="a"),
        400,
        "bad_code",
    )
    DailyDeal.objects.create(date=clock.today(), code=CODE, solution_length=97)
    assert_error(
        player.post("/api/v1/games/offline", body, format="json", HTTP_IDEMPOTENCY_KEY="b"), 422, "daily_online_only"
    )
    assert not Game.objects.filter(owner=account).exists()


def test_a_guest_deals_offline_too_and_a_game_without_moves_is_not_marked(guest):
    response = guest.post(
        "/api/v1/games/offline",
        {"code": factories.fresh_code(), "moves": [], "elapsed_ms": 5000},
        format="json",
        HTTP_IDEMPOTENCY_KEY="guest-1",
    )

    assert response.status_code == 201
    state = response.json()
    assert (state["moves"], state["played_offline"], state["batch"]) == (0, False, {"applied": 0})
    assert 5000 <= state["elapsed_ms"] < 6000


# -- bodies of every wrong shape -----------------------------------------------------------------

BAD_BODIES = [
    None,
    [],
    "moves",
    {},
    {"seq": 0, "elapsed_ms": 1},
    {"seq": 0, "moves": [], "elapsed_ms": 1},
    {"seq": 0, "moves": {"from": "t1"}, "elapsed_ms": 1},
    {"seq": 0, "moves": ["t7:TS>t2"], "elapsed_ms": 1},
    {"seq": 0, "moves": [None], "elapsed_ms": 1},
    {"seq": 0, "moves": [[1, 2]], "elapsed_ms": 1},
    {"seq": -1, "moves": [{"undo": True}], "elapsed_ms": 1},
    {"seq": "0", "moves": [{"undo": True}], "elapsed_ms": 1},
    {"seq": True, "moves": [{"undo": True}], "elapsed_ms": 1},
    {"seq": 0, "moves": [{"undo": True}], "elapsed_ms": -5},
    {"seq": 0, "moves": [{"undo": True}], "elapsed_ms": 1.5},
    {"seq": 0, "moves": [{"undo": True}], "elapsed_ms": 2**70},
    {"seq": 0, "moves": [{"undo": True}]},
    {"seq": 0, "moves": [{"undo": True}] * 1001, "elapsed_ms": 1},
]


@pytest.mark.parametrize("body", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_a_batch_of_the_wrong_shape_is_a_bad_request(player, game, body):
    response = player.post(batch_url(game["id"]), body, format="json")

    assert_error(response, 400, "bad_request")
    assert Game.objects.get(pk=game["id"]).moves == 0


@pytest.mark.parametrize("body", BAD_BODIES, ids=range(len(BAD_BODIES)))
def test_a_game_dealt_offline_of_the_wrong_shape_is_a_bad_request(player, account, body):
    if isinstance(body, dict) and body.keys() == {"seq", "moves", "elapsed_ms"} and body["moves"] == [{"undo": True}]:
        body = {**body, "seq": 0, "moves": body["seq"]}  # (its bad `seq` as a bad `moves`)
    if isinstance(body, dict):
        body = {**{k: v for k, v in body.items() if k != "seq"}, "code": CODE}
        if body.get("moves") == []:
            body["code"] = 7
    response = player.post("/api/v1/games/offline", body, format="json", HTTP_IDEMPOTENCY_KEY="x")

    assert response.status_code == 400 and response.json()["error"] in ("bad_request", "bad_code")
    assert not Game.objects.filter(owner=account).exists()


entry_like = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "from": st.sampled_from(["t1", "t7", "fS", "t0", ""]) | st.integers() | st.none(),
            "card": st.sampled_from(["7H", "TS", "XX", None]) | st.booleans(),
            "to": st.sampled_from(["t2", "f", "auto", "t8"]) | st.lists(st.integers(), max_size=2),
            "undo": st.booleans() | st.none() | st.just(1),
            "seq": st.integers(),
        },
    ),
    st.none(),
    st.integers(),
    st.text(max_size=5),
)
batch_like = st.fixed_dictionaries(
    {},
    optional={
        "seq": st.integers(min_value=-2, max_value=3) | st.text(max_size=3) | st.none(),
        "moves": st.lists(entry_like, max_size=6) | entry_like,
        "elapsed_ms": st.integers(min_value=-10, max_value=2**60)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.none(),
        "code": st.sampled_from([CODE, "YU9-X", ""]) | st.integers(),
    },
)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
@pytest.mark.parametrize("offline", [False, True])
def test_a_number_json_has_not_is_a_bad_request(player, game, number, offline):
    """A body that is not strict JSON (what the fuzz below cannot send: its client encodes JSON)."""
    url = "/api/v1/games/offline" if offline else batch_url(game["id"])
    body = f'{{"seq": 0, "moves": [], "elapsed_ms": {number}, "code": "{CODE}"}}'

    response = player.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=f"raw-{number}")

    assert response.status_code in (400, 422), (response.status_code, response.content[:300])
    print(number, offline, response.status_code, response.json()["error"])
    assert response.json()["error"] in ("bad_request", "validation_error", "parse_error", "bad_elapsed_ms")
    assert Game.objects.filter(pk=game["id"], moves=0).exists()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=batch_like, offline=st.booleans())
def test_no_batch_body_makes_the_server_fail(player, game, body, offline):
    url = "/api/v1/games/offline" if offline else batch_url(game["id"])

    response = player.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"fuzz-{id(body)}-{offline}")

    assert response.status_code in (200, 201, 400, 409, 422), (response.status_code, response.content[:300])
    payload = response.json()
    if response.status_code >= 400:
        assert payload["error"] and payload["detail"]


def test_a_long_batch_is_written_whole_as_the_engine_plays_it(player, game):
    entries = line(moves=150)  # (more log entries than PostgreSQL's one statement takes: games.play.store)

    state = player.post(batch_url(game["id"]), {"seq": 0, "moves": entries, "elapsed_ms": 1}, format="json").json()

    engine = EngineGame.from_code(CODE)
    for entry in entries:
        engine.play(Move.from_json(entry))
    assert state["moves"] == 150 and state["tableau"] == engine.view()["tableau"]
    assert [entry[0] for entry in log_of(game["id"])] == list(range(1, 151))
    assert Game.objects.get(pk=game["id"]).state == engine.to_state()
