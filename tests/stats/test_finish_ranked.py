"""A finish in the ranked attempt (docs/fair-play.md): it wins the attempt as the moves would, the
review replays every one of its moves, and the pace checks leave them out (one request, not a
player's pace)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.competition.attempt import attempt_review
from games.competition.suspects import suspects_scan
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import DailySuspect, Game
from stats.models import DailyResult
from tests.stats.helpers import play_until_the_finish, winning_line

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _ranked(client: Any) -> str:
    state = client.post("/api/v1/games", {"daily": True}).json()
    assert state["ranked"] is True and state["finish_available"] is False
    return str(state["id"])


def test_a_finish_wins_the_ranked_attempt_and_its_review_verifies_every_move(
    player, todays_deal, django_capture_on_commit_callbacks
):
    game_id = _ranked(player)
    hand = play_until_the_finish(game_id)
    assert player.get(f"/api/v1/games/{game_id}").json()["finish_available"] is True

    with django_capture_on_commit_callbacks(execute=True):
        response = player.post(f"/api/v1/games/{game_id}/finish", {"seq": hand}, format="json")

    assert response.status_code == 200, response.content
    state = response.json()
    assert state["status"] == "won" and state["score"] == 625 and state["moves"] == hand + len(state["finish_moves"])
    assert state["code"] is None  # today's deal stays a secret in the finish's answer too
    game = Game.objects.get(pk=game_id)
    assert game.review == "verified", game.review_reason
    assert f"({len(state['finish_moves'])} of them a finish)" in game.review_reason
    assert DailyResult.objects.filter(game=game, moves=game.moves).exists()


def test_the_pace_check_leaves_the_finish_out(player, todays_deal, django_capture_on_commit_callbacks):
    """A player who began quickly and slowed down: by hand the median gap is 2 s, but with the
    finish's moves (all at one moment) counted in, the median would fall under the limit and the
    win would be held for its pace."""
    game_id = _ranked(player)
    game = Game.objects.get(pk=game_id)
    engine = EngineGame.new(GameCode.parse(game.code))
    count = 0
    for move in winning_line(game.code):
        if engine.can_finish:
            break
        engine.play(move)
        count += 1
    finish_length = len(engine.finish_moves())
    quick = finish_length  # as many quick moves as the finish has
    gaps = [300] * quick + [2000] * (count - quick)
    assert len([g for g in gaps if g == 2000]) > quick  # by hand: the median is 2 s
    assert finish_length + quick > count - quick  # all together: it would be 300 ms or less
    hand = play_until_the_finish(game_id, gaps_ms=gaps)

    with django_capture_on_commit_callbacks(execute=True):
        response = player.post(f"/api/v1/games/{game_id}/finish", {"seq": hand}, format="json")

    assert response.status_code == 200
    game.refresh_from_db()
    assert game.review == "verified", game.review_reason
    assert "median gap 2000 ms" in game.review_reason
    assert attempt_review(game_id=game_id) == "verified"
    # Nor is the account suspect of an inhuman pace, at the review or at the day's close.
    assert not DailySuspect.objects.exists()
    assert suspects_scan(day=game.daily, user_ids=[game.owner_id]) == set()


def test_no_window_of_the_attempts_pace_closes_on_a_finish(player, todays_deal, settings):
    """The finish writes a whole window's worth of moves in one moment: not a machine's pace."""
    game_id = _ranked(player)
    hand = play_until_the_finish(game_id)
    game = Game.objects.get(pk=game_id)
    total = hand + len(EngineGame.from_state(game.state).finish_moves())
    settings.FAIRPLAY_SUSPECT_MIN_MOVES = total  # the finish's last move would close a window
    Game.objects.filter(pk=game_id).update(pace_window_at=timezone.now() - timedelta(seconds=1))

    response = player.post(f"/api/v1/games/{game_id}/finish", {"seq": hand}, format="json")

    assert response.status_code == 200 and response.json()["moves"] == total
    game.refresh_from_db()
    assert game.machine_pace_at is None
