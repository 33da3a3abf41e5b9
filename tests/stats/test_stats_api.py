"""Personal and public statistics, and the documented shapes of the new answers."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from games.models import Game, StatusChoices
from games.players import Player
from stats import selectors, services
from stats.models import PersonalBest
from tests import factories
from tests.site.test_schema import _strict, assert_matches
from tests.stats.helpers import deal, result_for, won_ranked_game
from tests.support import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def components(django_db_blocker):
    with django_db_blocker.unblock():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    return _strict(schema["components"])


def _won(owner, *, rule_code=None, time_ms, moves, score, **fields):
    """A won game of a deal of its own (a win of a deal played before counts for no best)."""
    game = factories.game(owner=owner, code=rule_code or factories.fresh_code(), engine=None, **fields)
    Game.objects.filter(pk=game.pk).update(
        status=StatusChoices.WON, finished_at=game.created_at, time_ms=time_ms, moves=moves, score=score
    )
    services.personal_best_record(game_id=game.pk)
    return game


def test_a_guest_gets_the_statistics_of_its_sessions_games_in_the_same_shape(components, guest, today):
    guest.post("/api/v1/games", {"rule": "classic"})  # dealt, never touched: counts nothing
    key = guest.session.session_key
    start = timezone.now() - timedelta(days=1)
    for minutes, score in ((7, 625), (5, 675)):  # 675: take-backs, no clean win
        factories.game(
            session_key=key,
            engine=factories.one_move_from_winning(),
            status=StatusChoices.WON,
            created_at=start,
            finished_at=start + timedelta(minutes=minutes),
            moves=150 + minutes,
            score=score,
        )
    factories.game(session_key=key, code="YU1-R-AAAAAAC", moves=9)  # played, not won
    factories.game(session_key=key, daily=today - timedelta(days=1), moves=30)  # a past day's deal, practice
    factories.game(owner=factories.user(), moves=5)  # an account's: not the guest's
    factories.game(moves=5)  # another browser's

    body = guest.get("/api/v1/me/stats").json()

    assert_matches(components, "MyStats", body)
    assert (body["username"], body["member_since"], body["recent_daily"]) == (None, None, [])
    classic = body["rules"]["classic"]
    assert (classic["played"], classic["won"], classic["win_rate"]) == (3, 2, 0.6667)
    assert (classic["best_time_ms"], classic["fewest_moves"], classic["clean_wins"]) == (300_000, 155, 1)
    assert classic["average_time_ms"] == 360_000.0
    assert body["rules"]["relaxed"]["played"] == 1 and body["rules"]["relaxed"]["best_time_ms"] is None
    assert (body["overall"]["played"], body["overall"]["won"], body["overall"]["win_rate"]) == (4, 2, 0.5)
    daily = body["daily"]
    assert (daily["played"], daily["won"], daily["current_streak"], daily["best_rank"]) == (1, 0, 0, None)
    assert len(body["history"]) == 4


def test_a_guest_without_a_session_has_nothing_yet(guest):
    body = guest.get("/api/v1/me/stats").json()

    assert body["overall"]["played"] == 0 and body["history"] == [] and body["daily"]["longest_streak"] == 0


def test_a_bad_token_gets_no_guest_statistics_but_401(client):
    assert_error(client.get("/api/v1/me/stats", HTTP_AUTHORIZATION="Token nonsense"), 401, "authentication_failed")


def test_my_stats_give_totals_bests_and_averages_per_rule_and_overall(player, account):
    _won(account, time_ms=100_000, moves=200, score=625)
    _won(account, time_ms=50_000, moves=300, score=600)
    _won(account, rule_code=factories.fresh_code("R"), time_ms=40_000, moves=250, score=625)
    factories.game(owner=account, moves=12, created_at=timezone.now() - timedelta(minutes=5))  # played, not won
    factories.game(owner=account)  # dealt, never touched: not played
    factories.game(owner=factories.user())  # someone else's

    body = player.get("/api/v1/me/stats").json()

    assert body["username"] == account.username
    assert body["rules"]["classic"] == {
        "played": 3,
        "won": 2,
        "win_rate": 0.6667,
        "best_time_ms": 50_000,
        "fewest_moves": 200,
        "clean_wins": 1,
        "average_time_ms": 75_000.0,
        "average_moves": 250.0,
        "average_score": 612.5,
    }
    assert body["rules"]["relaxed"]["played"] == 1 and body["rules"]["relaxed"]["best_time_ms"] == 40_000
    overall = body["overall"]
    assert (overall["played"], overall["won"], overall["win_rate"]) == (4, 3, 0.75)
    assert (overall["best_time_ms"], overall["fewest_moves"], overall["clean_wins"]) == (40_000, 200, 2)
    assert overall["average_time_ms"] == pytest.approx(63_333.3)
    # Oldest first: the game not won was dealt five minutes ago.
    assert len(body["history"]) == 4 and [h["won"] for h in body["history"]] == [False, True, True, True]
    # The chart's bars: a win's final time, an unfinished game's clock so far (issue 28 item 8).
    assert [h["elapsed_ms"] for h in body["history"][1:]] == [h["time_ms"] for h in body["history"][1:]]
    assert body["history"][0]["time_ms"] is None and 300_000 <= body["history"][0]["elapsed_ms"] < 400_000


def test_bests_come_from_the_personal_best_rows_not_from_the_games(player, account):
    _won(account, time_ms=100_000, moves=200, score=625)
    PersonalBest.objects.filter(user=account).update(best_time_ms=99)  # what the tasks recorded

    assert player.get("/api/v1/me/stats").json()["rules"]["classic"]["best_time_ms"] == 99


def test_the_history_is_the_last_100_games_oldest_first(player, account):
    for _ in range(103):
        factories.game(owner=account, moves=3)
    factories.game(owner=account)  # the newest, never touched: not in the history

    history = player.get("/api/v1/me/stats").json()["history"]

    assert len(history) == 100
    assert history == sorted(history, key=lambda h: h["created_at"])
    assert set(history[0]) == {
        *("created_at", "finished_at", "rule", "daily", "ranked", "won", "time_ms", "elapsed_ms", "moves", "score")
    }


def test_daily_streaks_count_consecutive_days_won_up_to_today_or_yesterday(account, today):
    for days_ago in (1, 2, 3, 6, 7):
        day = today - timedelta(days=days_ago)
        deal(day)
        won_ranked_game(owner=account, day=day, time_ms=10_000)
    factories.game(owner=account, daily=today - timedelta(days=5), ranked=True, moves=4)  # played, not won
    factories.game(owner=account, daily=today - timedelta(days=4), ranked=True)  # dealt, never touched

    daily = selectors.player_stats(player=Player(user=account))["daily"]

    assert (daily["current_streak"], daily["longest_streak"]) == (3, 3)
    assert (daily["played"], daily["won"], daily["ranked"]) == (6, 5, 7)
    stale = selectors.player_stats(player=Player(user=account), now=timezone.now() + timedelta(days=3))["daily"]
    assert stale["current_streak"] == 0 and stale["longest_streak"] == 3


def test_the_best_daily_rank_uses_stored_ranks_of_past_days_and_counts_today(account, today):
    yesterday = today - timedelta(days=1)
    deal(yesterday)
    deal(today)
    for day, ahead in ((yesterday, 4), (today, 2)):
        for i in range(ahead):
            result_for(won_ranked_game(owner=factories.user(), day=day, time_ms=1_000 + i))
        result_for(won_ranked_game(owner=account, day=day, time_ms=50_000))
    services.daily_board_rebuild(day=yesterday)

    assert selectors.player_stats(player=Player(user=account))["daily"]["best_rank"] == 3
    assert selectors.player_stats(player=Player(user=account))["daily"]["ranked_won"] == 2


def test_public_stats_of_a_player_and_not_found_for_an_unknown_one(guest, account):
    _won(account, time_ms=100_000, moves=200, score=625)

    body = guest.get(f"/api/v1/players/{account.username}/stats").json()

    assert body["username"] == account.username and body["overall"]["won"] == 1
    assert_error(guest.get("/api/v1/players/nobody-here/stats"), 404, "not_found")


def test_the_new_answers_match_their_documented_shapes(components, player, account, today, todays_deal):
    state = player.post("/api/v1/games", {"daily": True}).json()
    assert_matches(components, "GameState", state)
    yesterday = today - timedelta(days=1)
    deal(yesterday)
    result_for(won_ranked_game(owner=account, day=yesterday, time_ms=1_000))

    assert_matches(components, "DailyDeal", player.get("/api/v1/daily").json())
    assert_matches(components, "DailyDeal", player.get(f"/api/v1/daily/{yesterday.isoformat()}").json())
    assert_matches(components, "DailyBoard", player.get(f"/api/v1/leaderboards/daily/{yesterday}").json())
    assert_matches(components, "MyStats", player.get("/api/v1/me/stats").json())
    assert_matches(components, "PlayerStats", player.get(f"/api/v1/players/{account.username}/stats").json())
    assert_matches(components, "GameSummary", player.get("/api/v1/games").json()["results"][0])


def test_the_page_modules_tests_read_an_answer_of_the_documented_shape(components):
    """tests/js/figures.test.mjs renders this answer of me/stats: it must be one the server can give."""
    answer = json.loads((Path(__file__).parents[1] / "js" / "fixtures" / "player_stats.json").read_text())

    assert_matches(components, "MyStats", answer)
    assert_matches(components, "MyStats", {**answer, "username": None, "member_since": None})
