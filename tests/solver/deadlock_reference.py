"""The solver's deadlock check in plain Python: the reference the compiled one is tested against.

:mod:`games.solver.compiled` runs this same check (numba, on the search's position key) in the
solver; ``test_solver.py`` compares the two on the positions of real searches. The check itself is
described in the module doc of :mod:`games.solver.search`.
"""

from __future__ import annotations

from games.engine.cards import RANK, SUIT
from games.solver.search import _PARENTS


def deadlocked(columns: list[list[int]], down: list[int], foundations: list[int], relaxed: bool) -> bool:
    """The deadlock check of the module doc of :mod:`games.solver.search`, on any position.

    ``X`` starts as every card of the tableau; a card that could make the first move of ``X`` (as
    the bottom card of a group, or up to its foundation) leaves it, until none is left to leave.
    A card is *held* when the card lying directly on it is in ``X``: that card does not move
    before the first move of ``X``, so the held card cannot be a column's last card until then.
    """
    parents = _PARENTS[relaxed]
    above = [-1] * 52  # card -> the card lying directly on it (-1: none, or not in the tableau)
    col_of = [-1] * 52
    pos_of = [0] * 52
    bottoms = []
    empty_columns = 0
    for ci, col in enumerate(columns):
        if not col:
            empty_columns += 1  # every King has a way out
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
            w = s * 13 + k - 1
            if k == 13:
                if empty_columns or any(not x[q] for q in bottoms):
                    continue
                return False
            for p in parents[w]:
                if col_of[p] < 0 or above[p] < 0 or not x[above[p]]:
                    break
            else:
                return False
        return True

    # From the top of each column down: a card that leaves frees the one under it in the same pass.
    members = [card for col in columns for card in reversed(col)]
    is_bottom = [False] * 52
    for q in bottoms:
        is_bottom[q] = True
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
            free = RANK[card] == 13 and bottoms_out > 0
            if not free:
                for p in parents[card]:
                    if col_of[p] < 0:
                        if returnable(p):
                            free = True
                            break
                    else:
                        ap = above[p]
                        if ap < 0 or not x[ap]:
                            if col_of[p] == col_of[card] and pos_of[p] > pos_of[card]:
                                # p lies above the card: some card between must move first
                                col = columns[col_of[card]]
                                if all(x[w] for w in col[pos_of[card] + 1 : pos_of[p] + 1]):
                                    continue
                            free = True
                            break
            if not free and not held_here:
                s = SUIT[card]
                free = True
                for z in range(s * 13 + foundations[s], card):
                    if x[z]:
                        free = False
                        break
                    az = above[z]
                    if az >= 0 and x[az]:
                        free = False
                        break
            if free:
                x[card] = False
                changed = True
                if is_bottom[card]:
                    bottoms_out += 1
            else:
                kept.append(card)
        members = kept
    return bool(members)
