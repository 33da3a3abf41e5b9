"""The clairvoyance test measured both ways (issue 39; docs/fair-play.md, "What the winner could
have known"): how many scouted wins it holds, how many honest wins it holds, and what it costs.

Run with ``make bench`` or ``python bench/fairplay_bench.py [--deals N] [--seed S] [--jobs J]``.
On seeded winnable classic deals (the daily deal's rule; the full-information solver wins them),
each deal is played four ways, through the engine with the logs the server would keep:

- **scouted**: two scouts play and undo at machine speed to see the face-down cards (each up to
  ``SCOUT_ENTRIES`` log entries), then a third account plans a winning line with the solver on
  the cards the scouts saw (the cards none saw are sampled, and the plan is made again when a
  card turns up other than the sample) and plays it without an undo;
- **smart**: the same scouting, but the winner plays the public hint's move whenever that move
  still wins with the scouted cards, and a solver line's move only where it must;
- **hint**: the public hint followed from the first move (honest);
- **explorer**: before each move it peeks under up to two columns (plays a move that turns a card
  up, looks, undoes it), then plays the best move by the hint's Monte-Carlo with everything its
  own attempt has shown, on samples of its own (honest).

Only won lines are checked (an attempt that is not won is never reviewed). Prints, per kind, the
wins held by the test (``games.competition.clairvoyance.check``) with the distribution of ``k``
and ``z``; the cards the scouts saw; and the test's CPU per checked win (median, p95, max; one
process each). Floors (issue 39): >= 95 % of scouted wins held on >= 100 deals, <= 1 % of >= 200
honest wins. Asserts nothing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hint_bench import winnable_deals  # noqa: E402

from games.competition.clairvoyance import MIN_INFORMED, Z_HOLD, Finding, check  # noqa: E402
from games.engine import Game, GameCode, Rule  # noqa: E402
from games.engine.cards import CARD_NAMES  # noqa: E402
from games.engine.moves import Move  # noqa: E402
from games.solver import Verdict, advise, position_key, solve  # noqa: E402
from games.solver.hint import _kind, _sampled_games, rate  # noqa: E402

MOVE_LIMIT = 400
SCOUT_ENTRIES = 900  # per scout: about 40 s of a bot's requests
PLAN_NODES = 200_000
PLAN_TRIES = 8
KINDS = ("scouted", "smart", "hint", "explorer")
HONEST = ("hint", "explorer")


class Player:
    """A game with the log the server keeps and the cards its attempt has shown."""

    def __init__(self, code: GameCode) -> None:
        self.game = Game.new(code)
        self.log: list[str] = []
        self.seen = {c for col, d in zip(self.game.columns, self.game.down, strict=True) for c in col[d:]}
        self.had = [position_key(self.game)]

    def play(self, move: Move) -> str | None:
        result = self.game.play(move)
        self.log.append(str(result.move or move))
        self.had.append(position_key(self.game))
        if result.flipped:
            self.seen.add(CARD_NAMES.index(result.flipped))
        return result.flipped

    def undo(self) -> None:
        self.game.undo()
        self.log.append("undo")
        self.had.append(position_key(self.game))


def scout(code: GameCode, rng: random.Random) -> set[int]:
    """A bot that digs: runs of random moves (one that turns a card up whenever there is one),
    each taken back to the deal by undo, until its entries are spent; the cards it saw."""
    player = Player(code)
    while len(player.log) < SCOUT_ENTRIES - 120:
        depth = 0
        for _ in range(rng.randrange(10, 60)):
            moves = player.game.legal_moves()
            if not moves or player.game.is_won:
                break
            flips = [m for m in moves if _kind(player.game, m) == 3]
            player.play(rng.choice(flips or moves))
            depth += 1
        if player.game.is_won or not depth:
            break
        for _ in range(min(depth, player.game.undo_available)):
            player.undo()
    return player.seen


def _plan(player: Player, known: set[int], rng: random.Random) -> list[Move] | None:
    """A winning line from here on the known cards, the others sampled; None if none found."""
    for attempt in range(PLAN_TRIES):
        sample = _sampled_games(player.game, 1, frozenset(known), salt=f"plan{attempt}{rng.random()}")[0]
        result = solve(sample, max_nodes=PLAN_NODES, max_seconds=None)
        if result.verdict is Verdict.WINNABLE and result.moves is not None:
            return list(result.moves)
    return None


def _wins_known(player: Player, move: Move, known: set[int]) -> bool:
    sample = _sampled_games(player.game, 1, frozenset(known), salt="smart")[0]
    sample.play(move)
    return solve(sample, max_nodes=PLAN_NODES // 2, max_seconds=None, line=False).verdict is Verdict.WINNABLE


def cheat(code: GameCode, scouted: set[int], rng: random.Random, *, smart: bool) -> list[str] | None:
    """The winner of a scouted deal: a solver line on the known cards (``smart``: the hint's
    move wherever it still wins with them); its log if it wins."""
    player = Player(code)
    plan: list[Move] = []
    while not player.game.is_won and len(player.log) < MOVE_LIMIT:
        known = scouted | player.seen
        move = None
        if smart:
            hint = advise(player.game, player.had).move
            if hint is not None and _wins_known(player, hint, known):
                move, plan = hint, []
        if move is None:
            if not plan or plan[0] not in player.game.legal_moves():
                plan = _plan(player, known, rng) or []
            if not plan:
                return None
            move = plan.pop(0)
        flipped = player.play(move)
        if flipped is not None and plan:
            plan = []  # a card turned up: plan again with it (the sample may have been wrong)
    return player.log if player.game.is_won else None


def follow_hint(code: GameCode) -> list[str] | None:
    player = Player(code)
    while not player.game.is_won and len(player.log) < MOVE_LIMIT:
        move = advise(player.game, player.had).move
        if move is None:
            return None
        player.play(move)
    return player.log if player.game.is_won else None


def explore(code: GameCode) -> list[str] | None:
    """An honest explorer: peeks under up to two columns before each move, then plays the best by
    the Monte-Carlo over what its attempt has shown (samples of its own: salt)."""
    player = Player(code)
    line = [position_key(player.game)]  # the positions of its own line (not the peeks)
    while not player.game.is_won and len(line) < MOVE_LIMIT:
        flips = [m for m in player.game.legal_moves() if _kind(player.game, m) == 3]
        for move in flips[:2]:
            player.play(move)
            player.undo()
        best = rate(player.game, line, known=frozenset(player.seen), salt="explorer").best
        if best is None:
            return None
        player.play(best)
        line.append(position_key(player.game))
    return player.log if player.game.is_won else None


@dataclass
class Checked:
    kind: str
    code: str
    finding: Finding
    seconds: float
    scouted: int = 0


def one_deal(task: tuple[str, int]) -> list[Checked]:
    text, number = task
    code = GameCode.parse(text)
    rng = random.Random(number)
    seen = scout(code, rng) | scout(code, rng)
    logs = {
        "scouted": cheat(code, seen, rng, smart=False),
        "smart": cheat(code, seen, rng, smart=True),
        "hint": follow_hint(code),
        "explorer": explore(code),
    }
    out = []
    for kind, log in logs.items():
        if log is None:
            continue
        begin = time.process_time()
        finding = check(code, log)
        out.append(
            Checked(kind, text, finding, time.process_time() - begin, len(seen) if kind in ("scouted", "smart") else 0)
        )
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100, help="winnable classic deals")
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--jobs", type=int, default=2, help="processes (the machine's cores)")
    args, _ = parser.parse_known_args()  # make bench may pass options meant for other benches
    begin = time.perf_counter()
    deals = winnable_deals(Rule.CLASSIC, args.deals, args.seed)
    print(f"fairplay: {len(deals)} winnable classic deals (seed {args.seed}), {args.jobs} processes", flush=True)
    results: list[Checked] = []
    with multiprocessing.Pool(args.jobs) as pool:
        tasks = [(str(code), number) for number, code in enumerate(deals)]
        for done, checked in enumerate(pool.imap_unordered(one_deal, tasks), 1):
            results.extend(checked)
            words = ", ".join(
                f"{c.kind} k={c.finding.k} z={c.finding.z:.1f}{' HELD' if c.finding.clairvoyant else ''}"
                for c in checked
            )
            print(f"fairplay: {done}/{len(deals)} {checked[0].code if checked else ''}: {words}", flush=True)
    print(f"fairplay: held at k >= {MIN_INFORMED} informed decisions and z >= {Z_HOLD}")
    for kind in KINDS:
        mine = [c for c in results if c.kind == kind]
        if not mine:
            print(f"fairplay: {kind}: no wins")
            continue
        held = sum(c.finding.clairvoyant for c in mine)
        ks = [c.finding.k for c in mine]
        zs = [c.finding.z for c in mine]
        print(
            f"fairplay: {kind}: {len(mine)} wins of {len(deals)} deals, held {held} ({100 * held / len(mine):.1f} %); "
            f"k median {statistics.median(ks):.0f} max {max(ks)}; z median {statistics.median(zs):.1f} "
            f"p5 {_pct(zs, 0.05):.1f} p95 {_pct(zs, 0.95):.1f}; decisions looked at median "
            f"{statistics.median(c.finding.looked_at for c in mine):.0f}"
        )
    scouted = [c.scouted for c in results if c.kind == "scouted"]
    if scouted:
        spread = f"min {min(scouted)} median {statistics.median(scouted):.0f} max {max(scouted)}"
        print(f"fairplay: cards seen by the two scouts (of 52): {spread}")
    honest = [c for c in results if c.kind in HONEST]
    if honest:
        held = sum(c.finding.clairvoyant for c in honest)
        print(f"fairplay: honest: {len(honest)} wins, held {held} ({100 * held / len(honest):.1f} %)")
    seconds = [c.seconds for c in results]
    if seconds:
        print(
            f"fairplay: the test's CPU per checked win: median {statistics.median(seconds):.2f} s, "
            f"p95 {_pct(seconds, 0.95):.2f} s, max {max(seconds):.2f} s ({len(seconds)} wins)"
        )
    print(f"fairplay: took {time.perf_counter() - begin:.0f} s")


if __name__ == "__main__":
    main()
