"""POST games/{id}/finish (docs/api.md, docs/rules.md): once every card is face up, one request
puts every card left onto its foundation, each an ordinary move, in one write; refused with a
reason otherwise, and idempotent like a move."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import Game, MoveLog
from stats import tasks as stats_tasks
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

CODE = GameCode.parse("YU1-C-AAAAAAB")
REST_UP = {"D": "KD", "C": "KC"}
SPADES_DOWN = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"]
HEARTS_DOWN = ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"]


def position(*columns: list[str], foundations: dict[str, str] | None = None) -> EngineGame:
    cols = list(columns) + [[]] * (7 - len(columns))
    return EngineGame.from_layout(cols, {**REST_UP, **(foundations or {})}, code=CODE)


def stored(account: Any, engine: EngineGame, **fields: Any) -> Game:
    return factories.game(owner=account, engine=engine, **fields)


def finish(client: Any, game: Game, body: dict[str, Any] | None = None, **headers: str) -> Any:
    return client.post(f"/api/v1/games/{game.pk}/finish", body if body is not None else {}, format="json", **headers)


def test_a_finish_plays_every_card_left_as_ordinary_moves_and_wins(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))
    state = player.get(f"/api/v1/games/{game.pk}").json()
    assert state["finish_available"] is True

    response = finish(player, game, {"seq": 0})

    assert response.status_code == 200, response.content
    state = response.json()
    assert state["status"] == "won" and state["moves"] == 26 and state["score"] == 260
    assert state["finish_available"] is False and state["legal_moves"] == []
    assert [move["card"] for move in state["finish_moves"][:4]] == ["AS", "AH", "2S", "2H"]
    assert all(move["to"] == "f" for move in state["finish_moves"])
    game.refresh_from_db()
    assert (game.status, game.moves, game.score, game.finish_from) == ("won", 26, 260, 0)
    assert game.time_ms is not None and game.finished_at is not None
    # Each move in the log, counted and scored as if played one by one.
    log = list(MoveLog.objects.filter(game=game).order_by("seq").values_list("seq", "move", "points"))
    assert [seq for seq, _, _ in log] == list(range(1, 27))
    assert log[0] == (1, "t1:AS>f", 10) and all(points == 10 for _, _, points in log)
    entries = player.get(f"/api/v1/games/{game.pk}/moves?page_size=100").json()["results"]
    assert len(entries) == 26 and entries[-1]["card"] == "KH"


def test_the_finish_is_counted_after_the_moves_played_by_hand(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN[:-1], ["AH"]))
    player.post(f"/api/v1/games/{game.pk}/moves", {"from": "t3", "to": "f"})

    state = finish(player, game, {"seq": 1}).json()

    assert state["moves"] == 26 and state["score"] == 260
    game.refresh_from_db()
    assert game.finish_from == 1


def test_no_finish_while_cards_lie_face_down(player):
    game = player.post("/api/v1/games", {"code": str(CODE)}).json()
    assert game["finish_available"] is False

    response = player.post(f"/api/v1/games/{game['id']}/finish", {}, format="json")

    assert_error(response, 422, "cards_face_down")
    stored_game = Game.objects.get(pk=game["id"])
    assert stored_game.moves == 0 and not MoveLog.objects.filter(game=stored_game).exists()


def test_no_finish_when_a_card_lies_on_a_lower_one_of_its_suit_and_the_page_hears_why(player, account):
    game = stored(account, position(SPADES_DOWN, [*HEARTS_DOWN[:-2], "AH", "2H"]))

    body = assert_error(finish(player, game, HTTP_ACCEPT_LANGUAGE="de"), 422, "finish_blocked")

    assert "niedrigeren Karte" in body["detail"]
    game.refresh_from_db()
    assert game.moves == 0 and game.status == "playing" and game.finish_from is None


def test_a_won_game_has_no_finish(player, account):
    game = stored(account, factories.one_move_from_winning(str(CODE)))
    player.post(f"/api/v1/games/{game.pk}/moves", {"from": "t1", "to": "f"})

    assert_error(finish(player, game), 422, "game_over")


def test_a_finish_after_the_game_moved_on_elsewhere_is_stale(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))

    assert_error(finish(player, game, {"seq": 3}), 409, "stale")
    game.refresh_from_db()
    assert game.moves == 0


def test_a_retried_finish_gets_the_first_answer_and_finishes_once(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))

    first = finish(player, game, {"seq": 0}, HTTP_IDEMPOTENCY_KEY="finish-1")
    retry = finish(player, game, {"seq": 0}, HTTP_IDEMPOTENCY_KEY="finish-1")

    assert first.status_code == retry.status_code == 200
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert MoveLog.objects.filter(game=game).count() == 26
    # The same key for another request is refused; without a key the game is over.
    assert_error(finish(player, game, {"seq": 26}, HTTP_IDEMPOTENCY_KEY="finish-1"), 422, "idempotency_conflict")
    assert_error(finish(player, game), 422, "game_over")


def test_a_malformed_finish_is_refused_and_changes_nothing(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))

    assert_error(finish(player, game, {"seq": "zwei"}), 400, "bad_request")
    assert_error(finish(player, game, ["seq"]), 400, "bad_request")
    assert player.get(f"/api/v1/games/{game.pk}/finish").status_code == 405
    game.refresh_from_db()
    assert game.moves == 0


def test_another_players_game_cannot_be_finished(account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))
    other = factories.token_client(factories.user())

    assert_error(finish(other, game), 404, "not_found")
    game.refresh_from_db()
    assert game.moves == 0


def test_a_guest_finishes_a_game_of_its_session(guest):
    state = guest.post("/api/v1/games", {"code": str(CODE)}).json()
    game = Game.objects.get(pk=state["id"])
    game.state = position(SPADES_DOWN, HEARTS_DOWN).to_state()
    game.save(update_fields=["state"])

    response = guest.post(f"/api/v1/games/{game.pk}/finish", {}, format="json")

    assert response.status_code == 200 and response.json()["status"] == "won"
    assert response.json()["win"]["first_of_rule"] is True


# -- the win's records (the win dialog) -----------------------------------------------------------


def won_earlier(account: Any, *, time_ms: int, moves: int, rule: str = "classic", ago: int = 60) -> Game:
    finished = timezone.now() - timedelta(minutes=ago)
    code = factories.fresh_code("C" if rule == "classic" else "R")
    return factories.game(
        owner=account,
        engine=factories.one_move_from_winning(code),
        status="won",
        created_at=finished - timedelta(milliseconds=time_ms),
        finished_at=finished,
        time_ms=time_ms,
        moves=moves,
        score=625,
    )


def win_now(client: Any, account: Any, *, age_ms: int, code: str | None = None) -> dict[str, Any]:
    game = stored(
        account, factories.one_move_from_winning(code), created_at=timezone.now() - timedelta(milliseconds=age_ms)
    )
    response = client.post(f"/api/v1/games/{game.pk}/moves", {"from": "t1", "to": "f"})
    assert response.status_code == 200
    return response.json()


def test_the_first_win_of_a_rule_says_so(player, account):
    won_earlier(account, time_ms=1000, moves=1, rule="relaxed")

    win = win_now(player, account, age_ms=90_000)["win"]

    assert win["first_of_rule"] is True and win["best_time"] is False and win["fewest_moves"] is False
    assert win["before"] == {"wins": 0, "best_time_ms": None, "fewest_moves": None}


def test_a_faster_win_is_a_new_best_time_and_says_the_best_before(player, account):
    won_earlier(account, time_ms=200_000, moves=0)  # (fewer moves than any win now)
    won_earlier(account, time_ms=300_000, moves=120, ago=30)

    win = win_now(player, account, age_ms=150_000)["win"]

    assert win["first_of_rule"] is False and win["best_time"] is True and win["fewest_moves"] is False
    assert win["before"] == {"wins": 2, "best_time_ms": 200_000, "fewest_moves": 0}


def test_a_slower_win_with_fewer_moves_is_a_best_of_moves_only(player, account):
    won_earlier(account, time_ms=10_000, moves=90)

    win = win_now(player, account, age_ms=150_000)["win"]

    assert win["best_time"] is False and win["fewest_moves"] is True


def test_another_accounts_wins_are_no_measure_of_ones_own(player, account):
    rival = factories.user()
    won_earlier(rival, time_ms=1_000, moves=1)

    win = win_now(player, account, age_ms=150_000)["win"]

    assert win["first_of_rule"] is True and win["before"]["best_time_ms"] is None


def test_a_win_opened_again_later_still_says_what_it_was_then(player, account):
    state = win_now(player, account, age_ms=150_000)
    win_now(player, account, age_ms=100_000)  # a better one afterwards

    again = player.get(f"/api/v1/games/{state['id']}").json()

    assert again["win"] == state["win"] and again["win"]["first_of_rule"] is True


def test_the_score_is_taken_apart_a_clean_win_and_one_with_a_take_back(player, account):
    clean = factories.one_move_from_winning("YU1-C-AAAAAAB")
    clean.score = 615  # every card up once, every face-down card flipped once
    state = player.post(f"/api/v1/games/{stored(account, clean).pk}/moves", {"from": "t1", "to": "f"}).json()
    assert state["score"] == 625
    assert state["win"]["clean"] is True and state["win"]["put_up_again"] == 0 and state["win"]["clean_score"] == 625

    again = factories.one_move_from_winning("YU1-C-AAAAAAB")
    again.score = 625  # a card was taken back and put up again: 10 more
    state = player.post(f"/api/v1/games/{stored(account, again).pk}/moves", {"from": "t1", "to": "f"}).json()
    assert state["score"] == 635
    assert state["win"]["clean"] is False and state["win"]["put_up_again"] == 1


def test_a_game_in_play_has_no_win_block(player):
    state = player.post("/api/v1/games", {"code": str(CODE)}).json()

    assert state["win"] is None


def test_a_paused_game_is_not_finished_until_it_resumes(player, account):
    game = stored(account, position(SPADES_DOWN, HEARTS_DOWN))
    assert player.post(f"/api/v1/games/{game.pk}/pause").json()["paused"] is True

    refused = finish(player, game)

    assert refused.status_code == 409 and refused.json()["error"] == "game_paused"
    game.refresh_from_db()
    assert (game.status, game.moves) == ("playing", 0)
    player.post(f"/api/v1/games/{game.pk}/resume")
    assert finish(player, game).json()["status"] == "won"


def test_a_win_of_a_deal_played_before_counts_for_no_best(player, account):
    """Replaying a deal whose cards one has seen (issue 49: "New best time 0:48" from a practice
    game of the daily deal after the attempt) is a win, not a best."""
    code = factories.fresh_code()
    won_earlier(account, time_ms=300_000, moves=150)
    first = win_now(player, account, age_ms=200_000, code=code)["win"]
    again = win_now(player, account, age_ms=40_000, code=code)["win"]  # the same deal, much faster

    assert first["counts_for_bests"] is True and first["best_time"] is True
    assert again["counts_for_bests"] is False and again["best_time"] is False and again["fewest_moves"] is False
    assert 200_000 <= again["before"]["best_time_ms"] < 210_000  # the first game of the deal is still the best


@pytest.mark.usefixtures("eager_tasks")
def test_the_personal_best_and_a_guests_figures_leave_out_deals_played_before(player, account, guest):
    code = factories.fresh_code()
    win_now(player, account, age_ms=200_000, code=code)
    win_now(player, account, age_ms=40_000, code=code)
    for game in Game.objects.filter(owner=account):
        stats_tasks.game_results_update.delay(str(game.pk))

    mine = player.get("/api/v1/me/stats").json()["rules"]["classic"]
    assert mine["won"] == 2 and 200_000 <= mine["best_time_ms"] < 210_000
    guest.post("/api/v1/games", {"rule": "classic"})  # the guest's session
    key = guest.session.session_key
    for age in (200, 40):  # the same deal twice: the second one is no best
        factories.game(
            session_key=key,
            engine=factories.one_move_from_winning(code),
            status="won",
            created_at=timezone.now() - timedelta(seconds=age + 1000),
            finished_at=timezone.now() - timedelta(seconds=1000),
            moves=100,
            score=625,
        )
    figures = guest.get("/api/v1/me/stats").json()["rules"]["classic"]
    assert (figures["won"], figures["best_time_ms"]) == (2, 200_000)
