"""A Yukon solver: winnable (with the moves), not winnable (proven), or unknown within a budget.

The search is a depth-first search over the full position (every card known: the server only)
with a transposition table keyed on the canonical position (the columns sorted: columns are
interchangeable; face-down cards count), move ordering that tries what uncovers cards first, and
only *sound* reductions, so that "not winnable" is a proof:

* **Safe foundation moves** are made at once, without branching. A card ``c`` of rank ``r`` on
  the end of a column goes up when its foundation is at ``r - 1`` and every card that could ever
  be built on it is on a foundation already: in classic both foundations of the other colour at
  ``r - 1`` or more and the other foundation of its own colour at ``r - 2`` or more; in relaxed
  every foundation at ``r - 1`` or more. Those cards (call them ``M``, with ``c``) are closed under
  "fits on", so in any winning line every ``M`` card in the tableau only ever carries ``M`` cards:
  dropping from that line every move of an ``M`` card (take-backs included) leaves a legal,
  shorter winning line from the position with ``c`` on its foundation. So a safe move never turns
  a winnable position into a lost one, even though take-backs are allowed.
* **Take-backs** are searched (last), except the take-back of a card that would go straight back
  up as a safe move (the same position again).
* A King that already lies at the bottom of its column never moves to an empty column, and of
  several empty columns only the first is tried: both give a position equal up to the order of
  the columns, which the transposition table would refuse anyway.
* **Deadlock check** at every new position: a set ``X`` of tableau cards none of which can be
  the first of ``X`` to move (as the bottom card of a group, or up to its foundation) proves the
  position lost, since every card has to move at last. Until the first move of ``X``, each card
  of ``X`` keeps lying on the card under it, so a card with a card of ``X`` directly on it
  (*held*) is no column's last card. A card therefore could move first only if it is not a held
  face-down card and has a target that is not held (nor, lying above it in its own column, only
  reachable through held cards; a target on its foundation must be able to come back), a column
  that could be emptied if it is a King (the bottom card of some column not in ``X``), or, not
  held itself, every lower card of its suit neither in ``X`` nor held. The greatest such ``X`` is
  found by starting from the whole tableau and taking out every card that could move first. The
  look is skipped (never unsound) after moves that measurably never lock anything: moves up,
  take-backs, and moves that empty a column. It was about two thirds of the work in plain Python,
  so it runs compiled (:mod:`.compiled`, numba; ``tests/solver/deadlock_reference.py`` is the
  same check in plain Python, and the tests hold the two to the same answers), and so does the
  plain search (the same moves in the same order, node for node).

* **The same group is not moved twice in a row**: after a move of a group from column ``A`` to
  ``B`` that turned no card up and sent no card up, the search does not move that group again
  (to ``A``: the position before; to ``C``: the position the move ``A`` to ``C`` gives from the
  position before, which that position tries itself, and, its moves tried before it is left,
  reaches unless a win was found first). Such a position is never missed: if the position
  before was entered the same way, the argument goes one step further up the path, at last to
  a position that tries the move.
* **Lost positions are remembered** across the searches of one :func:`solve`: a position
  entered with a card turned up, whose search below ends without a win, is lost, and so is
  every position expanded below it. Sound because no card ever turns face down again: every
  position reachable from it has fewer face-down cards than every position on the path above
  it, so none of them is on that path, and when its search ends each of them has been expanded
  (every move tried, in this search: below it or before it), found dead, or proven lost before;
  none was won. (The group rule above only ever leaves out a position its path's parent tries;
  that parent has as many face-down cards as the position, so is not on the path above either.)
  Positions reachable from a lost one are lost. The restarts (below) both use and add to this
  knowledge, so their work counts towards the proof and they do not search known lost ground.

* **Families of positions** (classic, the last search of :func:`solve`): a *swap* moves a group
  whose bottom card lies on one of its parents (face up) onto its other parent; the parent it
  left then ends its column, so the swap can be taken back, and positions linked by swaps reach
  the same positions. The search turns each position it enters into a canonical one (every such
  group on its lower parent, by card number) and, from it, tries the moves of every member of its
  family: the position's own moves but the swaps, and for each member the moves onto the parent
  its swap freed, that parent up, and the moves onto the swapped group. Any other move of a
  member reaches the family of a move tried (the same move made before the swap, or the move of
  a group that then carries the swapped group along), so nothing winnable is left out; the tests
  hold its verdicts to the plain search's.

A depth-first search that takes one wrong turn early can spend its whole budget below it, so
:func:`solve` interleaves: a short plain search, then restarts in a randomly perturbed order
(short Luby lengths, a fixed seed: the same position gets the same answer for the same node
budget; one restart in three shakes the plain order a little, the others so much that it is
nearly random: in measurements those found most of the wins the plain order missed), then the
plain search again with the rest of the budget (canonical, in classic); only a search that ends
without a win is a proof.

The searches run compiled (:mod:`.compiled`, numba): the same moves in the same order as
:class:`_Search` here, which the tests hold them to, about six times faster; positions are known
there by a 128-bit hash (for a search of ten million positions, the chance that two of them
share one is about 1 in 10^24).

Moves are found on plain lists and turned into engine :class:`Move` values at the end, with loops
cut out and shortcuts taken (one move to the latest later position of the line it reaches); every
solution is replayed by :class:`Game` before it is returned.

>>> result = solve(Game.from_code("YU1-C-AAAAAAB"), max_seconds=10)
>>> result.verdict.value, len(result.moves) > 52
('winnable', True)
"""

