"""The solver's search and its deadlock check, compiled with numba: the one implementation of both.

:mod:`.compiled` is their typed door; nothing else calls them. numba types these functions itself
when it compiles them, from untyped Python, which mypy cannot check: pyproject's one override
(for this module only) says so. A position is arrays (``cols``: 7 × 64 cards, ``lens``,
``down``: face-down cards per column, ``fnd``: the foundations' top ranks), a move a packed int
(:func:`_pack`). ``tests/solver/reference.py`` is the same search in plain Python, the readable
reference the tests hold this one to.
"""

from __future__ import annotations

import time
from typing import Final

import numpy as np
from numba import njit, objmode

from games.engine.cards import ACE, KING, card_of

from .tables import TO_EMPTY

#: Statuses of :func:`search`.
WON: Final = 1
LOST: Final = 0
OUT_OF_BUDGET: Final = -1
TOO_DEEP: Final = -2
#: Room for the moves of one position.
MOVES: Final = 128
#: The most positions a canonical position's family may have (more: unknown).
FAMILY: Final = 256
_MOVE_BITS: Final = (1 << 40) - 1
#: The random numbers of the column hashes (:func:`_col_hash`), two lanes: a 128-bit position key.
_CARD_Z: Final = np.random.default_rng(2026).integers(0, 2**64, size=(2, 64, 52), dtype=np.uint64)
_DOWN_Z: Final = np.random.default_rng(1852).integers(0, 2**64, size=(2, 64), dtype=np.uint64)
_PLACE_Z: Final = np.random.default_rng(7).integers(0, 2**64, size=(2, 7), dtype=np.uint64)
# The engine's cards and its empty-column rule as arrays. numba compiles global arrays in as
# constants, and its cache follows the changes of this file only (the rules are frozen: docs/rules.md).
_CARD_OF: Final = np.array([[-1] + [card_of(s, r) for r in range(ACE, KING + 1)] for s in range(4)], dtype=np.int64)
_EMPTY_COLUMN_CARDS: Final = np.array(TO_EMPTY, dtype=np.int64)
_TO_EMPTY_COLUMN: Final = np.array([c in TO_EMPTY for c in range(52)], dtype=np.bool_)


@njit(cache=True, inline="always")
def _won(fnd):
    return fnd[0] == KING and fnd[1] == KING and fnd[2] == KING and fnd[3] == KING


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _col_hash(cols, lens, down, s, lane):
    """A column's hash in one lane: a sum of random numbers, one for each (place, card) and one
    for its face-down count, so that a move updates it card by card (:func:`_apply`)."""
    h = _DOWN_Z[lane, down[s]]
    for i in range(lens[s]):
        h += _CARD_Z[lane, i, cols[s, i]]
    return h


@njit(cache=True)
def _is_safe(card, fnd, safe):
    for j in range(3):
        if fnd[safe[card, j, 0]] < safe[card, j, 1]:
            return False
    return True


# A move packed in an int: kind | s << 4 | i << 8 | t << 16 | n << 24. Kind 0, the group from card
# i of column s (n cards) onto column t; kind 1, the last card of column s up onto foundation i (its
# suit); kind 2, the top card of foundation s back onto column t. (compiled.py reads them back.)
@njit(cache=True, inline="always")
def _pack(kind, s, i, t, n):
    return kind | (s << 4) | (i << 8) | (t << 16) | (n << 24)


@njit(cache=True, inline="always")
def _turn_up(s, lens, down, hashes):
    """After cards left column ``s``: turn its new last card up if it is face down; True if so."""
    if lens[s] > 0 and down[s] == lens[s]:
        for lane in range(2):
            hashes[lane, s] += _DOWN_Z[lane, down[s] - 1] - _DOWN_Z[lane, down[s]]
        down[s] -= 1
        return True
    return False


@njit(cache=True, inline="always")
def _turn_down(s, down, hashes):
    for lane in range(2):
        hashes[lane, s] += _DOWN_Z[lane, down[s] + 1] - _DOWN_Z[lane, down[s]]
    down[s] += 1


@njit(cache=True, inline="always")
def _shift(a, start, b, cols, lens, hashes):
    """Put the cards of column ``a`` from ``start`` on onto column ``b``, hashes card by card."""
    for k in range(start, lens[a]):
        card = cols[a, k]
        p = lens[b]
        cols[b, p] = card
        lens[b] = p + 1
        for lane in range(2):
            hashes[lane, a] -= _CARD_Z[lane, k, card]
            hashes[lane, b] += _CARD_Z[lane, p, card]
    lens[a] = start


@njit(cache=True, inline="always")
def _push(t, card, cols, lens, hashes):
    p = lens[t]
    cols[t, p] = card
    lens[t] = p + 1
    for lane in range(2):
        hashes[lane, t] += _CARD_Z[lane, p, card]


