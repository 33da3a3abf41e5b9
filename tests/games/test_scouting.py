"""docs/fair-play.md, "Scouting priced out: one arrangement of K": with one arrangement of the
day's face-down cards per account, scouting still works only for the arrangements the scouts
hold; the attack needs a scout for every arrangement an attacker might get.

Everything a scout or an attacker learns comes from the API's answers (a card turned up by a
move; ``"XX"`` before); the server's rows are read only to choose the accounts (which arrangement
each gets: the day's key) and to check what was learnt (the attacker's real deal). The day's deal
is prepared by the real ``daily_deals_prepare`` with ``DAILY_ARRANGEMENTS = 4``, its randomness
seeded so that the test plays the same deal every time.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from games.competition import clock, daily
from games.competition.arrangements import FACE_DOWN, arrangement_index
from games.engine import GameCode
from games.engine.cards import CARD_NAMES
from games.engine.codes import COLUMN_SIZES
from games.models import DailyArrangements, DailyDeal, Game
from tests import factories

pytestmark = pytest.mark.django_db

K = 4
FIRST_FLIPS = 3  # cards an attacker turns up (and takes back) to tell its arrangement
SCOUT_ENTRIES = 60  # requests a scout digs for (moves and undos): seconds of a bot
DIG_LIMIT = 400
START = [sum(COLUMN_SIZES[:column]) for column in range(len(COLUMN_SIZES))]  # a column's first slot


class Table:
    """An account's daily game seen through the API only: the answers, and every card it has seen
    turned up, by its slot in the deal (a face-down card never moves, so the place it turns up
    in is its slot)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        response = client.post("/api/v1/games", {"daily": True})
        assert response.status_code == 201, response.content
        self.state = response.json()
        self.url = f"/api/v1/games/{self.state['id']}"
        self.seen: dict[int, str] = {}
        self.entries = 0

    def _answer(self, response: Any) -> None:
        assert response.status_code == 200, response.content
        before, self.state = self.state["tableau"], response.json()
        self.entries += 1
        for column, (old, new) in enumerate(zip(before, self.state["tableau"], strict=True)):
            down = new.count("XX")
            if down < old.count("XX"):  # a card turned up: the highest face-down place of the column
                self.seen[START[column] + down] = new[down]

    def play(self, move: dict[str, Any]) -> None:
        self._answer(self.client.post(f"{self.url}/moves", move))

    def undo(self) -> None:
        self._answer(self.client.post(f"{self.url}/undo"))

    def turns_up(self, move: dict[str, Any]) -> bool:
        """Whether ``move`` turns a card up: it takes a column's whole face-up part."""
        if not move["from"].startswith("t"):
            return False
        column = self.state["tableau"][int(move["from"][1:]) - 1]
        down = column.count("XX")
        index = len(column) - 1 if move.get("card") is None else column.index(move["card"])
        return down > 0 and index == down


def dig(table: Table, *, entries: int = 0, enough: int = 21) -> None:
    """Runs of moves (one that turns a card up whenever there is one, else any), each taken back
    by undo, until ``entries`` requests are spent and the first ``FIRST_FLIPS`` cards seen, or
    ``enough`` cards seen (at most ``DIG_LIMIT`` requests). The choices come from a fixed seed and
    the answers alone, so two games of one arrangement dig alike and turn up the same cards first."""
    rng = random.Random(46)
    while (
        (table.entries < entries or len(table.seen) < FIRST_FLIPS)
        and len(table.seen) < enough
        and table.entries < DIG_LIMIT
    ):
        depth = 0
        for _ in range(rng.randrange(10, 60)):
            moves = table.state["legal_moves"]
            if not moves or len(table.seen) >= enough:
                break
            flips = [move for move in moves if table.turns_up(move)]
            table.play(rng.choice(flips or moves))
            depth += 1
        if not depth or table.state["status"] == "won":
            break
        for _ in range(min(depth, table.state["undo_available"])):
            table.undo()


def account_for(key: bytes, wanted: int) -> Any:
    """A new account whose arrangement is ``wanted`` (accounts are made until one is: one in K)."""
    for _ in range(50 * K):
        account = factories.user()
        if arrangement_index(key, account=account.pk, arrangements=K) == wanted:
            return account
    raise AssertionError(f"no account of {50 * K} got arrangement {wanted}")


def real_deal(table: Table) -> list[int]:
    return GameCode.parse(Game.objects.get(pk=table.state["id"]).code).order


@pytest.fixture
def day(settings: Any, monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Today's deal of K arrangements, prepared as the beat does (seeded: the same every run);
    its key (the server's secret, for choosing accounts)."""
    settings.DAILY_ARRANGEMENTS = K
    settings.DAILY_DAYS_AHEAD = 0
    settings.DAILY_SPARE_DEALS = 0
    rng = random.Random("scouting")
    monkeypatch.setattr(daily, "random_order", lambda: rng.sample(range(52), 52))
    monkeypatch.setattr(daily, "secrets", SimpleNamespace(token_bytes=rng.randbytes))  # the day's key only
    daily.daily_deals_prepare(today=clock.today())
    deal = DailyDeal.objects.get(date=clock.today())
    assert deal.arrangements == K
    return bytes(DailyArrangements.objects.get(deal=deal).key)


def scouts(key: bytes, arrangements: list[int]) -> dict[int, Table]:
    """A scout for each of ``arrangements``, each from an address of its own, its dig done."""
    out = {}
    for wanted in arrangements:
        table = Table(factories.token_client(account_for(key, wanted)))
        dig(table, entries=SCOUT_ENTRIES)
        out[wanted] = table
    return out


def matching(records: dict[int, Table], attacker: Table) -> list[int]:
    """The scouted arrangements whose cards agree with every card the attacker has seen."""
    return [
        index
        for index, scout in records.items()
        if all(scout.seen.get(slot) == card for slot, card in attacker.seen.items())
    ]


def test_with_a_scout_for_every_arrangement_an_attackers_first_flips_name_its_scout_and_the_cards_it_saw(day):
    records = scouts(day, list(range(K)))
    mine = 2
    attacker = Table(factories.token_client(account_for(day, mine)))

    dig(attacker, enough=FIRST_FLIPS)

    assert len(attacker.seen) == FIRST_FLIPS
    assert matching(records, attacker) == [mine]  # its own arrangement's scout, and no other
    deal = real_deal(attacker)
    known = records[mine].seen
    # Every card the scout saw lies in the same place in the attacker's deal, cards the attacker
    # never turned up among them.
    assert {slot: CARD_NAMES[deal[slot]] for slot in known} == known
    assert len(known) > FIRST_FLIPS and set(known) <= set(FACE_DOWN)


def test_without_a_scout_for_its_own_arrangement_an_attackers_first_flips_match_no_scout(day):
    mine = 1
    records = scouts(day, [index for index in range(K) if index != mine])
    attacker = Table(factories.token_client(account_for(day, mine)))

    dig(attacker, enough=FIRST_FLIPS)

    assert len(attacker.seen) == FIRST_FLIPS
    assert matching(records, attacker) == []
