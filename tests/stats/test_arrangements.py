"""One opening, many arrangements (docs/daily.md): every account gets the day's face-up cards and
face-down cards of its own, the same on every device; nothing tells an arrangement before the day
is over; then each account sees its own code and everyone the opening."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.competition import daily
from games.competition.arrangements import arrangement_index, opening_of, unpack
from games.engine import GameCode
from games.models import DailyArrangements, DailyDeal, Game, StatusChoices
from tests import factories

pytestmark = pytest.mark.django_db

K = 8


@pytest.fixture
def arranged(settings: Any, today: Any) -> DailyDeal:
    """Today's deal as the beat prepares it: an opening and K arrangements, really certified."""
    settings.DAILY_ARRANGEMENTS, settings.DAILY_DAYS_AHEAD, settings.DAILY_SPARE_DEALS = K, 0, 0
    daily.daily_deals_prepare(today=today)
    return DailyDeal.objects.get(date=today)


def index_of(deal: DailyDeal, account: Any) -> int:
    key = bytes(DailyArrangements.objects.get(deal=deal).key)
    return arrangement_index(key, account=account.pk, arrangements=deal.arrangements)


def accounts_with_other_arrangements(deal: DailyDeal, count: int) -> list[Any]:
    """``count`` new accounts whose arrangements all differ."""
    found: dict[int, Any] = {}
    while len(found) < count:
        account = factories.user()
        found.setdefault(index_of(deal, account), account)
    return list(found.values())


def face_down(code: str) -> list[int]:
    order = GameCode.parse(code).order
    return [card for card, place in zip(order, opening_of(order), strict=True) if place is None]


def test_every_arrangement_is_certified_winnable_and_under_the_same_opening(arranged):
    rows = DailyArrangements.objects.get(deal=arranged)
    codes = {str(daily.daily_arrangement(deal=arranged, user_id=account).code) for account in range(1, 200)}

    assert arranged.arrangements == K and len(unpack(rows.draws, "I")) == K
    assert len(codes) == K  # 199 accounts meet every arrangement, and no other deal
    openings = {opening_of(GameCode.parse(code).order) for code in codes}
    assert len(openings) == 1
    for code in codes:  # each one is really won by the solver within the certificate's budget
        assert daily.daily_certify(GameCode.parse(code)) is not None
    pars = list(unpack(rows.pars, "H"))
    assert max(pars) - min(pars) <= 2 * 4 and arranged.par_low == min(pars) and arranged.par_high == max(pars)


def test_two_accounts_get_the_same_face_up_cards_and_different_face_down_ones(arranged):
    first, second = accounts_with_other_arrangements(arranged, 2)

    states = [factories.token_client(each).post("/api/v1/games", {"daily": True}).json() for each in (first, second)]

    assert states[0]["tableau"] == states[1]["tableau"]  # the opening, face-down cards as "XX"
    assert states[0]["code"] is None and states[1]["code"] is None
    codes = [Game.objects.get(pk=state["id"]).code for state in states]
    assert codes[0] != codes[1] and sorted(face_down(codes[0])) == sorted(face_down(codes[1]))
    assert face_down(codes[0]) != face_down(codes[1])


def test_one_account_gets_its_arrangement_on_a_second_device_and_after_a_reload(arranged, account):
    phone, laptop = factories.token_client(account), APIClient(REMOTE_ADDR="10.99.0.1")
    laptop.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD}, format="json")

    ranked = phone.post("/api/v1/games", {"daily": True}).json()
    reloaded = phone.get(f"/api/v1/games/{ranked['id']}").json()
    Game.objects.filter(pk=ranked["id"]).update(status=StatusChoices.WON)  # the attempt is over
    practice = laptop.post("/api/v1/games", {"daily": True})

    assert practice.status_code == 201, practice.content
    assert reloaded["tableau"] == ranked["tableau"] == practice.json()["tableau"]
    assert Game.objects.get(pk=practice.json()["id"]).code == Game.objects.get(pk=ranked["id"]).code
    mine = daily.daily_arrangement(deal=arranged, user_id=account.pk)
    assert Game.objects.get(pk=ranked["id"]).code == str(mine.code)


