"""Winnability decided by the worker (issue 41, games/play/winnable.py): a dealt game's deal, a position the
request's budget cannot settle ("deciding" meanwhile), and the pool that "winnable deals only" deals from."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import DailyDeal, Game, WinnableDeal
from games.play import winnable
from games.solver import Verdict, solve
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_pool(settings):
    settings.WINNABLE_POOL_SIZE = 3
    settings.WINNABLE_CERTIFY_SECONDS = 1.0


@pytest.fixture
def undecided_in_the_request(monkeypatch):
    """The request's small budget settles nothing (as on a hard position); counts its runs."""
    runs = []

    def quick(engine):
        runs.append(engine.moves)
        return "unknown"

    monkeypatch.setattr("games.help.assist.still_winnable", quick)
    return runs


def test_the_pool_fills_with_deals_the_solver_won_and_a_second_run_draws_nothing(small_pool, monkeypatch):
    assert winnable.winnable_deals_fill() == {"classic": 3, "relaxed": 3}
    for deal in WinnableDeal.objects.all():
        code = GameCode.parse(deal.code)
        assert code.rule.value == deal.rule
        assert solve(EngineGame.new(code), max_seconds=5, max_nodes=None).verdict is Verdict.WINNABLE

    drawn = []
    monkeypatch.setattr("games.play.winnable._solve", lambda *args: drawn.append(args) or "yes")
    assert winnable.winnable_deals_fill() == {"classic": 3, "relaxed": 3}
    assert drawn == [] and WinnableDeal.objects.count() == 6


def test_a_winnable_only_game_is_dealt_from_the_pool_and_marked_winnable(
    player, small_pool, winnable_asked, undecided_in_the_request
):
    winnable.winnable_deals_fill()
    pool = set(WinnableDeal.objects.filter(rule="relaxed").values_list("code", flat=True))

    response = player.post("/api/v1/games", {"rule": "relaxed", "winnable_only": True})

    assert response.status_code == 201
    state = response.json()
    assert (state["code"] in pool, state["rule"], state["winnable_deal"]) == (True, "relaxed", True)
    assert WinnableDeal.objects.filter(rule="relaxed").count() == 3  # (it stays for the others)
    assert Game.objects.get(pk=state["id"]).deal_verdict == "yes"
    assert ("fill",) in winnable_asked  # the pool is topped up again
    assert not [asked for asked in winnable_asked if asked[0] == "decide"]  # nothing left to decide
    # "Still winnable?" at the opening knows it at once, without the solver.
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "yes"}
    assert undecided_in_the_request == []
    # Any other deal is not marked.
    assert player.post("/api/v1/games", {"rule": "relaxed"}).json()["winnable_deal"] is False


def test_one_client_asking_again_and_again_leaves_every_other_player_a_winnable_deal(small_pool, winnable_asked):
    winnable.winnable_deals_fill()
    pool = set(WinnableDeal.objects.filter(rule="classic").values_list("code", flat=True))
    greedy = APIClient()

    dealt = [greedy.post("/api/v1/games", {"winnable_only": True}) for _ in range(10)]

    assert [response.status_code for response in dealt] == [201] * 10
    codes = [response.json()["code"] for response in dealt]
    assert set(codes[:3]) == pool  # (a deal not dealt to this player before, while there is one)
    assert set(codes) == pool  # (then repeats: never "not ready")
    for other in (APIClient(), factories.token_client(factories.user())):
        response = other.post("/api/v1/games", {"winnable_only": True})
        assert response.status_code == 201 and response.json()["winnable_deal"] is True
        assert response.json()["code"] in pool


def test_the_pool_grows_by_a_batch_a_run_up_to_its_size(settings):
    settings.WINNABLE_POOL_SIZE, settings.WINNABLE_FILL_BATCH = 5, 2

    assert [winnable.winnable_deals_fill()["relaxed"] for _ in range(4)] == [2, 4, 5, 5]


def test_with_the_pool_empty_a_winnable_only_game_waits_for_it(player, winnable_asked):
    response = player.post("/api/v1/games", {"winnable_only": True})

    assert_error(response, 503, "winnable_not_ready")
    assert response["Retry-After"] == str(winnable.POOL_RETRY_AFTER)
    assert Game.objects.count() == 0
    assert ("fill",) in winnable_asked


