"""Scouting priced out, measured (issue 46, item 4; docs/fair-play.md, "Scouting priced out: one
arrangement of K"): what the attack of issue 39 costs now that each account gets one of the day's
K arrangements of the face-down cards.

Run with ``python bench/scouting_bench.py [--arrangements K] [--trials T] [--api-attacks A]``.
The attack: N scouts (accounts on other networks, each digging its own attempt at machine speed:
play, look, undo) record the face-down cards of their arrangements; M probes (accounts that will
play at a human pace) each start the deal and turn up their first few cards; a probe whose cards
agree with a scout's record holds that scout's arrangement, knows its face-down cards and may win
it. Arrangements come from ``arrangement_index`` (a keyed hash of the account), uniform and
independent, so the attack is a birthday problem between the scouts and the probes.

1. **The model.** One probe's arrangement is among the scouts' with q = 1 - (1 - 1/K)^N, and the
   chance that at least one of M probes finds its arrangement scouted is, with the expected number
   of distinct scouted arrangements c = K q, about 1 - (1 - c/K)^M (the issue's formula); exactly,
   1 - E[(1 - C/K)^M] over the distribution of the number C of distinct scouted arrangements
   (both printed: they differ little). A table for a grid of N and M at K = 16,384 and at smaller
   K, and the fewest accounts N + M for a 50 % chance (the chance is symmetric in N and M: an even
   split); and, when every account digs its own attempt (at a human pace, so that it may still
   win) and is also a probe, the fewest accounts two of which share an arrangement.
2. **Monte-Carlo** with the product's ``arrangement_index``: random day keys and account ids.
3. **The real API** with a small K (``--api-arrangements``, 8): a scratch SQLite database, today's
   deal prepared by ``daily_deals_prepare``, accounts with tokens, each from an address of its own;
   ``--api-attacks`` attacks of N scouts and M probes (fresh accounts each), all through
   ``POST games {"daily": true}``, moves and undo. A scout digs (``dig``: runs of moves, one that
   turns a card up whenever there is one, taken back by undo) and records the cards it saw turn up
   by their places (a face-down card never moves); a probe digs the same way, from the same seed,
   until it has seen ``--flips`` cards, and looks for a scout whose record agrees with them. The
   server's rows are read only to say which probes really held a scouted arrangement.
4. **How many flips tell the arrangements apart**: the first f cards turned up are one of
   21 x 20 x ... of sequences; and, measured on ``--signatures`` arrangements of a random opening
   (through the engine, the same dig), how many arrangements share their first f cards with
   another.

Asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from games.competition.arrangements import FACE_DOWN, arrangement_index, arrangement_order  # noqa: E402
from games.engine import Game, GameCode, Move  # noqa: E402
from games.engine.cards import CARD_NAMES  # noqa: E402
from games.engine.codes import COLUMN_SIZES  # noqa: E402

START = [sum(COLUMN_SIZES[:column]) for column in range(len(COLUMN_SIZES))]
DIG_SEED = 46
DIG_LIMIT = 400


# -- 1. the model ----------------------------------------------------------------------------------


def covered(k: int, n: int) -> float:
    """q: the chance that one probe's arrangement is among those of ``n`` scouts."""
    return 1 - (1 - 1 / k) ** n


def p_issue(k: int, n: int, m: int) -> float:
    """The issue's formula: 1 - (1 - c/K)^M with c the expected distinct scouted arrangements."""
    return 1 - (1 - covered(k, n)) ** m


def distinct_distribution(k: int, n: int) -> list[float]:
    """P(C = c) for c = 0..n: the number of distinct arrangements among ``n`` scouts."""
    dist = [1.0] + [0.0] * n
    for i in range(n):
        nxt = [0.0] * (n + 1)
        for c in range(i + 1):
            if dist[c]:
                nxt[c] += dist[c] * c / k
                nxt[c + 1] += dist[c] * (k - c) / k
        dist = nxt
    return dist


def p_exact(k: int, n: int, m: int, dist: list[float] | None = None) -> float:
    """1 - E[(1 - C/K)^M]: the chance that at least one of ``m`` probes holds a scouted arrangement."""
    dist = dist if dist is not None else distinct_distribution(k, n)
    return 1 - sum(p * (1 - c / k) ** m for c, p in enumerate(dist) if p)


def fewest_accounts(k: int, goal: float = 0.5) -> tuple[int, int, int, float]:
    """The fewest N + M with a chance of at least ``goal`` (exact), and its split: (total, N, M, P).
    The chance is symmetric in N and M and grows with N x M, so an even split is the best."""
    total = max(2, int(2 * math.sqrt(k * math.log(1 / (1 - goal)))) - 10)
    while True:
        n = total // 2
        exact = p_exact(k, n, total - n)
        if exact >= goal:
            return total, n, total - n, exact
        total += 1


