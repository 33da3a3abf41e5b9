"""Hint and "still winnable?" for practice games; never for today's daily deal."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode, Move
from games.models import DailyDeal, Game, StatusChoices
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def test_a_hint_is_a_legal_move_of_the_game(player):
    state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    response = player.get(f"/api/v1/games/{state['id']}/hint")
    assert response.status_code == 200
    move = response.json()["move"]
    assert move in state["legal_moves"]
    assert player.post(f"/api/v1/games/{state['id']}/moves", move).status_code == 200


def test_asking_for_help_changes_nothing(player):
    state = player.post("/api/v1/games", {"code": "YU1-R-AAAAAAB"}).json()
    player.get(f"/api/v1/games/{state['id']}/hint")
    player.get(f"/api/v1/games/{state['id']}/winnable")
    again = player.get(f"/api/v1/games/{state['id']}").json()
    assert (again["moves"], again["score"], again["tableau"]) == (0, 0, state["tableau"])


def test_the_hint_depends_only_on_what_the_player_sees(player, account):
    """Two games that differ only in their face-down cards get the same hint."""
    visible = [["KS", "QH"], ["ad", "9c", "JC"], ["2d", "TD"], ["8H"], [], [], []]
    swapped = [["KS", "QH"], ["9c", "ad", "JC"], ["2d", "TD"], ["8H"], [], [], []]
    hints = []
    for layout in (visible, swapped):
        tops = {"S": "JS", "H": "JH", "C": "TC", "D": "9D"}
        engine = EngineGame.from_layout(layout, tops, code=GameCode.parse("YU1-C-AAAAAAB"))
        game = factories.game(owner=account, engine=engine)
        hints.append(player.get(f"/api/v1/games/{game.id}/hint").json()["move"])
    assert hints[0] == hints[1] is not None


def test_a_fresh_deal_is_winnable_and_a_finished_game_has_no_hint(player, account):
    state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    assert player.get(f"/api/v1/games/{state['id']}/winnable").json() == {"winnable": "yes"}
    game = factories.game(owner=account, engine=factories.one_move_from_winning())
    assert player.get(f"/api/v1/games/{game.id}/hint").json() == {"move": {"from": "t1", "to": "f"}, "reason": "move"}
    player.post(f"/api/v1/games/{game.id}/moves", {"from": "t1", "to": "f"})
    assert player.get(f"/api/v1/games/{game.id}/hint").json() == {"move": None, "reason": "none"}


def test_a_stuck_game_is_reported_not_winnable(player, account):
    # All 52 cards: the spades fill every column, the Ace face down under the King. Black on black
    # never fits (classic), no column is empty for a King: not a single legal move is left.
    engine = EngineGame.from_layout(
        [["as", "KS"], ["QS", "JS"], ["TS", "9S"], ["8S", "7S"], ["6S", "5S"], ["4S", "3S"], ["2S"]],
        {"H": "KH", "D": "KD", "C": "KC"},
        code=GameCode.parse("YU1-C-AAAAAAB"),
    )
    assert engine.legal_moves() == []
    game = factories.game(owner=account, engine=engine)
    assert player.get(f"/api/v1/games/{game.id}/winnable").json() == {"winnable": "no"}


@pytest.fixture
def todays_deal(db):
    return DailyDeal.objects.create(date=clock.today(), code="YU1-C-AAAAAAB", solution_length=97)


@pytest.mark.parametrize("path", ["hint", "winnable"])
def test_no_help_for_todays_daily_deal_for_anyone(player, guest, path, todays_deal):
    for _ in range(2):  # the ranked attempt, then (once it is won) a practice game of the same deal
        state = player.post("/api/v1/games", {"daily": True}).json()
        assert_error(player.get(f"/api/v1/games/{state['id']}/{path}"), 422, "no_help_for_daily")
        Game.objects.filter(pk=state["id"]).update(status=StatusChoices.WON)
    # A guest cannot even start it; a guest's daily game kept from before gets no help either.
    assert_error(guest.post("/api/v1/games", {"daily": True}), 403, "daily_needs_account")
    guest.post("/api/v1/games", {"rule": "classic"})  # the guest's session
    kept = factories.game(session_key=guest.session.session_key, daily=clock.today())
    assert_error(guest.get(f"/api/v1/games/{kept.id}/{path}"), 422, "no_help_for_daily")


def test_help_is_given_for_a_daily_deal_whose_day_is_over(player, todays_deal):
    state = player.post("/api/v1/games", {"daily": True}).json()
    Game.objects.filter(pk=state["id"]).update(daily=clock.today() - timedelta(days=1))
    assert player.get(f"/api/v1/games/{state['id']}/hint").status_code == 200


def test_someone_elses_game_gets_no_help(player, guest):
    state = guest.post("/api/v1/games", {"rule": "classic"}).json()
    assert_error(player.get(f"/api/v1/games/{state['id']}/hint"), 404, "not_found")
    assert_error(player.get(f"/api/v1/games/{state['id']}/winnable"), 404, "not_found")


def test_help_is_rate_limited(player, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "help": "2/minute"}}
    state = player.post("/api/v1/games", {"rule": "classic"}).json()
    for _ in range(2):
        assert player.get(f"/api/v1/games/{state['id']}/hint").status_code == 200
    assert_error(player.get(f"/api/v1/games/{state['id']}/hint"), 429, "throttled")


def test_moves_from_the_api_parse_back():
    assert str(Move.from_json({"from": "t1", "to": "f"})) == "t1>f"


def test_a_past_daily_game_shows_the_certified_solution_length_and_todays_does_not(player, todays_deal):
    state = player.post("/api/v1/games", {"daily": True}).json()
    assert state["solution_length"] is None  # today: it would say how hard the deal is
    deal = DailyDeal.objects.get(date=clock.today())
    assert deal.solution_length > 0
    Game.objects.filter(pk=state["id"]).update(daily=clock.today() - timedelta(days=1))
    DailyDeal.objects.filter(pk=deal.pk).update(date=clock.today() - timedelta(days=1))
    assert player.get(f"/api/v1/games/{state['id']}").json()["solution_length"] == deal.solution_length


V2_OF_AAAAAAB = "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG"


def test_a_past_days_deal_practised_from_its_code_shows_the_solution_length_too(player):
    """Issue 28 item 11: the closed attempt showed "Solvable in 108 moves", practice from the code did not."""
    DailyDeal.objects.create(date=clock.today() - timedelta(days=1), code=V2_OF_AAAAAAB, solution_length=108)
    state = player.post("/api/v1/games", {"code": V2_OF_AAAAAAB.lower()}).json()
    assert state["daily"] is None and state["solution_length"] == 108
    DailyDeal.objects.filter(code=V2_OF_AAAAAAB).update(date=clock.today())  # today's: its length stays secret
    assert player.get(f"/api/v1/games/{state['id']}").json()["solution_length"] is None
    random_deal = player.post("/api/v1/games", {"rule": "classic"}).json()
    assert random_deal["solution_length"] is None


def test_a_move_and_an_undo_answer_with_the_solution_length_their_outcome_carries(player):
    """The move's answer is rendered from the service's outcome (issue 35, point 3), with a key
    (inside the kept answer's transaction) or without."""
    DailyDeal.objects.create(date=clock.today() - timedelta(days=1), code=V2_OF_AAAAAAB, solution_length=108)
    state = player.post("/api/v1/games", {"code": V2_OF_AAAAAAB}).json()
    url = f"/api/v1/games/{state['id']}"
    moved = player.post(f"{url}/moves", {**state["legal_moves"][0], "seq": 0}, HTTP_IDEMPOTENCY_KEY="m1")
    assert moved.status_code == 200 and moved.json()["solution_length"] == 108
    undone = player.post(f"{url}/undo", {"seq": 1})
    assert undone.status_code == 200 and undone.json()["solution_length"] == 108
    retried = player.post(f"{url}/moves", {**state["legal_moves"][0], "seq": 0}, HTTP_IDEMPOTENCY_KEY="m1")
    assert retried.json() == moved.json() and retried["Idempotent-Replayed"] == "true"


def test_following_the_hints_never_comes_back_to_a_position(player):
    """The server hands the game's history (its move log, undos included) to the hint."""
    state = player.post("/api/v1/games", {"code": "YU1-C-EHEHGFC"}).json()
    player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])
    state = player.post(f"/api/v1/games/{state['id']}/undo", {}).json()
    seen = [(state["tableau"], state["foundations"])]
    for _ in range(40):
        answer = player.get(f"/api/v1/games/{state['id']}/hint").json()
        if answer["move"] is None:
            break
        state = player.post(f"/api/v1/games/{state['id']}/moves", answer["move"]).json()
        position = (state["tableau"], state["foundations"])
        assert position not in seen
        seen.append(position)
    assert len(seen) > 20