@njit(cache=True, inline="always")
def _pop(s, cols, lens, hashes):
    """Take the last card off column ``s``; returns it."""
    k = lens[s] - 1
    card = cols[s, k]
    lens[s] = k
    for lane in range(2):
        hashes[lane, s] -= _CARD_Z[lane, k, card]
    return card


@njit(cache=True)
def _apply(m, cols, lens, down, fnd, hashes):
    kind = m & 15
    s = (m >> 4) & 15
    if kind == 0:
        _shift(s, (m >> 8) & 255, (m >> 16) & 255, cols, lens, hashes)
        return _turn_up(s, lens, down, hashes)
    if kind == 1:
        _pop(s, cols, lens, hashes)
        fnd[(m >> 8) & 255] += 1  # a move up carries its suit
        return _turn_up(s, lens, down, hashes)
    fnd[s] -= 1
    _push((m >> 16) & 255, _CARD_OF[s, fnd[s] + 1], cols, lens, hashes)
    return False


@njit(cache=True)
def _undo(m, flipped, cols, lens, down, fnd, hashes):
    kind = m & 15
    s = (m >> 4) & 15
    if kind == 0:
        if flipped:
            _turn_down(s, down, hashes)
        t = (m >> 16) & 255
        _shift(t, lens[t] - ((m >> 24) & 255), s, cols, lens, hashes)
    elif kind == 1:
        if flipped:
            _turn_down(s, down, hashes)
        suit = (m >> 8) & 255
        _push(s, _CARD_OF[suit, fnd[suit]], cols, lens, hashes)
        fnd[suit] -= 1
    else:
        _pop((m >> 16) & 255, cols, lens, hashes)
        fnd[s] += 1


@njit(cache=True)
def _hashes(cols, lens, down):
    """The hashes of the seven columns, in both lanes (kept up to date move by move)."""
    hashes = np.zeros((2, 7), dtype=np.uint64)
    for s in range(7):
        hashes[0, s] = _col_hash(cols, lens, down, s, 0)
        hashes[1, s] = _col_hash(cols, lens, down, s, 1)
    return hashes


@njit(cache=True)
def _exact_key(hashes):
    """A 128-bit key of the position with its columns in their places (:func:`_position_key`
    takes them in any order)."""
    a = np.uint64(0)
    b = np.uint64(0)
    for s in range(7):
        a += _mix(hashes[0, s] + _PLACE_Z[0, s])
        b += _mix(hashes[1, s] + _PLACE_Z[1, s])
    return a, b


@njit(cache=True)
def _position_key(hashes):
    a = np.uint64(0)
    b = np.uint64(0)
    for s in range(7):
        a += _mix(hashes[0, s])
        b += _mix(hashes[1, s] ^ np.uint64(0x5555555555555555))
    if a == np.uint64(0):
        a = np.uint64(1)
    return a, b


@njit(cache=True)
def _table_find(keys, a, b):
    """Index of (a, b) in the open-addressing table, or of the empty slot where it would go."""
    mask = keys.shape[0] - 1
    j = np.int64(a & np.uint64(mask))
    while True:
        ka = keys[j, 0]
        if ka == np.uint64(0):
            return j
        if ka == a and keys[j, 1] == b:
            return j
        j = (j + 1) & mask


@njit(cache=True)
def _grow(keys):
    new_keys = np.zeros((keys.shape[0] * 2, 2), dtype=np.uint64)
    for j in range(keys.shape[0]):
        if keys[j, 0] != np.uint64(0):
            k = _table_find(new_keys, keys[j, 0], keys[j, 1])
            new_keys[k, 0] = keys[j, 0]
            new_keys[k, 1] = keys[j, 1]
    return new_keys


@njit(cache=True)
def _grow_known(keys, dead):
    new_keys = np.zeros((keys.shape[0] * 2, 2), dtype=np.uint64)
    new_dead = np.zeros(keys.shape[0] * 2, dtype=np.bool_)
    for j in range(keys.shape[0]):
        if keys[j, 0] != np.uint64(0):
            k = _table_find(new_keys, keys[j, 0], keys[j, 1])
            new_keys[k, 0] = keys[j, 0]
            new_keys[k, 1] = keys[j, 1]
            new_dead[k] = dead[j]
    return new_keys, new_dead


@njit(cache=True)
def deadlocked(cols, lens, down, fnd, parents, rank, suit):
    """Whether the deadlock check (see :func:`_dead_in`) proves the position lost."""
    return _dead_in(cols, lens, down, fnd, parents, rank, suit, np.zeros((8, 52), dtype=np.int64))


