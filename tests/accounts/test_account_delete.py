"""Deleting an account (``DELETE auth/me {"password"}``): everything of it goes in one
transaction, its daily results stay counted without a name, and tasks still in flight for its
games neither fail nor bring anything back."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
import time_machine
from django.apps import apps
from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import models
from rest_framework.test import APIClient

from accounts.models import ApiToken
from common.sessions import SessionStore
from games import tasks as game_tasks
from games.competition import clock
from games.competition.clock import day_end
from games.models import DailyDeal, DailyStartLink, Game, IdempotencyRecord, MoveLog, PackedLog
from stats import tasks as stats_tasks
from stats.models import DailyResult, PersonalBest
from tests import factories
from tests.stats.helpers import deal, win_as_a_human

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

NAME = "Zebulon_Quist"


def _session_client(username: str, address: str) -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    response = client.post("/api/v1/auth/login", {"username": username, "password": factories.PASSWORD})
    assert response.status_code == 200, response.content
    return client


def _win_todays_deal(client: APIClient, *, idle_ms: int, capture: Any) -> str:
    state = client.post("/api/v1/games", {"daily": True}).json()
    with capture(execute=True):
        win_as_a_human(client, state["id"], idle_ms=idle_ms)
    return str(state["id"])


@pytest.fixture
def today() -> date:
    day = clock.today()
    deal(day, code="YU1-C-AAAAAAB")
    return day


@pytest.fixture
def doomed(today: date, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """An account that played: the fastest win of today's deal (bests, a result, a fair-play
    link), a practice game with moves sent with an Idempotency-Key, two browser sessions, API
    tokens, and a staff note about it in the admin's log."""
    user = factories.user(username=NAME)
    client = factories.token_client(user)
    ranked = _win_todays_deal(client, idle_ms=0, capture=django_capture_on_commit_callbacks)
    practice = client.post("/api/v1/games", {"rule": "relaxed"}).json()
    moved = client.post(
        f"/api/v1/games/{practice['id']}/moves", {"from": "t2", "to": "t3"}, HTTP_IDEMPOTENCY_KEY="move-1"
    )
    assert moved.status_code in (200, 422), moved.content
    LogEntry.objects.log_actions(
        user_id=factories.user(username="staffer").pk, queryset=[user], action_flag=CHANGE, change_message="renamed"
    )
    assert LogEntry.objects.filter(object_id=str(user.pk), object_repr=NAME).exists()
    sessions = [_session_client(NAME.lower(), "10.9.9.1"), _session_client(NAME, "10.9.9.2")]
    return {"user": user, "client": client, "ranked": ranked, "practice": practice["id"], "sessions": sessions}


@pytest.fixture
def rival(today: date, doomed: dict[str, Any], django_capture_on_commit_callbacks: Any) -> Any:
    """Another account, second on today's board (a minute slower)."""
    user = factories.user(username="Rival")
    _win_todays_deal(factories.token_client(user), idle_ms=60_000, capture=django_capture_on_commit_callbacks)
    return user


def _rows_of(user: Any) -> int:
    return (
        Game.objects.filter(owner=user).count()
        + MoveLog.objects.filter(game__owner=user).count()
        + PackedLog.objects.filter(game__owner=user).count()
        + PersonalBest.objects.filter(user=user).count()
        + DailyResult.objects.filter(user=user).count()
        + DailyStartLink.objects.filter(user=user).count()
        + ApiToken.objects.filter(user=user).count()
        + IdempotencyRecord.objects.filter(scope=f"user:{user.pk}").count()
    )


def test_a_wrong_or_missing_password_deletes_nothing(doomed, rival):
    user, client = doomed["user"], doomed["client"]
    before = _rows_of(user)
    assert before >= 8  # games, move logs (rows, packed), bests, a result, a link, tokens, an idempotency record

    wrong = client.delete("/api/v1/auth/me", {"password": "not-it"}, HTTP_ACCEPT_LANGUAGE="de")
    missing = client.delete("/api/v1/auth/me", {})

    assert wrong.status_code == 400 and wrong.json()["error"] == "wrong_password"
    assert wrong.json()["detail"] == "Das Passwort stimmt nicht: Es wurde nichts geändert."
    assert missing.status_code == 400 and missing.json()["error"] == "bad_request"
    assert "password" in missing.json()["detail"]
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert _rows_of(user) == before
    for session in doomed["sessions"]:
        assert session.get("/api/v1/auth/me").json()["username"] == NAME


def test_a_guest_cannot_delete_anything(guest):
    response = guest.delete("/api/v1/auth/me", {"password": factories.PASSWORD})

    assert response.status_code == 401 and response.json()["error"] == "not_authenticated"


