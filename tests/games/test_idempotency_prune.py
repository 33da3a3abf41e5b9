"""Stored first answers of idempotent requests are pruned once no retry can come any more."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.models import IdempotencyRecord

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_records_older_than_a_day_are_pruned_and_newer_ones_kept(player):
    state = player.post("/api/v1/games", {"rule": "classic"}).json()
    for key in ("old", "new"):
        response = player.post(f"/api/v1/games/{state['id']}/undo", {}, HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == 422
    IdempotencyRecord.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))

    tasks.idempotency_records_prune.delay()

    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
