"""The typed door to the compiled search and deadlock check (:mod:`.kernels`, numba).

The rest of the product calls only this module: engine values in (a :class:`Game`), engine
values out (statuses, node counts, winning lines as engine moves the engine has replayed).
numba compiles the kernels on first use, or loads them from its cache (``__pycache__`` beside
them, or ``NUMBA_CACHE_DIR``): :func:`warm_up` does it before a solver's clock starts.
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from games.engine.cards import RANK, SUIT
from games.engine.game import GROUP_LIMIT, Game
from games.engine.moves import FOUNDATION, TO_FOUNDATION, Move, Source, Target

from . import kernels
from .tables import CHILDREN, PARENTS, SAFE

__all__ = ["Run", "Searches", "Status", "is_deadlocked", "warm_up"]

Ints = npt.NDArray[np.int64]


class Status(enum.IntEnum):
    """How a search ended."""

    WON = kernels.WON  # with a winning line
    LOST = kernels.LOST  # the whole (soundly reduced) space searched: a proof
    OUT_OF_BUDGET = kernels.OUT_OF_BUDGET  # nodes spent, or the clock past the deadline
    TOO_DEEP = kernels.TOO_DEEP  # a path longer than it keeps, or a buffer full: unknown


#: The longest search path kept (a longer one ends the search: TOO_DEEP).
_MAX_DEPTH: Final = 20_000


def _padded(rows: tuple[tuple[int, ...], ...]) -> Ints:
    """A table of :mod:`.tables` (for each card, a few cards) as an array, -1 padded."""
    table = np.full((52, 4), -1, dtype=np.int64)
    for card, row in enumerate(rows):
        table[card, : len(row)] = row
    return table


def _safe_array(needs: tuple[tuple[tuple[int, int], ...], ...]) -> Ints:
    table = np.zeros((52, 3, 2), dtype=np.int64)
    for card, row in enumerate(needs):
        for j, (suit, rank) in enumerate(row):
            table[card, j] = (suit, rank)
    return table


#: For each rule (relaxed?): the parents, the children and the safe-move needs of every card.
_TABLES: Final = {
    relaxed: (_padded(PARENTS[relaxed]), _padded(CHILDREN[relaxed]), _safe_array(SAFE[relaxed]))
    for relaxed in (False, True)
}
_RANK: Final = np.array(RANK, dtype=np.int64)
_SUIT: Final = np.array(SUIT, dtype=np.int64)


def _arrays(game: Game) -> tuple[Ints, Ints, Ints, Ints]:
    """The position of ``game`` as the kernels' arrays: cards, lengths, face-down counts, foundations."""
    cols = np.zeros((7, 64), dtype=np.int64)
    lens = np.zeros(7, dtype=np.int64)
    for s, col in enumerate(game.columns):
        cols[s, : len(col)] = col
        lens[s] = len(col)
    return cols, lens, np.array(game.down, dtype=np.int64), np.array(game.foundations, dtype=np.int64)


def is_deadlocked(game: Game) -> bool:
    """Whether the deadlock check alone proves the position of ``game`` lost (``kernels._dead_in``)."""
    parents = _TABLES[game.relaxed][0]
    return bool(kernels.deadlocked(*_arrays(game), parents, _RANK, _SUIT))


@dataclass(frozen=True, slots=True)
class Run:
    """What one search gave: its status, the nodes it spent, and for WON the winning line (loops
    cut out, shortcuts taken: ``kernels.polish``)."""

    status: Status
    nodes: int
    line: tuple[Move, ...]


def _new_work() -> tuple[npt.NDArray[np.generic], ...]:
    """The search's scratch arrays (about 20 MB). Every search writes what it reads (the searches of
    one solve share them one after the other), so each thread keeps one set for all its solves:
    zeroing them anew took about 3 ms a solve, more than a hint's small searches themselves."""
    depth = _MAX_DEPTH
    return (
        np.zeros(1 << 21, dtype=np.int64),  # the moves of the frames on the path, a stack
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.bool_),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth * 8 + 256, dtype=np.int64),  # the moves up (and swaps) made on entering
        np.zeros(depth * 8 + 256, dtype=np.bool_),
        np.zeros(depth, dtype=np.int64),
        np.zeros(1 << 18, dtype=np.int64),  # the families' members: where from, by which swap
        np.zeros(1 << 18, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(depth, dtype=np.int64),
        np.zeros(kernels.MOVES, dtype=np.int64),  # one position's moves (or swaps), as found
        np.zeros(kernels.FAMILY, dtype=np.int64),  # the swaps to one member
        np.zeros(kernels.FAMILY, dtype=np.int64),  # the members, as bits: which groups are swapped
    )


