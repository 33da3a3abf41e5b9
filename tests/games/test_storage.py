"""What a move writes stays small (docs/capacity.md): its update of the game's row touches no
index, and the log it leaves goes with its game."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Game, MoveLog
from tests import factories

# What a move or an undo changes in the game's row (games.play.services._game_apply, attempt_pace).
PER_MOVE_FIELDS = {"state", "score", "moves", "version", "pace_window_at"}


def _index_columns(index) -> set[str]:  # type: ignore[no-untyped-def]
    columns = set(index.fields)
    condition = getattr(index, "condition", None)
    if condition is not None:
        columns |= {child[0].split("__")[0] for child in condition.flatten() if isinstance(child, tuple)}
    return {name.lstrip("-") for name in columns}


def test_no_index_or_constraint_of_the_games_table_holds_a_column_every_move_changes():
    indexed = [index for index in Game._meta.indexes] + [
        constraint for constraint in Game._meta.constraints if getattr(constraint, "fields", None)
    ]
    for index in indexed:
        assert not _index_columns(index) & PER_MOVE_FIELDS, index.name


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_move_updates_the_games_row_in_place_without_touching_an_index():
    account = factories.user()
    client = factories.token_client(account)
    game = client.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}, format="json").json()
    state = game
    before = _updates()
    # (a few: the versions one transaction leaves stay on the page until it ends)
    for _ in range(3):
        state = client.post(f"/api/v1/games/{game['id']}/moves", state["legal_moves"][0], format="json").json()
    state = client.post(f"/api/v1/games/{game['id']}/undo", {}, format="json").json()
    assert state["moves"] == 4
    updated, hot = (after - earlier for after, earlier in zip(_updates(), before, strict=True))
    assert updated == 4 and hot == 4


def _updates() -> tuple[int, int]:
    """The games' table's updates so far in this transaction, and how many of them were HOT."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = 'games_game'")
        updated, hot = cursor.fetchone()
    return int(updated), int(hot)


@pytest.mark.django_db
def test_a_deleted_game_takes_its_log_with_it():
    account = factories.user()
    game = factories.played(account, "YU1-C-AAAAAAB", ["t7:TS>t2", "undo", "t7:TS>t2"])
    other = factories.played(account, "YU1-C-AAAAAAB", ["t7:TS>t2"])
    Game.objects.filter(pk=game.pk).delete()
    assert not MoveLog.objects.filter(game_id=game.pk).exists()
    assert MoveLog.objects.filter(game_id=other.pk).count() == 1
    account.delete()
    assert not MoveLog.objects.exists()
