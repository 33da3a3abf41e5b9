"""GET daily/archive: the past days, newest first, with their figures and the caller's result."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.competition.clock import day_end
from games.engine import Game as EngineGame
from stats import tasks
from tests import factories
from tests.stats.helpers import deal, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _won(day: Any, seconds: int, owner: Any = None, review: str = "verified") -> Any:
    game = won_ranked_game(owner=owner or factories.user(), day=day, time_ms=seconds * 1000, review=review)
    tasks.game_results_update(str(game.id))
    return game


def test_past_days_newest_first_with_their_figures_and_my_result(today: Any, account: Any, player: Any) -> None:
    deal(today, code="YU1-C-AAAAAAT")  # today's: not in the archive (its code is secret)
    days = [today - timedelta(days=n) for n in (1, 2, 3)]
    for n, day in enumerate(days):
        deal(day, code=f"YU1-C-AAAAAA{'BCD'[n]}", players=5 + n, solution_length=80 + n)
    _won(days[0], 70)
    _won(days[0], 65)
    _won(days[0], 20, review="held")  # not a winner (yet)
    _won(days[0], 90, owner=account)
    factories.game(owner=account, code="YU1-C-AAAAAAC", daily=days[1], ranked=True, closed_at=day_end(days[1]))
    # Its day is over, the beat task has not closed it yet: closed all the same (issue 28 item 4).
    factories.game(owner=account, code="YU1-C-AAAAAAD", daily=days[2], ranked=True, moves=12, review="pending")
    body = player.get("/api/v1/daily/archive").json()
    assert body["count"] == 3
    rows = body["results"]
    assert [row["date"] for row in rows] == [day.isoformat() for day in days]
    assert rows[0].pop("opening") == EngineGame.from_code("YU1-C-AAAAAAB").view()["tableau"]
    assert rows[0] == {
        "date": days[0].isoformat(),
        "code": "YU1-C-AAAAAAB",
        "arrangements": 1,  # a day before arrangements: one deal for everyone
        "players": 5,
        "winners": 3,
        "winning_time_ms": 65_000,
        "par": 80,
        "par_low": 80,
        "par_high": 80,
        "me": {
            "status": "won",
            "review": "verified",
            "attempt": {"state": "verified", "counts": True, "shareable": True},
            "time_ms": 90_000,
            "moves": 100,
            "rank": 3,
        },
    }
    assert rows[1]["me"]["status"] == "closed" and rows[1]["me"]["rank"] is None
    closed = {"state": "closed", "counts": False, "shareable": False}
    assert rows[2]["me"] == {
        "status": "closed",
        "review": None,
        "attempt": closed,
        "time_ms": None,
        "moves": 12,
        "rank": None,
    }
    assert rows[2]["winners"] == 0 and rows[2]["winning_time_ms"] is None
    assert "YU1-C-AAAAAAT" not in str(body)


def test_it_is_paginated_and_open_to_guests(today: Any) -> None:
    for n in range(1, 26):
        deal(today - timedelta(days=n), code="YU1-C-AAAAAAB")
    first = APIClient().get("/api/v1/daily/archive").json()
    assert len(first["results"]) == 20 and first["next"] is not None
    assert all(row["me"] is None for row in first["results"])
    second = APIClient().get("/api/v1/daily/archive", {"page": 2}).json()
    assert len(second["results"]) == 5 and second["results"][-1]["date"] == (today - timedelta(days=25)).isoformat()


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_histograms_of_the_days_already_played() -> None:
    from datetime import UTC, date, datetime

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("stats", "0002_personalbest_clean_wins")], [("stats", "0003_daily_standing")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    owner = old.get_model("auth", "User").objects.create(username="veteran")
    day = date(2026, 11, 1)
    at = datetime(2026, 11, 1, 12, tzinfo=UTC)
    for n, (time_ms, moves) in enumerate(((61_000, 95), (62_000, 99), (200_000, 130))):
        user = owner if n == 0 else old.get_model("auth", "User").objects.create(username=f"v{n}")
        game = old.get_model("games", "Game").objects.create(
            owner=user, code="YU1-C-AAAAAAB", rule="classic", daily=day, ranked=True, status="won", state={}
        )
        old.get_model("stats", "DailyResult").objects.create(
            day=day, user=user, game=game, time_ms=time_ms, moves=moves, score=625, finished_at=at
        )
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    bars = set(new.get_model("stats", "DailyBucket").objects.values_list("kind", "bucket", "count"))
    assert bars == {("time", 12, 2), ("time", 40, 1), ("moves", 9, 2), ("moves", 13, 1)}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
