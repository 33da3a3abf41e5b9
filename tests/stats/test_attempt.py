"""The life of a ranked attempt (games/competition/attempt.py): each transition of its state
machine, that it happens only from the state it starts from, and that each change of what counts
sends one event (results_changed) that puts the result on the board or takes it off."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import signals
from games.competition import attempt, clock
from games.competition.attempt import AttemptState, HoldReason
from games.models import Game
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import play_all_but_the_last, win_as_a_human, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

S = AttemptState


@pytest.fixture
def events():
    """The game ids of every results_changed event sent (after the commit)."""
    sent: list[list[str]] = []

    def record(sender, *, game_ids, **kwargs):
        sent.append(game_ids)

    signals.results_changed.connect(record, dispatch_uid="test-attempt-events")
    yield sent
    signals.results_changed.disconnect(dispatch_uid="test-attempt-events")


def _open(owner, day) -> Game:
    return factories.game(owner=owner, daily=day, ranked=True)


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_staff_decide_exactly_the_documented_changes(account, today, decision):
    """docs/fair-play.md: staff approve a held result; they reject one that is held, verified or
    approved; a pending, invalid or rejected one they cannot touch. (The table that decides it
    is attempt.TRANSITIONS, read by the decision's conditional update.)"""
    states = ["pending", "verified", "held", "approved", "rejected", "invalid"]
    games = {
        state: won_ranked_game(owner=factories.user(), day=today, time_ms=90_000, review=state) for state in states
    }
    decide = attempt.attempts_approve if decision == "approve" else attempt.attempts_reject
    decided = decide(game_ids=[game.pk for game in games.values()], by=account)
    expected = {"approve": {"held"}, "reject": {"held", "verified", "approved"}}[decision]
    assert {state for state, game in games.items() if str(game.pk) in decided} == expected
    after = {state: Game.objects.get(pk=game.pk).review for state, game in games.items()}
    target = "approved" if decision == "approve" else "rejected"
    assert after == {state: target if state in expected else state for state in states}


def test_the_state_is_read_from_the_row(account, today):
    now = timezone.now()
    assert attempt.attempt_state(factories.game(owner=account, daily=today), now) is None  # practice
    game = _open(account, today)
    assert attempt.attempt_state(game, now) is S.OPEN
    game.review = "held"
    assert attempt.attempt_state(game, now) is S.HELD
    game.closed_at = clock.day_end(today)
    assert attempt.attempt_state(game, now) is S.CLOSED


def test_an_attempt_not_won_is_closed_at_midnight_before_the_close_task_runs(account, player, todays_deal, today):
    """Between 00:00 UTC and the close task the row still says open: the state, the game's answer
    and the day's answer say closed all the same (one reader, the clock included)."""
    game = _open(account, today)
    midnight = clock.day_end(today)
    assert attempt.attempt_state(game, midnight - timedelta(microseconds=1)) is S.OPEN
    assert attempt.attempt_state(game, midnight) is S.CLOSED
    won = won_ranked_game(owner=factories.user(), day=today, time_ms=90_000, review="held")
    assert attempt.attempt_state(won, midnight) is S.HELD  # a win before the close stays a win
    closed = {"state": "closed", "counts": False, "shareable": False}
    with time_machine.travel(midnight + timedelta(seconds=1), tick=False):
        state = player.get(f"/api/v1/games/{game.pk}").json()
        day = player.get(f"/api/v1/daily/{today.isoformat()}").json()["attempt"]
    assert Game.objects.get(pk=game.pk).closed_at is None  # the close task has not run
    assert state["attempt"] == closed and state["closed"] and state["ranked"] is False
    assert {key: day[key] for key in closed} == closed and day["status"] == "closed"


@pytest.mark.parametrize(
    ("state", "counts", "shareable"),
    [
        ("open", False, False),
        ("closed", False, False),
        ("pending", False, True),
        ("verified", True, True),
        ("held", False, True),
        ("approved", True, True),
        ("rejected", False, False),
        ("invalid", False, False),
    ],
)
def test_each_state_says_whether_it_counts_and_may_be_shared(state, counts, shareable):
    assert attempt.attempt_fields(S(state)) == {"state": state, "counts": counts, "shareable": shareable}


def test_a_change_the_table_has_not_is_refused(account, today):
    game = won_ranked_game(owner=account, day=today, time_ms=90_000, review="invalid")
    rows = Game.objects.filter(pk=game.pk)
    with pytest.raises(attempt.ChangeRefused) as refused:
        attempt.attempt_change(rows, source=S.INVALID, target=S.APPROVED, expected=1)
    assert not refused.value.allowed
    with pytest.raises(attempt.ChangeRefused):
        attempt.attempt_change(rows, source=S.REJECTED, target=S.PENDING)  # nothing leaves rejected
    assert Game.objects.get(pk=game.pk).review == "invalid"


def test_a_change_from_a_state_the_row_is_not_in_is_refused(account, today):
    game = won_ranked_game(owner=account, day=today, time_ms=90_000, review="verified")
    rows = Game.objects.filter(pk=game.pk)
    with pytest.raises(attempt.ChangeRefused) as refused:
        attempt.attempt_change(rows, source=S.HELD, target=S.APPROVED, expected=1)  # the table has it
    assert refused.value.allowed
    assert Game.objects.get(pk=game.pk).review == "verified"
    assert attempt.attempt_change(rows, source=S.VERIFIED, target=S.HELD, expected=1, hold_reasons=["linked"]) == 1
    assert attempt.hold_reasons(Game.objects.get(pk=game.pk)) == [HoldReason.LINKED]


# -- open → pending ----------------------------------------------------------------------------


def test_winning_an_open_attempt_makes_it_pending_and_nothing_else_does(account, today):
    game = _open(account, today)
    assert attempt.attempt_win(game, now=timezone.now()) == ["review"] and game.review == "pending"
    assert attempt.attempt_win(game, now=timezone.now()) == []  # pending: no second win

    practice = factories.game(owner=account, daily=today)
    closed = _open(factories.user(), today)
    closed.closed_at = clock.day_end(today)
    assert attempt.attempt_win(practice, now=timezone.now()) == attempt.attempt_win(closed, now=timezone.now()) == []
    assert practice.review == closed.review == ""


def test_the_winning_move_through_the_api_leaves_the_attempt_pending_for_the_task(
    player, todays_deal, django_capture_on_commit_callbacks
):
    game_id = player.post("/api/v1/games", {"daily": True}).json()["id"]
    with django_capture_on_commit_callbacks(execute=False):  # the review task is not sent yet
        won = win_as_a_human(player, game_id)

    assert won["review"] == "pending" and Game.objects.get(pk=game_id).review == "pending"
    assert not DailyResult.objects.exists()


# -- open → closed -----------------------------------------------------------------------------


def test_a_move_after_the_days_end_closes_the_open_attempt_in_memory(account, today):
    game = _open(account, today)
    end = clock.day_end(today)

    assert attempt.attempt_close(game, now=end - timedelta(microseconds=1)) == [] and game.closed_at is None
    assert attempt.attempt_close(game, now=end) == ["closed_at"] and game.closed_at == end
    assert attempt.attempt_close(game, now=end) == []  # closed already


def test_the_close_closes_every_open_attempt_of_a_day_that_is_over_and_only_those(account, today):
    yesterday = today - timedelta(days=1)
    left_open = _open(account, yesterday)
    won = won_ranked_game(owner=factories.user(), day=yesterday, time_ms=90_000)
    running = _open(factories.user(), today)

    assert attempt.attempts_close() == 1
    assert attempt.attempts_close() == 0  # idempotent

    assert Game.objects.get(pk=left_open.pk).closed_at == clock.day_end(yesterday)
    assert Game.objects.get(pk=won.pk).closed_at is None
    assert Game.objects.get(pk=running.pk).closed_at is None


# -- pending → verified | held(reasons) | invalid ---------------------------------------------------


def _pending(player, *, pace_ms: int, idle_ms: int = 0) -> str:
    """A ranked win, pending: its last move through the API, whose review task is never sent
    (the test's transaction never commits)."""
    game_id = player.post("/api/v1/games", {"daily": True}).json()["id"]
    last = play_all_but_the_last(game_id, pace_ms=pace_ms, idle_ms=idle_ms)
    assert player.post(f"/api/v1/games/{game_id}/moves", last.to_json()).json()["review"] == "pending"
    return game_id


def test_the_review_verifies_a_human_win_and_sends_one_event(
    player, todays_deal, events, django_capture_on_commit_callbacks
):
    game_id = _pending(player, pace_ms=700)
    assert attempt.attempt_state(Game.objects.get(pk=game_id), timezone.now()) is S.PENDING
    with django_capture_on_commit_callbacks(execute=True):
        assert attempt.attempt_review(game_id=game_id) == "verified"
        assert attempt.attempt_review(game_id=game_id) == "verified"  # decided once

    assert events == [[game_id]]
    assert DailyResult.objects.filter(game_id=game_id).exists()  # stats listened


def test_the_review_holds_a_win_for_every_reason_that_applies(
    player, todays_deal, events, django_capture_on_commit_callbacks
):
    game_id = _pending(player, pace_ms=200)  # about 20 s in all, 200 ms a move

    with django_capture_on_commit_callbacks(execute=True):
        assert attempt.attempt_review(game_id=game_id) == "held"

    game = Game.objects.get(pk=game_id)
    assert attempt.hold_reasons(game) == [HoldReason.TIME, HoldReason.PACE]
    assert "in all" in game.review_reason and "median gap between moves 200 ms" in game.review_reason
    assert events == [[game_id]] and not DailyResult.objects.exists()


def test_the_review_finds_a_log_that_does_not_replay_invalid(player, todays_deal, events):
    game_id = _pending(player, pace_ms=700)
    Game.objects.filter(pk=game_id).update(moves=3)

    assert attempt.attempt_review(game_id=game_id) == "invalid"
    assert attempt.attempt_state(Game.objects.get(pk=game_id), timezone.now()) is S.INVALID


def test_a_lost_review_task_is_made_up_by_the_beat(player, todays_deal, django_capture_on_commit_callbacks):
    from games import tasks

    game_id = _pending(player, pace_ms=700)  # its task lost
    Game.objects.filter(pk=game_id).update(finished_at=timezone.now() - timedelta(seconds=30))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.ranked_reviews_pending.apply()
    assert Game.objects.get(pk=game_id).review == "pending"  # its task may still be on its way

    Game.objects.filter(pk=game_id).update(finished_at=timezone.now() - timedelta(minutes=2))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.ranked_reviews_pending.apply()

    assert Game.objects.get(pk=game_id).review == "verified"
    assert DailyResult.objects.filter(game_id=game_id).exists()


# -- verified → held ---------------------------------------------------------------------------


def test_only_a_verified_win_is_held_after_its_review(account, today, events, django_capture_on_commit_callbacks):
    verified = won_ranked_game(owner=account, day=today, time_ms=90_000)
    others = {
        review: won_ranked_game(owner=factories.user(), day=today, time_ms=90_000, review=review)
        for review in ("pending", "held", "approved", "rejected", "invalid")
    }

    with django_capture_on_commit_callbacks(execute=True):
        assert attempt.attempt_hold(game_id=verified.pk, reason=HoldReason.PROBE, detail="a test") is True
        assert attempt.attempt_hold(game_id=verified.pk, reason=HoldReason.PROBE, detail="again") is False
        for review, game in others.items():
            assert attempt.attempt_hold(game_id=game.pk, reason=HoldReason.PROBE, detail="x") is False
            assert Game.objects.get(pk=game.pk).review == review

    verified.refresh_from_db()
    assert verified.review == "held" and attempt.hold_reasons(verified) == [HoldReason.PROBE]
    assert events == [[str(verified.pk)]]


# -- held → approved | rejected --------------------------------------------------------------------


def test_staff_approve_only_held_results_and_who_and_when_is_kept(
    account, today, events, django_capture_on_commit_callbacks
):
    referee = factories.user()
    held = won_ranked_game(owner=account, day=today, time_ms=30_000, review="held")
    verified = won_ranked_game(owner=factories.user(), day=today, time_ms=90_000)
    now = timezone.now()

    with django_capture_on_commit_callbacks(execute=True):
        decided = attempt.attempts_approve(game_ids=[held.pk, verified.pk], by=referee, now=now)

    assert decided == [str(held.pk)] and events == [[str(held.pk)]]
    held.refresh_from_db()
    assert (held.review, held.reviewed_by, held.reviewed_at) == ("approved", referee, now)
    assert Game.objects.get(pk=verified.pk).review == "verified"
    assert attempt.attempts_approve(game_ids=[held.pk], by=referee, now=now) == []  # approved once


def test_staff_reject_a_held_or_a_counted_result_and_rejected_is_final(
    account, today, events, django_capture_on_commit_callbacks
):
    referee = factories.user()
    held = won_ranked_game(owner=account, day=today, time_ms=30_000, review="held")
    verified = won_ranked_game(owner=factories.user(), day=today, time_ms=90_000)
    approved = won_ranked_game(owner=factories.user(), day=today, time_ms=95_000, review="approved")
    invalid = won_ranked_game(owner=factories.user(), day=today, time_ms=99_000, review="invalid")
    now = timezone.now()
    wanted = [held.pk, verified.pk, approved.pk, invalid.pk]

    with django_capture_on_commit_callbacks(execute=True):
        decided = attempt.attempts_reject(game_ids=wanted, by=referee, now=now)

    assert sorted(decided) == sorted(str(g.pk) for g in (held, verified, approved))
    assert dict(Game.objects.filter(pk__in=wanted).values_list("pk", "review")) == {
        held.pk: "rejected",
        verified.pk: "rejected",
        approved.pk: "rejected",
        invalid.pk: "invalid",
    }
    assert attempt.attempts_reject(game_ids=wanted, by=referee, now=now) == []  # final


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_reasons_of_the_wins_held_before_as_typed_values() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("games", "0021_under_review_index")], [("games", "0022_game_hold_reasons")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    owner = old.get_model("auth", "User").objects.create(username="held-before")
    OldGame = old.get_model("games", "Game")
    fields = {"owner": owner, "code": "YU1-C-AAAAAAB", "rule": "classic", "ranked": True, "status": "won", "state": {}}
    held = OldGame.objects.create(
        **fields,
        daily=clock.today(),
        review="held",
        review_reason="time: won in 40000 ms in all; linked: shares a device",
    )
    verified = OldGame.objects.create(
        **fields, daily=clock.today() - timedelta(days=1), review="verified", review_reason="replayed 90 moves"
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert attempt.hold_reasons(Game.objects.get(pk=held.pk)) == [HoldReason.TIME, HoldReason.LINKED]
    assert Game.objects.get(pk=verified.pk).hold_reasons == []
