"""Cards, suits and ranks.

A card is an ``int`` from 0 to 51 inside the engine: ``suit * 13 + rank - 1``
with the suits in the fixed order S, H, D, C (the deck order of SPEC section 4).
Its text form is rank then suit, ``"7H"``, with ``T`` for ten.

>>> card_name(parse_card("th"))
'TH'
>>> rank(parse_card("KS")), suit(parse_card("KS"))
(13, 0)
"""

from __future__ import annotations

SUITS = "SHDC"
RANKS = "A23456789TJQK"
HIDDEN = "XX"

#: Card index -> name, e.g. CARD_NAMES[0] == "AS".
CARD_NAMES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}
#: Card index -> rank 1..13 and suit 0..3, precomputed for the hot paths.
RANK: tuple[int, ...] = tuple(i % 13 + 1 for i in range(52))
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
#: Red is hearts and diamonds.
RED: tuple[bool, ...] = tuple(SUIT[i] in (1, 2) for i in range(52))


def rank(card: int) -> int:
    return RANK[card]


def suit(card: int) -> int:
    return SUIT[card]


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """The card index of ``text`` (case-insensitive); ``ValueError`` quoting it otherwise."""
    if isinstance(text, str):
        name = text.strip().upper()
        found = _BY_NAME.get("T" + name[2:] if name.startswith("10") else name)
        if found is not None:
            return found
    raise ValueError(f"bad card: {text!r}")