def test_no_answer_before_the_close_names_a_code_or_an_arrangement(arranged, account, guest, today):
    player = factories.token_client(account)
    state = player.post("/api/v1/games", {"daily": True}).json()
    player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0] if state["legal_moves"] else {})
    secrets = {str(daily.daily_arrangement(deal=arranged, user_id=n).code) for n in range(1, 200)}
    secrets |= {code.split("-")[-1] for code in secrets}  # the letters alone too
    paths = [
        "/api/v1/daily",
        f"/api/v1/daily/{today.isoformat()}",
        f"/api/v1/games/{state['id']}",
        f"/api/v1/games/{state['id']}/moves",
        f"/api/v1/games/{state['id']}/replay",
        "/api/v1/games",
        f"/api/v1/leaderboards/daily/{today.isoformat()}",
        f"/api/v1/daily/{today.isoformat()}/standing",
        "/api/v1/daily/archive",
        "/api/v1/me/stats",
        "/api/v1/games/export",
    ]
    for client in (player, guest):
        for path in paths:
            answer = client.get(path)
            assert answer.status_code < 500, (path, answer.status_code)
            body = b"".join(answer.streaming_content if answer.streaming else [answer.content]).decode()
            assert not any(secret in body for secret in secrets), path
            assert "YU2-" not in body, path


def test_after_the_close_each_account_sees_its_own_code_and_everyone_the_opening(arranged, guest, today):
    first, second = accounts_with_other_arrangements(arranged, 2)
    clients = [factories.token_client(each) for each in (first, second)]
    games = [client.post("/api/v1/games", {"daily": True}).json()["id"] for client in clients]
    yesterday = today - timedelta(days=1)
    DailyDeal.objects.filter(pk=arranged.pk).update(date=yesterday)
    Game.objects.filter(pk__in=games).update(daily=yesterday)

    days = [client.get(f"/api/v1/daily/{yesterday.isoformat()}").json() for client in clients]
    anyone = guest.get(f"/api/v1/daily/{yesterday.isoformat()}").json()

    assert [day["code"] for day in days] == [Game.objects.get(pk=game).code for game in games]
    assert anyone["code"] == arranged.code  # the day's median arrangement
    assert days[0]["opening"] == days[1]["opening"] == anyone["opening"]
    assert sum(card != "XX" for column in anyone["opening"] for card in column) == 31
    assert all(day["arrangements"] == K for day in (*days, anyone))
    assert (anyone["par_low"], anyone["par_high"]) == (arranged.par_low, arranged.par_high)
    for client, game in zip(clients, games, strict=True):  # each game shows its own code and par
        shown = client.get(f"/api/v1/games/{game}").json()
        assert shown["code"] == Game.objects.get(pk=game).code
        assert arranged.par_low <= shown["solution_length"] <= arranged.par_high
    for client, game in zip(clients, games, strict=True):  # the archive says the same
        (row,) = client.get("/api/v1/daily/archive").json()["results"]
        assert (row["code"], row["arrangements"]) == (Game.objects.get(pk=game).code, K)
        assert (row["opening"], row["par_low"], row["par_high"]) == (
            anyone["opening"],
            arranged.par_low,
            arranged.par_high,
        )
    # Anyone may replay an arrangement as practice once the day is over.
    replay = guest.post("/api/v1/games", {"code": days[1]["code"]})
    assert replay.status_code == 201 and json.loads(replay.content)["tableau"][0] == anyone["opening"][0]


def test_a_day_before_arrangements_keeps_its_one_deal_for_everyone(todays_deal, today):
    codes = set()
    for _ in range(3):
        state = factories.token_client(factories.user()).post("/api/v1/games", {"daily": True}).json()
        codes.add(Game.objects.get(pk=state["id"]).code)

    assert codes == {"YU1-C-AAAAAAB"}
    assert factories.token_client(factories.user()).get("/api/v1/daily").json()["arrangements"] == 1


def test_the_arrangements_module_is_pure_and_its_examples_hold():
    """games/competition/arrangements.py: the standard library and the engine's codes only."""
    import ast
    import doctest
    import sys
    from pathlib import Path

    from games.competition import arrangements

    tree = ast.parse(Path(arrangements.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[0] in sys.stdlib_module_names or node.module.startswith("games.engine")
        elif isinstance(node, ast.Import):
            assert all(alias.name.split(".")[0] in sys.stdlib_module_names for alias in node.names)
    failures, tried = doctest.testmod(arrangements)
    assert tried > 0 and failures == 0
