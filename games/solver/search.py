"""Solve a full position (every card known: the server only): winnable with the moves, not
winnable (proven), or unknown within a budget.

A depth-first search that takes one wrong turn early can spend its whole budget below it, so
:func:`solve` interleaves compiled searches (:mod:`.compiled`): a short plain one, restarts in a
shaken order (short Luby lengths, a fixed seed: the same position gets the same answer for the
same node budget), then the plain search again with the rest of the budget, over canonical
positions in classic. Only a search that ends without a win is a proof. A winning line comes
back as engine moves, with loops cut out and shortcuts taken.

>>> result = solve(Game.from_code("YU1-C-AAAAAAB"), max_seconds=10)
>>> result.verdict.value, len(result.moves) > 52
('winnable', True)
"""

from __future__ import annotations

import enum
import random
import time
from dataclasses import dataclass
from typing import Final

from games.engine.game import Game
from games.engine.moves import Move

from .compiled import Run, Searches, Status, warm_up

__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_MAX_SECONDS", "SolveResult", "Verdict", "solve"]

DEFAULT_MAX_SECONDS: Final = 2.0
DEFAULT_MAX_NODES: Final = 5_000_000
_FIRST_NODES: Final = 5_000  # the first plain search
_RESTART_NODES: Final = 150  # times the Luby sequence
_RESTART_SHARE: Final = 0.3  # of the budget, for the restarts
_MAX_RESTARTS: Final = 200  # when there is no budget at all
#: The restarts take turns: a little noise (the order of the plain search, shaken), and so much
#: that the order is almost random (those found most of the wins the plain order missed).
_NOISES: Final = (25.0, 150.0, 150.0)
#: Budgets and reported times are seconds of CPU time of this process: a busy machine (other
#: processes on the same cores) does not eat into a search's budget or change its answer.
_clock: Final = time.process_time


class Verdict(enum.StrEnum):
    WINNABLE = "winnable"
    NOT_WINNABLE = "not_winnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The answer: ``moves`` is a winning line (engine moves from the given position) or ``None``."""

    verdict: Verdict
    moves: tuple[Move, ...] | None
    nodes: int
    seconds: float

    @property
    def decided(self) -> bool:
        return self.verdict is not Verdict.UNKNOWN


def _luby(i: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... (i from 1): restart lengths with no tuning."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


def solve(
    game: Game,
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    seed: int = 0,
    line: bool = True,
) -> SolveResult:
    """Solve the full position of ``game`` (not changed) within the budget (None: no limit).

    ``max_seconds`` counts CPU time of this process (see ``_clock``). WINNABLE comes with the
    winning engine moves from this position; NOT_WINNABLE means the whole (soundly reduced)
    space was searched; UNKNOWN that the budget ran out first. The restarts are seeded by
    ``seed``: the answer is deterministic for a node budget. ``line=False``: a win comes back
    with ``moves`` empty (quicker: the verdict is all that is wanted).
    """
    warm_up()  # compiled now, not on the clock
    begin = _clock()
    if game.is_won:
        return SolveResult(Verdict.WINNABLE, (), 0, 0.0)
    deadline = None if max_seconds is None else begin + max_seconds
    searches = Searches(game)  # they share what they learn about positions
    searches.lines = line
    spent = 0  # nodes so far

    def decided(run: Run) -> SolveResult | None:
        nonlocal spent
        spent += run.nodes
        if run.status is Status.LOST:
            return SolveResult(Verdict.NOT_WINNABLE, None, spent, _clock() - begin)
        if run.status is Status.WON:
            seconds = _clock() - begin
            return SolveResult(Verdict.WINNABLE, run.line, spent, seconds)
        return None

    first = _FIRST_NODES if max_nodes is None else min(_FIRST_NODES, max_nodes)
    answer = decided(searches.run(first, deadline))
    if answer is not None:
        return answer
    # Restarts, until their share of the budget is spent.
    share_end = None if max_seconds is None else begin + max_seconds * _RESTART_SHARE
    share_nodes = None if max_nodes is None else int(max_nodes * _RESTART_SHARE)
    rng = random.Random(seed)
    i = 1
    while True:
        if share_end is not None and _clock() >= share_end:
            break
        if share_nodes is not None and spent >= share_nodes:
            break
        if share_end is None and share_nodes is None and i > _MAX_RESTARTS:
            break
        nodes = _RESTART_NODES * _luby(i)
        if share_nodes is not None and max_nodes is not None:
            nodes = min(nodes, share_nodes - spent, max_nodes - spent)
            if nodes <= 0:
                break
        answer = decided(searches.run(nodes, share_end, _NOISES[i % len(_NOISES)], rng.randrange(2**31)))
        if answer is not None:  # a win, or (in a small space) the proof
            return answer
        i += 1
    # The last search, in classic, goes over canonical positions: its proofs take fewer nodes, but
    # its nodes cost more and it finds wins later, so the searches before it are plain. In relaxed,
    # with four parents to each card, the families grow too big (the README has the figures).
    room = None if max_nodes is None else max_nodes - spent
    if room is None or room > 0:
        answer = decided(searches.run(room, deadline, canon=not game.relaxed))
        if answer is not None:
            return answer
    return SolveResult(Verdict.UNKNOWN, None, spent, _clock() - begin)
