"""A task for one of the account's games runs while the account is deleted (real threads,
PostgreSQL row locks): the task never fails and nothing of the account comes back."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from accounts.actions.deletion import account_delete
from games.models import Game, StatusChoices
from stats import services as stats_services
from stats.models import PersonalBest
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _won_game(owner: Any) -> Game:
    game = factories.game(owner=owner, code="YU1-C-AAAAAAB")
    Game.objects.filter(pk=game.pk).update(status=StatusChoices.WON, finished_at=game.created_at, time_ms=90_000)
    return game


def _run(target: Any, errors: list[BaseException]) -> threading.Thread:
    def body() -> None:
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=body)
    thread.start()
    return thread


def test_a_task_that_read_the_game_before_the_deletion_writes_nothing_after_it(monkeypatch):
    user = factories.user(username="Racer")
    game = _won_game(user)
    reached, go = threading.Event(), threading.Event()
    still_there = stats_services._game_still_there

    def late(game_id: Any) -> bool:  # the task has read the game; the deletion commits now
        reached.set()
        assert go.wait(timeout=30)
        return still_there(game_id)

    monkeypatch.setattr(stats_services, "_game_still_there", late)
    errors: list[BaseException] = []
    task = _run(lambda: stats_services.personal_best_record(game_id=game.pk), errors)
    assert reached.wait(timeout=30)

    account_delete(user=user, password=factories.PASSWORD)
    go.set()
    task.join(timeout=30)

    assert errors == []
    assert not PersonalBest.objects.exists()
    assert not get_user_model().objects.filter(username="Racer").exists()


def test_the_deletion_waits_for_a_task_that_holds_the_game_and_takes_its_rows_too(monkeypatch):
    user = factories.user(username="Racer")
    game = _won_game(user)
    locked, go = threading.Event(), threading.Event()
    still_there = stats_services._game_still_there

    def holding(game_id: Any) -> bool:  # the task holds the game's row lock for a moment
        found = still_there(game_id)
        locked.set()
        assert go.wait(timeout=30)
        return found

    monkeypatch.setattr(stats_services, "_game_still_there", holding)
    errors: list[BaseException] = []
    task = _run(lambda: stats_services.personal_best_record(game_id=game.pk), errors)
    assert locked.wait(timeout=30)
    deletion = _run(lambda: account_delete(user=user, password=factories.PASSWORD), errors)
    deletion.join(timeout=1)
    assert deletion.is_alive()  # waiting for the game's lock

    go.set()
    task.join(timeout=30)
    deletion.join(timeout=30)

    assert errors == []
    assert not PersonalBest.objects.exists()  # written by the task, then deleted with the account
    assert not get_user_model().objects.filter(username="Racer").exists()