from __future__ import annotations

import argparse
import enum
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from games.engine.cards import RANK, RED, SUIT
from games.engine.codes import MAX_NUMBER, GameCode, Rule
from games.engine.errors import BadCode
from games.engine.game import GROUP_LIMIT, Game
from games.engine.moves import FOUNDATION, TO_FOUNDATION, Move, Source, Target

__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_SECONDS",
    "SampleReport",
    "SolveResult",
    "Verdict",
    "is_deadlocked",
    "sample",
    "solve",
    "wilson",
]

DEFAULT_MAX_SECONDS: Final = 2.0
DEFAULT_MAX_NODES: Final = 5_000_000
_CHECK_EVERY: Final = 512  # nodes between two looks at the clock
_FIRST_NODES: Final = 5_000  # the first plain search
_RESTART_NODES: Final = 150  # times the Luby sequence
_RESTART_SHARE: Final = 0.3  # of the budget, for the restarts
_MAX_RESTARTS: Final = 200  # when there is no budget at all
#: The restarts take turns: a little noise (the order of the plain search, shaken), and so much
#: that the order is almost random (in measurements most of the wins a 2 s budget missed).
_NOISES: Final = (25.0, 150.0, 150.0)
#: Budgets and reported times are seconds of CPU time of this process: a busy machine (other
#: processes on the same cores) does not eat into a search's budget or change its answer.
_clock: Final = time.process_time

# Internal moves: (_TABLEAU, src, index, dst, count), (_UP, src, suit), (_BACK, suit, dst).
_TABLEAU: Final = 0
_UP: Final = 1
_BACK: Final = 2
_InternalMove = tuple[int, ...]


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


def _parents(relaxed: bool) -> tuple[tuple[int, ...], ...]:
    """For each card, the cards it may be put on in the tableau (one rank higher, fitting colour)."""
    return tuple(
        tuple(p for p in range(52) if RANK[p] == RANK[c] + 1 and (relaxed or RED[p] != RED[c])) for c in range(52)
    )


