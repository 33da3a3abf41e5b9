"""Personal bests and the daily leaderboard, kept by the tasks (run in-process here)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from games import signals
from games.models import DailyDeal, Game, StatusChoices
from games.tasks import log_pack, ranked_win_review
from stats import selectors, services, tasks
from stats import signals as stats_signals
from stats.models import DailyResult, PersonalBest
from tests import factories
from tests.stats.helpers import deal, result_for, win, win_as_a_human, winning_line, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _bests(user):
    return {
        pb.rule: (pb.best_time_ms, pb.fewest_moves, pb.clean_wins, pb.updated_at)
        for pb in PersonalBest.objects.filter(user=user)
    }


def test_winning_the_ranked_attempt_updates_the_personal_best_and_the_board(
    player, account, today, todays_deal, django_capture_on_commit_callbacks
):
    state = player.post("/api/v1/games", {"daily": True}).json()

    with django_capture_on_commit_callbacks(execute=False) as won_commit:
        won = win_as_a_human(player, state["id"])

    # The win's commit sends games' own two tasks, the log's packing and the review, and tells
    # stats nothing yet: a ranked win's bests and board wait for its verdict.
    assert [callback.func.__self__ for callback in won_commit] == [log_pack, ranked_win_review]
    assert won["review"] == "pending" and won["ranked"] is True
    assert not PersonalBest.objects.exists() and not DailyResult.objects.exists()
    with django_capture_on_commit_callbacks(execute=True) as review_commit:
        for callback in won_commit:
            callback()
    # The review's commit sends the one event, for this game; stats' one task records the rest and,
    # its result on the board, tells the apps above (social: the week of the player's clubs).
    assert [(callback.func.__self__, callback.keywords) for callback in review_commit] == [
        (signals.results_changed, {"sender": Game, "game_ids": [state["id"]]}),
        (stats_signals.daily_result_changed, {"sender": DailyResult, "game_ids": [state["id"]]}),
    ]
    game = Game.objects.get(pk=state["id"])
    assert game.time_ms == won["elapsed_ms"] and game.review == "verified"
    moves = len(winning_line(todays_deal.code))
    best = PersonalBest.objects.get(user=account, rule="classic")
    assert (best.best_time_ms, best.fewest_moves, best.clean_wins) == (game.time_ms, moves, int(game.score == 625))
    board = player.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    line = {
        "rank": 1,
        "username": account.username,
        "time_ms": game.time_ms,
        "moves": moves,
        "score": game.score,
        "verified": True,  # the review's replay reproduced it
        "replay": None,  # today's games stay private
    }
    number = (today - date(2026, 11, 30)).days + 1
    assert board == {
        "date": today.isoformat(),
        "number": number,
        "players": 1,
        "par": None,  # the deal's solution length only once the day is over
        "entries": [line],
        "me": {**line, "public": True, "public_in_days": None},  # on the public board
    }
    assert player.get(f"/api/v1/games/{state['id']}").json()["review"] == "verified"


def test_a_won_practice_game_of_the_days_deal_counts_for_no_best_and_never_for_the_board(
    player, account, today, todays_deal, django_capture_on_commit_callbacks
):
    ranked = player.post("/api/v1/games", {"daily": True}).json()
    # Over (played, and off the board's tasks).
    Game.objects.filter(pk=ranked["id"]).update(status=StatusChoices.WON, moves=120)
    practice = player.post("/api/v1/games", {"daily": True}).json()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        win(player, practice["id"])

    # The log's packing task and the event (no review, no post-mortem: that waits until its replay
    # is opened).
    assert [callback.func.__self__ for callback in callbacks] == [log_pack, signals.results_changed]
    # The attempt showed its cards (the same arrangement): a win, but no best (docs/statistics.md).
    assert not PersonalBest.objects.filter(user=account).exists()
    assert player.get("/api/v1/me/stats").json()["rules"]["classic"]["won"] == 2
    assert not DailyResult.objects.exists()
    tasks.game_results_update.delay(practice["id"])  # even if asked to
    assert not DailyResult.objects.exists()
    board = player.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    assert board["entries"] == [] and board["me"] is None and board["players"] == 1


def test_a_guests_win_sends_no_event(guest, django_capture_on_commit_callbacks):
    state = guest.post("/api/v1/games", {"rule": "classic"}).json()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        win(guest, state["id"])

    assert [callback.func.__self__ for callback in callbacks] == [log_pack]  # its log packed, no more
    assert not PersonalBest.objects.exists() and not DailyResult.objects.exists()


def test_signing_up_brings_the_guests_won_games_into_the_personal_bests(guest, django_capture_on_commit_callbacks):
    state = guest.post("/api/v1/games", {"rule": "relaxed"}).json()
    win(guest, state["id"])

    with django_capture_on_commit_callbacks(execute=True):
        guest.post("/api/v1/auth/register", {"username": "newcomer", "password": factories.PASSWORD})

    best = PersonalBest.objects.get(user__username="newcomer")
    assert (best.rule, best.fewest_moves) == ("relaxed", 1)


def test_each_best_keeps_the_best_figure_of_any_won_game(account):
    fast = factories.game(owner=account, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
    Game.objects.filter(pk=fast.pk).update(time_ms=30_000, moves=300, score=600)
    short = factories.game(owner=account, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
    Game.objects.filter(pk=short.pk).update(time_ms=90_000, moves=120, score=625)
    slow = factories.game(owner=account, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
    Game.objects.filter(pk=slow.pk).update(time_ms=500_000, moves=900, score=100)

    for game in (short, fast, slow):
        tasks.game_results_update.delay(str(game.pk))

    best = PersonalBest.objects.get(user=account, rule="classic")
    assert (best.best_time_ms, best.fewest_moves, best.clean_wins) == (30_000, 120, 1)


def test_clean_wins_count_the_games_won_with_625_points_and_the_score_is_no_best(account):
    # Five take-back-and-return cycles raise a win to 675: no best, and not clean.
    scores = [625, 675, 625, 615]
    for score in scores:
        won = factories.game(owner=account, engine=factories.one_move_from_winning(), status=StatusChoices.WON)
        Game.objects.filter(pk=won.pk).update(time_ms=60_000, moves=200, score=score)
        tasks.game_results_update.delay(str(won.pk))
        tasks.game_results_update.delay(str(won.pk))  # delivered twice: counted once

    best = PersonalBest.objects.get(user=account, rule="classic")
    assert best.clean_wins == 2
    assert not hasattr(best, "best_score")
    services.personal_best_record(game_id=won.pk)
    assert PersonalBest.objects.get(user=account, rule="classic").clean_wins == 2


def test_running_the_tasks_twice_changes_nothing(account, today):
    deal(today)
    game = won_ranked_game(owner=account, day=today, time_ms=61_000, moves=150, score=625)

    tasks.game_results_update.delay(str(game.pk))
    bests, results = _bests(account), list(DailyResult.objects.values())
    tasks.game_results_update.delay(str(game.pk))
    services.personal_best_record(game_id=game.pk)
    services.daily_result_record(game_id=game.pk)

    assert _bests(account) == bests and len(bests) == 1
    assert list(DailyResult.objects.values()) == results and len(results) == 1
    assert results[0]["time_ms"] == 61_000 and results[0]["game_id"] == game.pk


def test_a_task_for_a_missing_or_unfinished_game_does_nothing(account):
    playing = factories.game(owner=account)

    tasks.game_results_update.delay(str(playing.pk))
    tasks.game_results_update.delay("00000000-0000-0000-0000-000000000000")

    assert not PersonalBest.objects.exists() and not DailyResult.objects.exists()


def test_the_board_orders_by_time_then_moves_then_finish_time_and_ties_share_a_rank(today):
    deal(today, players=5)
    base = won_ranked_game(owner=factories.user(username="base"), day=today, time_ms=1).finished_at
    lines = [
        ("slow", 90_000, 100, base),
        ("quick", 60_000, 200, base),
        ("quickfewer", 60_000, 150, base + timedelta(seconds=5)),
        ("twin", 60_000, 150, base + timedelta(seconds=5)),
        ("later", 60_000, 150, base + timedelta(seconds=9)),
    ]
    for name, time_ms, moves, finished_at in lines:
        result_for(
            won_ranked_game(
                owner=factories.user(username=name), day=today, time_ms=time_ms, moves=moves, finished_at=finished_at
            )
        )

    board = selectors.daily_board(day=today)

    assert [(e.rank, e.username) for e in board.entries] == [
        (1, "quickfewer"),
        (1, "twin"),
        (3, "later"),
        (4, "quick"),
        (5, "slow"),
    ]
    assert board.players == 5 and board.me is None


def test_my_rank_is_given_also_below_the_top_100(today):
    deal(today)
    users = [factories.user() for _ in range(105)]
    for i, user in enumerate(users):
        result_for(won_ranked_game(owner=user, day=today, time_ms=10_000 + i))

    board = selectors.daily_board(day=today, user=users[103])
    top = selectors.daily_board(day=today, user=users[0])

    assert len(board.entries) == 100 and board.entries[-1].rank == 100
    assert board.me.rank == 104 and board.me.username == users[103].username and board.me.time_ms == 10_103
    assert top.me == top.entries[0]
    me = factories.token_client(users[104]).get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()["me"]
    assert me == {
        "rank": 105,
        "username": users[104].username,
        "time_ms": 10_104,
        "moves": 100,
        "score": 625,
        "verified": True,
        "replay": None,
        "public": True,
        "public_in_days": None,
    }


def test_the_board_of_today_exists_before_anyone_plays(guest, today, todays_deal):
    body = guest.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()

    number = (today - date(2026, 11, 30)).days + 1
    assert body == {"date": today.isoformat(), "number": number, "players": 0, "par": None, "entries": [], "me": None}


def test_the_rebuild_restores_missing_results_corrects_wrong_ones_and_drops_strays(today):
    yesterday = today - timedelta(days=1)
    deal(yesterday, players=0)
    games = [won_ranked_game(owner=factories.user(), day=yesterday, time_ms=t) for t in (30_000, 20_000, 10_000)]
    wrong = result_for(games[0])
    DailyResult.objects.filter(pk=wrong.pk).update(time_ms=1)
    stray_owner = factories.user()
    practice = factories.game(owner=stray_owner, daily=yesterday, status=StatusChoices.WON, time_ms=5)
    DailyResult.objects.create(
        day=yesterday, user=stray_owner, game=practice, time_ms=5, moves=1, score=10, finished_at=games[0].finished_at
    )
    factories.game(owner=factories.user(), daily=yesterday, ranked=True)  # started, not won

    report = services.daily_board_rebuild(day=yesterday)

    assert report.upserted == 3 and report.removed == 1 and report.players == 4
    assert list(DailyResult.objects.order_by("rank").values_list("game_id", "time_ms", "rank")) == [
        (games[2].pk, 10_000, 1),
        (games[1].pk, 20_000, 2),
        (games[0].pk, 30_000, 3),
    ]
    assert DailyDeal.objects.get(date=yesterday).players == 4
    again = services.daily_board_rebuild(day=yesterday)
    assert (again.upserted, again.removed, again.ranked) == (0, 0, 0)


def test_todays_board_is_rebuilt_without_storing_ranks(today):
    deal(today)
    won_ranked_game(owner=factories.user(), day=today, time_ms=10_000)

    tasks.daily_boards_rebuild.delay()

    assert list(DailyResult.objects.values_list("day", "rank")) == [(today, None)]
    assert DailyDeal.objects.get(date=today).players == 1


def test_a_win_whose_task_was_lost_reaches_the_bests_through_the_repair_task(player, account):
    state = player.post("/api/v1/games", {"rule": "relaxed"}).json()
    win(player, state["id"])  # on_commit callbacks are not run here: as if the broker had been down
    assert not PersonalBest.objects.filter(user=account).exists()

    tasks.personal_bests_repair.delay()
    tasks.personal_bests_repair.delay()  # and again: nothing changes

    best = PersonalBest.objects.get(user=account, rule="relaxed")
    assert (best.fewest_moves, best.clean_wins) == (1, 0)
    old = Game.objects.filter(pk=state["id"])
    old.update(finished_at=old.get().finished_at - timedelta(hours=2))
    PersonalBest.objects.all().delete()
    tasks.personal_bests_repair.delay()
    assert not PersonalBest.objects.exists(), "only recent wins are looked at"


def test_a_rank_below_the_shown_board_is_every_result_ahead_across_buckets_and_ties(today):
    # Beyond the board's lines the player's rank comes from the time histogram's faster buckets
    # and a count within its own bucket (5 s): the same rank as counting everyone ahead.
    deal(today)
    me = factories.user(username="Latecomer")
    mine = result_for(won_ranked_game(owner=me, day=today, time_ms=123_400, moves=120))
    times = [61_000, 64_999, 65_000, 90_000, 120_000, 123_399, 123_400, 123_400, 123_401, 124_999, 125_000, 500_000]
    moves = [100, 100, 100, 100, 100, 130, 119, 121, 90, 100, 100, 100]
    for n, (time_ms, count) in enumerate(zip(times, moves, strict=True)):
        result_for(won_ranked_game(owner=factories.user(username=f"rival{n}"), day=today, time_ms=time_ms, moves=count))
    expected = 1 + sum(
        (result.time_ms, result.moves, result.finished_at) < (mine.time_ms, mine.moves, mine.finished_at)
        for result in DailyResult.objects.filter(day=today)
    )

    board = selectors.daily_board(day=today, user=me, limit=3)

    assert expected == 8  # six faster, and a tie on time with fewer moves
    assert board.me is not None and board.me.rank == expected
