"""The clairvoyance test of a ranked win (docs/fair-play.md, "What the winner could have known"):
did the winning line use cards its own attempt had never shown?

Pure: the engine and the solver only, no Django (the review calls it in the worker; the bench
``bench/fairplay_bench.py`` calls it directly).

The log is replayed from the deal. At each move the attempt's **knowledge** is every card it had
shown face up so far, including cards seen and then turned down again by undo (an honest player
may remember them). The decisions looked at are the moves of the winning line (those not undone
later), each with the knowledge it was played with, where the player had a choice and at least
two face-down cards were unknown to it (one is known by elimination).

At each decision the public hint's Monte-Carlo (:func:`games.solver.hint.rate`: the same samples
as the hint when nothing was turned down again) deals the unknown cards ``HINT_SAMPLES`` times,
solves every sample after every move, and names the best move as the hint would. A decision is
**informed by hidden cards** when the move played is not that best move and the best is not won
in the real deal (the same solver finds no win in ten times the budget), while the
move played of course is (the line went on to win): the player stepped around a trap that
nothing it had seen showed. A best move not played counts once: stepping around the same trap at
the next moves is one decision. At most ``MAX_DECISIONS`` decisions are looked at.

An honest player chooses from its knowledge alone, so for it the real deal is one more draw of
the unknown cards: given the knowledge and that the move played won, the chance that the best
did not is what the samples say, ``p = P(best not won | played won)`` (counted in the samples
where the move played was won, with one sample either way as a prior). The informed decisions
``k`` of an honest line are then a sum of Bernoulli(p) (a Poisson binomial) with mean ``sum p``;
the statistic is its z-score ``z = (k - sum p) / sqrt(sum p(1 - p))``. A win is **clairvoyant**
when ``k >= MIN_INFORMED`` and ``z >= Z_HOLD`` (thresholds checked on honest lines by
``bench/fairplay_bench.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from games.engine import Game, GameCode, Move
from games.engine.cards import CARD_NAMES
from games.solver import Verdict, solve
from games.solver.hint import HINT_NODES, HINT_SAMPLES, position_key, rate

__all__ = ["MIN_INFORMED", "Z_HOLD", "Decision", "Finding", "check", "winning_line"]

#: A win is held with at least this many informed decisions and a z-score at least this high.
MIN_INFORMED: Final = 3
Z_HOLD: Final = 3.0
#: The real deal's budget for "the best move is not won": far more than the samples' (a deal
#: can be harder to solve than its samples, and a trap must be one, not a slow search).
REAL_NODES: Final = 30_000
#: The most decisions one test looks at (the first ones where something was hidden): its CPU is
#: bounded whatever the line's length (about 0.1 s a decision).
MAX_DECISIONS: Final = 120
PRIOR: Final = 1.0  # a sample either way in p (24 samples cannot tell a p of 0 from one of 4 %)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision where the move played was not the hint's best: its log entry (``seq``), the
    moves, how many of the samples each won, ``p`` (the chance for an honest player that the best
    was not won) and whether it was ``informed`` (the best was not won in the real deal)."""

    seq: int
    played: str
    best: str
    played_wins: int
    best_wins: int
    samples: int
    p: float
    informed: bool


@dataclass(frozen=True, slots=True)
class Finding:
    """The test's outcome: the decisions ``looked_at`` (a choice, unknown cards), those that
    differed from the best (``decisions``), ``k`` of them informed, and ``z``."""

    looked_at: int
    decisions: tuple[Decision, ...]

    @property
    def k(self) -> int:
        return sum(d.informed for d in self.decisions)

    @property
    def expected(self) -> float:
        return sum(d.p for d in self.decisions)

    @property
    def z(self) -> float:
        variance = sum(d.p * (1 - d.p) for d in self.decisions)
        excess = self.k - self.expected
        if variance > 0:
            return excess / math.sqrt(variance)
        return 0.0 if excess <= 0 else math.inf

    @property
    def clairvoyant(self) -> bool:
        return self.k >= MIN_INFORMED and self.z >= Z_HOLD

    def reason(self) -> str:
        """The held reason's detail: ``<k> of <n> decisions, z = <z>``."""
        z = "inf" if math.isinf(self.z) else f"{self.z:.1f}"
        return f"{self.k} of {self.looked_at} decisions, z = {z}"