def test_no_useful_move_is_said_so(player, account):
    # Classic: the Queen of Hearts may go from one black King to the other, a King into an empty
    # column, a card back from a foundation; none turns a card up, puts one up or wins.
    layout = [["KS", "QH"], ["KC"], [], [], [], [], []]
    tops = {"S": "QS", "H": "TH", "C": "JC", "D": "KD"}
    engine = EngineGame.from_layout(layout, tops, code=GameCode.parse("YU1-C-AAAAAAB"))
    assert engine.legal_moves()
    game = factories.game(owner=account, engine=engine)
    assert player.get(f"/api/v1/games/{game.id}/hint").json() == {"move": None, "reason": "no_progress"}


def test_a_player_at_a_human_pace_is_never_refused(player, account, monkeypatch):
    """One hint every 2 s for three minutes (and a "still winnable?" every 10 s) on the default
    limits: never a 429."""
    clock = [1_000_000.0]
    monkeypatch.setattr("common.throttles.RateThrottle.timer", lambda self: clock[0])
    game = factories.game(owner=account, engine=factories.one_move_from_winning())
    for n in range(90):
        assert player.get(f"/api/v1/games/{game.id}/hint").status_code == 200, n
        if n % 5 == 0:
            assert player.get(f"/api/v1/games/{game.id}/winnable").status_code == 200, n
        clock[0] += 2.0
