"""The hint followed from the first move to the last (issue 27): on seeded winnable classic and
relaxed deals, how many it wins alone, whether it ever goes round in a loop, and what it costs.

Run with ``make bench`` or ``python bench/hint_bench.py [--deals N] [--rule C|R] [--seed S]``
(per rule, default 100). A deal counts when the full-information solver wins it (1,000,000
nodes). Prints won %, loops (a hint back to a position the game had: must be 0), stuck (the hint
says "no progress"), hit the move limit, the hint's CPU time (median, p95, max), and for the deals
lost: from the last position the full-information solver still wins (the moment the hint first
went wrong), whether the hint's last position is still won by it ("lost by search": the hint
never made a fatal move) or not ("lost to the hidden cards": a move made without seeing them).
Floor: 0 loops, >= 60 % of the classic deals won, p95 <= 300 ms. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game, GameCode, Rule  # noqa: E402
from games.engine.codes import MAX_NUMBER  # noqa: E402
from games.solver import Verdict, solve  # noqa: E402
from games.solver.hint import HINT_NODES, HINT_SAMPLES, advise, position_key  # noqa: E402

MOVE_LIMIT = 500
DEAL_NODES = 1_000_000  # winnable deals: the full-information solver's budget
CHECK_NODES = 300_000  # where the hint went wrong


@dataclass
class Tally:
    won: int = 0
    loops: int = 0
    stuck: int = 0
    limit: int = 0
    by_search: int = 0
    by_hidden: int = 0
    undecided: int = 0
    times: list[float] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def winnable_deals(rule: Rule, count: int, seed: int) -> list[GameCode]:
    rng = random.Random(seed)
    out: list[GameCode] = []
    while len(out) < count:
        code = GameCode(rule, rng.randrange(MAX_NUMBER + 1))
        if solve(Game.new(code), max_nodes=DEAL_NODES, max_seconds=None).verdict is Verdict.WINNABLE:
            out.append(code)
    return out


def _wins(game: Game) -> bool | None:
    verdict = solve(game, max_nodes=CHECK_NODES, max_seconds=None).verdict
    return None if verdict is Verdict.UNKNOWN else verdict is Verdict.WINNABLE


def follow(code: GameCode, tally: Tally, samples: int = HINT_SAMPLES, nodes: int = HINT_NODES) -> str:
    """Play the hint's moves from the deal until the game is won, the hint gives up, a position
    comes back or the move limit is hit; what became of it (a word, for the progress lines)."""
    game = Game.new(code)
    end = ""
    seen = [position_key(game)]
    had = set(seen)
    path = [game.copy()]
    while not game.is_won:
        if len(path) > MOVE_LIMIT:
            tally.limit += 1
            end = "move limit"
            break
        begin = time.process_time()
        advice = advise(game, seen, samples=samples, max_nodes=nodes)
        tally.times.append(time.process_time() - begin)
        if advice.move is None:
            tally.stuck += 1
            end = "stuck"
            break
        game.play(advice.move)
        key = position_key(game)
        if key in had:
            tally.loops += 1
            end = "LOOP"
            break
        seen.append(key)
        had.add(key)
        path.append(game.copy())
    moves = f"{len(path) - 1} moves"
    if game.is_won:
        tally.won += 1
        return f"won ({moves})"
    tally.lost.append(str(code))
    last = _wins(path[-1])
    if last:
        tally.by_search += 1
        return f"{end} ({moves}), lost by search"
    if last is None:
        tally.undecided += 1
        return f"{end} ({moves}), undecided"
    # Winnability only falls along a path: find the last position still won (binary search).
    low, high = 0, len(path) - 1  # path[low] wins (the deal does), path[high] does not
    while high - low > 1:
        mid = (low + high) // 2
        answer = _wins(path[mid])
        if answer is None:
            tally.undecided += 1
            return f"{end} ({moves}), undecided"
        low, high = (mid, high) if answer else (low, mid)
    tally.by_hidden += 1
    return f"{end} ({moves}), lost to the hidden cards at move {low + 1}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="winnable deals per rule")
    parser.add_argument("--rule", choices=["C", "R"], help="one rule only")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--samples", type=int, default=HINT_SAMPLES, help="the hint's samples (to tune it)")
    parser.add_argument("--nodes", type=int, default=HINT_NODES, help="the hint's nodes per sample")
    args, _ = parser.parse_known_args()  # make bench may pass options meant for other benches
    rules = [Rule.from_letter(args.rule)] if args.rule else [Rule.CLASSIC, Rule.RELAXED]
    for rule in rules:
        begin = time.perf_counter()
        deals = winnable_deals(rule, args.deals, args.seed)
        tally = Tally()
        for number, code in enumerate(deals, 1):
            end = follow(code, tally, args.samples, args.nodes)
            print(f"hint: {rule.value}: {number}/{len(deals)} {code}: {end}; won {tally.won}/{number}", flush=True)
        n = len(deals)
        times = sorted(tally.times)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"hint: {rule.value}: {n} winnable deals, won {tally.won} ({100 * tally.won / n:.0f} %), "
            f"loops {tally.loops}, stuck {tally.stuck}, move limit {tally.limit}"
        )
        print(
            f"hint: {rule.value}: {len(times)} hints, CPU median {1000 * statistics.median(times):.0f} ms, "
            f"p95 {1000 * p95:.0f} ms, max {1000 * times[-1]:.0f} ms"
        )
        print(
            f"hint: {rule.value}: of {n - tally.won} lost, {tally.by_hidden} lost to the hidden cards "
            f"(the full-information solver wins where the hint first went wrong), {tally.by_search} "
            f"lost by search (it wins the hint's last position), {tally.undecided} undecided"
        )
        if tally.lost:
            print(f"hint: {rule.value}: lost {' '.join(tally.lost[:20])}")
        print(f"hint: {rule.value} took {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