@njit(cache=True)
def _dead_in(cols, lens, down, fnd, parents, rank, suit, work):
    """The deadlock check, in a work area allocated once (``work``, 8 × 52; a search calls it often).

    A set ``X`` of tableau cards none of which can be the first of ``X`` to move (as the bottom
    card of a group, or up to its foundation) proves the position lost, since every card has to
    move at last. Until the first move of ``X``, each card of ``X`` keeps lying on the card under
    it, so a card with a card of ``X`` directly on it (*held*) is no column's last card. A card
    therefore could move first only if it is not a held face-down card and has a target that is
    not held (nor, lying above it in its own column, only reachable through held cards; a target
    on its foundation must be able to come back), a column that could be emptied if it may go into
    one (the bottom card of some column not in ``X``), or, not held itself, every lower card of its
    suit neither in ``X`` nor held. The greatest such ``X`` is found by starting from the whole
    tableau and taking out every card that could move first; the position is lost if any is left.
    """
    above = work[0]
    col_of = work[1]
    pos_of = work[2]
    face_down = work[3]
    is_bottom = work[4]
    x = work[5]
    members = work[6]
    bottoms = work[7]
    for card in range(52):
        above[card] = -1
        col_of[card] = -1
        face_down[card] = 0
        is_bottom[card] = 0
        x[card] = 0
    empty_columns = 0
    n_bottoms = 0
    n_members = 0
    for ci in range(7):
        length = lens[ci]
        if length == 0:
            empty_columns += 1
            continue
        bottoms[n_bottoms] = cols[ci, 0]
        n_bottoms += 1
        is_bottom[cols[ci, 0]] = True
        for pos in range(length):
            card = cols[ci, pos]
            col_of[card] = ci
            pos_of[card] = pos
            x[card] = True
            if pos:
                above[cols[ci, pos - 1]] = card
            if pos < down[ci]:
                face_down[card] = True
        for pos in range(length - 1, -1, -1):
            members[n_members] = cols[ci, pos]
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
            free = _TO_EMPTY_COLUMN[card] and bottoms_out > 0
            if not free:
                for j in range(4):
                    p = parents[card, j]
                    if p < 0:
                        break
                    if col_of[p] < 0:
                        s = suit[p]
                        returnable = True
                        k = fnd[s]
                        while k > rank[p]:
                            w = _CARD_OF[s, k]
                            if _TO_EMPTY_COLUMN[w]:
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
                                ci = col_of[card]
                                all_in_x = True
                                for pos in range(pos_of[card] + 1, pos_of[p] + 1):
                                    if not x[cols[ci, pos]]:
                                        all_in_x = False
                                        break
                                if all_in_x:
                                    continue
                            free = True
                            break
            if not free and not held_here:
                s = suit[card]
                free = True
                for r in range(fnd[s] + 1, rank[card]):
                    z = _CARD_OF[s, r]
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


@njit(cache=True, inline="always")
def _comes_back(card, f, fnd, safe):
    """Whether ``card``, the top of foundation ``f``, would go straight back up as a safe move
    (so taking it back is never tried)."""
    fnd[f] -= 1
    answer = _is_safe(card, fnd, safe)
    fnd[f] += 1
    return answer


@njit(cache=True, inline="always")
def _fits(card, below, parents):
    """Whether ``card`` may lie on ``below`` in the tableau."""
    for j in range(4):
        if parents[card, j] == below:
            return True
    return False


@njit(cache=True, inline="always")
def _priority(cols, down, fnd, needed, rank, suit, s, i, king_waits):
    """How promising moving the group from card ``i`` of column ``s`` is: a card turned up, a
    column emptied (worth more while a King waits for one), a target a lid (a card lying on a
    face-down one) needs or a card that can go up uncovered, else little."""
    d = down[s]
    if i == d:
        if d:
            return 80 + d
        return 50 if king_waits else 5
    below = cols[s, i - 1]
    if needed[below]:
        return 65
    if fnd[suit[below]] == rank[below] - 1:
        return 60
    return 20


