"""Solver figures: winnable / not winnable / unknown shares (95 % Wilson intervals), time per deal,
solution length, for random classic and relaxed deals with a 2 s budget each.

Run with ``make bench`` or ``python bench/solver_bench.py [--deals N]`` (per rule, default 200;
the full measurement is ``python -m games.solver --sample 1000 --rule C``). Prints figures;
asserts nothing. Goal (issue 7): >= 99 % of random classic deals decided, each in < 2 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Rule  # noqa: E402
from games.solver.measure import sample  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="random deals per rule")
    args, _ = parser.parse_known_args()  # make bench may pass options meant for other benches
    count = args.deals
    for rule in (Rule.CLASSIC, Rule.RELAXED):
        begin = time.perf_counter()
        report = sample(rule, count, seed=2026, max_seconds=2.0)
        for line in report.lines():
            print(f"solver: {line}")
        print(f"solver: {rule.value} sample took {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
