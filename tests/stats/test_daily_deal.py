"""The daily deal: a secret random ordering per UTC date, certified ahead of time, for accounts,
ranked first attempts, published once its day is over."""

from __future__ import annotations

import io
import threading
from datetime import date, timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from games.competition import daily
from games.engine import FOUNDATION, GameCode
from games.engine import Game as EngineGame
from games.models import DailyDeal, Game, StatusChoices
from games.solver import solve
from tests import factories
from tests.stats.helpers import deal
from tests.support import assert_error
from yukon_site.celery import app

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_solver(monkeypatch):
    """Any use of the solver fails the test: requests never certify a deal."""

    def forbidden(code):
        raise AssertionError("the solver ran in a request")

    monkeypatch.setattr(daily, "daily_certify", forbidden)


def test_get_daily_tells_date_rule_players_and_when_the_day_closes(player, today, todays_deal, no_solver):
    body = player.get("/api/v1/daily").json()

    assert body.pop("closes_in_ms") > 0
    assert body == {
        "date": today.isoformat(),
        "number": (today - date(2026, 11, 30)).days + 1,  # Yukon #1 was the first daily deal's day
        "rule": "classic",
        "played": 0,
        "closes_at": f"{(today + timedelta(days=1)).isoformat()}T00:00:00Z",
        "attempt": None,
        "arrangements": 1,  # a deal of the days before arrangements: one for everyone
    }


def test_without_a_deal_for_today_a_spare_certified_deal_is_taken_at_once(player, today, no_solver):
    spare = deal(None, code="YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG")

    first = player.get("/api/v1/daily")
    second = player.get("/api/v1/daily")

    assert first.status_code == 200 and first.json()["date"] == today.isoformat()
    assert second.json()["date"] == first.json()["date"]
    spare.refresh_from_db()
    assert spare.date == today and DailyDeal.objects.count() == 1


