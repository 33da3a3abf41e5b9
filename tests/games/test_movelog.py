"""A won game's move log is packed (issue 34, point 2): one row of a few bytes a move instead of a
row a move, and everything that reads a log reads both forms alike (games.movelog)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games import movelog
from games.competition import clock
from games.engine import Game as EngineGame
from games.help.replay import replay_body
from games.models import Game, MoveLog, PackedLog, StatusChoices
from games.tasks import logs_pack_pending
from tests import factories
from tests.stats.helpers import deal, win_as_a_human, winning_line

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAB"


def won_with_rows(owner: Any, *, undo_at: int = 5) -> Game:
    """A game won by the solver's line with a take-back and its replay on the way, its log still
    in rows, each move a few seconds after the one before (to the millisecond, as packed)."""
    line = [str(move) for move in winning_line(CODE)]
    replayed = line[undo_at - 1]
    log = [*line[:undo_at], "undo", replayed, *line[undo_at:]]
    game = factories.played(owner, CODE, log, created_at=datetime(2026, 12, 1, 9, tzinfo=UTC))
    start = game.created_at
    for seq in range(1, len(log) + 1):
        at = start + timedelta(milliseconds=2_345 * seq + (seq % 3))
        MoveLog.objects.filter(game=game, seq=seq).update(created_at=at)
    finished = start + timedelta(milliseconds=2_345 * len(log) + 1)
    Game.objects.filter(pk=game.pk).update(finished_at=finished, time_ms=2_345 * len(log))
    game.refresh_from_db()
    assert game.status == StatusChoices.WON
    return game


def exported(client: Any) -> list[dict[str, Any]]:
    response = client.get("/api/v1/games/export")
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


def every_reading(game: Game, client: Any) -> dict[str, Any]:
    """The game's log as each reader gives it: the one door, the move log's API, the replay, the export."""
    return {
        "entries": movelog.log_read(game),
        "moves": movelog.moves_read([game.pk])[game.pk],
        "api": client.get(f"/api/v1/games/{game.pk}/moves", {"page_size": 500}).json(),
        "replay": replay_body(game=game, own=True, now=timezone.now()),
        "export": exported(client),
    }


def test_a_packed_log_reads_as_its_rows_did_everywhere(account: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("games.jobs.game_postmortem", lambda game_id: None)  # the solver: not here
    game = won_with_rows(account)
    client = factories.token_client(account)
    before = every_reading(game, client)

    assert movelog.log_pack(game_id=game.pk)

    assert not MoveLog.objects.filter(game=game).exists()
    data = bytes(PackedLog.objects.get(game=game).data)
    assert len(data) <= 8 * game.moves  # a few bytes a move (docs/capacity.md: the table's bytes)
    after = every_reading(game, client)
    assert after["entries"] == before["entries"]
    assert [entry.flipped for entry in after["entries"]].count("") < len(after["entries"])  # cards were turned up
    assert any(entry.move == "undo" and entry.points < 0 for entry in after["entries"])
    assert after == before


@pytest.mark.usefixtures("eager_tasks")
def test_winning_through_the_api_packs_the_log_and_the_review_reads_it(
    account: Any, django_capture_on_commit_callbacks: Any
) -> None:
    deal(clock.today(), code=CODE)
    client = factories.token_client(account)
    state = client.post("/api/v1/games", {"daily": True}).json()
    with django_capture_on_commit_callbacks(execute=True):
        won = win_as_a_human(client, state["id"])

    game = Game.objects.get(pk=state["id"])
    assert won["status"] == "won" and not MoveLog.objects.filter(game=game).exists()
    assert PackedLog.objects.filter(game=game).exists()
    assert game.review == "verified"  # the review replayed and timed the packed log
    log = client.get(f"/api/v1/games/{game.pk}/moves", {"page_size": 500}).json()["results"]
    assert [entry["seq"] for entry in log] == list(range(1, game.moves + 1))


def test_packing_is_idempotent_and_leaves_what_it_cannot_pack(account: Any) -> None:
    game = won_with_rows(account)
    assert movelog.log_pack(game_id=game.pk)
    packed = bytes(PackedLog.objects.get(game=game).data)
    assert not movelog.log_pack(game_id=game.pk)  # a second time: nothing to do
    assert bytes(PackedLog.objects.get(game=game).data) == packed

    playing = factories.played(account, CODE, ["t7:TS>t2"])
    assert not movelog.log_pack(game_id=playing.pk)  # not won: it goes on being played
    assert MoveLog.objects.filter(game=playing).count() == 1

    broken = won_with_rows(account)
    MoveLog.objects.filter(game=broken, seq=3).update(move="t1>f")  # a log that does not replay
    assert not movelog.log_pack(game_id=broken.pk)
    assert MoveLog.objects.filter(game=broken).count() == broken.moves


@pytest.mark.usefixtures("eager_tasks")
def test_the_hourly_task_packs_the_recent_wins_whose_task_was_lost(account: Any, settings: Any) -> None:
    settings.LOG_PACK_SWEEP_HOURS = 26
    now = timezone.now()
    lost = won_with_rows(account)
    just_won = won_with_rows(account)
    long_ago = won_with_rows(account)
    Game.objects.filter(pk=lost.pk).update(finished_at=now - timedelta(hours=3))
    Game.objects.filter(pk=just_won.pk).update(finished_at=now)  # its own task is on its way
    Game.objects.filter(pk=long_ago.pk).update(finished_at=now - timedelta(days=3))  # the migration's

    logs_pack_pending.delay()

    assert set(PackedLog.objects.values_list("game_id", flat=True)) == {lost.pk}
    assert MoveLog.objects.filter(game=just_won).exists() and MoveLog.objects.filter(game=long_ago).exists()


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["t3:7H>t5", "undo", "t1>f", "fS>t2", "t7:TS>t2"]),
            st.integers(min_value=-120_000, max_value=10**9),
        ),
        max_size=60,
    )
)
def test_pack_and_unpack_give_back_the_moves_and_their_times_to_the_millisecond(steps: list[tuple[str, int]]) -> None:
    at = datetime(2026, 12, 4, 12, 0, 0, 123_456, tzinfo=UTC)
    entries = []
    for move, gap_ms in steps:  # a gap may be negative: a clock that stepped back still packs
        at += timedelta(milliseconds=gap_ms, microseconds=789)
        entries.append((move, at))
    unpacked = movelog.unpack(movelog.pack(entries))
    assert [move for move, _ in unpacked] == [move for move, _ in entries]
    assert [when for _, when in unpacked] == [
        when.replace(microsecond=when.microsecond // 1000 * 1000) for _, when in entries
    ]


def test_an_unknown_packed_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown packed log format"):
        movelog.unpack(b"\x09garbage")


@pytest.mark.django_db(transaction=True)
def test_the_migration_packs_the_logs_of_games_won_before_and_back() -> None:
    before, after = [("games", "0019_packed_log")], [("games", "0020_pack_won_logs")]
    owner = factories.user()
    game = won_with_rows(owner)  # written with the current models, then taken back to 0019
    playing = factories.played(owner, CODE, ["t7:TS>t2"])
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    rows = list(old.get_model("games", "MoveLog").objects.filter(game_id=game.pk).order_by("seq").values())

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    assert new.get_model("games", "PackedLog").objects.filter(game_id=game.pk).exists()
    assert not new.get_model("games", "MoveLog").objects.filter(game_id=game.pk).exists()
    assert new.get_model("games", "MoveLog").objects.filter(game_id=playing.pk).count() == 1
    assert [entry.seq for entry in movelog.log_read(game)] == [row["seq"] for row in rows]

    executor = MigrationExecutor(connection)
    executor.migrate(before)  # back: the rows again, as they were
    back = list(old.get_model("games", "MoveLog").objects.filter(game_id=game.pk).order_by("seq").values())
    assert back == rows

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert EngineGame.replay(game.code, [row["move"] for row in rows]).is_won