def _safe_needs(relaxed: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each card, the (suit, minimum top rank) of the other foundations that make it safe to put up."""
    out = []
    for c in range(52):
        r, s = RANK[c], SUIT[c]
        needs = []
        for o in range(4):
            if o == s:
                continue
            if relaxed or RED[o * 13] != RED[c]:
                needs.append((o, r - 1))
            else:
                needs.append((o, r - 2))
        out.append(tuple(needs))
    return tuple(out)


_PARENTS: Final = {False: _parents(False), True: _parents(True)}
#: For each card, the cards that may be put on it.
_CHILDREN: Final = {
    relaxed: tuple(tuple(c for c in range(52) if p in table[c]) for p in range(52))
    for relaxed, table in _PARENTS.items()
}
_SAFE: Final = {False: _safe_needs(False), True: _safe_needs(True)}


def _is_safe(card: int, foundations: list[int], needs: tuple[tuple[int, int], ...]) -> bool:
    for o, need in needs:
        if foundations[o] < need:
            return False
    return True


def _column_key(down: int, cards: list[int]) -> bytes:
    """A column in a position key: ``100 + face-down cards``, then its cards, bottom first (a
    position's key is its columns' keys, sorted; :mod:`.compiled` reads the same bytes)."""
    return bytes((100 + down, *cards))


def is_deadlocked(game: Game) -> bool:
    """True when the deadlock check (see the module doc) alone proves the position lost."""
    key = b"".join(_column_key(down, col) for col, down in zip(game.columns, game.down, strict=True))
    return _deadlock_check()(key, game.foundations, game.relaxed)


def _deadlock_check() -> Callable[[bytes, list[int], bool], bool]:
    """The compiled deadlock check (:mod:`.compiled`: position key, foundations, relaxed), loaded
    and compiled when a search first needs it (numba takes a while), not on a search's clock."""
    from .compiled import deadlocked_key, warm_up

    warm_up()
    return deadlocked_key


class _OutOfBudget(Exception):
    pass


class _Frame:
    """One position on the search path: its moves, the next to try, how it was entered."""

    __slots__ = ("todo", "index", "made", "move", "flipped")

    def __init__(
        self,
        todo: list[_InternalMove],
        made: list[tuple[_InternalMove, bool]],
        move: _InternalMove | None,
        flipped: bool,
    ) -> None:
        self.todo = todo
        self.index = 0
        self.made = made  # the safe foundation moves made on entering
        self.move = move
        self.flipped = flipped


class _Search:
    """One plain search over a copy of a position; moves are applied and taken back in place.

    :func:`solve` runs its searches compiled (:class:`.compiled.Searches`: this search node for
    node, and the restarts and the positions proven lost that they share); this one makes the
    moves of the lines it returns, and is the reference the tests hold the compiled one to.
    """

    def __init__(self, game: Game) -> None:
        self.cols = [list(col) for col in game.columns]
        self.down = list(game.down)
        self.fnd = list(game.foundations)
        self.relaxed = game.relaxed
        self.parents = _PARENTS[game.relaxed]
        self.children = _CHILDREN[game.relaxed]
        self.safe = _SAFE[game.relaxed]
        self.keys = [_column_key(down, col) for col, down in zip(self.cols, self.down, strict=True)]
        self.seen: set[bytes] = set()
        self.nodes = 0
        self.stack: list[_Frame] | None = None  # the search path, kept between calls of run()
        self.root_autos: list[_InternalMove] = []
        self.deadlocked = _deadlock_check()

    # -- position ---------------------------------------------------------------------------
    def key(self) -> bytes:
        return b"".join(sorted(self.keys))

    def won(self) -> bool:
        return self.fnd == [13, 13, 13, 13]

    # -- making and taking back moves -------------------------------------------------------
    def apply(self, move: _InternalMove) -> bool:
        """Make ``move``; True when it flipped a card."""
        cols, down = self.cols, self.down
        kind = move[0]
        if kind == _TABLEAU:
            _, s, i, t, _n = move
            src = cols[s]
            cols[t].extend(src[i:])
            del src[i:]
            flipped = bool(src) and down[s] == len(src)
            if flipped:
                down[s] -= 1
            self.keys[s] = _column_key(down[s], src)
            self.keys[t] = _column_key(down[t], cols[t])
            return flipped
        if kind == _UP:
            s = move[1]
            src = cols[s]
            card = src.pop()
            self.fnd[SUIT[card]] += 1
            flipped = bool(src) and down[s] == len(src)
            if flipped:
                down[s] -= 1
            self.keys[s] = _column_key(down[s], src)
            return flipped
        _, f, t = move
        self.fnd[f] -= 1
        cols[t].append(f * 13 + self.fnd[f])
        self.keys[t] = _column_key(down[t], cols[t])
        return False

    def undo(self, move: _InternalMove, flipped: bool) -> None:
        cols, down = self.cols, self.down
        kind = move[0]
        if kind == _TABLEAU:
            _, s, _i, t, n = move
            src, dst = cols[s], cols[t]
            if flipped:
                down[s] += 1
            src.extend(dst[-n:])
            del dst[-n:]
            self.keys[s] = _column_key(down[s], src)
            self.keys[t] = _column_key(down[t], dst)
        elif kind == _UP:
            s = move[1]
            src = cols[s]
            if flipped:
                down[s] += 1
            suit = move[2]
            src.append(suit * 13 + self.fnd[suit] - 1)
            self.fnd[suit] -= 1
            self.keys[s] = _column_key(down[s], src)
        else:
            _, f, t = move
            cols[t].pop()
            self.fnd[f] += 1
            self.keys[t] = _column_key(down[t], cols[t])

    def autos(self) -> list[tuple[_InternalMove, bool]]:
        """Make every safe foundation move (see the module doc), repeatedly; the moves made."""
        made: list[tuple[_InternalMove, bool]] = []
        cols, fnd, safe = self.cols, self.fnd, self.safe
        again = True
        while again:
            again = False
            for s in range(7):
                col = cols[s]
                while col:
                    card = col[-1]
                    suit = SUIT[card]
                    if fnd[suit] != RANK[card] - 1 or not _is_safe(card, fnd, safe[card]):
                        break
                    move = (_UP, s, suit)
                    made.append((move, self.apply(move)))
                    again = True
        return made

    # -- move generation --------------------------------------------------------------------
    def moves(self, group: int = -1) -> list[_InternalMove]:
        """The moves worth trying here, most promising first.

        ``group`` (column * 64 + index, or -1) is the group the last move put there, when that
        move turned no card up and no card went up after it: it is not moved again (see the
        module doc).
        """
        cols, down, fnd, parents, children = self.cols, self.down, self.fnd, self.parents, self.children
        ends = [-1] * 52  # card -> the column it ends
        where = [-1] * 52  # face-up card -> column * 64 + index
        needed = [False] * 52  # the targets the lids (cards lying on face-down cards) need
        empty = -1
        scored: list[tuple[float, _InternalMove]] = []
        add = scored.append
        for s in range(7):
            col = cols[s]
            n = len(col)
            if not n:
                if empty < 0:
                    empty = s
                continue
            last = col[-1]
            ends[last] = s
            d = down[s]
            base = s * 64
            for i in range(d, n):
                where[col[i]] = base + i
            if d:
                for p in parents[col[d]]:
                    needed[p] = True
            suit = SUIT[last]
            if fnd[suit] == RANK[last] - 1:
                add((90 if d and d == n - 1 else 70, (_UP, s, suit)))
        king_waits = False
        for king in (12, 25, 38, 51):
            w = where[king]
            if w >= 0 and w & 63 > 0:
                king_waits = True
                break

        def prio(s: int, i: int) -> int:
            d = down[s]
            if i == d:
                return 80 + d if d else (50 if king_waits and empty < 0 else 5)  # a flip; a column emptied
            below = cols[s][i - 1]
            if needed[below]:
                return 65  # uncovers a target a lid needs
            if fnd[SUIT[below]] == RANK[below] - 1:
                return 60  # uncovers a card that can go up
            return 20

        for t in range(7):
            col = cols[t]
            if not col:
                continue
            target = col[-1]
            for card in children[target]:
                w = where[card]
                if w < 0:
                    continue
                s, i = w >> 6, w & 63
                if s == t:
                    continue
                n = len(cols[s])
                if n - i > GROUP_LIMIT or w == group:
                    continue
                value = prio(s, i)
                if needed[target] and i != down[s]:
                    value -= 15  # covers a target a lid needs
                add((value, (_TABLEAU, s, i, t, n - i)))
        if empty >= 0:
            for king in (12, 25, 38, 51):
                w = where[king]
                if w > 0 and w & 63 > 0 and w != group:  # face up, not at the bottom of its column
                    s, i = w >> 6, w & 63
                    n = len(cols[s])
                    if n - i <= GROUP_LIMIT:
                        add((prio(s, i), (_TABLEAU, s, i, empty, n - i)))
        safe = self.safe
        for f in range(4):
            top = fnd[f]
            if not top:
                continue
            card = f * 13 + top - 1
            fnd[f] -= 1
            comes_back = _is_safe(card, fnd, safe[card])
            fnd[f] += 1
            if comes_back:
                continue
            for p in parents[card]:
                dst = ends[p]
                if dst >= 0:
                    add((0, (_BACK, f, dst)))
            if top == 13 and empty >= 0:
                add((0, (_BACK, f, empty)))
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    # -- the search -------------------------------------------------------------------------
    def run(self, max_nodes: int | None, deadline: float | None) -> list[_InternalMove] | None:
        """A winning line of internal moves, or None when the whole space was searched in vain.

        Raises :class:`_OutOfBudget` when ``max_nodes`` more nodes are spent or the clock passes
        ``deadline`` first; calling again goes on where the search stopped.
        """
        if self.stack is None:
            self.root_autos = [m for m, _ in self.autos()]
            if self.won():
                return list(self.root_autos)
            if self.deadlocked(self.key(), self.fnd, self.relaxed):
                return None
            self.seen.add(self.key())
            self.stack = [_Frame(self.moves(), [], None, False)]
        stack = self.stack
        seen = self.seen
        nodes = self.nodes
        limit = -1 if max_nodes is None else nodes + max_nodes
        apply, undo, autos, key, moves = self.apply, self.undo, self.autos, self.key, self.moves
        cols, fnd, safe = self.cols, self.fnd, self.safe
        deadlocked, relaxed = self.deadlocked, self.relaxed
        while stack:
            frame = stack[-1]
            todo = frame.todo
            index = frame.index
            if index >= len(todo):
                stack.pop()
                for m, f in reversed(frame.made):
                    undo(m, f)
                if frame.move is not None:
                    undo(frame.move, frame.flipped)
                continue
            if nodes == limit or (nodes & (_CHECK_EVERY - 1) == 0 and deadline is not None and _clock() > deadline):
                self.nodes = nodes
                raise _OutOfBudget
            frame.index = index + 1
            move = todo[index]
            flipped = apply(move)
            nodes += 1
            kind = move[0]
            if kind == _UP:
                made = autos()
            elif kind == _TABLEAU:
                # Only the source column has a new last card; the foundations did not change.
                src = cols[move[1]]
                if src:
                    card = src[-1]
                    if fnd[SUIT[card]] == RANK[card] - 1 and _is_safe(card, fnd, safe[card]):
                        made = autos()
                    else:
                        made = []
                else:
                    made = []
            else:
                made = []  # a take-back: its card is not safe (else it is not tried), and nothing else
            if fnd == [13, 13, 13, 13]:
                self.nodes = nodes
                line: list[_InternalMove] = list(self.root_autos)
                for entry in stack[1:]:
                    assert entry.move is not None
                    line.append(entry.move)
                    line.extend(m for m, _ in entry.made)
                line.append(move)
                line.extend(m for m, _ in made)
                return line
            k = key()
            if k in seen:
                for m, f in reversed(made):
                    undo(m, f)
                undo(move, flipped)
                continue
            seen.add(k)
            # Only a move between columns that leaves a card behind is worth a new look: a move up
            # covers nothing, and in measurements a take-back or a move that empties a column never
            # locked what was free (a look is only ever skipped, which costs no soundness).
            if kind == _TABLEAU and cols[move[1]] and deadlocked(k, fnd, relaxed):
                for m, f in reversed(made):
                    undo(m, f)
                undo(move, flipped)
                continue
            if flipped or any(f for _, f in made):
                stack.append(_Frame(moves(), made, move, flipped))
            elif kind == _TABLEAU and not made:
                t = move[3]
                stack.append(_Frame(moves(t * 64 + len(cols[t]) - move[4]), made, move, False))
            else:
                stack.append(_Frame(moves(), made, move, False))
        self.nodes = nodes
        return None


def _first(item: tuple[float, _InternalMove]) -> float:
    return item[0]


def _engine_move(move: _InternalMove, columns: list[list[int]]) -> Move:
    """The engine move of an internal move, made on ``columns`` (a copy kept in step)."""
    kind = move[0]
    if kind == _TABLEAU:
        _, s, i, t, _n = move
        return Move(Source(s), Target(t), columns[s][i])
    if kind == _UP:
        return Move(Source(move[1]), TO_FOUNDATION)
    return Move(Source(FOUNDATION + move[1]), Target(move[2]))


def _without_loops(game: Game, line: list[_InternalMove]) -> list[_InternalMove]:
    """The line with every stretch that comes back to a position it already passed cut out."""
    search = _Search(game)
    seen: dict[tuple[tuple[int, ...], ...], int] = {}
    out: list[_InternalMove] = []
    marks: list[tuple[tuple[int, ...], ...]] = []

    def exact() -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(col) for col in search.cols) + (tuple(search.down),)

    here = exact()
    seen[here] = 0
    for move in line:
        search.apply(move)
        here = exact()
        back = seen.get(here)
        if back is not None:
            for gone in marks[back:]:
                del seen[gone]
            del out[back:]
            del marks[back:]
            seen[here] = back
            continue
        out.append(move)
        marks.append(here)
        seen[here] = len(out)
    return out


