"""``python -m games.solver YU1-C-AAAAAAB`` prints a winning line; ``--sample N`` measures N random deals."""

from __future__ import annotations

import argparse
import sys

from games.engine.codes import Rule
from games.engine.errors import BadCode
from games.engine.game import Game

from .measure import sample
from .search import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.solver",
        description="Solve one game code and print the winning moves, or measure a sample of random deals.",
    )
    parser.add_argument("code", nargs="?", help="a game code such as YU1-C-AAAAAAB")
    parser.add_argument("--sample", type=int, metavar="N", help="solve N random deals and print the shares")
    parser.add_argument("--rule", choices=["C", "R", "c", "r"], default="C", help="for --sample: C classic, R relaxed")
    parser.add_argument(
        "--budget-seconds", type=float, default=DEFAULT_MAX_SECONDS, help="time budget per deal (default 2)"
    )
    parser.add_argument("--budget-nodes", type=int, default=DEFAULT_MAX_NODES, help="node budget per deal")
    parser.add_argument("--seed", type=int, default=1, help="for --sample: the seed of the deal numbers")
    parser.add_argument("--verbose", action="store_true", help="for --sample: one line per deal on stderr")
    args = parser.parse_args(argv)
    if (args.code is None) == (args.sample is None):
        parser.error("give either a game code or --sample N")
    if args.sample is not None:
        report = sample(
            Rule.from_letter(args.rule),
            args.sample,
            seed=args.seed,
            max_seconds=args.budget_seconds,
            max_nodes=args.budget_nodes,
            progress=args.verbose,
        )
        print(f"budget {args.budget_seconds:g} s / {args.budget_nodes:,} nodes per deal, seed {args.seed}")
        print("\n".join(report.lines()))
        return 0
    try:
        game = Game.from_code(args.code)
    except BadCode as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    result = solve(game, max_seconds=args.budget_seconds, max_nodes=args.budget_nodes)
    print(f"{game.code}: {result.verdict.value} ({result.nodes:,} nodes, {result.seconds:.2f} s)")
    if result.moves is not None:
        print(f"solution, {len(result.moves)} moves:")
        for start in range(0, len(result.moves), 12):
            print("  " + " ".join(str(m) for m in result.moves[start : start + 12]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