def test_with_no_deal_ready_the_answer_is_daily_not_ready_at_once_and_a_task_is_asked_once(
    player, guest, today, no_solver, _daily_preparation_asked, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answers = [
            player.get("/api/v1/daily"),
            player.post("/api/v1/games", {"daily": True}),
            guest.get(f"/api/v1/leaderboards/daily/{today.isoformat()}"),
        ]

    for answer in answers:
        assert_error(answer, 503, "daily_not_ready")
        assert answer["Retry-After"] == "5"
    assert not DailyDeal.objects.exists() and not Game.objects.exists()
    assert _daily_preparation_asked == ["daily_deals_prepare"]  # once a minute, however many ask


def test_posting_daily_starts_todays_deal_as_the_accounts_ranked_attempt(player, account, today, todays_deal):
    response = player.post("/api/v1/games", {"daily": True})

    assert response.status_code == 201
    state = response.json()
    assert state["daily"] == today.isoformat() and state["ranked"] is True and state["closed"] is False
    assert state["code"] is None and state["rule"] == "classic" and state["review"] is None
    assert state["closes_at"] == f"{(today + timedelta(days=1)).isoformat()}T00:00:00Z"
    assert 0 < state["closes_in_ms"] <= 86_400_000
    game = Game.objects.get(pk=state["id"])
    assert game.code == todays_deal.code
    body = player.get("/api/v1/daily").json()
    assert body["played"] == 1
    assert body["attempt"] == {
        "state": "open",
        "counts": False,
        "shareable": False,
        "game": state["id"],
        "status": "playing",
        "review": None,
        "held_for": None,
        "review_by": None,
        "moves": 0,
        "time_ms": None,
    }


def test_no_practice_copy_of_todays_deal_while_the_ranked_attempt_runs(player, today, todays_deal):
    first = player.post("/api/v1/games", {"daily": True}).json()

    refused = player.post("/api/v1/games", {"daily": True})

    assert_error(refused, 409, "daily_attempt_open")
    assert Game.objects.filter(daily=today).count() == 1
    assert player.get("/api/v1/daily").json()["attempt"]["game"] == first["id"]


def test_after_the_ranked_attempt_is_won_further_games_are_practice_and_not_counted_again(player, today, todays_deal):
    first = player.post("/api/v1/games", {"daily": True}).json()
    Game.objects.filter(pk=first["id"]).update(status=StatusChoices.WON)
    second = player.post("/api/v1/games", {"daily": True}).json()
    third = player.post("/api/v1/games", {"daily": True}).json()

    assert (first["ranked"], second["ranked"], third["ranked"]) == (True, False, False)
    assert second["closes_at"] is None and second["closed"] is False
    assert Game.objects.filter(daily=today, ranked=True).count() == 1
    assert player.get("/api/v1/daily").json()["played"] == 1
    assert player.get(f"/api/v1/games/{second['id']}").json()["ranked"] is False
    assert player.get("/api/v1/daily").json()["attempt"]["game"] == first["id"]


def test_other_games_say_ranked_null(player):
    state = player.post("/api/v1/games", {"rule": "relaxed"}).json()

    assert state["daily"] is None and state["ranked"] is None and state["closes_at"] is None


def test_todays_deal_is_for_accounts_a_guest_may_only_watch(guest, today, todays_deal):
    refused = guest.post("/api/v1/games", {"daily": True})

    assert_error(refused, 403, "daily_needs_account")
    assert not Game.objects.exists()
    assert guest.get("/api/v1/daily").json()["attempt"] is None
    board = guest.get(f"/api/v1/leaderboards/daily/{today.isoformat()}")
    assert board.status_code == 200 and board.json()["players"] == 0


def test_a_past_days_deal_is_published_and_anyone_may_replay_it(player, guest, today):
    yesterday = today - timedelta(days=1)
    past = deal(yesterday, code="YU1-C-AAAAAAB", players=7)

    body = guest.get(f"/api/v1/daily/{yesterday.isoformat()}").json()

    assert body["code"] == "YU1-C-AAAAAAB" and body["played"] == 7 and body["closes_in_ms"] == 0
    for client in (player, guest):
        replay = client.post("/api/v1/games", {"code": body["code"]})
        assert replay.status_code == 201
        assert replay.json()["code"] == past.code and replay.json()["daily"] is None


def test_a_past_version_2_deal_replays_the_same_cards(guest, today):
    yesterday = today - timedelta(days=1)
    v2 = str(GameCode.parse("YU1-C-AAAAAAB").to_version2())
    deal(yesterday, code=v2)

    code = guest.get(f"/api/v1/daily/{yesterday.isoformat()}").json()["code"]
    state = guest.post("/api/v1/games", {"code": code.lower()}).json()

    assert code == v2 == "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG" and state["code"] == v2
    assert state["tableau"] == EngineGame.from_code("YU1-C-AAAAAAB").view()["tableau"]


def test_todays_deal_by_date_has_no_code(guest, today, todays_deal):
    body = guest.get(f"/api/v1/daily/{today.isoformat()}").json()

    assert "code" not in body and body["date"] == today.isoformat()


def test_a_daily_game_shows_its_code_once_its_day_is_over(player, account, today, todays_deal):
    state = player.post("/api/v1/games", {"daily": True}).json()
    Game.objects.filter(pk=state["id"]).update(daily=today - timedelta(days=1))

    assert player.get(f"/api/v1/games/{state['id']}").json()["code"] == Game.objects.get(pk=state["id"]).code


@pytest.mark.parametrize("text", ["2026-02-30", "yesterday", "2026-1-5", "20260105", "2026-01-05x", "-001-01-01"])
def test_a_malformed_date_is_bad_date(guest, text):
    assert_error(guest.get(f"/api/v1/daily/{text}"), 400, "bad_date")
    assert_error(guest.get(f"/api/v1/leaderboards/daily/{text}"), 400, "bad_date")


def test_a_day_without_a_deal_or_in_the_future_is_not_found(guest, today, todays_deal):
    tomorrow = deal(today + timedelta(days=1))  # prepared ahead: still a secret, and not served
    for day in (today + timedelta(days=1), today - timedelta(days=30)):
        assert_error(guest.get(f"/api/v1/daily/{day.isoformat()}"), 404, "not_found")
        assert_error(guest.get(f"/api/v1/leaderboards/daily/{day.isoformat()}"), 404, "not_found")
    assert set(DailyDeal.objects.values_list("pk", flat=True)) == {todays_deal.pk, tomorrow.pk}


# -- preparing the deals ahead (the beat task) ---------------------------------------------------


def test_the_beat_task_prepares_today_tomorrow_and_spares_each_certified_once(
    today, settings, _daily_preparation_asked, django_capture_on_commit_callbacks
):
    settings.DAILY_SPARE_DEALS = 2
    runs = 0
    while True:  # one deal a run; the task asks for another run while deals are missing
        with django_capture_on_commit_callbacks(execute=True):
            app.tasks["games.daily_deals_prepare"].apply()
        runs += 1
        if not _daily_preparation_asked:
            break
        _daily_preparation_asked.clear()
    assert runs == 4  # 2 days + 2 spares, then a run that finds nothing to do
    app.tasks["games.daily_deals_prepare"].apply()  # and again: nothing new

    dated = list(DailyDeal.objects.filter(date__isnull=False).order_by("date"))
    assert [d.date for d in dated] == [today, today + timedelta(days=1)]
    assert DailyDeal.objects.filter(date__isnull=True).count() == 2
    deals = list(DailyDeal.objects.all())
    assert len({d.code for d in deals}) == 4
    for each in deals:
        code = each.game_code
        assert code.version == 2 and each.rule == "classic" and each.solution_length is not None
        assert each.arrangements == 8 and each.par_low <= each.solution_length <= each.par_high
    # The certificate is real: the solver's line wins today's deal (625 points, 10 more per take-back).
    line = solve(EngineGame.new(dated[0].game_code), max_seconds=30, max_nodes=None).moves
    game = EngineGame.new(dated[0].game_code)
    for move in line:
        game.play(move)
    take_backs = sum(1 for move in line if move.src >= FOUNDATION)
    assert game.is_won and game.score == 625 + 10 * take_backs


def test_an_arrangement_the_solver_cannot_certify_is_never_used_another_is_drawn(monkeypatch, today, settings):
    settings.DAILY_SPARE_DEALS = 0
    settings.DAILY_DAYS_AHEAD = 0
    settings.DAILY_ARRANGEMENTS = 4
    tried = []

    def certify(code):  # every third arrangement lost, the others of par 97
        tried.append(str(code))
        return None if len(tried) % 3 == 0 else 97

    monkeypatch.setattr(daily, "daily_certify", certify)

    daily.daily_deals_prepare(today=today)

    made = DailyDeal.objects.get(date=today)
    assert (made.solution_length, made.arrangements, made.par_low, made.par_high) == (97, 4, 97, 97)
    assert made.code in tried and made.code not in tried[2::3]
    assert len(set(tried)) == len(tried) and all(code.startswith("YU2-C-") for code in tried)


def test_daily_prepare_the_command_of_make_run_readies_today_and_tomorrow_before_serving(
    monkeypatch, today, settings, player
):
    """A fresh clone (no beat) shows a daily deal at once: ``make run`` runs this command first."""
    settings.DAILY_SPARE_DEALS = 1
    certified = []
    monkeypatch.setattr(daily, "daily_certify", lambda code: certified.append(str(code)) or 90)
    out = io.StringIO()

    call_command("daily_prepare", stdout=out)

    assert [d.date for d in DailyDeal.objects.filter(date__isnull=False).order_by("date")] == [
        today,
        today + timedelta(days=1),
    ]
    assert DailyDeal.objects.filter(date__isnull=True).count() == 1
    assert set(DailyDeal.objects.values_list("code", flat=True)) <= set(certified)
    assert f"{today.isoformat()}, {(today + timedelta(days=1)).isoformat()} given a deal" in out.getvalue()
    assert "3 drawn and certified" in out.getvalue()
    assert player.get("/api/v1/daily").status_code == 200
    drawn = len(certified)
    call_command("daily_prepare", stdout=io.StringIO())  # again: nothing new is drawn
    assert len(certified) == drawn


def test_daily_deals_made_before_version_2_keep_their_codes(today):
    """The migration wrote each old deal's number as its version-1 code; such a deal still deals."""
    old = deal(today - timedelta(days=3), code="YU1-C-AAAAAAB")

    assert old.game_code == GameCode.parse("YU1-C-AAAAAAB")
    assert EngineGame.new(old.game_code).view()["tableau"][0] == ["7H"]


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
def test_concurrent_first_requests_give_today_one_spare(today):
    spares = [deal(None, code=f"YU1-C-AAAAAA{letter}") for letter in "BCD"]
    clients = [factories.token_client(factories.user()) for _ in range(6)]

    answers = _at_once(6, lambda i: clients[i].get("/api/v1/daily").json())

    assert DailyDeal.objects.filter(date=today).count() == 1
    assert DailyDeal.objects.filter(date__isnull=True).count() == 2
    assert DailyDeal.objects.get(date=today).pk in {spare.pk for spare in spares}
    assert len({answer["date"] for answer in answers}) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_first_attempts_of_one_account_yield_one_ranked_game(today):
    account = factories.user()
    deal(today, code="YU1-C-AAAAAAB")

    answers = _at_once(6, lambda i: factories.token_client(account).post("/api/v1/games", {"daily": True}))

    assert sorted(answer.status_code for answer in answers) == [201] + [409] * 5
    assert {answer.json().get("error") for answer in answers if answer.status_code == 409} == {"daily_attempt_open"}
    assert Game.objects.filter(owner=account, daily=today, ranked=True).count() == 1
    assert DailyDeal.objects.get(date=today).players == 1
