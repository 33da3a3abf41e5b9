"""``python -m games.engine YU1-C-AAAAAAB [--reveal]``: print the deal of a game code."""

from __future__ import annotations

import argparse
import sys

from .codes import GameCode
from .errors import BadCode
from .game import Game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    parser.add_argument("code", help="a game code such as YU1-C-AAAAAAB")
    parser.add_argument("--reveal", action="store_true", help="show the face-down cards (lower case)")
    args = parser.parse_args(argv)
    try:
        game = Game.new(GameCode.parse(args.code))
    except BadCode as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.reveal:
        print(f"{game.code}  (face-down cards in lower case)")
        for n, text in enumerate(game.layout(), 1):
            print(f"t{n}: " + " ".join(text[i : i + 2] for i in range(0, len(text), 2)))
    else:
        print(game)
    return 0


if __name__ == "__main__":
    sys.exit(main())
