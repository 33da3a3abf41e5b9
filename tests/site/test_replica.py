"""Read-only public answers may read from a streaming replica (issue 34, point 6): the boards, the
archive and the players' profiles run their handlers inside common.db.replica_reads, and the
router sends those reads, and only those, to the ``replica`` database when one is configured.
(End to end, against a real second connection: tests/faults/test_scale_out.py.)"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings

from common import db
from games.competition import clock
from games.models import Game
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_replica(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(settings.DATABASES, db.REPLICA, {**settings.DATABASES["default"]})


def test_without_a_replica_every_read_goes_to_the_primary() -> None:
    with db.replica_reads():
        assert Game.objects.all().db == "default"


@pytest.mark.usefixtures("with_replica")
def test_with_a_replica_only_reads_inside_replica_reads_go_there() -> None:
    assert Game.objects.all().db == "default"
    with db.replica_reads():
        assert Game.objects.all().db == db.REPLICA
        assert DailyResult.objects.filter(day=None).db == db.REPLICA
        assert Game.objects.select_for_update().db == "default"  # a write's read
        assert db.ReplicaRouter().db_for_write(Game) is None  # writes: the primary
    assert Game.objects.all().db == "default"
    assert not db.ReplicaRouter().allow_migrate(db.REPLICA, "games")  # its schema comes by streaming


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each model the ORM read through the router, and whether the replica was asked for then."""
    seen: list[tuple[str, bool]] = []
    route = db.ReplicaRouter.db_for_read

    def spy(self: Any, model: Any, **hints: Any) -> str | None:
        seen.append((model._meta.label, db._reading_from_replica.get()))
        return route(self, model, **hints)

    monkeypatch.setattr(db.ReplicaRouter, "db_for_read", spy)
    return seen


@pytest.mark.parametrize(
    "path",
    ["/api/v1/leaderboards/daily/{yesterday}", "/api/v1/daily/archive", "/api/v1/players/{name}/stats"],
)
def test_the_public_read_only_answers_read_their_data_from_the_replica(
    path: str, reads: list[tuple[str, bool]]
) -> None:
    yesterday = clock.today() - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB")
    account = factories.user(username="Ada")
    client = factories.token_client(account)

    assert client.get(path.format(yesterday=yesterday.isoformat(), name="Ada")).status_code == 200

    replica = {label for label, asked in reads if asked}
    primary = {label for label, asked in reads if not asked}
    assert replica & {"stats.DailyResult", "games.DailyDeal", "games.Game"}, reads
    assert "accounts.ApiToken" in primary and "accounts.ApiToken" not in replica, reads  # who asks: the primary


def test_a_page_that_is_not_public_reads_the_primary(reads: list[tuple[str, bool]]) -> None:
    client = factories.token_client(factories.user())
    assert client.get("/api/v1/me/stats").status_code == 200
    assert reads and not any(asked for _, asked in reads)
