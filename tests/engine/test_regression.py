"""Fixed positions with their expected legal-move counts (perft), depth 1 and 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import Game

CASES = [
    line.split(" | ")
    for line in (Path(__file__).parent / "perft.txt").read_text().splitlines()
    if line and not line.startswith("#")
]


def perft(game: Game, depth: int) -> int:
    if depth == 1:
        return len(game.legal_moves())
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += perft(game, depth - 1)
        game.undo()
    return total


@pytest.mark.parametrize(("code", "log", "depth1", "depth2"), CASES, ids=[c[0] for c in CASES])
def test_legal_move_counts_match_the_regression_file(code: str, log: str, depth1: str, depth2: str) -> None:
    game = Game.replay(code, [] if log == "-" else log.split())
    assert perft(game, 1) == int(depth1)
    assert perft(game, 2) == int(depth2)
    assert len(CASES) >= 20