def _shortcuts(game: Game, line: list[_InternalMove]) -> list[_InternalMove]:
    """The line with shortcuts: from each position, the one move that reaches the latest later
    position of the line (the same columns in the same places) replaces the moves in between."""
    search = _Search(game)

    def exact() -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(col) for col in search.cols) + (tuple(search.down),)

    positions = [exact()]
    for move in line:
        search.apply(move)
        positions.append(exact())
    last = {position: index for index, position in enumerate(positions)}
    search = _Search(game)
    out: list[_InternalMove] = []
    i = 0
    while i < len(line):
        best, best_move = i + 1, line[i]
        for move in search.moves():
            flipped = search.apply(move)
            j = last.get(exact(), -1)
            if j > best:
                best, best_move = j, move
            search.undo(move, flipped)
        search.apply(best_move)
        out.append(best_move)
        i = best
    return out


def _replay(game: Game, line: list[_InternalMove]) -> tuple[Move, ...]:
    """Turn a line into engine moves and check that the engine wins with it from ``game``."""
    line = _shortcuts(game, _without_loops(game, line))
    copy = Game.from_state(game.to_state())
    out = []
    for step in line:
        move = _engine_move(step, copy.columns)
        copy.play(move)
        out.append(move)
    if not copy.is_won:  # pragma: no cover - a solver bug, never a player's doing
        raise AssertionError("the solver's line does not win")
    return tuple(out)


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
) -> SolveResult:
    """Solve the full position of ``game`` (not changed) within the budget (None: no limit).

    ``max_seconds`` counts CPU time of this process (see ``_clock``).

    WINNABLE comes with the winning engine moves from this position; NOT_WINNABLE means the
    whole (soundly reduced) space was searched; UNKNOWN that the budget ran out first.

    A plain search (compiled: :class:`.compiled.Searches`) that runs out of a short first
    budget gives way to short searches in a randomly perturbed order (restarts, seeded by ``seed``:
    deterministic), which find the wins that one early wrong turn hides from a depth-first search;
    then the plain search runs again with the rest of the budget: searching the whole space, it
    is what proves a deal lost.
    """
    _deadlock_check()  # compiled now, not on the clock
    from .compiled import LOST, WON, Searches

    begin = _clock()
    if game.is_won:
        return SolveResult(Verdict.WINNABLE, (), 0, 0.0)
    deadline = None if max_seconds is None else begin + max_seconds
    searches = Searches(game)  # they share what they learn about positions
    # The last search, in classic, goes over canonical positions (see :mod:`.compiled`): a proof
    # takes a third to a half of the nodes. Its nodes cost more and it finds wins later, so the
    # searches before it are plain. In relaxed, with four parents to each card, the families grow
    # too big, and the plain search decides nearly every deal.
    canon = not game.relaxed
    spent = 0  # nodes so far

    def finish(line: list[_InternalMove] | None) -> SolveResult:
        seconds = _clock() - begin
        if line is None:
            return SolveResult(Verdict.NOT_WINNABLE, None, spent, seconds)
        return SolveResult(Verdict.WINNABLE, _replay(game, line), spent, seconds)

    first = _FIRST_NODES if max_nodes is None else min(_FIRST_NODES, max_nodes)
    status, nodes, line = searches.run(first, deadline)
    spent += nodes
    if status == WON or status == LOST:
        return finish(line if status == WON else None)
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
        status, nodes, line = searches.run(nodes, share_end, _NOISES[i % len(_NOISES)], rng.randrange(2**31))
        spent += nodes
        if status == WON or status == LOST:  # a win, or (in a small space) the proof
            return finish(line if status == WON else None)
        i += 1
    room = None if max_nodes is None else max_nodes - spent
    if room is None or room > 0:
        status, nodes, line = searches.run(room, deadline, canon=canon)
        spent += nodes
        if status == WON or status == LOST:
            return finish(line if status == WON else None)
    return SolveResult(Verdict.UNKNOWN, None, spent, _clock() - begin)


