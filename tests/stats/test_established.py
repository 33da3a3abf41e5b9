"""docs/daily.md, "Who is on the public board": a day's public board counts the results of accounts
established when the day began (made before it, with a ranked attempt played on an earlier day;
``BOARD_ESTABLISHED_DAYS``). A newcomer's win is kept — its bests, streak, standing, friends' board
and clubs count it — and its player sees the place it would have and when its results count."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games.competition import clock
from games.models import Game
from social.models import Follow
from stats import services
from stats.models import DailyResult, PersonalBest
from tests import factories
from tests.stats.helpers import won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture(autouse=True)
def _the_rule(settings: Any) -> None:
    settings.BOARD_ESTABLISHED_DAYS = 1  # as in production


def _veteran(today: date) -> Any:
    """An account made a week ago that played the daily deal of an earlier day (not won)."""
    account = factories.user()
    type(account).objects.filter(pk=account.pk).update(date_joined=timezone.now() - timedelta(days=7))
    factories.game(owner=account, daily=today - timedelta(days=3), ranked=True, moves=40)
    return account


def _wins(owner: Any, day: date, seconds: int) -> Game:
    """A verified ranked win of ``day``, recorded by stats' task as after its review."""
    game = won_ranked_game(owner=owner, day=day, time_ms=seconds * 1000)
    services.game_results_record(game_id=game.pk)
    return game


def _board(account: Any, day: date) -> dict[str, Any]:
    return factories.token_client(account).get(f"/api/v1/leaderboards/daily/{day.isoformat()}").json()


def test_a_newcomers_win_is_off_the_public_board_and_its_player_sees_the_place_it_would_have(today, todays_deal):
    fast, slow, newcomer = _veteran(today), _veteran(today), factories.user()
    _wins(fast, today, 100)
    _wins(newcomer, today, 200)
    _wins(slow, today, 300)

    mine = _board(newcomer, today)
    theirs = _board(slow, today)

    assert [entry["username"] for entry in mine["entries"]] == [fast.username, slow.username]
    assert [entry["rank"] for entry in mine["entries"]] == [1, 2]  # nobody moved down for the newcomer
    assert mine["me"]["username"] == newcomer.username
    assert (mine["me"]["rank"], mine["me"]["public"], mine["me"]["public_in_days"]) == (2, False, 0)
    assert (theirs["me"]["rank"], theirs["me"]["public"], theirs["me"]["public_in_days"]) == (2, True, None)


def test_a_newcomers_win_counts_for_its_bests_streak_standing_and_friends_but_not_the_days_figures(today, todays_deal):
    fast, slow, newcomer = _veteran(today), _veteran(today), factories.user()
    _wins(fast, today, 100)
    _wins(slow, today, 300)
    game = _wins(newcomer, today, 200)
    Follow.objects.create(follower=newcomer, followed=fast)
    client = factories.token_client(newcomer)

    standing = client.get(f"/api/v1/daily/{today.isoformat()}/standing").json()
    stats = client.get("/api/v1/me/stats").json()["daily"]
    friends = client.get(f"/api/v1/daily/{today.isoformat()}/friends").json()["entries"]

    assert PersonalBest.objects.filter(user=newcomer, best_time_ms=game.time_ms).exists()
    assert standing["won"] == 2  # the public board's winners
    assert standing["me"]["counted"] is True and standing["me"]["faster_than_percent"] == 50  # of the two public
    assert standing["me"]["streak"] == 1
    assert (stats["won"], stats["current_streak"], stats["best_rank"]) == (1, 1, None)  # no public place yet
    places = [(entry["username"], entry["board_rank"]) for entry in friends]
    assert places == [(fast.username, 1), (newcomer.username, 2)]
    og = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/leaderboards?date={today.isoformat()}").content.decode()
    assert "2 won, best time 1:40" in og


def test_an_account_counts_publicly_from_the_day_after_it_first_played(today, todays_deal):
    yesterday = today - timedelta(days=1)
    newcomer = factories.user()
    with time_machine.travel(clock.day_end(yesterday) - timedelta(hours=2), tick=False):
        type(newcomer).objects.filter(pk=newcomer.pk).update(date_joined=timezone.now())
        _wins(newcomer, yesterday, 150)  # its first day

    _wins(newcomer, today, 180)

    assert DailyResult.objects.get(user=newcomer, day=yesterday).public is False
    assert DailyResult.objects.get(user=newcomer, day=today).public is True
    assert [entry["username"] for entry in _board(newcomer, today)["entries"]] == [newcomer.username]


def test_an_old_account_that_never_played_before_waits_a_day_too(today, todays_deal, settings):
    old = factories.user()
    type(old).objects.filter(pk=old.pk).update(date_joined=timezone.now() - timedelta(days=300))
    _wins(old, today, 150)

    assert _board(old, today)["entries"] == []
    assert _board(old, today)["me"]["public_in_days"] == 0
    settings.BOARD_ESTABLISHED_DAYS = 3  # (the threshold is a setting)
    assert _board(old, today)["me"]["public_in_days"] == 2


def test_the_rebuild_keeps_a_newcomer_off_the_public_board_and_stores_the_place_it_would_have(today, todays_deal):
    fast, slow, newcomer = _veteran(today), _veteran(today), factories.user()
    games = [_wins(fast, today, 100), _wins(newcomer, today, 200), _wins(slow, today, 300)]
    DailyResult.objects.all().delete()  # the rebuild writes them again from the games

    with time_machine.travel(clock.day_end(today) + timedelta(minutes=1), tick=False):
        services.daily_board_rebuild(day=today)

    stored = {row.game_id: (row.public, row.rank) for row in DailyResult.objects.all()}
    assert stored == {games[0].pk: (True, 1), games[1].pk: (False, 2), games[2].pk: (True, 2)}