@njit(cache=True)
def _gen_moves(cols, lens, down, fnd, group, parents, children, safe, rank, suit, out, limit, noise, skip_swaps):
    """The moves worth trying, most promising first, into out[]; returns how many. With ``noise``,
    each move's priority gets up to that much at random (numba's generator, seeded by the search).

    Left out, soundly: a card that may go into an empty column but lies at the bottom of its own
    moves into none, and of several empty columns only the first is tried (both give a position
    equal up to the order of the columns, which the search refuses as seen); the take-back of a
    card that would go straight back up as a safe move (the same position again); and ``group``
    (column * 64 + index, or -1), the group the last move put here, when that move turned no card
    up and sent none up (see :func:`search`)."""
    ends = np.full(52, -1)
    where = np.full(52, -1)
    needed = np.zeros(52, dtype=np.bool_)
    empty = -1
    pr = np.zeros(MOVES, dtype=np.float64)
    mv = np.zeros(MOVES, dtype=np.int64)
    count = 0
    for s in range(7):
        n = lens[s]
        if n == 0:
            if empty < 0:
                empty = s
            continue
        last = cols[s, n - 1]
        ends[last] = s
        d = down[s]
        for i in range(d, n):
            where[cols[s, i]] = s * 64 + i
        if d:
            for j in range(4):
                p = parents[cols[s, d], j]
                if p < 0:
                    break
                needed[p] = True
        su = suit[last]
        if fnd[su] == rank[last] - 1:
            pr[count] = 90 if (d and d == n - 1) else 70
            mv[count] = _pack(1, s, su, 0, 0)
            count += 1
    king_waits = False
    for king in _EMPTY_COLUMN_CARDS:
        w = where[king]
        if w >= 0 and (w & 63) > 0:
            king_waits = True
            break
    for t in range(7):
        if lens[t] == 0:
            continue
        target = cols[t, lens[t] - 1]
        for j in range(4):
            card = children[target, j]
            if card < 0:
                break
            w = where[card]
            if w < 0:
                continue
            s = w >> 6
            i = w & 63
            if s == t:
                continue
            n = lens[s]
            if n - i > limit or w == group:
                continue
            if skip_swaps and i > down[s] and _fits(card, cols[s, i - 1], parents):
                continue  # a swap: the same family of positions (see _canon)
            value = _priority(cols, down, fnd, needed, rank, suit, s, i, king_waits and empty < 0)
            if needed[target] and i != down[s]:
                value -= 15
            pr[count] = value
            mv[count] = _pack(0, s, i, t, n - i)
            count += 1
    if empty >= 0:
        for king in _EMPTY_COLUMN_CARDS:
            w = where[king]
            if w > 0 and (w & 63) > 0 and w != group:
                s = w >> 6
                i = w & 63
                n = lens[s]
                if n - i <= limit:
                    pr[count] = _priority(cols, down, fnd, needed, rank, suit, s, i, king_waits and empty < 0)
                    mv[count] = _pack(0, s, i, empty, n - i)
                    count += 1
    for f in range(4):
        top = fnd[f]
        if not top:
            continue
        card = _CARD_OF[f, top]
        if _comes_back(card, f, fnd, safe):
            continue
        for j in range(4):
            p = parents[card, j]
            if p < 0:
                break
            dst = ends[p]
            if dst >= 0:
                pr[count] = 0
                mv[count] = _pack(2, f, 0, dst, 0)
                count += 1
        if _TO_EMPTY_COLUMN[card] and empty >= 0:
            pr[count] = 0
            mv[count] = _pack(2, f, 0, empty, 0)
            count += 1
    if noise > 0.0:
        for a in range(count):
            pr[a] += np.random.random() * noise
    # stable sort, highest priority first (insertion sort: a few dozen moves)
    for a in range(1, count):
        kp = pr[a]
        km = mv[a]
        b = a - 1
        while b >= 0 and pr[b] < kp:
            pr[b + 1] = pr[b]
            mv[b + 1] = mv[b]
            b -= 1
        pr[b + 1] = kp
        mv[b + 1] = km
    for a in range(count):
        out[a] = mv[a]
    return count


@njit(cache=True)
def _autos(cols, lens, down, fnd, hashes, safe, rank, suit, made, made_flip, n_made):
    """Make every safe move up, repeatedly, into made[n_made:]; returns the new count.

    A card ``c`` at the end of a column goes up without branching when its foundation is next
    and every card that could ever be built on it is up already (``tables.SAFE``). Those cards
    (``M``, with ``c``) are closed under "fits on", so in any winning line the ``M`` cards in the
    tableau only ever carry ``M`` cards: dropping every move of an ``M`` card (take-backs included)
    leaves a legal, shorter winning line from the position with ``c`` up. So a safe move never
    turns a winnable position into a lost one, take-backs allowed."""
    again = True
    while again:
        again = False
        for s in range(7):
            while lens[s] > 0:
                card = cols[s, lens[s] - 1]
                su = suit[card]
                if fnd[su] != rank[card] - 1 or not _is_safe(card, fnd, safe):
                    break
                m = _pack(1, s, su, 0, 0)
                made[n_made] = m
                made_flip[n_made] = _apply(m, cols, lens, down, fnd, hashes)
                n_made += 1
                again = True
    return n_made


@njit(cache=True)
def _canon(cols, lens, down, fnd, hashes, parents, rank, limit, out, made, made_flip, n_made):
    """Make every *swap* that moves a group onto its lower parent (card number): a group whose
    bottom card lies on a parent (face up) while its other parent ends another column. A swap can
    be taken back at once (the parent it left ends its column), so the positions that swaps link
    (a *family*) all reach the same positions: the canonical search keeps one of each family that
    it meets, and tries from it what every member can do (:func:`_expand`). Each swap lowers the
    sum of the cards lying under cards, so this ends."""
    while _gen_swaps(cols, lens, down, parents, rank, limit, out, True) > 0:
        made[n_made] = out[0]
        made_flip[n_made] = _apply(out[0], cols, lens, down, fnd, hashes)
        n_made += 1
    return n_made


