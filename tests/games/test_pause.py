"""A practice game's clock pauses (issue 41): POST games/{id}/pause and .../resume. The time counted
is the time played; a paused game takes no move, undo or help; a ranked attempt's clock never stops."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.competition import clock
from games.models import DailyDeal, Game
from games.players import Player
from stats.selectors import player_stats
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

START = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)


def at(seconds: float) -> time_machine.travel:
    return time_machine.travel(START + timedelta(seconds=seconds), tick=False)


def test_the_clock_stands_while_a_game_is_paused_and_counts_only_the_time_played(player):
    with at(0):
        state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
        assert (state["paused"], state["pausable"]) == (False, True)
    with at(120):  # two minutes of play, then the tab is closed
        paused = player.post(f"/api/v1/games/{state['id']}/pause").json()
        assert paused["paused"] is True
        assert paused["elapsed_ms"] == 120_000
    with at(120 + 7 * 60):  # seven minutes later: still 2:00
        again = player.get(f"/api/v1/games/{state['id']}").json()
        assert (again["paused"], again["elapsed_ms"]) == (True, 120_000)
        listed = player.get("/api/v1/games").json()["results"][0]
        assert (listed["paused"], listed["elapsed_ms"]) == (True, 120_000)
        resumed = player.post(f"/api/v1/games/{state['id']}/resume").json()
        assert (resumed["paused"], resumed["elapsed_ms"]) == (False, 120_000)
    with at(120 + 7 * 60 + 30):  # the clock runs on from 2:00
        assert player.get(f"/api/v1/games/{state['id']}").json()["elapsed_ms"] == 150_000


def test_pause_and_resume_are_idempotent(player):
    with at(0):
        state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    with at(10):
        player.post(f"/api/v1/games/{state['id']}/pause")
    with at(20):  # a second pause (another tab hidden) keeps the first one's start
        assert player.post(f"/api/v1/games/{state['id']}/pause").json()["elapsed_ms"] == 10_000
    with at(30):
        player.post(f"/api/v1/games/{state['id']}/resume")
    with at(40):  # a second resume counts the pause once
        assert player.post(f"/api/v1/games/{state['id']}/resume").json()["elapsed_ms"] == 20_000


def test_a_paused_game_takes_no_move_undo_or_help_until_it_resumes(player):
    state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    move = state["legal_moves"][0]
    played = player.post(f"/api/v1/games/{state['id']}/moves", move).json()
    player.post(f"/api/v1/games/{state['id']}/pause")

    assert_error(player.post(f"/api/v1/games/{state['id']}/moves", played["legal_moves"][0]), 409, "game_paused")
    assert_error(player.post(f"/api/v1/games/{state['id']}/undo", {}), 409, "game_paused")
    assert_error(player.get(f"/api/v1/games/{state['id']}/hint"), 409, "game_paused")
    assert_error(player.get(f"/api/v1/games/{state['id']}/winnable"), 409, "game_paused")
    after = player.get(f"/api/v1/games/{state['id']}").json()
    assert (after["moves"], after["tableau"]) == (1, played["tableau"])  # nothing changed

    player.post(f"/api/v1/games/{state['id']}/resume")
    assert player.post(f"/api/v1/games/{state['id']}/undo", {}).status_code == 200


def test_a_move_read_before_the_pause_is_refused_as_it_is_written(player, account, monkeypatch):
    """The pause raises the game's version: a move that read the game before it is written against
    the old version, reads again and finds the game paused."""
    from games.play import services, store

    game = factories.game(owner=account)
    real_read = store.game_read
    paused = []

    def read_then_pause(**kwargs):
        found = real_read(**kwargs)
        if not paused:
            paused.append(services.game_pause(game_id=game.pk, player=Player(user=account)))
        return found

    monkeypatch.setattr(store, "game_read", read_then_pause)
    state = player.get(f"/api/v1/games/{game.id}").json()
    assert_error(player.post(f"/api/v1/games/{game.id}/moves", state["legal_moves"][0]), 409, "game_paused")
    assert Game.objects.get(pk=game.pk).moves == 0


def test_a_ranked_attempt_is_never_paused(player):
    DailyDeal.objects.create(date=clock.today(), code="YU1-C-AAAAAAB", solution_length=97)
    state = player.post("/api/v1/games", {"daily": True}).json()
    assert (state["ranked"], state["pausable"]) == (True, False)

    assert_error(player.post(f"/api/v1/games/{state['id']}/pause"), 422, "no_pause_when_ranked")
    assert Game.objects.get(pk=state["id"]).paused_at is None
    # Resuming a game that is not paused changes nothing.
    assert player.post(f"/api/v1/games/{state['id']}/resume").json()["paused"] is False


def test_a_won_game_is_not_paused_and_someone_elses_game_is_not_found(player, account, guest):
    game = factories.game(owner=account, engine=factories.one_move_from_winning())
    player.post(f"/api/v1/games/{game.id}/moves", {"from": "t1", "to": "f"})
    assert_error(player.post(f"/api/v1/games/{game.id}/pause"), 422, "game_over")

    other = guest.post("/api/v1/games", {"rule": "classic"}).json()
    assert_error(player.post(f"/api/v1/games/{other['id']}/pause"), 404, "not_found")
    assert_error(player.post(f"/api/v1/games/{other['id']}/resume"), 404, "not_found")
    assert Game.objects.get(pk=other["id"]).paused_at is None


def test_a_won_games_time_and_the_players_best_leave_the_pauses_out(guest):
    guest.post("/api/v1/games", {"rule": "classic"})  # the guest's session
    me = Player(session_key=guest.session.session_key)
    with at(0):
        game = factories.game(session_key=me.session_key, engine=factories.one_move_from_winning(), created_at=START)
    with at(60):
        guest.post(f"/api/v1/games/{game.id}/pause")
    with at(60 + 3600):  # an hour away
        guest.post(f"/api/v1/games/{game.id}/resume")
    with at(60 + 3600 + 5):
        won = guest.post(f"/api/v1/games/{game.id}/moves", {"from": "t1", "to": "f"}).json()
        assert (won["status"], won["elapsed_ms"]) == ("won", 65_000)
        assert Game.objects.get(pk=game.pk).time_ms == 65_000
        stats = player_stats(player=me)
    assert stats["overall"]["best_time_ms"] == 65_000
    assert stats["history"][-1]["elapsed_ms"] == 65_000


def test_an_unfinished_games_time_in_the_statistics_leaves_its_pause_out(player, account):
    with at(0):
        game = factories.game(owner=account, created_at=START)
        state = player.get(f"/api/v1/games/{game.id}").json()
        player.post(f"/api/v1/games/{game.id}/moves", state["legal_moves"][0])
    with at(30):
        player.post(f"/api/v1/games/{game.id}/pause")
    with at(30 + 600):
        assert player_stats(player=Player(user=account))["history"][-1]["elapsed_ms"] == 30_000


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
def test_pause_and_resume_answer_other_methods_with_405(player, method):
    state = player.post("/api/v1/games", {"rule": "classic"}).json()
    for path in ("pause", "resume"):
        assert_error(getattr(player, method)(f"/api/v1/games/{state['id']}/{path}"), 405, "method_not_allowed")