def fewest_sharing(k: int, goal: float = 0.5) -> int:
    """The fewest accounts among which two hold the same arrangement with a chance of ``goal``
    (the birthday problem): the attack when every account both scouts and probes."""
    apart, total = 1.0, 1
    while 1 - apart < goal:
        apart *= 1 - total / k
        total += 1
    return total


def model(k_main: int, others: list[int]) -> None:
    grid_n = [1, 10, 50, 100, 200, 500, 1000]
    grid_m = [1, 10, 50, 100, 200, 500]
    print(f"model: K = {k_main:,}: P(at least one of M probes holds an arrangement one of N scouts saw), exact")
    print("model:   N \\ M " + "".join(f"{m:>8}" for m in grid_m))
    for n in grid_n:
        dist = distinct_distribution(k_main, n)
        print(f"model: {n:>6}    " + "".join(f"{100 * p_exact(k_main, n, m, dist):7.1f}%" for m in grid_m))
    worst = max(abs(p_exact(k_main, n, m) - p_issue(k_main, n, m)) for n in (10, 100, 500) for m in (10, 100, 500))
    print(f"model: the issue's formula 1-(1-c/K)^M differs from the exact chance by at most {100 * worst:.2f} points")
    for k in [k_main, *others]:
        total, n, m, p = fewest_accounts(k)
        print(
            f"model: K = {k:>6,}: a 50 % chance takes {total} accounts (N = {n} scouts, M = {m} probes, "
            f"P = {100 * p:.1f} %); 2*sqrt(K ln 2) = {2 * math.sqrt(k * math.log(2)):.1f}; "
            f"one probe alone: {math.ceil(math.log(0.5) / math.log(1 - 1 / k))} scouts; every account both "
            f"scout and probe: {fewest_sharing(k)} accounts"
        )


# -- 2. Monte-Carlo with arrangement_index ----------------------------------------------------------


def monte_carlo(k: int, n: int, m: int, trials: int, rng: random.Random) -> float:
    hits = 0
    for _ in range(trials):
        key = rng.randbytes(32)
        ids = rng.sample(range(1, 10**9), n + m)
        scouted = {arrangement_index(key, account=i, arrangements=k) for i in ids[:n]}
        hits += any(arrangement_index(key, account=i, arrangements=k) in scouted for i in ids[n:])
    return hits / trials


# -- the dig, through the API or the engine -------------------------------------------------------------


class Table(Protocol):
    state: dict[str, Any]
    seen: dict[int, str]
    order: list[tuple[int, str]]  # the cards seen, in the order they first turned up
    entries: int

    def play(self, move: dict[str, Any]) -> None: ...
    def undo(self) -> None: ...


def note_flips(table: Table, before: list[list[str]]) -> None:
    """Cards turned up since ``before``: a column with fewer face-down cards shows the card of
    its highest face-down place, which is its slot in the deal."""
    for column, (old, new) in enumerate(zip(before, table.state["tableau"], strict=True)):
        down = new.count("XX")
        if down < old.count("XX"):
            slot = START[column] + down
            if slot not in table.seen:
                table.order.append((slot, new[down]))
            table.seen[slot] = new[down]


def turns_up(state: dict[str, Any], move: dict[str, Any]) -> bool:
    if not move["from"].startswith("t"):
        return False
    column = state["tableau"][int(move["from"][1:]) - 1]
    down = column.count("XX")
    index = len(column) - 1 if move.get("card") is None else column.index(move["card"])
    return down > 0 and index == down


def dig(table: Table, *, entries: int = 0, least: int = 0, enough: int = len(FACE_DOWN)) -> None:
    """Runs of moves (one that turns a card up whenever there is one), each taken back by undo,
    until ``entries`` requests are spent and ``least`` cards seen, or ``enough`` cards seen (at
    most ``DIG_LIMIT`` requests); seeded, so that two games of one arrangement dig alike
    (tests/games/test_scouting.py digs the same way)."""
    rng = random.Random(DIG_SEED)
    while (
        (table.entries < entries or len(table.seen) < least) and len(table.seen) < enough and table.entries < DIG_LIMIT
    ):
        depth = 0
        for _ in range(rng.randrange(10, 60)):
            moves = table.state["legal_moves"]
            if not moves or len(table.seen) >= enough:
                break
            flips = [move for move in moves if turns_up(table.state, move)]
            table.play(rng.choice(flips or moves))
            depth += 1
        if not depth or table.state["status"] == "won":
            break
        for _ in range(min(depth, table.state["undo_available"])):
            table.undo()