@njit(cache=True)
def _settle(cols, lens, down, fnd, hashes, parents, safe, rank, suit, limit, out, made, made_flip, n_made):
    """The swaps to the canonical position and the safe moves up they allow, until neither is left."""
    while True:
        before = n_made
        n_made = _canon(cols, lens, down, fnd, hashes, parents, rank, limit, out, made, made_flip, n_made)
        if n_made == before:
            return n_made
        n_made = _autos(cols, lens, down, fnd, hashes, safe, rank, suit, made, made_flip, n_made)


@njit(cache=True)
def _now():
    with objmode(t="float64"):
        t = time.process_time()
    return t


@njit(cache=True)
def _gen_swaps(cols, lens, down, parents, rank, limit, out, first_down):
    """The swaps from here (see :func:`_canon`), either way, into out[]; returns how many. With
    ``first_down``, only the first swap onto a lower parent (0 or 1)."""
    count = 0
    for s in range(7):
        for i in range(down[s] + 1, lens[s]):
            x = cols[s, i]
            p = cols[s, i - 1]
            if rank[p] != rank[x] + 1 or not _fits(x, p, parents) or lens[s] - i > limit:
                continue
            for j in range(4):
                q = parents[x, j]
                if q < 0:
                    break
                if q == p or (first_down and q > p):
                    continue
                for t in range(7):
                    if t != s and lens[t] > 0 and cols[t, lens[t] - 1] == q:
                        out[count] = _pack(0, s, i, t, lens[s] - i)
                        count += 1
                        if first_down:
                            return count
    return count


@njit(cache=True)
def _onto(cols, lens, down, fnd, t, parents, children, safe, rank, suit, limit, out, count):
    """The moves onto the last card of column ``t`` (from the tableau, or back from a foundation),
    into out[count:]; returns the new count."""
    target = cols[t, lens[t] - 1]
    for j in range(4):
        c = children[target, j]
        if c < 0:
            break
        found = False
        for s in range(7):
            for i in range(down[s], lens[s]):
                if cols[s, i] == c:
                    found = True
                    swap = i > down[s] and _fits(c, cols[s, i - 1], parents)  # within the family
                    if s != t and lens[s] - i <= limit and not swap:
                        out[count] = _pack(0, s, i, t, lens[s] - i)
                        count += 1
                    break
            if found:
                break
        f = suit[c]
        if not found and fnd[f] == rank[c] and not _comes_back(c, f, fnd, safe):
            out[count] = _pack(2, f, 0, t, 0)
            count += 1
    return count


@njit(cache=True, inline="always")
def _path(k, mem_par, mem_move, pbase, path):
    """The swaps that lead from a frame's position to its member ``k``, last first; how many."""
    n = 0
    while k > 0:
        path[n] = mem_move[pbase + k]
        n += 1
        k = mem_par[pbase + k]
    return n


@njit(cache=True)
def _expand(
    cols, lens, down, fnd, hashes, group, parents, children, safe, rank, suit, limit, noise, canon,
    stack, base, mem_par, mem_move, pbase, tmp, path, masks,
):  # fmt: skip
    """The moves to try from here into stack[base:], each ``move | member << 40``; returns (how
    many, members), how many -1 when a buffer is full. A plain search has one member, this
    position. A canonical one tries the moves of every position its swaps reach (its *family*,
    found here breadth first, each with the member it came from and its swap), which reach
    each other, so they all stand for one: the swaps themselves are not tried."""
    mem_par[pbase] = -1
    mem_move[pbase] = 0
    if not canon:
        n = _gen_moves(cols, lens, down, fnd, group, parents, children, safe, rank, suit, tmp, limit, noise, False)
        if base + n > stack.shape[0]:
            return -1, 1
        for z in range(n):
            stack[base + z] = tmp[z]
        return n, 1
    masks[0] = 0
    n_mem = 1
    count = 0
    k = 0
    while k < n_mem:
        plen = _path(k, mem_par, mem_move, pbase, path)
        for r in range(plen - 1, -1, -1):
            _apply(path[r], cols, lens, down, fnd, hashes)
        ns = _gen_swaps(cols, lens, down, parents, rank, limit, tmp, False)
        for z in range(ns):
            sw = tmp[z]
            # A member is known by which of its groups lie on their other parent (in classic a
            # card has two): the cards under cards decide the position.
            mask = masks[k] ^ (1 << cols[(sw >> 4) & 15, (sw >> 8) & 255])
            new = True
            for q in range(n_mem):
                if masks[q] == mask:
                    new = False
                    break
            if new:
                if n_mem == masks.shape[0] or pbase + n_mem >= mem_par.shape[0]:
                    return -1, n_mem
                masks[n_mem] = mask
                mem_par[pbase + n_mem] = k
                mem_move[pbase + n_mem] = sw
                n_mem += 1
        if k == 0:
            n = _gen_moves(cols, lens, down, fnd, -1, parents, children, safe, rank, suit, tmp, limit, noise, True)
        else:
            # What this member can do that the one it came from (by moving the group [x .. e]
            # from parent p onto x's other parent) cannot, up to the family: put a card onto p
            # (x's sibling, from the tableau or back from its foundation), p up, and a card onto
            # e (in the one it came from, with the group on p, that card's group may hold p, or
            # grow past the limit). Every other move reaches a position of the same family as
            # that member's same move, or as the move of a group that then carries the swapped
            # group along.
            sw = mem_move[pbase + k]
            n = _onto(cols, lens, down, fnd, (sw >> 4) & 15, parents, children, safe, rank, suit, limit, tmp, 0)
            n = _onto(cols, lens, down, fnd, (sw >> 16) & 255, parents, children, safe, rank, suit, limit, tmp, n)
            s0 = (sw >> 4) & 15
            p = cols[s0, lens[s0] - 1]
            if fnd[suit[p]] == rank[p] - 1:
                tmp[n] = _pack(1, s0, suit[p], 0, 0)
                n += 1
        if base + count + n > stack.shape[0]:
            return -1, n_mem
        for z in range(n):
            m = tmp[z]
            stack[base + count] = m | (k << 40)
            count += 1
        for r in range(plen):
            _undo(path[r], False, cols, lens, down, fnd, hashes)
        k += 1
    return count, n_mem


