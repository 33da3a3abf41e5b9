"""The migration to version-2 daily deals keeps the codes of the deals made before it."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0004_movelog_game_index_dropped")]
AFTER = [("games", "0005_daily_deal_version_2")]


@pytest.mark.django_db(transaction=True)
def test_deals_stored_as_version_1_numbers_keep_their_codes_and_ranked_wins_stay_counted():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    DailyDeal = old.get_model("games", "DailyDeal")
    DailyDeal.objects.create(date=date(2026, 11, 1), number=1, rule="classic", solution_length=97)
    DailyDeal.objects.create(date=date(2026, 11, 2), number=26**7 - 1, rule="classic")
    User = old.get_model("auth", "User")
    owner = User.objects.create(username="veteran")
    Game = old.get_model("games", "Game")
    won = Game.objects.create(
        owner=owner, code="YU1-C-AAAAAAB", rule="classic", daily=date(2026, 11, 1), ranked=True, status="won", state={}
    )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps

    codes = dict(new.get_model("games", "DailyDeal").objects.values_list("date", "code"))
    assert codes == {date(2026, 11, 1): "YU1-C-AAAAAAB", date(2026, 11, 2): "YU1-C-ZZZZZZZ"}
    assert new.get_model("games", "Game").objects.get(pk=won.pk).review == "verified"

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