class EngineTable:
    """The dig on the engine's player view (the same dict the API answers with)."""

    def __init__(self, order: list[int]) -> None:
        self.game = Game.new(GameCode.from_order(order))
        self.state = self.game.view()
        self.seen: dict[int, str] = {}
        self.order: list[tuple[int, str]] = []
        self.entries = 0

    def _after(self) -> None:
        before, self.state = self.state["tableau"], self.game.view()
        self.entries += 1
        note_flips(self, before)

    def play(self, move: dict[str, Any]) -> None:
        self.game.play(Move.from_json(move))
        self._after()

    def undo(self) -> None:
        self.game.undo()
        self._after()


class ApiTable:
    """An account's daily game through the API: its answers only."""

    def __init__(self, client: Any) -> None:
        self.client = client
        response = client.post("/api/v1/games", {"daily": True}, format="json")
        if response.status_code != 201:
            raise RuntimeError(f"POST games daily: {response.status_code} {response.content[:200]!r}")
        self.state = response.json()
        self.url = f"/api/v1/games/{self.state['id']}"
        self.seen: dict[int, str] = {}
        self.order: list[tuple[int, str]] = []
        self.entries = 0

    def _answer(self, response: Any) -> None:
        if response.status_code != 200:
            raise RuntimeError(f"{self.url}: {response.status_code} {response.content[:200]!r}")
        before, self.state = self.state["tableau"], response.json()
        self.entries += 1
        note_flips(self, before)

    def play(self, move: dict[str, Any]) -> None:
        self._answer(self.client.post(f"{self.url}/moves", move, format="json"))

    def undo(self) -> None:
        self._answer(self.client.post(f"{self.url}/undo", format="json"))


def agrees(record: dict[int, str], probe: dict[int, str]) -> bool:
    return all(record.get(slot) == card for slot, card in probe.items())


# -- 3. the real API -------------------------------------------------------------------------------------


def api_check(k: int, n: int, m: int, attacks: int, flips: int, scout_entries: int) -> None:
    from scratch_db import django_on_scratch_sqlite

    os.environ.setdefault("ACCESS_LOG_LEVEL", "WARNING")  # a line per request otherwise
    django_on_scratch_sqlite("scouting")
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from accounts.actions.tokens import token_issue
    from accounts.models import Profile
    from games.competition import clock
    from games.competition.daily import daily_deals_prepare
    from games.models import DailyArrangements, DailyDeal, Game

    setup_test_environment()  # the test client's host name is allowed
    call_command("migrate", verbosity=0)
    settings.DAILY_ARRANGEMENTS, settings.DAILY_DAYS_AHEAD, settings.DAILY_SPARE_DEALS = k, 0, 0
    begin = time.perf_counter()
    daily_deals_prepare(today=clock.today())
    deal = DailyDeal.objects.get(date=clock.today())
    key = bytes(DailyArrangements.objects.get(deal=deal).key)
    print(f"api: today's deal prepared with K = {deal.arrangements} ({time.perf_counter() - begin:.1f} s)", flush=True)
    users = iter(range(1, 10**6))

    def account() -> tuple[Any, APIClient]:
        number = next(users)
        user = get_user_model().objects.create_user(username=f"scout{number}")  # no password: no hashing
        Profile.objects.create(user=user)
        _, token = token_issue(user=user, name="bench")
        client = APIClient(REMOTE_ADDR=f"10.{number >> 8 & 255}.{number & 255}.7")  # a network each
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        return user, client

    probes_held = probes_found = false_found = attacks_found = attacks_held = requests = 0
    seen_by_scouts: list[int] = []
    begin = time.perf_counter()
    for _ in range(attacks):
        scouted: dict[int, dict[int, str]] = {}
        records: list[dict[int, str]] = []
        for _ in range(n):
            user, client = account()
            table = ApiTable(client)
            dig(table, entries=scout_entries, least=flips)
            requests += table.entries + 1
            seen_by_scouts.append(len(table.seen))
            records.append(table.seen)
            scouted.setdefault(arrangement_index(key, account=user.pk, arrangements=k), table.seen)
        held = found = False
        for _ in range(m):
            user, client = account()
            table = ApiTable(client)
            dig(table, least=flips, enough=flips)
            requests += table.entries + 1
            mine = arrangement_index(key, account=user.pk, arrangements=k)
            match = [r for r in records if agrees(r, table.seen)]
            truth = mine in scouted
            probes_held += truth
            probes_found += bool(match)
            if match:
                real = GameCode.parse(Game.objects.get(pk=table.state["id"]).code).order
                false_found += any(real[slot] != CARD_NAMES.index(card) for slot, card in match[0].items())
            held, found = held or truth, found or bool(match)
        attacks_held += held
        attacks_found += found
    took = time.perf_counter() - begin
    total_probes = attacks * m
    print(
        f"api: {attacks} attacks of N = {n} scouts (digging up to {scout_entries} requests; they saw "
        f"{min(seen_by_scouts)}-{max(seen_by_scouts)} of 21 face-down cards, median "
        f"{statistics.median(seen_by_scouts):g}) and M = {m} probes ({flips} cards turned up each), K = {k}: "
        f"{requests} requests in {took:.0f} s"
    )
    print(
        f"api: probes whose first {flips} cards agreed with a scout's record: {probes_found} of {total_probes} "
        f"({100 * probes_found / total_probes:.0f} %); that really held a scouted arrangement: {probes_held}; "
        f"a record that named a wrong card: {false_found}; model q = {100 * covered(k, n):.0f} %"
    )
    print(
        f"api: attacks with at least one scouted probe: {attacks_found} of {attacks} "
        f"({100 * attacks_found / attacks:.0f} %; really {attacks_held}); model: {100 * p_exact(k, n, m):.0f} % "
        f"(issue's formula {100 * p_issue(k, n, m):.0f} %)"
    )


