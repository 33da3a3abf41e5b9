"""docs/fair-play.md, "Probes across days": an account that starts the day's deal and leaves its ranked
attempt after a few moves on several days (it looks at its first flips to learn whether a scout saw
its arrangement) has its win held (``probe``), at the review and at the day's close, from the game
rows alone; an honest player who left an attempt once is not held."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client

from games.competition import attempt, clock
from games.competition.attempt import HoldReason
from games.models import Game, StatusChoices
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import win_as_a_human, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _left(owner: Any, day: date, *, moves: int, practice_win_after: bool = False) -> Game:
    """``owner``'s ranked attempt of ``day``, left after ``moves`` moves and closed at the day's end
    (with ``practice_win_after``: played on to a win as practice after the close)."""
    started = clock.day_end(day) - timedelta(hours=5)
    fields: dict[str, Any] = {"status": StatusChoices.PLAYING}
    if practice_win_after:
        fields = {"status": StatusChoices.WON, "finished_at": clock.day_end(day) + timedelta(hours=1)}
    return factories.game(
        owner=owner, daily=day, ranked=True, moves=moves, created_at=started, closed_at=clock.day_end(day), **fields
    )


def _win_today(account: Any, callbacks: Any) -> Game:
    client = factories.token_client(account)
    game_id = client.post("/api/v1/games", {"daily": True}).json()["id"]
    with callbacks(execute=True):
        win_as_a_human(client, game_id, pace_ms=700)
    return Game.objects.get(pk=game_id)


def test_an_account_that_left_its_attempt_after_a_few_moves_on_three_days_has_its_win_held(
    today, todays_deal, django_capture_on_commit_callbacks
):
    prober = factories.user()
    days = [today - timedelta(days=n) for n in (9, 4, 2)]
    for day in days:
        _left(prober, day, moves=6)

    game = _win_today(prober, django_capture_on_commit_callbacks)

    assert game.review == "held" and attempt.hold_reasons(game) == [HoldReason.PROBE]
    assert game.review_reason.startswith("probe: ") and days[0].isoformat() in game.review_reason
    assert not DailyResult.objects.filter(game=game).exists()
    mine = factories.token_client(prober).get("/api/v1/daily").json()["attempt"]
    assert (mine["review"], mine["held_for"], mine["counts"]) == ("held", ["attempts"], False)


def test_an_honest_player_who_left_once_and_played_long_attempts_is_not_held(
    today, todays_deal, django_capture_on_commit_callbacks
):
    honest = factories.user()
    _left(honest, today - timedelta(days=3), moves=8)  # left once after a few moves
    _left(honest, today - timedelta(days=2), moves=140)  # a long attempt it did not win: no probe
    _left(honest, today - timedelta(days=1), moves=0)  # started, never touched: shows nothing to learn
    won_ranked_game(owner=honest, day=today - timedelta(days=4), time_ms=400_000)

    game = _win_today(honest, django_capture_on_commit_callbacks)

    assert game.review == "verified" and DailyResult.objects.filter(game=game).exists()


def test_probes_older_than_the_window_hold_nothing(today, todays_deal, django_capture_on_commit_callbacks):
    account = factories.user()
    for n in (15, 20, 25):
        _left(account, today - timedelta(days=n), moves=5)
    _left(account, today - timedelta(days=1), moves=5)

    assert _win_today(account, django_capture_on_commit_callbacks).review == "verified"


def test_a_probe_played_on_to_a_win_as_practice_after_the_close_still_counts(
    today, todays_deal, django_capture_on_commit_callbacks
):
    prober = factories.user()
    _left(prober, today - timedelta(days=1), moves=4, practice_win_after=True)
    _left(prober, today - timedelta(days=2), moves=4, practice_win_after=True)
    _left(prober, today - timedelta(days=3), moves=12)

    game = _win_today(prober, django_capture_on_commit_callbacks)

    assert attempt.hold_reasons(game) == [HoldReason.PROBE]


def test_the_close_holds_a_verified_win_of_a_probing_account_and_only_that(
    today, todays_deal, django_capture_on_commit_callbacks
):
    prober, honest = factories.user(), factories.user()
    for n in (1, 2, 3):
        _left(prober, today - timedelta(days=n), moves=3)
    _left(honest, today - timedelta(days=1), moves=3)
    probing = won_ranked_game(owner=prober, day=today, time_ms=300_000)  # verified before its probes were seen
    fine = won_ranked_game(owner=honest, day=today, time_ms=310_000)

    with time_machine.travel(clock.day_end(today) + timedelta(seconds=1), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            assert attempt.day_close() == (0, 1)

    probing.refresh_from_db()
    assert probing.review == "held" and attempt.hold_reasons(probing) == [HoldReason.PROBE]
    assert Game.objects.get(pk=fine.pk).review == "verified"


def test_the_review_queue_shows_a_probing_accounts_days(today, todays_deal, django_capture_on_commit_callbacks):
    prober = factories.user()
    days = [today - timedelta(days=n) for n in (6, 5, 1)]
    for day, moves in zip(days, (3, 9, 14), strict=True):
        _left(prober, day, moves=moves)
    game = _win_today(prober, django_capture_on_commit_callbacks)
    staff = factories.user()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)

    listed = client.get("/admin/games/heldresult/").content.decode()
    page = client.get(f"/admin/games/heldresult/{game.pk}/change/").content.decode()

    for day, moves in zip(days, (3, 9, 14), strict=True):
        assert f"{day.isoformat()} ({moves} moves)" in listed
        assert f"{day.isoformat()} ({moves} moves)" in page


def test_the_probe_check_reads_only_game_rows(today, todays_deal, django_assert_max_num_queries):
    prober = factories.user()
    for n in (1, 2, 3):
        _left(prober, today - timedelta(days=n), moves=3)
    from games.competition import probes

    with django_assert_max_num_queries(1):
        found = probes.probe_days(user_id=prober.pk, day=today)

    assert found == [today - timedelta(days=n) for n in (3, 2, 1)]
    assert isinstance(found[0], date) and not isinstance(found[0], datetime)