def test_deleting_leaves_no_trace_of_the_account_in_any_table(doomed, rival, today, django_capture_on_commit_callbacks):
    user = doomed["user"]
    user_id, ranked = user.pk, doomed["ranked"]
    session_keys = [client.cookies[settings.SESSION_COOKIE_NAME].value for client in doomed["sessions"]]
    session_cache = caches[settings.SESSION_CACHE_ALIAS]
    assert all(session_cache.get(SessionStore.cache_key_prefix + key) for key in session_keys)

    with django_capture_on_commit_callbacks(execute=True):
        response = doomed["sessions"][0].delete("/api/v1/auth/me", {"password": factories.PASSWORD})

    assert response.status_code == 204
    # Every table, every field: no reference to the account, its name nowhere.
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            rows = model._default_manager.all()
            if isinstance(field, models.ForeignKey) and field.related_model is get_user_model():
                assert not rows.filter(**{field.name: user_id}).exists(), (model, field.name)
            elif isinstance(field, models.CharField | models.TextField):
                for trace in (NAME, f"user:{user_id}"):
                    assert not rows.filter(**{f"{field.name}__icontains": trace}).exists(), (model, field.name)
            elif field.primary_key and model is get_user_model():
                assert not rows.filter(pk=user_id).exists()
    # Sessions name their account inside their data, in the database and in the cache.
    store = SessionStore()
    assert all(str(store.decode(s.session_data).get(SESSION_KEY)) != str(user_id) for s in Session.objects.all())
    assert not any(session_cache.get(SessionStore.cache_key_prefix + key) for key in session_keys)
    assert not Game.objects.filter(pk=ranked).exists()
    # Logged out everywhere: both browsers are guests now, the token is refused.
    for session in doomed["sessions"]:
        assert session.get("/api/v1/auth/me").json() == {
            "authenticated": False,
            "username": None,
            "date_joined": None,
            "settings": session.get("/api/v1/auth/settings").json(),
        }
    assert doomed["client"].get("/api/v1/auth/me").status_code == 401


def test_a_result_of_a_day_not_over_goes_with_the_account(doomed, rival, today):
    board = f"/api/v1/leaderboards/daily/{today.isoformat()}"
    before = factories.token_client(rival).get(board).json()
    assert [(e["rank"], e["username"]) for e in before["entries"]] == [(1, NAME), (2, "Rival")]

    assert doomed["client"].delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204

    after = factories.token_client(rival).get(board).json()
    assert [(e["rank"], e["username"]) for e in after["entries"]] == [(1, "Rival")]
    assert after["players"] == 1 and after["me"]["rank"] == 1
    assert not Game.objects.filter(pk=doomed["ranked"]).exists()
    assert APIClient().get(f"/api/v1/players/{NAME}/stats").status_code == 404


def test_a_result_of_a_closed_day_stays_with_its_game_and_log(doomed, rival, today):
    board = f"/api/v1/leaderboards/daily/{today.isoformat()}"
    moves = MoveLog.objects.filter(game_id=doomed["ranked"]).count()
    with time_machine.travel(day_end(today) + timedelta(hours=1), tick=False):
        assert doomed["client"].delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204
        after = factories.token_client(rival).get(board).json()
        guest = APIClient().get(board).json()
        stats_tasks.daily_boards_rebuild([today.isoformat()])
        rebuilt = factories.token_client(rival).get(board).json()

    assert [(e["rank"], e["username"]) for e in after["entries"]] == [(1, None), (2, "Rival")]
    assert after["players"] == 2 and after["me"]["rank"] == 2
    assert guest["me"] is None  # a guest is never the deleted player's line
    assert rebuilt["entries"] == after["entries"] and rebuilt["players"] == 2
    kept = Game.objects.get(pk=doomed["ranked"])  # staff can replay it and reject it
    assert (kept.owner_id, kept.review) == (None, "verified") and kept.owner_deleted_at is not None
    assert MoveLog.objects.filter(game=kept).count() == moves
    assert not Game.objects.filter(pk=doomed["practice"]).exists()


def test_tasks_in_flight_for_its_games_neither_fail_nor_bring_rows_back(doomed, rival, today):
    game_ids = [doomed["ranked"], doomed["practice"]]
    assert doomed["client"].delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204

    for game_id in game_ids:  # as a worker would run them, late
        stats_tasks.game_results_update(game_id)
        game_tasks.game_postmortem(game_id)
    stats_tasks.daily_boards_rebuild([today.isoformat()])

    assert PersonalBest.objects.filter(user__isnull=True).count() == 0
    assert PersonalBest.objects.count() == 1  # the rival's
    results = list(DailyResult.objects.filter(day=today).order_by("time_ms").values_list("user_id", flat=True))
    assert results == [rival.pk]  # its result of the open day went, and no task brought it back
    assert DailyDeal.objects.get(date=today).players == 1
    assert not Game.objects.filter(pk__in=game_ids).exists()
