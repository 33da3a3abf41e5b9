"""Helpers of the stats tests: won games, deals and results made directly in the database."""

from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engine import Game as EngineGame
from games.engine import GameCode, Move
from games.models import DailyDeal, Game, MoveLog, StatusChoices
from games.solver import solve
from stats import standing
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


def deal(day: date | None, *, code: str = "YU1-C-AAAAAAI", players: int = 0, solution_length: int = 90) -> DailyDeal:
    """A daily deal of ``day`` (``None``: a spare), as the beat task leaves it."""
    return DailyDeal.objects.create(date=day, code=code, players=players, solution_length=solution_length)


@functools.cache
def winning_line(code: str) -> tuple[Move, ...]:
    """A winning line of the deal ``code`` (the solver's; the test deals are quick to solve)."""
    result = solve(EngineGame.new(GameCode.parse(code)), max_seconds=30, max_nodes=None)
    assert result.moves, f"no winning line found for {code}"
    return tuple(result.moves)


def play_all_but_the_last(game_id: Any, *, pace_ms: int = 1000, idle_ms: int = 0) -> Move:
    """Play a real winning line of the game's deal up to its last move, as a player would have:
    each move in the log ``pace_ms`` after the one before, the first ``idle_ms`` after the start.
    Returns the winning move, left to play."""
    game = Game.objects.get(pk=game_id)
    MoveLog.objects.filter(game=game).delete()
    line = winning_line(game.code)
    engine = EngineGame.new(GameCode.parse(game.code))
    start = timezone.now() - timedelta(milliseconds=pace_ms * len(line))
    entries = []
    for seq, move in enumerate(line[:-1], start=1):
        result = engine.play(move)
        entries.append(
            MoveLog(
                game=game,
                seq=seq,
                move=str(result.move),
                points=result.points,
                flipped=result.flipped or "",
                step=result.step,
                below=result.below,
                created_at=start + timedelta(milliseconds=pace_ms * seq),
            )
        )
    MoveLog.objects.bulk_create(entries)
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_state(),
        moves=engine.moves,
        score=engine.score,
        created_at=start - timedelta(milliseconds=idle_ms),
    )
    return line[-1]


def win_as_a_human(client: Any, game_id: Any, *, pace_ms: int = 1000, idle_ms: int = 0) -> dict[str, Any]:
    """Win the game as a player would (:func:`play_all_but_the_last`), the last move through the API."""
    last = play_all_but_the_last(game_id, pace_ms=pace_ms, idle_ms=idle_ms)
    response = client.post(f"/api/v1/games/{game_id}/moves", last.to_json())
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "won"
    return response.json()


def won_ranked_game(
    *,
    owner: Any,
    day: date,
    time_ms: int,
    moves: int = 100,
    score: int = 625,
    finished_at: datetime | None = None,
    review: str = "verified",
) -> Game:
    """A stored won ranked attempt of ``day``, checked (no task is sent: the caller decides what runs)."""
    finished_at = finished_at or timezone.make_aware(datetime.combine(day, datetime.min.time())) + timedelta(hours=1)
    return factories.game(
        owner=owner,
        code="YU1-C-AAAAAAB",
        daily=day,
        ranked=True,
        review=review,
        status=StatusChoices.WON,
        created_at=finished_at - timedelta(milliseconds=time_ms),
        finished_at=finished_at,
        time_ms=time_ms,
        moves=moves,
        score=score,
    )


def result_for(game: Game, *, verified: bool = True) -> DailyResult:
    """A board result of the counted game, as the board's task writes it (replayed: ``verified``),
    with the day's histograms (:mod:`stats.standing`) that count it."""
    result = DailyResult.objects.create(
        verified=verified,
        day=game.daily,
        user=game.owner,
        game=game,
        time_ms=game.time_ms,
        moves=game.moves,
        score=game.score,
        finished_at=game.finished_at,
    )
    standing.standing_record(game_id=game.pk)
    return result


def play_until_the_finish(game_id: str, *, gaps_ms: list[int] | None = None, pace_ms: int = 1000) -> int:
    """Play the solver's winning line of the game's deal up to the first position that has a finish,
    as a player would have (the log's times ``gaps_ms`` apart, else ``pace_ms``); returns the moves
    played by hand."""
    game = Game.objects.get(pk=game_id)
    engine = EngineGame.new(GameCode.parse(game.code))
    hand = []
    for move in winning_line(game.code):
        if engine.can_finish:
            break
        hand.append(engine.play(move))
    gaps = gaps_ms or [pace_ms] * len(hand)
    assert len(gaps) == len(hand)
    start = timezone.now() - timedelta(milliseconds=sum(gaps) + 1000)
    at = start
    entries = []
    for seq, (result, gap) in enumerate(zip(hand, gaps, strict=True), start=1):
        at += timedelta(milliseconds=gap)
        entries.append(
            MoveLog(
                game=game,
                seq=seq,
                move=str(result.move),
                points=result.points,
                flipped=result.flipped or "",
                step=result.step,
                below=result.below,
                created_at=at,
            )
        )
    MoveLog.objects.bulk_create(entries)
    # The clock as it would be: the attempt began before its first move, the finish comes now.
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_state(), moves=engine.moves, score=engine.score, created_at=start
    )
    return len(hand)