@njit(cache=True)
def search(
    cols,
    lens,
    down,
    fnd,
    parents,
    children,
    safe,
    rank,
    suit,
    max_nodes,
    deadline,
    limit,
    noise,
    seed,
    known,
    known_dead,
    known_count,
    work,
    canon,
):
    """A depth-first search from the position: ``(status, nodes, line, known, known_dead)``,
    status :data:`WON` (``line``: the packed moves), :data:`LOST`, :data:`OUT_OF_BUDGET` or
    :data:`TOO_DEEP` (a path too deep or a buffer full: unknown). ``known``/``known_dead``: the
    table of positions the searches of one solve share (deadlock check answered, or proven lost),
    grown if need be and handed back.

    Positions are known by a 128-bit hash of their columns, order-independent (columns are
    interchangeable): for ten million positions the chance that two share one is about 1 in
    10^24, which this solver accepts. Only sound reductions are made, so that LOST is a proof:
    the safe moves up (:func:`_autos`), the moves left out (:func:`_gen_moves`), and

    * the deadlock check (:func:`_dead_in`) at each new position, skipped (never unsound) after
      moves that measurably never lock anything: moves up, take-backs, moves that empty a column;
    * the same group is not moved twice in a row: after a move of a group from column ``A`` to
      ``B`` that turned no card up and sent none up, moving it again gives the position before
      (to ``A``) or the one the move ``A`` to ``C`` gives from it, which that position tries
      itself (if it was entered the same way, the argument goes one step further up the path);
    * lost positions are remembered across the searches of one solve: a position entered with a
      card turned up whose search below ends without a win is lost, and so is every position
      expanded below it. No card turns face down again, so none of those is on the path above
      it, and each was expanded, found dead or proven lost before (the group rule leaves out
      only positions a parent with as many face-down cards tries);
    * ``canon`` (classic): positions linked by swaps (:func:`_canon`) count as one, from which the
      moves of every member of the family are tried (:func:`_expand`)."""
    if noise > 0.0:
        np.random.seed(seed)
    hashes = _hashes(cols, lens, down)
    # The path's frames: its moves (stack[f_start:f_start + f_count], each a move and the member of
    # the family it is made from, members at mem_*[f_pstart:]), the next one, the entry that
    # entered it and whether its move turned a card up, the moves up (and swaps) made then
    # (made[f_made0:f_made1]), where the proof of lost starts in the trail (or -1).
    (stack, f_start, f_count, f_index, f_move, f_flip, f_made0, f_made1, made, made_flip, f_proves,
     mem_par, mem_move, f_pstart, f_pcount, tmp, path, masks) = work  # fmt: skip
    MAXD = f_count.shape[0]
    dead_work = np.zeros((8, 52), dtype=np.int64)
    keys = np.zeros((1 << 10, 2), dtype=np.uint64)  # the positions seen by this search
    used = 0
    known_used = known_count[0]
    trail = np.zeros((1 << 10, 2), dtype=np.uint64)  # the positions expanded (proofs of lost)
    trail_len = 0
    f_proves[0] = -1
    nodes = 0
    n_made = _autos(cols, lens, down, fnd, hashes, safe, rank, suit, made, made_flip, 0)
    if canon:
        n_made = _settle(cols, lens, down, fnd, hashes, parents, safe, rank, suit, limit, tmp, made, made_flip, n_made)
    if _won(fnd):
        known_count[0] = known_used
        return 1, nodes, made[:n_made].copy(), known, known_dead
    if deadlocked(cols, lens, down, fnd, parents, rank, suit):
        known_count[0] = known_used
        return 0, nodes, np.zeros(0, dtype=np.int64), known, known_dead
    a, b = _position_key(hashes)
    j = _table_find(keys, a, b)
    keys[j, 0] = a
    keys[j, 1] = b
    used += 1
    depth = 0
    f_move[0] = -1
    f_made0[0] = 0
    f_made1[0] = n_made
    f_index[0] = 0
    f_start[0] = 0
    f_pstart[0] = 0
    f_count[0], f_pcount[0] = _expand(
        cols, lens, down, fnd, hashes, -1, parents, children, safe, rank, suit, limit, noise, canon,
        stack, 0, mem_par, mem_move, 0, tmp, path, masks,
    )  # fmt: skip
    if f_count[0] < 0:
        known_count[0] = known_used
        return -2, nodes, np.zeros(0, dtype=np.int64), known, known_dead
    while depth >= 0:
        if f_index[depth] >= f_count[depth]:
            start = f_proves[depth]
            if start >= 0:  # lost, for every search of this solve(), with all expanded below it
                for q in range(start, trail_len):
                    j = _table_find(known, trail[q, 0], trail[q, 1])
                    if known[j, 0] == np.uint64(0):
                        known[j, 0] = trail[q, 0]
                        known[j, 1] = trail[q, 1]
                        known_used += 1
                    known_dead[j] = True
                    if known_used * 2 > known.shape[0]:
                        known, known_dead = _grow_known(known, known_dead)
                trail_len = start
            if depth == 0:
                break
            for q in range(f_made1[depth] - 1, f_made0[depth] - 1, -1):
                _undo(made[q], made_flip[q], cols, lens, down, fnd, hashes)
            e = f_move[depth]
            _undo(e & _MOVE_BITS, f_flip[depth], cols, lens, down, fnd, hashes)
            plen = _path(e >> 40, mem_par, mem_move, f_pstart[depth - 1], path)
            for r in range(plen):
                _undo(path[r], False, cols, lens, down, fnd, hashes)
            n_made = f_made0[depth]
            depth -= 1
            continue
        if nodes == max_nodes or ((nodes & 511) == 0 and deadline > 0.0 and _now() > deadline):
            known_count[0] = known_used
            return -1, nodes, np.zeros(0, dtype=np.int64), known, known_dead
        e = stack[f_start[depth] + f_index[depth]]
        f_index[depth] += 1
        m = e & _MOVE_BITS
        plen = _path(e >> 40, mem_par, mem_move, f_pstart[depth], path)
        for r in range(plen - 1, -1, -1):
            _apply(path[r], cols, lens, down, fnd, hashes)
        flipped = _apply(m, cols, lens, down, fnd, hashes)
        nodes += 1
        kind = m & 15
        start = n_made
        if kind == 1:
            n_made = _autos(cols, lens, down, fnd, hashes, safe, rank, suit, made, made_flip, n_made)
        elif kind == 0:
            s = (m >> 4) & 15
            if lens[s] > 0:
                card = cols[s, lens[s] - 1]
                if fnd[suit[card]] == rank[card] - 1 and _is_safe(card, fnd, safe):
                    n_made = _autos(cols, lens, down, fnd, hashes, safe, rank, suit, made, made_flip, n_made)
        if canon:
            n_made = _settle(
                cols, lens, down, fnd, hashes, parents, safe, rank, suit, limit, tmp, made, made_flip, n_made
            )
        if _won(fnd):
            total = n_made + 1 + plen
            for d in range(1, depth + 1):
                total += 1 + _path(f_move[d] >> 40, mem_par, mem_move, f_pstart[d - 1], path)
            line = np.zeros(total, dtype=np.int64)
            k = 0
            for q in range(f_made1[0]):
                line[k] = made[q]
                k += 1
            for d in range(1, depth + 2):
                entry = f_move[d] if d <= depth else e
                plen = _path(entry >> 40, mem_par, mem_move, f_pstart[d - 1], path)
                for r in range(plen - 1, -1, -1):
                    line[k] = path[r]
                    k += 1
                line[k] = entry & _MOVE_BITS
                k += 1
                lo = f_made0[d] if d <= depth else start
                hi = f_made1[d] if d <= depth else n_made
                for q in range(lo, hi):
                    line[k] = made[q]
                    k += 1
            known_count[0] = known_used
            return 1, nodes, line[:k], known, known_dead
        a, b = _position_key(hashes)
        j = _table_find(keys, a, b)
        dead = keys[j, 0] != np.uint64(0)  # seen
        if not dead:
            keys[j, 0] = a
            keys[j, 1] = b
            used += 1
            if used * 2 > keys.shape[0]:
                keys = _grow(keys)
            j = _table_find(known, a, b)
            if known[j, 0] != np.uint64(0):
                dead = known_dead[j]
            elif kind == 0 and lens[(m >> 4) & 15] > 0:
                dead = _dead_in(cols, lens, down, fnd, parents, rank, suit, dead_work)
                known[j, 0] = a
                known[j, 1] = b
                known_dead[j] = dead
                known_used += 1
                if known_used * 2 > known.shape[0]:
                    known, known_dead = _grow_known(known, known_dead)
        if dead:
            for q in range(n_made - 1, start - 1, -1):
                _undo(made[q], made_flip[q], cols, lens, down, fnd, hashes)
            _undo(m, flipped, cols, lens, down, fnd, hashes)
            for r in range(plen):
                _undo(path[r], False, cols, lens, down, fnd, hashes)
            n_made = start
            continue
        if depth + 1 >= MAXD or n_made + 128 > made.shape[0]:
            known_count[0] = known_used
            return -2, nodes, np.zeros(0, dtype=np.int64), known, known_dead
        if trail_len == trail.shape[0]:
            bigger = np.zeros((trail.shape[0] * 2, 2), dtype=np.uint64)
            bigger[:trail_len] = trail
            trail = bigger
        trail[trail_len, 0] = a
        trail[trail_len, 1] = b
        trail_len += 1
        depth += 1
        f_move[depth] = e
        f_flip[depth] = flipped
        f_made0[depth] = start
        f_made1[depth] = n_made
        f_index[depth] = 0
        group = -1
        any_flip = flipped
        for q in range(start, n_made):
            if made_flip[q]:
                any_flip = True
        f_proves[depth] = trail_len - 1 if any_flip else -1
        if not any_flip and kind == 0 and start == n_made and not canon:
            t = (m >> 16) & 255
            group = t * 64 + lens[t] - ((m >> 24) & 255)
        f_start[depth] = f_start[depth - 1] + f_count[depth - 1]
        f_pstart[depth] = f_pstart[depth - 1] + f_pcount[depth - 1]
        f_count[depth], f_pcount[depth] = _expand(
            cols, lens, down, fnd, hashes, group, parents, children, safe, rank, suit, limit, noise, canon,
            stack, f_start[depth], mem_par, mem_move, f_pstart[depth], tmp, path, masks,
        )  # fmt: skip
        if f_count[depth] < 0:
            known_count[0] = known_used
            return -2, nodes, np.zeros(0, dtype=np.int64), known, known_dead
    known_count[0] = known_used
    return 0, nodes, np.zeros(0, dtype=np.int64), known, known_dead


