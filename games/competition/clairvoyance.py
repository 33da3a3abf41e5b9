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
as the hint when nothing was turned down again) deals the unknown cards ``HINT_SAMPLES`` times
and solves every sample after every move. In each sample the move played gets a **score**: the
share of the other moves that sample makes easier to win than it (fewer nodes of the solver; a
sample not won within the budget is hardest). The real deal is scored the same way. An honest
player chooses from its knowledge alone, so for it the real deal is one more draw of the unknown
cards, exchangeable with the samples: the real score's rank among the samples' scores, ``u``
(0 to 1, ties halved), is uniform. A player who knows the hidden cards chooses the move that is
right for the real deal, so its move is easier in the real deal than in the samples, and ``u``
runs low. The statistic is ``z = sum(0.5 - u) / sqrt(n / 12)`` over the ``n`` decisions (about
standard normal for honest play; the decisions of one game share one deal, so honest ``z``
spreads wider than that, and ``Z_HOLD`` is set from honest lines in ``bench/fairplay_bench.py``).
A decision with ``u <= INFORMED_U`` is marked **informed** (staff see them in the replay).
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

__all__ = ["INFORMED_U", "MIN_DECISIONS", "Z_HOLD", "Decision", "Finding", "check", "winning_line"]

#: A win is held when its z-score is at least this (docs/fair-play.md gives the figures on honest
#: and scouted lines it was set from), over at least ``MIN_DECISIONS`` decisions.
Z_HOLD: Final = 4.0
MIN_DECISIONS: Final = 10
#: A decision whose move is easier in the real deal than in all but this share of the samples.
INFORMED_U: Final = 0.1


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision looked at: its log entry (``seq``), the move played, its rank ``u`` among
    the samples (low: easier in the real deal than in the samples) and whether it is marked
    ``informed``."""

    seq: int
    played: str
    u: float

    @property
    def informed(self) -> bool:
        return self.u <= INFORMED_U


@dataclass(frozen=True, slots=True)
class Finding:
    """The test's outcome: the ``decisions`` looked at, ``k`` of them informed, and ``z``."""

    decisions: tuple[Decision, ...]

    @property
    def n(self) -> int:
        return len(self.decisions)

    @property
    def k(self) -> int:
        return sum(d.informed for d in self.decisions)

    @property
    def z(self) -> float:
        if not self.decisions:
            return 0.0
        return sum(0.5 - d.u for d in self.decisions) / math.sqrt(self.n / 12)

    @property
    def clairvoyant(self) -> bool:
        return self.n >= MIN_DECISIONS and self.z >= Z_HOLD

    def reason(self) -> str:
        """The held reason's detail: ``<k> of <n> decisions, z = <z>``."""
        return f"{self.k} of {self.n} decisions, z = {self.z:.1f}"


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
            concrete = result.move if result.move is not None else move
            had = (*line[-1].had, position_key(line[-1].before)) if line else ()
            line.append(_Step(seq, before, concrete, frozenset(known), had))
            if result.flipped:
                known.add(CARD_NAMES.index(result.flipped))
    return game, line


def _unknown_down(game: Game, known: frozenset[int]) -> int:
    return sum(1 for col, d in zip(game.columns, game.down, strict=True) for c in col[:d] if c not in known)


def check(
    code: GameCode | str, entries: Sequence[str], *, samples: int = HINT_SAMPLES, max_nodes: int = HINT_NODES
) -> Finding:
    """The clairvoyance test of a won game's log (``ValueError`` if the log does not win)."""
    game, line = winning_line(code, entries)
    if not game.is_won:
        raise ValueError("the log does not win the game")
    decisions: list[Decision] = []
    for step in line:
        position = step.before
        if _unknown_down(position, step.known) < 2 or len(position.legal_moves()) < 2:
            continue  # nothing hidden to use, or no choice
        rating = rate(position, step.had, also=[step.move], known=step.known, samples=samples, max_nodes=max_nodes)
        moves = list(rating.wins)
        if len(moves) < 2:
            continue
        lost = 2 * max_nodes  # a sample not won within the budget: harder than any won one
        scores = [
            _score({m: rating.nodes[m][i] if rating.wins[m][i] else lost for m in moves}, step.move)
            for i in range(len(rating.wins[step.move]))
        ]
        real = {}
        for move in moves:
            after = position.copy()
            after.play(move)
            result = solve(after, max_nodes=max_nodes, max_seconds=None, line=False)
            real[move] = result.nodes if result.verdict is Verdict.WINNABLE else lost
        mine = _score(real, step.move)
        below = sum(score < mine for score in scores) + 0.5 * sum(score == mine for score in scores)
        decisions.append(Decision(step.seq, str(step.move), round((below + 0.5) / (len(scores) + 1), 4)))
    return Finding(tuple(decisions))


def _score(cost: dict[Move, int], played: Move) -> float:
    """The share of the other moves that are easier than ``played`` (ties halved)."""
    mine = cost[played]
    others = [c for move, c in cost.items() if move != played]
    return (sum(c < mine for c in others) + 0.5 * sum(c == mine for c in others)) / len(others)