@pytest.mark.parametrize(
    "body", [{"code": "YU1-C-AAAAAAB", "winnable_only": True}, {"daily": True, "winnable_only": True}]
)
def test_winnable_only_is_for_a_rules_random_deal(player, body):
    assert_error(player.post("/api/v1/games", body), 400, "bad_request")
    assert_error(player.post("/api/v1/games", {"winnable_only": "yes"}), 400, "bad_request")


def test_a_dealt_game_is_decided_by_the_worker_and_the_opening_answer_is_then_known(
    player, winnable_asked, undecided_in_the_request, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    assert winnable_asked == [("decide", state["id"], 0, "")]  # sent once the game is committed
    # Before the worker ran: the page shows "deciding…" and asks again (no second task is sent).
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "deciding"}
    assert len(winnable_asked) == 1

    assert winnable.decide(game_id=state["id"], moves=0) == "yes"  # the task's work

    assert Game.objects.get(pk=state["id"]).deal_verdict == "yes"
    runs = len(undecided_in_the_request)
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "yes"}
    assert len(undecided_in_the_request) == runs  # known: the request ran no solver


def test_a_position_the_request_cannot_settle_is_decided_by_the_worker(
    player, account, winnable_asked, undecided_in_the_request
):
    state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    played = player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0]).json()

    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "deciding"}
    asked = ("decide", state["id"], 1, f"user:{account.pk}")
    assert winnable_asked[-1] == asked
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "deciding"}
    assert winnable_asked.count(asked) == 1  # asked once

    engine = EngineGame.from_state(Game.objects.get(pk=state["id"]).state)
    expected = {"winnable": "yes", "not_winnable": "no", "unknown": "unknown"}[
        solve(engine, max_seconds=3, max_nodes=None).verdict.value
    ]
    assert winnable.decide(game_id=state["id"], moves=1, scope=f"user:{account.pk}") == expected
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": expected}

    # A position the game has left is not decided any more.
    player.post(f"/api/v1/games/{state['id']}/moves", played["legal_moves"][0])
    assert winnable.decide(game_id=state["id"], moves=1) == expected  # kept
    assert winnable.decide(game_id=state["id"], moves=5) is None


def test_one_decision_at_a_time_per_player(player, account, winnable_asked, undecided_in_the_request):
    first = factories.game(owner=account, deal_verdict="yes")
    second = factories.game(owner=account, deal_verdict="yes")
    for game in (first, second):
        state = player.get(f"/api/v1/games/{game.id}").json()
        player.post(f"/api/v1/games/{game.id}/moves", state["legal_moves"][0])

    assert player.get(f"/api/v1/games/{first.id}/winnable").json() == {"winnable": "deciding"}
    assert player.get(f"/api/v1/games/{second.id}/winnable").json() == {"winnable": "deciding"}
    decisions = [asked for asked in winnable_asked if asked[0] == "decide"]
    assert decisions == [("decide", str(first.id), 1, f"user:{account.pk}")]

    winnable.decide(game_id=str(first.id), moves=1, scope=f"user:{account.pk}")  # done: the next may go
    assert player.get(f"/api/v1/games/{second.id}/winnable").json() == {"winnable": "deciding"}
    assert winnable_asked[-1] == ("decide", str(second.id), 1, f"user:{account.pk}")


def test_a_deal_that_cannot_be_won_answers_no_for_every_position(player, account, undecided_in_the_request):
    game = factories.game(owner=account, deal_verdict="no")
    state = player.get(f"/api/v1/games/{game.id}").json()
    player.post(f"/api/v1/games/{game.id}/moves", state["legal_moves"][0])

    assert player.get(f"/api/v1/games/{game.id}/winnable").json() == {"winnable": "no"}
    assert undecided_in_the_request == []


def test_what_the_worker_could_not_decide_either_is_unknown(player, account, undecided_in_the_request):
    game = factories.game(owner=account, deal_verdict="unknown")
    assert player.get(f"/api/v1/games/{game.id}/winnable").json() == {"winnable": "unknown"}


def test_todays_daily_deal_is_never_decided(player, winnable_asked, django_capture_on_commit_callbacks):
    DailyDeal.objects.create(date=clock.today(), code="YU1-C-AAAAAAB", solution_length=97)
    with django_capture_on_commit_callbacks(execute=True):
        state = player.post("/api/v1/games", {"daily": True}).json()
    assert state["winnable_deal"] is False
    assert winnable_asked == []
    assert Game.objects.get(pk=state["id"]).deal_verdict == ""
