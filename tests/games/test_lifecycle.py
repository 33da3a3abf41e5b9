"""What the site keeps and when it lets go (games/lifecycle.py): ended sessions and their guests'
games, unfinished practice games left alone for months (told beforehand on the list), and
nothing a player still has."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games import lifecycle, tasks
from games.engine import Game as EngineGame
from games.engine import Move
from games.models import Game, MoveLog
from tests import factories

pytestmark = pytest.mark.django_db

CODE = "YU1-C-AAAAAAB"


def _session(*, expires_in: timedelta) -> str:
    store = SessionStore()
    store.create()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() + expires_in)
    return str(store.session_key)


def _won() -> EngineGame:
    engine = factories.one_move_from_winning(CODE)
    engine.play(Move.parse("t1>f"))
    assert engine.is_won
    return engine


def _aged(game: Game, *, days: int) -> Game:
    """``game`` started ``days`` ago, its moves made then too."""
    at = timezone.now() - timedelta(days=days)
    Game.objects.filter(pk=game.pk).update(created_at=at)
    MoveLog.objects.filter(game=game).update(created_at=at)
    return Game.objects.get(pk=game.pk)


def test_an_ended_session_goes_a_week_after_its_end_and_a_live_one_stays():
    live = _session(expires_in=timedelta(days=30))
    just_ended = _session(expires_in=-timedelta(days=2))
    _session(expires_in=-timedelta(days=8))  # ended more than a week ago

    assert lifecycle.sessions_ended_prune(now=timezone.now()) == 1
    assert set(Session.objects.values_list("session_key", flat=True)) == {live, just_ended}


def test_a_guests_games_go_with_its_session_unless_an_account_took_them():
    live = _session(expires_in=timedelta(days=30))
    kept = _aged(factories.played(None, CODE, ["t7:TS>t2"], session_key=live), days=3)
    orphan = _aged(factories.played(None, CODE, ["t7:TS>t2", "undo"], session_key="endedsession0000000001"), days=3)
    fresh = factories.game(session_key="notyetsaved00000000001")  # its session row is on its way
    account = factories.user()
    claimed = _aged(factories.played(account, CODE, ["t7:TS>t2"]), days=3)

    assert lifecycle.guest_games_prune(now=timezone.now()) == 1
    assert not Game.objects.filter(pk=orphan.pk).exists() and not MoveLog.objects.filter(game_id=orphan.pk).exists()
    assert set(Game.objects.values_list("pk", flat=True)) == {kept.pk, fresh.pk, claimed.pk}


def test_an_unfinished_practice_game_goes_after_90_days_without_a_move_and_nothing_else_does():
    account = factories.user()
    idle = _aged(factories.played(account, CODE, ["t7:TS>t2"]), days=91)
    never_played = _aged(factories.game(owner=account, code=CODE), days=91)
    played_lately = _aged(factories.played(account, CODE, ["t7:TS>t2", "undo"]), days=120)
    MoveLog.objects.filter(game=played_lately, seq=2).update(created_at=timezone.now() - timedelta(days=10))
    won = _aged(factories.game(owner=account, engine=_won()), days=200)
    daily = _aged(
        factories.played(account, CODE, ["t7:TS>t2"], daily=timezone.now().date() - timedelta(days=100)), days=100
    )
    guest = _aged(
        factories.played(None, CODE, ["t7:TS>t2"], session_key=_session(expires_in=timedelta(days=5))), days=95
    )

    removed = lifecycle.idle_games_prune(now=timezone.now())
    names = {
        idle.pk: "idle",
        never_played.pk: "never",
        played_lately.pk: "lately",
        won.pk: "won",
        daily.pk: "daily",
        guest.pk: "guest",
    }
    assert {names[pk] for pk in Game.objects.values_list("pk", flat=True)} == {"lately", "won", "daily"}
    assert removed == 3
    assert not {idle.pk, never_played.pk, guest.pk} & set(MoveLog.objects.values_list("game_id", flat=True))


def test_the_list_of_games_says_two_weeks_ahead_when_an_idle_game_will_go(settings: Any):
    account = factories.user()
    client = factories.token_client(account)
    soon = _aged(factories.played(account, CODE, ["t7:TS>t2"]), days=80)
    later = _aged(factories.played(account, CODE, ["t7:TS>t2"]), days=60)
    won = _aged(factories.game(owner=account, engine=_won()), days=85)

    listed = {row["id"]: row for row in client.get("/api/v1/games").json()["results"]}
    due = datetime.fromisoformat(listed[str(soon.pk)]["removal_at"])
    assert abs(due - (soon.created_at + timedelta(days=90))) < timedelta(seconds=1)
    assert listed[str(later.pk)]["removal_at"] is None and listed[str(won.pk)]["removal_at"] is None

    # A move keeps it: the date moves on, out of the two weeks.
    state = client.get(f"/api/v1/games/{soon.pk}").json()
    assert client.post(f"/api/v1/games/{soon.pk}/moves", state["legal_moves"][0], format="json").status_code == 200
    assert {row["id"]: row for row in client.get("/api/v1/games").json()["results"]}[str(soon.pk)]["removal_at"] is None


def test_the_hourly_task_runs_every_removal(eager_tasks: None):
    ended = _aged(factories.played(None, CODE, ["t7:TS>t2"], session_key="endedsession0000000002"), days=3)
    idle = _aged(factories.played(factories.user(), CODE, ["t7:TS>t2"]), days=95)
    _session(expires_in=-timedelta(days=30))
    tasks.data_prune()
    assert not Game.objects.filter(pk__in=[ended.pk, idle.pk]).exists()
    assert not Session.objects.exists()
