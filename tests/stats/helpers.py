"""Helpers of the stats tests: won games, deals and results made directly in the database."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.utils import timezone

from games.models import DailyDeal, Game, MoveLog, StatusChoices
from stats.models import DailyResult
from tests import factories


def win(client: Any, game_id: Any) -> dict[str, Any]:
    """Put the game one move from the win (same deal, a fresh log) and play that move through the API."""
    game = Game.objects.get(pk=game_id)
    MoveLog.objects.filter(game=game).delete()
    game.state = factories.one_move_from_winning(game.code).to_state()
    game.moves = 0
    game.save(update_fields=["state", "moves"])
    response = client.post(f"/api/v1/games/{game_id}/moves", {"from": "t1", "to": "f"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "won"
    return response.json()


def deal(day: date, *, number: int = 12345, players: int = 0) -> DailyDeal:
    return DailyDeal.objects.create(date=day, number=number, players=players)


def won_ranked_game(
    *, owner: Any, day: date, time_ms: int, moves: int = 100, score: int = 625, finished_at: datetime | None = None
) -> Game:
    """A stored won ranked attempt of ``day`` (no task is sent: the caller decides what runs)."""
    finished_at = finished_at or timezone.make_aware(datetime.combine(day, datetime.min.time())) + timedelta(hours=1)
    return factories.game(
        owner=owner,
        code="YU1-C-AAAAAAB",
        daily=day,
        ranked=True,
        status=StatusChoices.WON,
        created_at=finished_at - timedelta(milliseconds=time_ms),
        finished_at=finished_at,
        time_ms=time_ms,
        moves=moves,
        score=score,
    )


def result_for(game: Game) -> DailyResult:
    return DailyResult.objects.create(
        day=game.daily,
        user=game.owner,
        game=game,
        time_ms=game.time_ms,
        moves=game.moves,
        score=game.score,
        finished_at=game.finished_at,
    )
