"""The migration that brings the day's close its second part (suspects, linked_suspect) counts
the days already over as closed: the first close after it does not scan every past day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.competition import clock

BEFORE = [("games", "0007_fairplay_links")]
AFTER = [("games", "0008_daily_suspects_and_close")]


@pytest.mark.django_db(transaction=True)
def test_the_days_over_before_the_migration_count_as_closed_and_today_does_not():
    today = clock.today()
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    DailyDeal = executor.loader.project_state(BEFORE).apps.get_model("games", "DailyDeal")
    for day in (today - timedelta(days=1), today, today + timedelta(days=1)):
        DailyDeal.objects.create(date=day, code="YU1-C-AAAAAAB", rule="classic")
    DailyDeal.objects.create(date=None, code="YU1-C-AAAAAAC", rule="classic")  # a spare

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps

    closed = dict(new.get_model("games", "DailyDeal").objects.values_list("date", "closed_at"))
    assert closed[today - timedelta(days=1)] is not None
    assert closed[today] is closed[today + timedelta(days=1)] is closed[None] is None

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