@njit(cache=True)
def polish(cols, lens, down, fnd, line, parents, children, safe, rank, suit, limit):
    """``line`` (packed moves that win from the position) made short: every stretch that comes
    back to a position it already passed cut out, then shortcuts, from each position the one
    move (of the plain order) that reaches the latest later position of the line (columns in
    their places), the line's own move on a tie. The position is left as it was."""
    hashes = _hashes(cols, lens, down)
    n = line.shape[0]
    flips = np.zeros(n, dtype=np.bool_)
    out = np.zeros(n, dtype=np.int64)
    keys = np.zeros((n + 1, 2), dtype=np.uint64)  # keys[q]: the position before out[q]
    keys[0, 0], keys[0, 1] = _exact_key(hashes)
    m = 0
    for k in range(n):
        flips[k] = _apply(line[k], cols, lens, down, fnd, hashes)
        a, b = _exact_key(hashes)
        back = -1
        for q in range(m + 1):
            if keys[q, 0] == a and keys[q, 1] == b:
                back = q
                break
        if back >= 0:
            m = back  # a loop: out[back:m] is cut out
        else:
            out[m] = line[k]
            m += 1
            keys[m, 0] = a
            keys[m, 1] = b
    for k in range(n - 1, -1, -1):
        _undo(line[k], flips[k], cols, lens, down, fnd, hashes)
    short = np.zeros(m, dtype=np.int64)
    short_flips = np.zeros(m, dtype=np.bool_)
    tmp = np.zeros(MOVES, dtype=np.int64)
    r = 0
    i = 0
    while i < m:
        best = i + 1
        best_move = out[i]
        count = _gen_moves(cols, lens, down, fnd, -1, parents, children, safe, rank, suit, tmp, limit, 0.0, False)
        for z in range(count):
            flipped = _apply(tmp[z], cols, lens, down, fnd, hashes)
            a, b = _exact_key(hashes)
            for j in range(m, best, -1):
                if keys[j, 0] == a and keys[j, 1] == b:
                    best = j
                    best_move = tmp[z]
                    break
            _undo(tmp[z], flipped, cols, lens, down, fnd, hashes)
        short[r] = best_move
        short_flips[r] = _apply(best_move, cols, lens, down, fnd, hashes)
        r += 1
        i = best
    for k in range(r - 1, -1, -1):
        _undo(short[k], short_flips[k], cols, lens, down, fnd, hashes)
    return short[:r]
