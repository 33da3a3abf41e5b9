"""The solver's post-mortem: the first move after which a game could no longer be won, a rescue
by undo, or winnable throughout; stored by an idempotent task, never in a request."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest
import time_machine
from django.utils import timezone

from games import tasks
from games.competition import clock
from games.engine import Game as EngineGame
from games.help import postmortem
from games.models import Game, GamePostMortem, MoveLog
from tests import factories
from tests.stats.helpers import deal, win_as_a_human, winning_line

# A random practice deal and a random player's first 17 moves: winnable after each of the first
# 16 (the solver finds a win from each), lost after the 17th (the solver proves it: the 8H went
# onto the 9S in column 1 and buries what the deal needs).
LOST_CODE = "YU1-C-VKDRBYW"
LOST_LOG = [
    "t4>f", "t6:9S>t3", "t2:3S>t3", "t7:AH>t2", "t7:6S>t4", "t1>f", "t3:7C>t7", "t2:KC>t1", "t7:8H>t1",
    "t2:2C>t5", "t1:JD>t5", "t5:QC>t6", "t1:8H>t3", "t7>f", "t3:7D>t2", "t2:8H>t1", "t7:5H>t4",
]  # fmt: skip
WON_CODE = "YU1-C-AAAAAAB"


def test_a_game_lost_at_a_known_move() -> None:
    found = postmortem.analyse(LOST_CODE, LOST_LOG)
    assert (found.verdict, found.lost_at, found.winnable_until) == ("lost", 17, 16)
    assert found.rescued_at is None and found.final == "lost"
    assert found.par is not None and found.par > 52
    assert found.solved <= 8  # a bisection, not a search of all 18 positions
    assert all(found.answers[i] == "yes" for i in (0, 16)) and found.answers[17] == "no"


def test_an_undo_that_rescues_the_game() -> None:
    found = postmortem.analyse(LOST_CODE, [*LOST_LOG, "undo"])
    assert (found.verdict, found.lost_at, found.rescued_at) == ("lost", 17, 18)
    assert found.final == "winnable"


def test_an_undo_that_does_not_rescue() -> None:
    # Lost at 17; the 18th move and its undo only come back to the lost position 17.
    engine = EngineGame.replay(LOST_CODE, LOST_LOG)
    extra = str(next(m for m in engine.legal_moves() if m.src < 7))
    found = postmortem.analyse(LOST_CODE, [*LOST_LOG, extra, "undo"])
    assert (found.verdict, found.lost_at, found.rescued_at, found.final) == ("lost", 17, None, "lost")


def test_a_won_game_stayed_winnable_throughout_without_searching_its_positions() -> None:
    line = [str(move) for move in winning_line(WON_CODE)]
    log = [line[0], "undo", *line]  # a move taken back, then the win
    assert EngineGame.replay(WON_CODE, log).is_won
    found = postmortem.analyse(WON_CODE, log)
    assert (found.verdict, found.lost_at, found.rescued_at, found.final) == ("winnable", None, None, "won")
    assert found.winnable_until == len(log)
    assert found.solved == 1  # the deal, for the par; every other position is known from the win
    assert postmortem.analyse(WON_CODE, log, par=90).par == 90  # a daily deal's certified length


def test_the_budget_running_out_is_unknown_not_a_guess() -> None:
    found = postmortem.analyse(LOST_CODE, LOST_LOG, max_nodes=50)
    assert found.verdict == "unknown" and found.lost_at is None
    assert found.unknown > 0


def _stored(owner: Any, code: str, log: list[str], *, minutes_ago: int = 60, **fields: Any) -> Any:
    engine = EngineGame.replay(code, log)
    game = factories.game(owner=owner, code=code, engine=engine, **fields)
    at = timezone.now() - timedelta(minutes=minutes_ago)
    MoveLog.objects.bulk_create(
        [MoveLog(game=game, seq=i, move=m, points=0, created_at=at) for i, m in enumerate(log, start=1)]
    )
    return game


@pytest.mark.django_db
def test_the_task_stores_it_once_and_a_second_run_changes_nothing(account: Any) -> None:
    game = _stored(account, LOST_CODE, LOST_LOG)
    tasks.game_postmortem(str(game.id))
    row = GamePostMortem.objects.get(game=game)
    assert (row.verdict, row.lost_at, row.winnable_until, row.final, row.moves) == ("lost", 17, 16, "lost", 17)
    first = (row.created_at, row.solved, row.seconds)
    tasks.game_postmortem(str(game.id))  # delivered twice
    assert GamePostMortem.objects.count() == 1
    row.refresh_from_db()
    assert (row.created_at, row.solved, row.seconds) == first


@pytest.mark.django_db
def test_a_game_that_moved_on_is_analysed_again(account: Any) -> None:
    game = _stored(account, LOST_CODE, LOST_LOG)
    postmortem.postmortem_record(game_id=game.id)
    MoveLog.objects.create(game=game, seq=18, move="undo", points=0, created_at=timezone.now() - timedelta(hours=1))
    type(game).objects.filter(pk=game.pk).update(moves=18)
    row = postmortem.postmortem_record(game_id=game.id)
    assert row is not None and (row.moves, row.rescued_at, row.final) == (18, 18, "winnable")


@pytest.mark.django_db
def test_which_games_are_due(account: Any) -> None:
    today = clock.today()
    fresh = _stored(account, LOST_CODE, LOST_LOG, minutes_ago=1)  # still being played
    assert postmortem.postmortem_record(game_id=fresh.id) is None
    todays = _stored(factories.user(), LOST_CODE, LOST_LOG, daily=today, ranked=True)
    assert postmortem.postmortem_record(game_id=todays.id) is None  # never while its day is open
    deal(today - timedelta(days=1), code=WON_CODE, solution_length=77)
    line = [str(m) for m in winning_line(WON_CODE)]
    yesterdays = _stored(factories.user(), WON_CODE, line, daily=today - timedelta(days=1), ranked=True)
    row = postmortem.postmortem_record(game_id=yesterdays.id)
    assert row is not None and row.par == 77 and row.verdict == "winnable" and row.solved == 0
    untouched = factories.game(owner=account, code=WON_CODE)
    assert postmortem.postmortem_record(game_id=untouched.id) is None


@pytest.mark.django_db
def test_the_beat_picks_yesterdays_top_results_and_nothing_else(account: Any, eager_tasks: None, settings: Any) -> None:
    settings.POSTMORTEM_DAILY_TOP = 2
    yesterday = clock.today() - timedelta(days=1)
    deal(yesterday, code=WON_CODE, solution_length=77)
    line = [str(m) for m in winning_line(WON_CODE)]
    results = {
        name: _stored(factories.user(), WON_CODE, line, daily=yesterday, ranked=True, review=review, time_ms=time_ms)
        for name, review, time_ms in (
            ("first", "verified", 70_000),
            ("held", "held", 60_000),  # faster, but it does not count
            ("second", "approved", 80_000),
            ("third", "verified", 90_000),
        )
    }
    practice_win = _stored(account, WON_CODE, line, minutes_ago=5)
    left = _stored(account, LOST_CODE, LOST_LOG, minutes_ago=120)

    assert set(postmortem.postmortems_due()) == {str(results["first"].id), str(results["second"].id)}
    tasks.postmortems_pending()
    analysed = set(GamePostMortem.objects.values_list("game_id", flat=True))
    assert analysed == {results["first"].id, results["second"].id}
    assert postmortem.postmortems_due() == []
    # A practice game, won or left, and a result further down: when a player opens its replay.
    assert not GamePostMortem.objects.filter(game__in=[practice_win, left, results["third"]]).exists()


@pytest.mark.django_db
def test_a_won_practice_game_gets_no_postmortem_until_its_replay_is_opened(
    player: Any, eager_tasks: None, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr("games.jobs.game_postmortem", asked.append)
    state = player.post("/api/v1/games", {"code": WON_CODE}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        win_as_a_human(player, state["id"])
    tasks.postmortems_pending()
    assert not GamePostMortem.objects.exists() and asked == []

    first = player.get(f"/api/v1/games/{state['id']}/replay").json()
    assert first["postmortem"] is None and first["postmortem_pending"] is True
    assert asked == [state["id"]]
    tasks.game_postmortem(asked[0])  # what the worker does with it
    row = GamePostMortem.objects.get(game_id=state["id"])
    assert (row.verdict, row.final, row.moves) == ("winnable", "won", len(winning_line(WON_CODE)))
    assert player.get(f"/api/v1/games/{state['id']}/replay").json()["postmortem"]["final"] == "won"


@pytest.mark.django_db
def test_a_won_daily_game_gets_its_postmortem_only_once_its_day_is_over(
    player: Any, eager_tasks: None, django_capture_on_commit_callbacks: Any
) -> None:
    today = clock.today()
    deal(today, code=WON_CODE)
    ranked = player.post("/api/v1/games", {"daily": True}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        win_as_a_human(player, ranked["id"])
    practice = player.post("/api/v1/games", {"daily": True}, format="json").json()  # once the attempt is won
    assert ranked["ranked"] and not practice["ranked"]
    with django_capture_on_commit_callbacks(execute=True):
        win_as_a_human(player, practice["id"])
    assert not GamePostMortem.objects.exists()  # today's deal: nothing about it while the day is open
    tasks.postmortems_pending()  # nor from the beat
    assert not GamePostMortem.objects.exists()
    Game.objects.filter(pk=ranked["id"]).update(review="verified")  # (its review task did not run here)
    with time_machine.travel(timezone.now() + timedelta(days=1)):
        tasks.postmortems_pending()  # the day is over: its top results (the practice game: when opened)
    assert set(GamePostMortem.objects.values_list("game_id", flat=True)) == {UUID(ranked["id"])}
