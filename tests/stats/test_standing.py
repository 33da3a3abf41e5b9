"""Where you stand: the day's histograms, the percentile "faster than N %", the live counts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from stats import tasks
from stats.models import DailyBucket
from tests import factories
from tests.stats.helpers import deal, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _url(day: Any) -> str:
    return f"/api/v1/daily/{day.isoformat()}/standing"


def _won(day: Any, seconds: float, *, moves: int = 100, review: str = "verified", owner: Any = None) -> Any:
    """A won ranked attempt of ``day``, put on its board by the task that runs after a win."""
    game = won_ranked_game(
        owner=owner or factories.user(), day=day, time_ms=int(seconds * 1000), moves=moves, review=review
    )
    tasks.game_results_update(str(game.id))
    return game


@pytest.fixture
def yesterday(today: Any) -> Any:
    day = today - timedelta(days=1)
    deal(day, code="YU1-C-AAAAAAK")
    return day


def _me(owner: Any, day: Any) -> dict[str, Any]:
    body = factories.token_client(owner).get(_url(day)).json()
    assert body["visible"] is True
    return body["me"]


def test_percentile_counts_strictly_slower_players_and_a_tie_is_not_beaten(yesterday: Any) -> None:
    a, b, c, d = (_won(yesterday, s) for s in (60, 70, 70, 80))
    assert _me(a.owner, yesterday) | {} == {
        "time_ms": 60_000,
        "moves": 100,
        "counted": True,
        "attempt": {"state": "verified", "counts": True, "shareable": True},
        "review": "verified",
        "faster_than_percent": 100,
        "slower": 3,
        "tied": 0,
        "others": 3,
        "board": "ready",
        "retry_after_ms": None,
        "streak": 1,
    }
    for tied in (b, c):  # 1 of the 3 others (d) is slower; the other 70 s player is not beaten
        mark = _me(tied.owner, yesterday)
        assert (mark["faster_than_percent"], mark["slower"], mark["tied"], mark["others"]) == (33, 1, 1, 3)
    assert _me(d.owner, yesterday)["faster_than_percent"] == 0


def test_a_single_player_has_nobody_to_compare_with(yesterday: Any) -> None:
    game = _won(yesterday, 95, moves=117)
    body = factories.token_client(game.owner).get(_url(yesterday)).json()
    assert body["me"]["faster_than_percent"] is None and body["me"]["others"] == 0
    assert body["time_histogram"] == [{"low": 90_000, "high": 120_000, "count": 1}]
    assert body["moves_histogram"] == [{"low": 110, "high": 120, "count": 1}]
    assert body["won"] == 1


def test_histograms_are_contiguous_bars_with_the_open_ended_last_one(yesterday: Any) -> None:
    _won(yesterday, 61, moves=95)
    _won(yesterday, 150, moves=120)
    _won(yesterday, 4 * 3600, moves=999)
    body = APIClient().get(_url(yesterday)).json()  # anyone, once the day is over
    times = body["time_histogram"]
    assert times[0] == {"low": 60_000, "high": 90_000, "count": 1}
    assert times[3] == {"low": 150_000, "high": 180_000, "count": 1}
    assert times[-1] == {"low": 3_600_000, "high": None, "count": 1}
    assert sum(bar["count"] for bar in times) == 3 and len(times) == 121 - 2
    moves = body["moves_histogram"]
    assert moves[0]["low"] == 90 and moves[-1] == {"low": 400, "high": None, "count": 1}
    assert body["me"] is None


def test_held_results_are_in_no_histogram_and_no_percentile(yesterday: Any) -> None:
    fast = _won(yesterday, 30, review="held")  # faster than a human: held for review
    _won(yesterday, 70)
    slowest = _won(yesterday, 80)
    anyone = APIClient().get(_url(yesterday)).json()
    assert anyone["won"] == 2
    assert anyone["under_review"] == 1  # said beside the counts, so that they agree with the board
    assert sum(bar["count"] for bar in anyone["time_histogram"]) == 2
    assert anyone["time_histogram"][0]["low"] == 60_000  # the 30 s result is not in it
    mark = _me(fast.owner, yesterday)  # its player sees a mark, marked as not counted
    assert mark["counted"] is False and mark["review"] == "held"
    assert (mark["others"], mark["slower"], mark["faster_than_percent"]) == (2, 2, 100)
    slow = _me(slowest.owner, yesterday)
    assert (slow["others"], slow["slower"], slow["faster_than_percent"]) == (1, 0, 0)


def test_the_mark_says_whether_the_board_shows_the_verdict_yet_and_when_to_ask_again(
    today: Any, todays_deal: Any
) -> None:
    now = timezone.now()

    def board(seconds_ago: float, review: str, *, task_ran: bool) -> tuple[str, int | None]:
        game = won_ranked_game(
            owner=factories.user(),
            day=today,
            time_ms=80_000,
            review=review,
            finished_at=now - timedelta(seconds=seconds_ago),
        )
        if task_ran:
            tasks.game_results_update(str(game.id))
        with time_machine.travel(now, tick=False):
            mark = _me(game.owner, today)
        return mark["board"], mark["retry_after_ms"]

    # Its review on its way: ask again after half the time since the win, 1 to 15 s ...
    assert board(0.5, "pending", task_ran=False) == ("pending", 1_000)
    assert board(10, "pending", task_ran=False) == ("pending", 5_000)
    assert board(60, "pending", task_ran=False) == ("pending", 15_000)
    # ... and no more once the review task counts as lost (RANKED_REVIEW_LOST_AFTER_SECONDS): the beat makes it up.
    assert board(91, "pending", task_ran=False) == ("pending", None)
    # Decided, but stats' task has not put it on the board (or taken it off) yet.
    assert board(4, "verified", task_ran=False) == ("pending", 2_000)
    rejected = won_ranked_game(owner=factories.user(), day=today, time_ms=90_000, finished_at=now)
    tasks.game_results_update(str(rejected.id))
    Game.objects.filter(pk=rejected.pk).update(review="rejected")
    with time_machine.travel(now, tick=False):
        assert _me(rejected.owner, today)["board"] == "pending"
    # Settled: on the board, or held off it.
    assert board(4, "verified", task_ran=True) == ("ready", None)
    assert board(4, "held", task_ran=False) == ("ready", None)


def test_a_result_taken_off_the_board_leaves_the_histograms(yesterday: Any) -> None:
    game = _won(yesterday, 70)
    _won(yesterday, 75)
    Game.objects.filter(pk=game.pk).update(review="rejected")
    tasks.game_results_update(str(game.id))
    assert APIClient().get(_url(yesterday)).json()["time_histogram"] == [{"low": 60_000, "high": 90_000, "count": 1}]


def test_the_tasks_are_idempotent_and_the_rebuild_agrees(yesterday: Any) -> None:
    games = [_won(yesterday, s, moves=m) for s, m in ((61, 90), (62, 95), (140, 130))]

    def buckets() -> set[tuple[str, int, int]]:
        return set(DailyBucket.objects.filter(day=yesterday, count__gt=0).values_list("kind", "bucket", "count"))

    before = buckets()
    assert before == {("time", 12, 2), ("time", 28, 1), ("moves", 9, 2), ("moves", 13, 1)}
    for game in games:  # delivered twice
        tasks.game_results_update(str(game.id))
    assert buckets() == before
    DailyBucket.objects.all().delete()
    DailyBucket.objects.create(day=yesterday, kind="time", bucket=300, count=7)  # a stale bar
    tasks.daily_boards_rebuild([yesterday.isoformat()])
    assert buckets() == before and not DailyBucket.objects.filter(bucket=300).exists()


def test_not_shown_during_the_day_to_someone_who_has_not_won_their_attempt(today: Any, todays_deal: Any) -> None:
    _won(today, 70)
    _won(today, 90)
    playing = factories.user()
    factories.game(owner=playing, code=todays_deal.code, daily=today, ranked=True)
    practiced = factories.user()  # a won practice game of the deal is no ranked attempt
    factories.game(
        owner=practiced, code=todays_deal.code, daily=today, engine=factories.one_move_from_winning(todays_deal.code)
    )
    for client in (APIClient(), factories.token_client(playing), factories.token_client(practiced)):
        body = client.get(_url(today)).json()
        assert body["visible"] is False and body["over"] is False
        assert body["time_histogram"] is None and body["moves_histogram"] is None and body["me"] is None
        assert (body["started"], body["won"]) == (0, 2)  # the live counts are for everyone
    winner = _won(today, 80)
    body = factories.token_client(winner.owner).get(_url(today)).json()
    assert body["visible"] is True and body["me"]["faster_than_percent"] == 50
    assert todays_deal.code not in str(body)


def test_bad_and_unknown_days(player: Any, today: Any) -> None:
    assert player.get("/api/v1/daily/2026-13-01/standing").json()["error"] == "bad_date"
    assert player.get(_url(today - timedelta(days=30))).status_code == 404


def test_the_answer_matches_its_documented_shape(yesterday: Any) -> None:
    from drf_spectacular.generators import SchemaGenerator

    from tests.site.test_schema import _strict, assert_matches

    components = _strict(SchemaGenerator().get_schema(request=None, public=True)["components"])
    game = _won(yesterday, 70)
    _won(yesterday, 80)
    assert_matches(components, "Standing", factories.token_client(game.owner).get(_url(yesterday)).json())
    assert_matches(components, "Standing", APIClient().get(_url(yesterday)).json())


def test_ties_and_slower_players_within_one_bucket_from_either_side(yesterday: Any) -> None:
    # 60–65 s is one bucket: a time in its lower half is counted from below, in its upper half from above.
    games = {s: _won(yesterday, s) for s in (62, 64.5, 66)}
    tie = _won(yesterday, 64)
    games[64] = _won(yesterday, 64)
    marks = {s: _me(g.owner, yesterday) for s, g in games.items()}
    assert (marks[62]["slower"], marks[62]["tied"], marks[62]["faster_than_percent"]) == (4, 0, 100)
    assert (marks[64]["slower"], marks[64]["tied"], marks[64]["faster_than_percent"]) == (2, 1, 50)
    assert _me(tie.owner, yesterday)["faster_than_percent"] == 50
    assert (marks[64.5]["slower"], marks[64.5]["tied"], marks[64.5]["faster_than_percent"]) == (1, 0, 25)
    assert (marks[66]["slower"], marks[66]["faster_than_percent"]) == (0, 0)
