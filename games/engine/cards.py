"""Cards, suits and ranks, and the one rule of where a card fits in the tableau.

A card is an ``int`` from 0 to 51 inside the engine: ``card_of(suit, rank)``, with the suits in
the fixed order S, H, D, C (the deck order of docs/codes.md) and the ranks ``ACE`` (1) to
``KING`` (13). Its text form is rank then suit, ``"7H"``, with ``T`` for ten.

>>> card_name(parse_card("th"))
'TH'
>>> RANK[parse_card("KS")] == KING, SUITS[SUIT[parse_card("KS")]]
(True, 'S')
"""

from __future__ import annotations

from typing import Final

SUITS: Final = "SHDC"
RANKS: Final = "A23456789TJQK"
HIDDEN: Final = "XX"
ACE: Final = 1
KING: Final = 13


def card_of(suit: int, rank: int) -> int:
    """The card of ``suit`` (0..3: S, H, D, C) and ``rank`` (ACE..KING).

    >>> card_name(card_of(1, KING))
    'KH'
    """
    return suit * KING + rank - ACE


#: Card index -> name, e.g. CARD_NAMES[0] == "AS".
CARD_NAMES: Final[tuple[str, ...]] = tuple(RANKS[r - ACE] + SUITS[s] for s in range(4) for r in range(ACE, KING + 1))
_BY_NAME: Final = {name: i for i, name in enumerate(CARD_NAMES)}
#: Card index -> rank ACE..KING and suit 0..3, precomputed for the hot paths.
RANK: Final[tuple[int, ...]] = tuple(r for _ in SUITS for r in range(ACE, KING + 1))
SUIT: Final[tuple[int, ...]] = tuple(s for s in range(4) for _ in RANKS)
#: Red is hearts and diamonds.
RED: Final[tuple[bool, ...]] = tuple(SUITS[s] in "HD" for s in SUIT)


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def fits(card: int, onto: int | None, *, relaxed: bool) -> bool:
    """Whether ``card``, alone or with the cards on it, may go onto a column whose last card is
    ``onto`` (face up), or into an empty column (``onto`` is ``None``): docs/rules.md.

    One rank lower and of the other colour (any colour under the relaxed rule); an empty column
    takes only a King. Every other statement of this rule (the engine's tables, the solver's) is
    built from this function.

    >>> seven = parse_card("7H")
    >>> fits(seven, parse_card("8S"), relaxed=False), fits(seven, parse_card("8D"), relaxed=False)
    (True, False)
    >>> fits(seven, parse_card("8D"), relaxed=True), fits(seven, None, relaxed=True)
    (True, False)
    >>> fits(parse_card("KC"), None, relaxed=False)
    True
    """
    if onto is None:
        return RANK[card] == KING
    return RANK[onto] == RANK[card] + 1 and (relaxed or RED[card] != RED[onto])


def either_case(letters: str) -> str:
    """The letters in both cases, for a pattern's character class (``"SHDC"``: ``"SHDCshdc"``)."""
    return "".join(dict.fromkeys(letters + letters.lower()))


#: What :func:`parse_card` reads (after trimming blanks), as the API's schema gives it: a rank
#: (``10`` for ``T`` too) and a suit, ASCII letters of either case.
CARD_PATTERN: Final = f"^([{either_case(RANKS)}]|10)[{either_case(SUITS)}]$"


def parse_card(text: str) -> int:
    """The card index of ``text`` (:data:`CARD_PATTERN`); ``ValueError`` quoting it otherwise.

    >>> card_name(parse_card(" 10h")), parse_card("7H") == parse_card("7h")
    ('TH', True)
    """
    if isinstance(text, str) and text.isascii():
        name = text.strip().upper()
        found = _BY_NAME.get("T" + name[2:] if name.startswith("10") else name)
        if found is not None:
            return found
    raise ValueError(f"bad card: {text!r}")
