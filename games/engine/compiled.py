"""The solver's deadlock check (see :mod:`.solve`), compiled with numba.

The search looks at every new position it makes with the deadlock check, and in plain Python that
check was about two thirds of the solver's time (28.9 us a call, against 2.5 us compiled, on
positions from real searches). This module runs it on the position key the search keeps anyway
(``bytes``: for each column ``100 + face-down cards``, then its cards, bottom first; the columns
in any order), so a call costs no conversion but a view of the key's bytes. The same check in
plain Python, step for step, is ``tests/engine/deadlock_reference.py``; ``test_solver.py`` holds
the two to the same answers on the positions of real searches, for both rules.

numba comes as a wheel; the first call compiles (about a second) and keeps the machine code in
numba's cache (``__pycache__`` beside this file, or ``NUMBA_CACHE_DIR``) for the next process:
:func:`warm_up` does it before a solver's clock starts.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from . import solve
from .cards import RANK, SUIT

__all__ = ["deadlocked_key", "warm_up"]


def _table(parents: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """The solver's "fits on" table as an array: for each card, its parents, -1 padded."""
    table = np.full((52, 4), -1, dtype=np.int64)
    for card, fits in enumerate(parents):
        table[card, : len(fits)] = fits
    return table


_PARENTS: Final = {relaxed: _table(parents) for relaxed, parents in solve._PARENTS.items()}
_RANK: Final = np.array(RANK, dtype=np.int64)
_SUIT: Final = np.array(SUIT, dtype=np.int64)


def deadlocked_key(key: bytes, foundations: list[int], relaxed: bool) -> bool:
    """Whether the deadlock check proves the position of ``key`` (with these foundations) lost."""
    f = foundations
    return bool(
        _deadlocked(np.frombuffer(key, dtype=np.uint8), f[0], f[1], f[2], f[3], _PARENTS[relaxed], _RANK, _SUIT)
    )


def warm_up() -> None:
    """Compile (or load from the cache) now, not within a search's time budget."""
    deadlocked_key(bytes((100,)), [0, 0, 0, 0], False)


@njit(cache=True)
def _deadlocked(key, f0, f1, f2, f3, parents, rank, suit):  # type: ignore[no-untyped-def]  # pragma: no cover
    """The steps of ``tests/engine/deadlock_reference.py``, on arrays (numba compiles this function)."""
    fnd = np.array([f0, f1, f2, f3])
    above = np.full(52, -1)  # card -> the card lying directly on it
    col_of = np.full(52, -1)
    pos_of = np.zeros(52, dtype=np.int64)
    face_down = np.zeros(52, dtype=np.bool_)
    is_bottom = np.zeros(52, dtype=np.bool_)
    x = np.zeros(52, dtype=np.bool_)  # in X
    starts = np.zeros(8, dtype=np.int64)
    lengths = np.zeros(8, dtype=np.int64)
    downs = np.zeros(8, dtype=np.int64)
    columns = 0
    i = 0
    while i < key.shape[0]:
        downs[columns] = key[i] - 100
        j = i + 1
        while j < key.shape[0] and key[j] < 100:
            j += 1
        starts[columns] = i + 1
        lengths[columns] = j - i - 1
        columns += 1
        i = j
    empty_columns = 7 - columns  # every King has a way out
    bottoms = np.full(7, -1)
    n_bottoms = 0
    members = np.zeros(52, dtype=np.int64)
    n_members = 0
    for ci in range(columns):
        length = lengths[ci]
        if length == 0:
            empty_columns += 1
            continue
        start = starts[ci]
        bottoms[n_bottoms] = key[start]
        n_bottoms += 1
        is_bottom[key[start]] = True
        for pos in range(length):
            card = key[start + pos]
            col_of[card] = ci
            pos_of[card] = pos
            x[card] = True
            if pos:
                above[key[start + pos - 1]] = card
            if pos < downs[ci]:
                face_down[card] = True
        for pos in range(length - 1, -1, -1):  # from the top of each column down
            members[n_members] = key[start + pos]
            n_members += 1
    bottoms_out = empty_columns
    changed = True
    while changed:
        changed = False
        kept = 0
        for m in range(n_members):
            card = members[m]
            a = above[card]
            held_here = a >= 0 and x[a]
            if held_here and face_down[card]:
                members[kept] = card
                kept += 1
                continue
            free = rank[card] == 13 and bottoms_out > 0
            if not free:
                for j in range(4):
                    p = parents[card, j]
                    if p < 0:
                        break
                    if col_of[p] < 0:  # on its foundation: could it come back?
                        s = suit[p]
                        returnable = True
                        k = fnd[s]
                        while k > rank[p]:
                            w = s * 13 + k - 1
                            if k == 13:
                                way_out = empty_columns > 0
                                for q in range(n_bottoms):
                                    if not x[bottoms[q]]:
                                        way_out = True
                                        break
                                if not way_out:
                                    returnable = False
                                    break
                            else:
                                target = False
                                for jj in range(4):
                                    pp = parents[w, jj]
                                    if pp < 0:
                                        break
                                    if col_of[pp] < 0 or above[pp] < 0 or not x[above[pp]]:
                                        target = True
                                        break
                                if not target:
                                    returnable = False
                                    break
                            k -= 1
                        if returnable:
                            free = True
                            break
                    else:
                        ap = above[p]
                        if ap < 0 or not x[ap]:
                            if col_of[p] == col_of[card] and pos_of[p] > pos_of[card]:
                                # p lies above the card: some card between must move first
                                start = starts[col_of[card]]
                                all_in_x = True
                                for pos in range(pos_of[card] + 1, pos_of[p] + 1):
                                    if not x[key[start + pos]]:
                                        all_in_x = False
                                        break
                                if all_in_x:
                                    continue
                            free = True
                            break
            if not free and not held_here:
                s = suit[card]
                free = True
                for z in range(s * 13 + fnd[s], card):
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
                members[kept] = card
                kept += 1
        n_members = kept
    return n_members > 0
