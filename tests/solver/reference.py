"""The solver's search and deadlock check in plain Python: the readable reference.

The product has one search, compiled (``games/solver/kernels.py``, which says why each reduction
is sound); this is the same depth-first search with the same reductions and move order, written
for reading. The tests hold the product to it by verdicts and by winning lines the engine plays
to the end, not by internal counts.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import FOUNDATION, GROUP_LIMIT, TO_FOUNDATION, Game, Move, Source, Target
from games.engine.cards import KING, RANK, SUIT, card_of
from games.solver.tables import CHILDREN, PARENTS, SAFE, TO_EMPTY

# A move inside the search: ("t", src, index, dst, count), ("up", src, suit) or ("back", suit, dst).
Internal = tuple[str, int, int] | tuple[str, int, int, int, int]
Deadlocked = Callable[[list[list[int]], list[int], list[int], bool], bool]


class OutOfBudget(Exception):
    pass


def deadlocked(columns: list[list[int]], down: list[int], foundations: list[int], relaxed: bool) -> bool:
    """Whether the deadlock check proves the position lost (``kernels._dead_in`` says why).

    ``X`` starts as every card of the tableau; a card that could make the first move of ``X`` (as
    the bottom card of a group, or up to its foundation) leaves it, until none is left to leave.
    A card is *held* when the card lying directly on it is in ``X``: that card does not move
    before the first move of ``X``, so the held card cannot be a column's last card until then.
    """
    parents = PARENTS[relaxed]
    above = [-1] * 52  # card -> the card lying directly on it (-1: none, or not in the tableau)
    col_of = [-1] * 52
    pos_of = [0] * 52
    bottoms = []
    empty_columns = 0
    for ci, col in enumerate(columns):
        if not col:
            empty_columns += 1
            continue
        bottoms.append(col[0])
        for pos, card in enumerate(col):
            col_of[card] = ci
            pos_of[card] = pos
            if pos:
                above[col[pos - 1]] = card
    x = [col_of[c] >= 0 for c in range(52)]
    face_down = [False] * 52
    for ci, col in enumerate(columns):
        for pos in range(down[ci]):
            face_down[col[pos]] = True

    def returnable(v: int) -> bool:
        """Whether ``v`` (on its foundation) might come back: each card above it needs a target."""
        s = SUIT[v]
        for k in range(foundations[s], RANK[v], -1):
            w = card_of(s, k)
            if w in TO_EMPTY:
                if empty_columns or any(not x[q] for q in bottoms):
                    continue
                return False
            if not any(col_of[p] < 0 or above[p] < 0 or not x[above[p]] for p in parents[w]):
                return False
        return True

    # From the top of each column down: a card that leaves frees the one under it in the same pass.
    members = [card for col in columns for card in reversed(col)]
    bottoms_out = empty_columns  # empty columns, and bottom cards no longer in X (their columns could be)
    changed = True
    while changed:
        changed = False
        kept = []
        for card in members:
            a = above[card]
            held_here = a >= 0 and x[a]
            if held_here and face_down[card]:
                kept.append(card)  # it cannot even turn up first
                continue
            free = card in TO_EMPTY and bottoms_out > 0
            if not free:
                for p in parents[card]:
                    if col_of[p] < 0:
                        if returnable(p):
                            free = True
                            break
                    elif above[p] < 0 or not x[above[p]]:
                        if col_of[p] == col_of[card] and pos_of[p] > pos_of[card]:
                            # p lies above the card: some card between must move first
                            col = columns[col_of[card]]
                            if all(x[w] for w in col[pos_of[card] + 1 : pos_of[p] + 1]):
                                continue
                        free = True
                        break
            if not free and not held_here:
                s = SUIT[card]
                lower = [card_of(s, r) for r in range(foundations[s] + 1, RANK[card])]
                free = not any(x[z] or (above[z] >= 0 and x[above[z]]) for z in lower)
            if free:
                x[card] = False
                changed = True
                if col_of[card] >= 0 and columns[col_of[card]][0] == card:
                    bottoms_out += 1
            else:
                kept.append(card)
        members = kept
    return bool(members)


class _Frame:
    """One position on the search path: its moves, the next to try, how it was entered."""

    __slots__ = ("todo", "index", "made", "move", "flipped")

    def __init__(self, todo: list[Internal], made: list[tuple[Internal, bool]], move: Internal | None, flipped: bool):
        self.todo = todo
        self.index = 0
        self.made = made  # the safe moves up made on entering
        self.move = move
        self.flipped = flipped


class ReferenceSearch:
    """One plain depth-first search from ``game``'s position (not changed).

    ``group_rule``: leave out moving the group the last move put there (off: to test that it
    changes no verdict). ``deadlocked``: the deadlock check asked at each new position.
    """

    def __init__(self, game: Game, *, group_rule: bool = True, deadlocked: Deadlocked = deadlocked) -> None:
        self.start = game.copy()
        self.cols = [list(col) for col in game.columns]
        self.down = list(game.down)
        self.fnd = list(game.foundations)
        self.relaxed = game.relaxed
        self.parents, self.children, self.safe = PARENTS[game.relaxed], CHILDREN[game.relaxed], SAFE[game.relaxed]
        self.group_rule = group_rule
        self.deadlocked = deadlocked
        self.nodes = 0

    def key(self) -> tuple[tuple[int, ...], ...]:
        """The position, columns in any order (they are interchangeable), face-down counts included."""
        return tuple(sorted((d, *col) for col, d in zip(self.cols, self.down, strict=True)))

    def is_safe(self, card: int) -> bool:
        return all(self.fnd[suit] >= rank for suit, rank in self.safe[card])

    # -- making and taking back moves -------------------------------------------------------
    def _turn_up(self, s: int) -> bool:
        col = self.cols[s]
        if col and self.down[s] == len(col):
            self.down[s] -= 1
            return True
        return False

    def apply(self, move: Internal) -> bool:
        """Make ``move``; True when it turned a card up."""
        if move[0] == "t":
            _, s, i, t, _n = move
            self.cols[t].extend(self.cols[s][i:])
            del self.cols[s][i:]
            return self._turn_up(s)
        if move[0] == "up":
            _, s, suit = move
            self.cols[s].pop()
            self.fnd[suit] += 1
            return self._turn_up(s)
        _, suit, t = move
        self.cols[t].append(card_of(suit, self.fnd[suit]))
        self.fnd[suit] -= 1
        return False

    def undo(self, move: Internal, flipped: bool) -> None:
        if move[0] == "t":
            _, s, _i, t, n = move
            self.down[s] += flipped
            self.cols[s].extend(self.cols[t][-n:])
            del self.cols[t][-n:]
        elif move[0] == "up":
            _, s, suit = move
            self.down[s] += flipped
            self.fnd[suit] -= 1
            self.cols[s].append(card_of(suit, self.fnd[suit] + 1))
        else:
            _, suit, t = move
            self.cols[t].pop()
            self.fnd[suit] += 1

    def autos(self) -> list[tuple[Internal, bool]]:
        """Make every safe move up (``kernels._autos``), repeatedly; the moves made."""
        made: list[tuple[Internal, bool]] = []
        again = True
        while again:
            again = False
            for s in range(7):
                while self.cols[s]:
                    card = self.cols[s][-1]
                    if self.fnd[SUIT[card]] != RANK[card] - 1 or not self.is_safe(card):
                        break
                    move: Internal = ("up", s, SUIT[card])
                    made.append((move, self.apply(move)))
                    again = True
        return made

    # -- move generation --------------------------------------------------------------------
    def moves(self, group: int = -1) -> list[Internal]:
        """The moves worth trying here, most promising first (``kernels._gen_moves``)."""
        cols, down, fnd = self.cols, self.down, self.fnd
        ends = [-1] * 52  # card -> the column it ends
        where = [-1] * 52  # face-up card -> column * 64 + index
        needed = [False] * 52  # the targets the lids (cards lying on face-down cards) need
        empty = -1
        scored: list[tuple[int, Internal]] = []
        for s, col in enumerate(cols):
            if not col:
                empty = s if empty < 0 else empty
                continue
            ends[col[-1]] = s
            for i in range(down[s], len(col)):
                where[col[i]] = s * 64 + i
            if down[s]:
                for p in self.parents[col[down[s]]]:
                    needed[p] = True
            last = col[-1]
            if fnd[SUIT[last]] == RANK[last] - 1:
                scored.append((90 if down[s] and down[s] == len(col) - 1 else 70, ("up", s, SUIT[last])))
        king_waits = any(where[king] >= 0 and where[king] & 63 > 0 for king in TO_EMPTY)

        def priority(s: int, i: int) -> int:
            d = down[s]
            if i == d:  # a card turned up; a column emptied
                return 80 + d if d else (50 if king_waits and empty < 0 else 5)
            below = cols[s][i - 1]
            if needed[below]:
                return 65
            return 60 if fnd[SUIT[below]] == RANK[below] - 1 else 20

        for t, col in enumerate(cols):
            if not col:
                continue
            for card in self.children[col[-1]]:
                w = where[card]
                s, i = w >> 6, w & 63
                if w < 0 or s == t or len(cols[s]) - i > GROUP_LIMIT or w == group:
                    continue
                value = priority(s, i) - (15 if needed[col[-1]] and i != down[s] else 0)
                scored.append((value, ("t", s, i, t, len(cols[s]) - i)))
        if empty >= 0:
            for king in TO_EMPTY:  # not from the bottom of a column, into the first empty one only
                w = where[king]
                s, i = w >> 6, w & 63
                if w > 0 and i > 0 and w != group and len(cols[s]) - i <= GROUP_LIMIT:
                    scored.append((priority(s, i), ("t", s, i, empty, len(cols[s]) - i)))
        for f in range(4):
            top = fnd[f]
            if not top:
                continue
            card = card_of(f, top)
            fnd[f] -= 1
            comes_back = self.is_safe(card)  # it would go straight back up
            fnd[f] += 1
            if comes_back:
                continue
            scored += [(0, ("back", f, ends[p])) for p in self.parents[card] if ends[p] >= 0]
            if card in TO_EMPTY and empty >= 0:
                scored.append((0, ("back", f, empty)))
        scored.sort(key=lambda item: item[0], reverse=True)  # stable: ties keep the order found
        return [move for _, move in scored]

    # -- the search -------------------------------------------------------------------------
    def run(self, max_nodes: int | None = None) -> tuple[Move, ...] | None:
        """A winning line (engine moves), or None when the whole space was searched in vain;
        :class:`OutOfBudget` when ``max_nodes`` nodes are spent first."""
        root = [m for m, _ in self.autos()]
        if self.fnd == [KING] * 4:
            return self.engine_moves(root)
        if self.deadlocked(self.cols, self.down, self.fnd, self.relaxed):
            return None
        seen = {self.key()}
        stack = [_Frame(self.moves(), [], None, False)]
        while stack:
            frame = stack[-1]
            if frame.index >= len(frame.todo):
                stack.pop()
                for m, f in reversed(frame.made):
                    self.undo(m, f)
                if frame.move is not None:
                    self.undo(frame.move, frame.flipped)
                continue
            if self.nodes == max_nodes:
                raise OutOfBudget
            move = frame.todo[frame.index]
            frame.index += 1
            flipped = self.apply(move)
            self.nodes += 1
            made: list[tuple[Internal, bool]] = []
            if move[0] == "up":
                made = self.autos()
            elif move[0] == "t" and self.cols[move[1]]:  # only the source column has a new last card
                card = self.cols[move[1]][-1]
                if self.fnd[SUIT[card]] == RANK[card] - 1 and self.is_safe(card):
                    made = self.autos()
            if self.fnd == [KING] * 4:
                line = list(root)
                for entry in stack[1:]:
                    assert entry.move is not None
                    line += [entry.move, *(m for m, _ in entry.made)]
                return self.engine_moves([*line, move, *(m for m, _ in made)])
            key = self.key()
            dead = key in seen
            seen.add(key)
            if not dead and move[0] == "t" and self.cols[move[1]]:  # the deadlock check (kernels.search)
                dead = self.deadlocked(self.cols, self.down, self.fnd, self.relaxed)
            if dead:
                for m, f in reversed(made):
                    self.undo(m, f)
                self.undo(move, flipped)
                continue
            group = -1
            if self.group_rule and move[0] == "t" and not flipped and not made:
                t = move[3]
                group = t * 64 + len(self.cols[t]) - move[4]
            stack.append(_Frame(self.moves(group), made, move, flipped))
        return None

    def engine_moves(self, line: list[Internal]) -> tuple[Move, ...]:
        """The engine moves of a line of internal moves, each played by the engine from the start."""
        game = self.start.copy()
        out = []
        for step in line:
            if step[0] == "t":
                _, s, i, t, _n = step
                move = Move(Source(s), Target(t), game.columns[s][i])
            elif step[0] == "up":
                move = Move(Source(step[1]), TO_FOUNDATION)
            else:
                move = Move(Source(FOUNDATION + step[1]), Target(step[2]))
            game.play(move)
            out.append(move)
        return tuple(out)
