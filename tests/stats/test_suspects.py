"""docs/fair-play.md, "One person, one result": an attempt of a day's deal at an inhuman pace (at
least 50 moves, a median gap under the review threshold), won or not, marks its account suspect
for that day, at the review of a win and at the day's close: evidence for staff. Since every account
has its own arrangement of the face-down cards (issue 46), a ranked win linked to a suspect account
is no longer held for that link (``linked_suspect``): it stays on the board."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games.competition import attempt, clock
from games.competition.attempt import HoldReason
from games.engine import Game as EngineGame
from games.engine import GameCode
from games.models import DailyDeal, DailySuspect, Game, MoveLog
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import deal, win_as_a_human, winning_line

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

NETWORK = "203.0.113."


def _client(last: int) -> APIClient:
    """A fresh account on the shared network."""
    return factories.token_client(factories.user(), REMOTE_ADDR=f"{NETWORK}{last}")


def _scout(client: APIClient, *, moves: int, pace_ms: int, at=None) -> Game:
    """The account's ranked attempt of today's deal, ``moves`` moves of a winning line made
    ``pace_ms`` apart (ending at ``at``, default now), not finished."""
    game_id = client.post("/api/v1/games", {"daily": True}).json()["id"]
    game = Game.objects.get(pk=game_id)
    line = winning_line(game.code)[:moves]
    assert len(line) == moves
    engine = EngineGame.new(GameCode.parse(game.code))
    start = (at or timezone.now()) - timedelta(milliseconds=pace_ms * moves)
    entries = []
    for seq, move in enumerate(line, start=1):
        result = engine.play(move)
        at_ = start + timedelta(milliseconds=pace_ms * seq)
        entries.append(MoveLog(game=game, seq=seq, move=str(result.move), points=result.points, created_at=at_))
    MoveLog.objects.bulk_create(entries)
    Game.objects.filter(pk=game.pk).update(state=engine.to_state(), moves=engine.moves, score=engine.score)
    return Game.objects.get(pk=game.pk)


def _win(client: APIClient, callbacks) -> Game:
    game_id = client.post("/api/v1/games", {"daily": True}).json()["id"]
    with callbacks(execute=True):
        win_as_a_human(client, game_id, pace_ms=700)
    return Game.objects.get(pk=game_id)


def _close(today, callbacks, *, after=timedelta(seconds=1)):
    with time_machine.travel(clock.day_end(today) + after, tick=False), callbacks(execute=True):
        return attempt.day_close()


def test_an_unfinished_attempt_at_an_inhuman_pace_marks_its_account_suspect_at_the_close(
    today, todays_deal, django_capture_on_commit_callbacks
):
    bot = _scout(_client(5), moves=60, pace_ms=100)
    human = _scout(_client(6), moves=60, pace_ms=900)
    short = _scout(_client(7), moves=49, pace_ms=100)  # too few moves to judge

    closed, held = _close(today, django_capture_on_commit_callbacks)

    assert (closed, held) == (3, 0)
    suspect = DailySuspect.objects.get()
    assert (suspect.user_id, suspect.day, suspect.game_id) == (bot.owner_id, today, bot.pk)
    assert (suspect.moves, suspect.median_gap_ms) == (60, 100)
    assert not DailySuspect.objects.filter(user_id__in=[human.owner_id, short.owner_id]).exists()
    assert DailyDeal.objects.get(date=today).closed_at is not None


def test_a_win_linked_to_a_suspect_that_played_before_it_stays_on_the_board_and_the_suspect_is_marked(
    today, todays_deal, django_capture_on_commit_callbacks
):
    scout = _scout(_client(5), moves=60, pace_ms=25)  # plays on, never wins

    game = _win(_client(200), django_capture_on_commit_callbacks)

    assert game.review == "verified" and attempt.hold_reasons(game) == []
    assert DailyResult.objects.filter(game=game).exists()
    assert _close(today, django_capture_on_commit_callbacks) == (1, 0)
    assert DailySuspect.objects.filter(user_id=scout.owner_id, day=today).exists()  # marked at the close
    assert Game.objects.get(pk=game.pk).review == "verified"


def test_a_win_stays_on_the_board_at_the_close_when_a_linked_account_plays_at_an_inhuman_pace_after_it(
    player, today, todays_deal, django_capture_on_commit_callbacks
):
    game = _win(_client(200), django_capture_on_commit_callbacks)
    assert game.review == "verified" and DailyResult.objects.filter(game=game).exists()
    scout = _scout(_client(5), moves=60, pace_ms=25, at=timezone.now() + timedelta(minutes=5))  # after the win

    closed, held = _close(today, django_capture_on_commit_callbacks)

    assert (closed, held) == (1, 0)
    assert DailySuspect.objects.filter(user_id=scout.owner_id, day=today).exists()  # evidence for staff
    assert Game.objects.get(pk=game.pk).review == "verified"
    board = player.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    assert [entry["username"] for entry in board["entries"]] == [game.owner.username]
    assert _close(today, django_capture_on_commit_callbacks, after=timedelta(minutes=10)) == (0, 0)  # once a day


def test_a_win_of_an_unlinked_account_stays_verified_at_the_close(
    today, todays_deal, django_capture_on_commit_callbacks
):
    elsewhere = factories.token_client(factories.user(), REMOTE_ADDR="198.51.100.9")
    game = _win(elsewhere, django_capture_on_commit_callbacks)
    _scout(_client(5), moves=60, pace_ms=25)

    assert _close(today, django_capture_on_commit_callbacks) == (1, 0)
    assert Game.objects.get(pk=game.pk).review == "verified"
    assert DailyResult.objects.filter(game=game).exists()


def test_moves_after_the_days_end_do_not_make_a_suspect(today, todays_deal, django_capture_on_commit_callbacks):
    game = _win(_client(200), django_capture_on_commit_callbacks)
    _scout(_client(5), moves=60, pace_ms=25, at=clock.day_end(today) + timedelta(seconds=30))  # practice by then

    assert _close(today, django_capture_on_commit_callbacks, after=timedelta(minutes=1)) == (1, 0)
    assert Game.objects.get(pk=game.pk).review == "verified" and not DailySuspect.objects.exists()


def test_a_suspect_of_yesterday_holds_no_win_of_today(today, todays_deal, django_capture_on_commit_callbacks):
    yesterday = today - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB")
    with time_machine.travel(clock.day_end(yesterday) - timedelta(hours=1), tick=False):
        scout = _scout(_client(5), moves=60, pace_ms=25)
        _client(6).post("/api/v1/games", {"daily": True})  # linked to it: the close looks at its pace
    _close(yesterday, django_capture_on_commit_callbacks)
    assert DailySuspect.objects.filter(user_id=scout.owner_id, day=yesterday).exists()

    game = _win(_client(200), django_capture_on_commit_callbacks)  # the same network, a day later

    assert game.review == "verified"
    assert _close(today, django_capture_on_commit_callbacks) == (0, 0)
    assert Game.objects.get(pk=game.pk).review == "verified"


def test_a_bot_win_is_held_and_marks_its_account_suspect_and_a_linked_win_stays_verified(
    today, todays_deal, django_capture_on_commit_callbacks
):
    bot = _client(5)
    bot_id = bot.post("/api/v1/games", {"daily": True}).json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        win_as_a_human(bot, bot_id, pace_ms=30)  # "won or not"
    bot_game = Game.objects.get(pk=bot_id)
    assert bot_game.review == "held" and HoldReason.PACE in attempt.hold_reasons(bot_game)
    assert DailySuspect.objects.filter(user_id=bot_game.owner_id, day=today).exists()

    game = _win(_client(200), django_capture_on_commit_callbacks)

    assert game.review == "verified" and attempt.hold_reasons(game) == []


def test_a_move_reads_nothing_of_the_fair_play_tables(player, today, todays_deal):
    _scout(_client(5), moves=60, pace_ms=25)
    state = player.post("/api/v1/games", {"daily": True}).json()

    with CaptureQueriesContext(connection) as queries:
        moved = player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])

    assert moved.status_code == 200
    tables = " ".join(query["sql"] for query in queries.captured_queries)
    assert "dailysuspect" not in tables and "dailystartlink" not in tables


def test_an_attempt_found_human_is_not_read_again_until_it_has_more_moves(today, todays_deal):
    from games.competition.suspects import suspects_scan

    human = _scout(_client(6), moves=60, pace_ms=900)
    assert suspects_scan(day=today, user_ids=[human.owner_id]) == set()

    def reads_the_log() -> bool:
        with CaptureQueriesContext(connection) as queries:
            assert suspects_scan(day=today, user_ids=[human.owner_id]) == set()
        return any("games_movelog" in query["sql"] for query in queries.captured_queries)

    assert not reads_the_log()
    Game.objects.filter(pk=human.pk).update(moves=61)  # played on
    assert reads_the_log()
