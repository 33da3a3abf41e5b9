"""Engine speed: applying validated moves, legal-move generation, replaying a 200-move log.

Run with ``make bench`` or ``python bench/engine_bench.py``. Prints figures; asserts nothing.
Goals (issue 2): >= 200,000 moves/s applied, >= 20,000 positions/s of legal moves, < 2 ms replay.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game, GameCode, Move, Rule  # noqa: E402


def playouts(count: int, length: int, seed: int = 7) -> list[tuple[GameCode, list[Move | None]]]:
    """Random playouts (``None`` = undo) recorded to be applied again in the timed part."""
    rng = random.Random(seed)
    games = []
    for i in range(count):
        code = GameCode(Rule.CLASSIC if i % 2 == 0 else Rule.RELAXED, rng.randrange(26**7))
        game = Game.new(code)
        log: list[Move | None] = []
        for _ in range(length):
            moves = game.legal_moves()
            if not moves or game.is_won:
                break
            if game.history and rng.random() < 0.1:
                game.undo()
                log.append(None)
            else:
                move = rng.choice(moves)
                game.play(move)
                log.append(move)
        games.append((code, log))
    return games


def bench_apply(recorded: list[tuple[GameCode, list[Move | None]]]) -> float:
    total = sum(len(log) for _, log in recorded)
    starts = [(Game.new(code), log) for code, log in recorded]
    begin = time.perf_counter()
    for game, log in starts:
        play, undo = game.play, game.undo
        for move in log:
            if move is None:
                undo()
            else:
                play(move)
    return total / (time.perf_counter() - begin)


def bench_legal(recorded: list[tuple[GameCode, list[Move | None]]]) -> tuple[float, float]:
    positions = []
    for code, log in recorded:
        game = Game.new(code)
        for move in log:
            game.undo() if move is None else game.play(move)
            positions.append(Game.from_state(game.to_state()))
    begin = time.perf_counter()
    total = 0
    for game in positions:
        total += len(game.legal_moves())
    elapsed = time.perf_counter() - begin
    return len(positions) / elapsed, total / len(positions)


def bench_replay(recorded: list[tuple[GameCode, list[Move | None]]]) -> float:
    logs = [(code, ["undo" if m is None else str(m) for m in log]) for code, log in recorded if len(log) >= 200]
    logs = [(code, entries[:200]) for code, entries in logs]
    begin = time.perf_counter()
    for code, entries in logs:
        Game.replay(code, entries)
    return (time.perf_counter() - begin) / len(logs) * 1000


def main() -> None:
    recorded = playouts(count=300, length=250)
    moves = sum(len(log) for _, log in recorded)
    print(f"engine: {len(recorded)} random playouts, {moves} moves (10% undos)")
    best = max(bench_apply(recorded) for _ in range(3))
    print(f"engine: apply validated moves      {best:12,.0f} moves/s      (goal >= 200,000)")
    rate, average = max(bench_legal(recorded) for _ in range(3))
    goal = f"(goal >= 20,000; {average:.1f} moves/position)"
    print(f"engine: legal-move generation      {rate:12,.0f} positions/s  {goal}")
    replay = min(bench_replay(recorded) for _ in range(3))
    print(f"engine: replay a 200-move log      {replay:12.3f} ms           (goal < 2 ms)")


if __name__ == "__main__":
    main()