@dataclass(frozen=True, slots=True)
class _Step:
    seq: int
    before: Game  # the position before the move (a copy)
    move: Move
    known: frozenset[int]  # cards shown face up so far
    had: tuple[str, ...]  # the positions the game had (the hint's history)


def winning_line(code: GameCode | str, entries: Iterable[str]) -> tuple[Game, list[_Step]]:
    """Replay ``entries`` (move texts and ``"undo"``) from the deal: the game at the end and the
    moves of the line that stands (undone moves dropped), each with what had been shown before it."""
    game = Game.new(code if isinstance(code, GameCode) else GameCode.parse(code))
    known = {c for col, d in zip(game.columns, game.down, strict=True) for c in col[d:]}
    line: list[_Step] = []
    for seq, entry in enumerate(entries, start=1):
        if entry == "undo":
            game.undo()
            line.pop()
        else:
            move = Move.parse(entry)
            before = game.copy()
            result = game.play(move)
            concrete = _listed(before, game)
            had = (*line[-1].had, position_key(line[-1].before)) if line else ()
            line.append(_Step(seq, before, concrete, frozenset(known), had))
            if result.flipped:
                known.add(CARD_NAMES.index(result.flipped))
    return game, line


def _listed(before: Game, after: Game) -> Move:
    """The move from ``before`` to ``after`` as ``legal_moves()`` lists it (a move sent as
    ``t3>t5`` or ``t3:KH>f`` is the same move as the listed one, and must compare equal)."""
    key = position_key(after)
    for move in before.legal_moves():
        trial = before.copy()
        trial.play(move)
        if position_key(trial) == key:
            return move
    raise ValueError("a move the engine accepted is not among its legal moves")


def _unknown_down(game: Game, known: frozenset[int]) -> int:
    return sum(1 for col, d in zip(game.columns, game.down, strict=True) for c in col[:d] if c not in known)


def check(
    code: GameCode | str,
    entries: Sequence[str],
    *,
    samples: int = HINT_SAMPLES,
    max_nodes: int = HINT_NODES,
    real_nodes: int = REAL_NODES,
) -> Finding:
    """The clairvoyance test of a won game's log (``ValueError`` if the log does not win)."""
    game, line = winning_line(code, entries)
    if not game.is_won:
        raise ValueError("the log does not win the game")
    looked_at = 0
    decisions: list[Decision] = []
    traps: set[str] = set()  # the best moves not played so far
    for step in line:
        position = step.before
        if _unknown_down(position, step.known) < 2 or len(position.legal_moves()) < 2:
            continue  # nothing hidden to use (one unknown card is known by elimination), or no choice
        if looked_at >= MAX_DECISIONS:
            break
        looked_at += 1
        rating = rate(position, step.had, also=[step.move], known=step.known, samples=samples, max_nodes=max_nodes)
        best = rating.best
        if best is None or best == step.move or str(best) in traps:
            continue  # the same trap stepped around again is one decision, not two
        traps.add(str(best))
        played, top = rating.wins[step.move], rating.wins[best]
        both = sum(1 for mine, theirs in zip(played, top, strict=True) if mine and not theirs)
        p = (both + PRIOR) / (sum(played) + 2 * PRIOR)
        after = position.copy()
        after.play(best)
        informed = solve(after, max_nodes=real_nodes, max_seconds=None, line=False).verdict is not Verdict.WINNABLE
        decisions.append(
            Decision(step.seq, str(step.move), str(best), sum(played), sum(top), len(played), round(p, 4), informed)
        )
    return Finding(looked_at, tuple(decisions))