_local = threading.local()


def _work() -> tuple[npt.NDArray[np.generic], ...]:
    work = getattr(_local, "work", None)
    if work is None:
        work = _local.work = _new_work()
    return work


class Searches:
    """The searches of one solve from ``game``'s position. They share what they learn about
    positions: the deadlock check's answers, and the positions proven lost (``kernels.search``)."""

    def __init__(self, game: Game) -> None:
        self.start = game.copy()
        self.cols, self.lens, self.down, self.fnd = _arrays(game)
        self.relaxed = game.relaxed
        self.known = np.zeros((1 << 12, 2), dtype=np.uint64)
        self.known_dead = np.zeros(1 << 12, dtype=np.bool_)
        self.known_count = np.zeros(1, dtype=np.int64)
        self.work = _work()
        self.lines = True  # False: a win comes back without its line (no polish, no replay)

    def run(
        self, max_nodes: int | None, deadline: float | None, noise: float = 0.0, seed: int = 0, canon: bool = False
    ) -> Run:
        """One search, within ``max_nodes`` and until the process clock passes ``deadline`` (None:
        no limit). ``noise``: the plain order shaken (each move's priority gets up to that much
        at random, from ``seed``). ``canon``: over canonical positions (classic only: in relaxed
        a card has four parents, and a family's members are known by a bit per card, for one of
        two parents)."""
        if canon and self.relaxed:
            raise ValueError("the canonical search is for classic only")
        parents, children, safe = _TABLES[self.relaxed]
        status, nodes, line, self.known, self.known_dead = kernels.search(
            self.cols.copy(), self.lens.copy(), self.down.copy(), self.fnd.copy(),
            parents, children, safe, _RANK, _SUIT,
            -1 if max_nodes is None else max_nodes, 0.0 if deadline is None else deadline, GROUP_LIMIT,
            noise, seed, self.known, self.known_dead, self.known_count, self.work, canon,
        )  # fmt: skip
        if Status(int(status)) is not Status.WON or not self.lines:
            return Run(Status(int(status)), int(nodes), ())
        line = kernels.polish(
            self.cols.copy(), self.lens.copy(), self.down.copy(), self.fnd.copy(), line,
            parents, children, safe, _RANK, _SUIT, GROUP_LIMIT,
        )  # fmt: skip
        return Run(Status.WON, int(nodes), self._engine_line(line))

    def _engine_line(self, packed: Ints) -> tuple[Move, ...]:
        """The engine moves of a kernel's line, each played by the engine from the start to the
        win (an illegal one raises :class:`~games.engine.IllegalMove`: a solver bug, never a
        player's)."""
        game = self.start.copy()
        out = []
        for m in map(int, packed):
            kind, s = m & 15, (m >> 4) & 15  # see kernels._pack
            if kind == 0:
                move = Move(Source(s), Target((m >> 16) & 255), game.columns[s][(m >> 8) & 255])
            elif kind == 1:
                move = Move(Source(s), TO_FOUNDATION)
            else:
                move = Move(Source(FOUNDATION + s), Target((m >> 16) & 255))
            game.play(move)
            out.append(move)
        if not game.is_won:  # pragma: no cover - a solver bug
            raise AssertionError("the solver's line does not win")
        return tuple(out)


def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) now, not on a search's clock; once a process."""
    global _warm
    if not _warm:
        game = Game.from_code("YU1-C-AAAAAAB")  # won in 60 nodes: the search and the polish of its line
        is_deadlocked(game)
        Searches(game).run(None, None)
        _warm = True


_warm = False