# -- measuring: ``python -m games.solver.search`` ----------------------------------------------
def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a share.

    >>> tuple(round(x, 3) for x in wilson(90, 100))
    (0.826, 0.945)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _share(k: int, n: int, low: float, high: float) -> str:
    return f"{100 * k / max(n, 1):5.1f} %  (95 % CI {100 * low:5.1f} – {100 * high:5.1f} %)"


@dataclass(frozen=True, slots=True)
class SampleReport:
    """What a sample of random deals gave: counts, times (seconds), solution lengths."""

    rule: Rule
    results: tuple[tuple[GameCode, SolveResult], ...]

    def count(self, verdict: Verdict) -> int:
        return sum(1 for _, result in self.results if result.verdict is verdict)

    def lines(self) -> list[str]:
        n = len(self.results)
        out = [f"{self.rule.value}: {n} random deals"]
        for verdict in Verdict:
            k = self.count(verdict)
            low, high = wilson(k, n)
            out.append(f"  {verdict.value:<13} {k:5d}  {_share(k, n, low, high)}")
        decided = n - self.count(Verdict.UNKNOWN)
        low, high = wilson(decided, n)
        out.append(f"  {'decided':<13} {decided:5d}  {_share(decided, n, low, high)}")
        times = sorted(result.seconds for _, result in self.results)
        if times:
            p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
            median = statistics.median(times)
            out.append(f"  time per deal: median {median:.3f} s, p95 {p95:.3f} s, max {times[-1]:.3f} s")
        lengths = [len(result.moves) for _, result in self.results if result.moves is not None]
        if lengths:
            middle = statistics.median(lengths)
            out.append(f"  solution length: median {middle:.0f} moves (min {min(lengths)}, max {max(lengths)})")
        return out


def sample(
    rule: Rule,
    count: int,
    *,
    seed: int = 1,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    progress: bool = False,
) -> SampleReport:
    """Solve ``count`` random deals (deal numbers drawn from ``seed``: repeatable)."""
    rng = random.Random(seed)
    results = []
    for i in range(count):
        code = GameCode(rule, rng.randrange(MAX_NUMBER + 1))
        result = solve(Game.new(code), max_seconds=max_seconds, max_nodes=max_nodes)
        results.append((code, result))
        if progress:
            verdict = result.verdict.value
            print(f"  {i + 1:5d} {code} {verdict:<13} {result.seconds:6.2f} s {result.nodes:9d} nodes", file=sys.stderr)
    return SampleReport(rule, tuple(results))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.solver.search",
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
        rule = Rule.from_letter(args.rule)
        report = sample(
            rule,
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
