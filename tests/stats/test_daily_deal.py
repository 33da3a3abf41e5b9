"""The daily deal: one secret random deal per UTC date, ranked first attempts, published afterwards."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games import daily
from games.engine import FOUNDATION, GameCode, Rule
from games.engine import Game as EngineGame
from games.engine.solve import solve
from games.models import DailyDeal, Game
from stats import tasks
from tests import factories
from tests.stats.helpers import deal
from tests.support import assert_error
from yukon_site.celery import app

pytestmark = pytest.mark.django_db


def test_get_daily_draws_todays_deal_once_and_tells_date_rule_and_players(player, today):
    first = player.get("/api/v1/daily")
    second = player.get("/api/v1/daily")

    assert first.status_code == 200
    assert first.json() == {"date": today.isoformat(), "rule": "classic", "played": 0}
    assert second.json() == first.json()
    assert DailyDeal.objects.count() == 1


def test_the_deal_number_is_drawn_with_the_cryptographic_source(monkeypatch, today):
    drawn = []

    def fake_random(rule):
        drawn.append(rule)
        return GameCode(rule, 4_242_424_242)

    monkeypatch.setattr(GameCode, "random", staticmethod(fake_random))

    created = daily.daily_deal_get_or_create(day=today)

    assert created.number == 4_242_424_242 and created.rule == "classic"
    assert [rule.value for rule in drawn] == ["classic"]
    assert daily.daily_code_for(day=today) == GameCode(Rule.CLASSIC, 4_242_424_242)


def test_posting_daily_starts_todays_deal_as_the_accounts_ranked_attempt(player, account, today):
    response = player.post("/api/v1/games", {"daily": True})

    assert response.status_code == 201
    state = response.json()
    assert state["daily"] == today.isoformat() and state["ranked"] is True
    assert state["code"] is None and state["rule"] == "classic"
    game = Game.objects.get(pk=state["id"])
    assert game.code == str(DailyDeal.objects.get(date=today).code)
    assert player.get("/api/v1/daily").json()["played"] == 1


def test_the_second_attempt_of_an_account_is_practice_and_not_counted_again(player, today):
    first = player.post("/api/v1/games", {"daily": True}).json()
    second = player.post("/api/v1/games", {"daily": True}).json()
    third = player.post("/api/v1/games", {"daily": True}).json()

    assert (first["ranked"], second["ranked"], third["ranked"]) == (True, False, False)
    assert Game.objects.filter(daily=today, ranked=True).count() == 1
    assert player.get("/api/v1/daily").json()["played"] == 1
    assert player.get(f"/api/v1/games/{second['id']}").json()["ranked"] is False


def test_other_games_say_ranked_null(player):
    state = player.post("/api/v1/games", {"rule": "relaxed"}).json()

    assert state["daily"] is None and state["ranked"] is None


def test_a_guest_may_play_the_daily_deal_but_is_never_ranked(guest, today):
    response = guest.post("/api/v1/games", {"daily": True})

    assert response.status_code == 201
    assert response.json()["ranked"] is False and response.json()["code"] is None
    assert guest.get("/api/v1/daily").json()["played"] == 0


def test_a_guest_who_signs_up_after_playing_the_deal_has_no_ranked_attempt_left(guest, today):
    guest.post("/api/v1/games", {"daily": True})
    registered = guest.post("/api/v1/auth/register", {"username": "latecomer", "password": factories.PASSWORD})
    assert registered.status_code == 201

    again = guest.post("/api/v1/games", {"daily": True}, HTTP_X_CSRFTOKEN=guest.cookies["csrftoken"].value)

    assert again.status_code == 201, again.content
    assert again.json()["ranked"] is False
    assert Game.objects.filter(owner__username="latecomer", daily=today).count() == 2


def test_a_past_days_deal_is_published_and_anyone_may_replay_it(player, guest, today):
    yesterday = today - timedelta(days=1)
    past = deal(yesterday, number=1, players=7)

    body = guest.get(f"/api/v1/daily/{yesterday.isoformat()}").json()

    assert body == {"date": yesterday.isoformat(), "rule": "classic", "played": 7, "code": "YU1-C-AAAAAAB"}
    replay = player.post("/api/v1/games", {"code": body["code"]})
    assert replay.status_code == 201
    assert replay.json()["code"] == str(past.code) and replay.json()["daily"] is None


def test_todays_deal_by_date_has_no_code(guest, today):
    body = guest.get(f"/api/v1/daily/{today.isoformat()}").json()

    assert body == {"date": today.isoformat(), "rule": "classic", "played": 0}


def test_a_daily_game_shows_its_code_once_its_day_is_over(player, account, today):
    state = player.post("/api/v1/games", {"daily": True}).json()
    Game.objects.filter(pk=state["id"]).update(daily=today - timedelta(days=1))

    assert player.get(f"/api/v1/games/{state['id']}").json()["code"] == Game.objects.get(pk=state["id"]).code


@pytest.mark.parametrize("text", ["2026-02-30", "yesterday", "2026-1-5", "20260105", "2026-01-05x", "-001-01-01"])
def test_a_malformed_date_is_bad_date(guest, text):
    assert_error(guest.get(f"/api/v1/daily/{text}"), 400, "bad_date")
    assert_error(guest.get(f"/api/v1/leaderboards/daily/{text}"), 400, "bad_date")


def test_a_day_without_a_deal_or_in_the_future_is_not_found(guest, today):
    for day in (today + timedelta(days=1), today - timedelta(days=30)):
        assert_error(guest.get(f"/api/v1/daily/{day.isoformat()}"), 404, "not_found")
        assert_error(guest.get(f"/api/v1/leaderboards/daily/{day.isoformat()}"), 404, "not_found")
    assert not DailyDeal.objects.exclude(date=today).exists()


def test_the_beat_task_creates_todays_deal_once_certified_winnable(today):
    tasks.daily_deal_create.apply()
    tasks.daily_deal_create.apply()

    deal = DailyDeal.objects.get()
    assert deal.date == today and deal.solution_length is not None
    # The certificate is real: the solver's line wins the deal (625 points, 10 more per take-back).
    line = solve(EngineGame.new(deal.code), max_seconds=30, max_nodes=None).moves
    game = EngineGame.new(deal.code)
    for move in line:
        game.play(move)
    take_backs = sum(1 for move in line if move.src >= FOUNDATION)
    assert game.is_won and game.score == 625 + 10 * take_backs
    assert len(line) == deal.solution_length


def test_a_deal_the_solver_cannot_certify_is_never_used_another_is_drawn(monkeypatch, today):
    tried = []

    def certify(number):
        tried.append(number)
        return 97 if len(tried) == 3 else None

    monkeypatch.setattr(daily, "daily_certify", certify)

    tasks.daily_deal_create.apply(kwargs={"day": (today + timedelta(days=1)).isoformat()})

    deal = DailyDeal.objects.get(date=today + timedelta(days=1))
    assert (deal.number, deal.solution_length) == (tried[2], 97)
    assert len(set(tried)) == 3


def test_the_next_days_deal_is_made_ahead_of_time(today):
    tasks.daily_deal_create.apply(kwargs={"ahead": 1})

    assert DailyDeal.objects.get().date == today + timedelta(days=1)


def test_the_beat_schedule_draws_the_deal_at_midnight_and_rebuilds_boards():
    schedule = app.conf.beat_schedule

    assert schedule["daily-deal"]["task"] == "stats.daily_deal_create"
    midnight = schedule["daily-deal"]["schedule"]
    assert midnight.hour == {0} and midnight.minute == {0}
    assert schedule["daily-boards"]["task"] == "stats.daily_boards_rebuild"
    assert 0 < float(schedule["daily-boards"]["schedule"]) <= 600  # seconds: at least every 10 minutes
    app.loader.import_default_modules()  # what a worker does at start: every app's tasks module
    assert set(app.tasks) >= {s["task"] for s in schedule.values()}


# -- real concurrency (PostgreSQL) ---------------------------------------------------------------


def _at_once(count, target):
    barrier = threading.Barrier(count)
    results, errors = [], []

    def run(index):
        try:
            barrier.wait(timeout=30)
            results.append(target(index))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_requests_create_one_daily_deal(today):
    clients = [factories.token_client(factories.user()) for _ in range(6)]

    answers = _at_once(6, lambda i: clients[i].get("/api/v1/daily").json())

    assert DailyDeal.objects.filter(date=today).count() == 1
    assert len({str(answer) for answer in answers}) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_attempts_of_one_account_yield_one_ranked_game(today):
    account = factories.user()
    daily.daily_deal_get_or_create(day=today)

    states = _at_once(6, lambda i: factories.token_client(account).post("/api/v1/games", {"daily": True}).json())

    assert sorted(state["ranked"] for state in states) == [False] * 5 + [True]
    assert Game.objects.filter(owner=account, daily=today, ranked=True).count() == 1
    assert DailyDeal.objects.get(date=today).players == 1