# -- 4. flips that tell the arrangements apart --------------------------------------------------------


def signatures(count: int, flips: int, rng: random.Random) -> None:
    for f in range(1, 7):
        sequences = math.perm(21, f)
        print(
            f"flips: {f} card(s) turned up: {sequences:,} sequences; at K = 16,384 another arrangement shares a "
            f"given one's about {16383 / sequences:.3g} times"
        )
    opening = list(range(52))
    rng.shuffle(opening)
    key = rng.randbytes(32)
    begin = time.perf_counter()
    firsts: list[list[tuple[int, str]]] = []
    for draw in range(count):
        table = EngineTable(arrangement_order(opening, key, draw))
        dig(table, least=flips, enough=flips)
        firsts.append(table.order)
    for f in range(1, flips + 1):
        groups = Counter(tuple(first[:f]) for first in firsts)
        shared = sum(size for size in groups.values() if size > 1)
        short = sum(1 for first in firsts if len(first) < f)
        print(
            f"flips: measured, {count:,} arrangements of one opening, the dig's first {f} card(s): "
            f"{len(groups):,} distinct, {shared:,} share theirs with another, the largest group "
            f"{max(groups.values())}; {short} digs turned up fewer (stuck within 400 moves and undos)"
        )
    print(f"flips: took {time.perf_counter() - begin:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arrangements", type=int, default=16384, help="K of the model (DAILY_ARRANGEMENTS)")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--trials", type=int, default=2000, help="Monte-Carlo trials a point")
    parser.add_argument("--api-arrangements", type=int, default=8, help="K of the API check")
    parser.add_argument("--api-scouts", type=int, default=3)
    parser.add_argument("--api-probes", type=int, default=3)
    parser.add_argument("--api-attacks", type=int, default=40)
    parser.add_argument("--flips", type=int, default=3, help="cards a probe turns up in the API check")
    parser.add_argument("--scout-entries", type=int, default=60, help="requests a scout's dig may make")
    parser.add_argument("--signatures", type=int, default=2000, help="arrangements measured in part 4")
    args, _ = parser.parse_known_args()
    rng = random.Random(args.seed)
    model(args.arrangements, [1024, 256, 16, 8, 4])
    begin = time.perf_counter()
    k = args.arrangements
    total, n50, m50, _ = fewest_accounts(k)
    points = [(k, n50, m50), (k, 50, 50), (k, 200, 200), (64, 8, 8), (16, 3, 5), (8, 3, 3)]
    for pk, pn, pm in points:
        measured = monte_carlo(pk, pn, pm, args.trials, rng)
        se = math.sqrt(measured * (1 - measured) / args.trials)
        print(
            f"monte-carlo: K = {pk:,}, N = {pn}, M = {pm}: {100 * measured:.1f} % +- {100 * se:.1f} of "
            f"{args.trials} (exact {100 * p_exact(pk, pn, pm):.1f} %, "
            f"issue's formula {100 * p_issue(pk, pn, pm):.1f} %)"
        )
    print(f"monte-carlo: took {time.perf_counter() - begin:.0f} s", flush=True)
    signatures(args.signatures, 5, rng)
    api_check(args.api_arrangements, args.api_scouts, args.api_probes, args.api_attacks, args.flips, args.scout_entries)


if __name__ == "__main__":
    main()
