"""Human results (docs/fair-play.md): a ranked win is replayed from its deal before it counts, and
one faster than a human is held until staff decide in the admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model

from games.competition.attempt import attempt_review
from games.engine import Game as EngineGame
from games.models import Game, MoveLog
from stats import services
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import win, win_as_a_human

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _ranked(client):
    state = client.post("/api/v1/games", {"daily": True}).json()
    assert state["ranked"] is True
    return state["id"]


def _won(client, game_id, callbacks, **pace):
    with callbacks(execute=True):
        win_as_a_human(client, game_id, **pace)
    return Game.objects.get(pk=game_id)


def test_a_win_at_a_human_pace_is_verified_by_its_replay_and_ranked(
    player, todays_deal, django_capture_on_commit_callbacks
):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=700)

    assert game.review == "verified" and "replayed" in game.review_reason
    assert DailyResult.objects.filter(game=game).exists()


def test_a_log_that_does_not_reproduce_the_game_is_refused(player, todays_deal, django_capture_on_commit_callbacks):
    game_id = _ranked(player)
    with django_capture_on_commit_callbacks(execute=True):
        win(player, game_id)  # the stored game was put one move from the win: its log does not lead there

    game = Game.objects.get(pk=game_id)
    assert game.review == "invalid" and game.status == "won"
    assert not DailyResult.objects.exists()
    assert player.get(f"/api/v1/games/{game_id}").json()["review"] == "invalid"


def test_a_tampered_log_entry_is_caught_by_the_replay(player, todays_deal, django_capture_on_commit_callbacks):
    game_id = _ranked(player)
    with django_capture_on_commit_callbacks(execute=False):  # the check has not run yet
        win_as_a_human(player, game_id)
    first = MoveLog.objects.filter(game_id=game_id).order_by("seq").first()
    MoveLog.objects.filter(pk=first.pk).update(move="undo")

    assert attempt_review(game_id=game_id) == "invalid"
    assert services.daily_result_record(game_id=game_id) is False
    assert attempt_review(game_id=game_id) == "invalid"  # decided once; a second run changes nothing


def test_a_log_that_replays_legally_but_ends_elsewhere_is_refused(
    player, todays_deal, django_capture_on_commit_callbacks
):
    """Every entry is legal and there is one per move, but the log leads to another game than the
    stored one: only the comparison with the stored state catches it."""
    game_id = _ranked(player)
    with django_capture_on_commit_callbacks(execute=False):  # the check has not run yet
        win_as_a_human(player, game_id)
    last = MoveLog.objects.filter(game_id=game_id).order_by("seq").last()
    MoveLog.objects.filter(pk=last.pk).update(move="undo")  # an undo counts as a move too
    game = Game.objects.get(pk=game_id)
    entries = list(MoveLog.objects.filter(game=game).order_by("seq").values_list("move", flat=True))
    assert len(entries) == game.moves and not EngineGame.replay(game.code, entries).is_won  # it replays

    assert attempt_review(game_id=game_id) == "invalid"
    assert "does not reproduce" in Game.objects.get(pk=game_id).review_reason
    assert services.daily_result_record(game_id=game_id) is False


@pytest.mark.parametrize(
    ("pace", "reason"),
    [
        ({"pace_ms": 500}, "in all"),  # about 50 s for the whole game
        ({"pace_ms": 300, "idle_ms": 120_000}, "median gap"),  # slow to start, then 300 ms a move
    ],
)
def test_a_win_faster_than_a_human_is_held_off_the_board(
    player, account, today, todays_deal, django_capture_on_commit_callbacks, pace, reason
):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, **pace)

    assert game.review == "held" and reason in game.review_reason
    assert not DailyResult.objects.exists()
    board = player.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    assert board["entries"] == [] and board["me"] is None
    assert player.get(f"/api/v1/games/{game.pk}").json()["review"] == "held"
    assert player.get("/api/v1/daily").json()["attempt"]["review"] == "held"
    rebuilt = services.daily_board_rebuild(day=today)
    assert rebuilt.upserted == 0 and not DailyResult.objects.exists()


def test_thresholds_come_from_settings(player, todays_deal, settings, django_capture_on_commit_callbacks):
    settings.RANKED_REVIEW_MIN_TIME_MS = 0
    settings.RANKED_REVIEW_MIN_MEDIAN_GAP_MS = 100

    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=200)

    assert game.review == "verified"


@pytest.fixture
def staff(db):
    user = get_user_model().objects.create_superuser("referee", "referee@example.com", factories.PASSWORD)
    from django.test import Client

    client = Client()
    client.force_login(user)
    return user, client


def test_staff_approve_a_held_result_in_the_admin_and_who_and_when_is_kept(
    player, today, todays_deal, staff, django_capture_on_commit_callbacks
):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=100)
    assert game.review == "held"
    referee, client = staff

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/admin/games/game/", {"action": "approve_held", "_selected_action": [str(game.pk)]}, follow=True
        )

    assert answer.status_code == 200 and "1 held result(s) approved" in answer.content.decode()
    game.refresh_from_db()
    assert game.review == "approved" and game.reviewed_by == referee and game.reviewed_at is not None
    board = player.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    assert [entry["time_ms"] for entry in board["entries"]] == [game.time_ms]


def test_staff_reject_a_held_result_and_it_never_counts(
    player, today, todays_deal, staff, django_capture_on_commit_callbacks
):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=100)
    _, client = staff

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/admin/games/game/", {"action": "reject_held", "_selected_action": [str(game.pk)]})
        services.daily_board_rebuild(day=today)

    game.refresh_from_db()
    assert game.review == "rejected"
    assert not DailyResult.objects.exists()
    assert player.get(f"/api/v1/games/{game.pk}").json()["review"] == "rejected"


def test_only_held_results_can_be_approved_and_a_counted_one_can_be_rejected(
    player, todays_deal, staff, django_capture_on_commit_callbacks
):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=700)
    _, client = staff

    answer = client.post(
        "/admin/games/game/", {"action": "approve_held", "_selected_action": [str(game.pk)]}, follow=True
    )
    assert "0 held result(s) approved" in answer.content.decode()
    game.refresh_from_db()
    assert game.review == "verified" and DailyResult.objects.filter(game=game).exists()

    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/admin/games/game/", {"action": "reject_held", "_selected_action": [str(game.pk)]}, follow=True
        )
    assert "1 held result(s) rejected" in answer.content.decode()
    game.refresh_from_db()
    assert game.review == "rejected" and not DailyResult.objects.filter(game=game).exists()


def test_results_and_ranking_are_read_only_in_the_admin(player, todays_deal, staff, django_capture_on_commit_callbacks):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=700)
    _, client = staff
    before = Game.objects.filter(pk=game.pk).values().get()

    page = client.get(f"/admin/games/game/{game.pk}/change/")
    client.post(
        f"/admin/games/game/{game.pk}/change/",
        {
            "time_ms": "1",
            "moves": "1",
            "score": "9999",
            "ranked": "",
            "status": "playing",
            "review": "approved",
            "finished_at_0": "2000-01-01",
            "finished_at_1": "00:00:00",
            "_save": "Save",
        },
    )

    assert page.status_code == 200
    html = page.content.decode()
    for field in ("time_ms", "moves", "score", "ranked", "status", "review", "finished_at"):
        assert f'name="{field}"' not in html, field
    assert Game.objects.filter(pk=game.pk).values().get() == before


def test_time_and_moves_of_a_held_result_stay_the_players(player, todays_deal, django_capture_on_commit_callbacks):
    game = _won(player, _ranked(player), django_capture_on_commit_callbacks, pace_ms=100)

    state = player.get(f"/api/v1/games/{game.pk}").json()

    assert state["elapsed_ms"] == game.time_ms and state["moves"] == game.moves
    assert game.time_ms < timedelta(minutes=1).total_seconds() * 1000
