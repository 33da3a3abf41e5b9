"""The daily competition closes with its day (docs/fair-play.md): at 00:00 UTC every unfinished
ranked attempt of that day becomes practice, and a win after the close never counts."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from games.competition.attempt import attempts_close
from games.competition.clock import day_end
from games.models import Game
from games.players import Player
from stats.models import DailyResult
from stats.selectors import player_stats
from tests import factories
from tests.stats.helpers import deal, win_as_a_human, winning_line
from tests.support import assert_error
from yukon_site.celery import app

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

DAY = date(2026, 12, 1)
CLOSE = day_end(DAY)  # 2026-12-02 00:00 UTC
MS = timedelta(milliseconds=1)


@pytest.fixture
def started(player):
    """An account's ranked attempt of DAY, started at 23:59 UTC."""
    deal(DAY, code="YU1-C-AAAAAAB")
    with time_machine.travel(CLOSE - timedelta(minutes=1), tick=False):
        state = player.post("/api/v1/games", {"daily": True}).json()
    assert state["ranked"] is True and state["closes_in_ms"] == 60_000
    return state


def test_the_day_ends_at_midnight_utc():
    assert CLOSE == datetime(2026, 12, 2, tzinfo=UTC)


def test_a_win_one_millisecond_before_the_close_counts(player, account, started, django_capture_on_commit_callbacks):
    with time_machine.travel(CLOSE - MS, tick=False), django_capture_on_commit_callbacks(execute=True):
        won = win_as_a_human(player, started["id"], pace_ms=1000)

    assert won["ranked"] is True and won["closed"] is False and won["review"] == "pending"
    game = Game.objects.get(pk=started["id"])
    assert game.review == "verified" and game.closed_at is None and game.finished_at == CLOSE - MS
    assert DailyResult.objects.get(day=DAY).game_id == game.pk


def test_a_winning_move_one_millisecond_after_the_close_is_practice(
    player, account, started, django_capture_on_commit_callbacks
):
    with time_machine.travel(CLOSE + MS, tick=False), django_capture_on_commit_callbacks(execute=True):
        won = win_as_a_human(player, started["id"], pace_ms=1000)

    assert won["status"] == "won"
    assert won["ranked"] is False and won["closed"] is True and won["review"] is None
    assert won["code"] == "YU1-C-AAAAAAB"  # the day is over: published
    game = Game.objects.get(pk=started["id"])
    assert game.closed_at == CLOSE and game.review == ""
    assert not DailyResult.objects.exists()
    with time_machine.travel(CLOSE + timedelta(minutes=5), tick=False):
        app.tasks["stats.daily_boards_rebuild"].apply(kwargs={"days": [DAY.isoformat()]})
        board = player.get(f"/api/v1/leaderboards/daily/{DAY.isoformat()}").json()
        stats = player_stats(player=Player(user=account))
    assert board["entries"] == [] and board["me"] is None and board["players"] == 1
    assert stats["daily"]["current_streak"] == 0 and stats["daily"]["won"] == 0


def test_at_midnight_the_task_closes_open_attempts_which_play_on_as_practice(player, started):
    finished = factories.game(owner=factories.user(), daily=DAY, ranked=True)
    Game.objects.filter(pk=finished.pk).update(status="won", time_ms=100_000, review="verified", finished_at=CLOSE - MS)
    with time_machine.travel(CLOSE, tick=False):
        app.tasks["games.daily_attempts_close"].apply()
        assert attempts_close() == 0  # idempotent

        state = player.get(f"/api/v1/games/{started['id']}").json()
        daily = player.get("/api/v1/daily")

    assert state["closed"] is True and state["ranked"] is False and state["closes_at"] is None
    assert Game.objects.get(pk=started["id"]).closed_at == CLOSE
    assert Game.objects.get(pk=finished.pk).closed_at is None  # a won attempt is not closed
    assert_error(daily, 503, "daily_not_ready")  # the new day's deal was not prepared in this test
    with time_machine.travel(CLOSE + timedelta(seconds=1), tick=False):
        moved = player.post(f"/api/v1/games/{started['id']}/moves", state["legal_moves"][0])
        hint = player.get(f"/api/v1/games/{started['id']}/hint")
        attempt = player.get(f"/api/v1/daily/{DAY.isoformat()}").json()["attempt"]
    assert moved.status_code == 200 and moved.json()["moves"] == 1 and moved.json()["closed"] is True
    assert hint.status_code == 200  # practice now: help, the code and the par are published
    assert attempt["status"] == "closed" and attempt["game"] == started["id"]


def test_before_the_close_no_help_code_or_par_is_given_for_the_attempt(player, started):
    with time_machine.travel(CLOSE - MS, tick=False):
        state = player.get(f"/api/v1/games/{started['id']}").json()
        hint = player.get(f"/api/v1/games/{started['id']}/hint")
        winnable = player.get(f"/api/v1/games/{started['id']}/winnable")

    assert state["code"] is None and state["solution_length"] is None and state["closes_in_ms"] == 1
    assert_error(hint, 422, "no_help_for_daily")
    assert_error(winnable, 422, "no_help_for_daily")


def test_an_attempt_left_open_past_midnight_shows_closed_before_the_task_runs(player, started):
    with time_machine.travel(CLOSE + MS, tick=False):
        state = player.get(f"/api/v1/games/{started['id']}").json()

    assert state["closed"] is True and state["ranked"] is False
    assert Game.objects.get(pk=started["id"]).closed_at is None  # no write in a read


def test_streaks_count_ranked_daily_wins_only(account, player, django_capture_on_commit_callbacks):
    """Two days won as ranked attempts, one as a guest's game claimed at sign-up (no streak)."""
    first, second, third = DAY - timedelta(days=2), DAY - timedelta(days=1), DAY
    claimed = factories.game(owner=account, daily=first, ranked=False)
    Game.objects.filter(pk=claimed.pk).update(status="won", time_ms=100_000, finished_at=day_end(first) - MS)
    for day in (second, third):
        deal(day, code="YU1-C-AAAAAAB")
        with time_machine.travel(day_end(day) - timedelta(hours=1), tick=False):
            state = player.post("/api/v1/games", {"daily": True}).json()
            with django_capture_on_commit_callbacks(execute=True):
                win_as_a_human(player, state["id"])
    assert len(winning_line("YU1-C-AAAAAAB")) > 52

    with time_machine.travel(day_end(DAY) - timedelta(minutes=30), tick=False):
        daily = player_stats(player=Player(user=account))["daily"]

    assert (daily["current_streak"], daily["longest_streak"], daily["won"]) == (2, 2, 2)


def test_only_the_move_that_closes_an_attempt_writes_its_close(player, started, monkeypatch):
    from games.play import services, store

    written = []
    save = store.game_change_save
    monkeypatch.setattr(services.store, "game_change_save", lambda **kw: written.append(kw["fields"]) or save(**kw))
    first, second = winning_line("YU1-C-AAAAAAB")[:2]
    with time_machine.travel(CLOSE + MS, tick=False):
        assert player.post(f"/api/v1/games/{started['id']}/moves", first.to_json()).json()["closed"] is True
        assert player.post(f"/api/v1/games/{started['id']}/moves", second.to_json()).json()["closed"] is True

    assert ["closed_at" in fields for fields in written] == [True, False]
    assert Game.objects.get(pk=started["id"]).closed_at == CLOSE
