"""The rules as the solver's tables, built from the engine's own :func:`games.engine.cards.fits`.

The compiled kernels and the hint read these (the kernels as arrays) instead of restating a rule.
"""

from __future__ import annotations

from typing import Final

from games.engine.cards import RANK, SUIT, fits

Table = tuple[tuple[int, ...], ...]


def _parents(relaxed: bool) -> Table:
    return tuple(tuple(p for p in range(52) if fits(c, p, relaxed=relaxed)) for c in range(52))


def _children(relaxed: bool) -> Table:
    return tuple(tuple(c for c in range(52) if fits(c, p, relaxed=relaxed)) for p in range(52))


def _safe_needs(children: Table) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each card, the (suit, lowest top rank) of the three other foundations that make it safe
    to put up: every card that could ever be built on it (its children, theirs, ...) is up then."""
    out = []
    for card in range(52):
        below: set[int] = set()
        todo = [card]
        while todo:
            for child in children[todo.pop()]:
                if child not in below:
                    below.add(child)
                    todo.append(child)
        out.append(
            tuple(
                (suit, max((RANK[c] for c in below if SUIT[c] == suit), default=0))
                for suit in range(4)
                if suit != SUIT[card]
            )
        )
    return tuple(out)


#: For each rule (relaxed?) and each card: the cards it fits on (its *parents*) ...
PARENTS: Final = {relaxed: _parents(relaxed) for relaxed in (False, True)}
#: ... and the cards that fit on it (its *children*).
CHILDREN: Final = {relaxed: _children(relaxed) for relaxed in (False, True)}
#: For each rule and each card: what a safe move up needs (see ``kernels._autos``).
SAFE: Final = {relaxed: _safe_needs(CHILDREN[relaxed]) for relaxed in (False, True)}
#: The cards that may go into an empty column (the Kings), the same under both rules.
TO_EMPTY: Final = tuple(c for c in range(52) if fits(c, None, relaxed=False))
