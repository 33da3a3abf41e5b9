"""Moves: small frozen values with a text form (``t3:7H>t5``) and the API's JSON form.

A move takes cards from a :data:`Source` to a :data:`Target`; the two are different kinds of
place. A source is a column (``t1..t7``: 0..6) or a foundation (``fS fH fD fC``:
``FOUNDATION + suit``, 7..10), whose top card goes back down. A target is a column, or one of
two that the engine resolves: ``TO_FOUNDATION`` (``"f"``: the moved card's own foundation) and
``AUTO`` (``"auto"``: the double-tap search).

>>> move = Move.parse("t3:7h>t5")
>>> str(move), move.to_json()
('t3:7H>t5', {'from': 't3', 'card': '7H', 'to': 't5'})
>>> str(Move.from_json({"from": "fH", "to": "t2"}))
'fH>t2'
>>> Move.parse("t3>f").dst == TO_FOUNDATION, Move.parse("fH>t2").src == FOUNDATION + 1
(True, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, NewType

from .cards import CARD_NAMES, SUITS, either_case, parse_card
from .errors import BadMove

#: Where a move's cards come from: a column 0..6, or a foundation ``FOUNDATION + suit``.
Source = NewType("Source", int)
#: Where they go: a column 0..6, ``TO_FOUNDATION`` or ``AUTO``.
Target = NewType("Target", int)

#: The source of the first foundation (fS); the foundation of suit ``s`` is ``FOUNDATION + s``,
#: so ``move.src >= FOUNDATION`` is a card taken back from a foundation.
FOUNDATION: Final = Source(7)
#: The target ``"f"``: the moved card's own foundation.
TO_FOUNDATION: Final = Target(-2)
#: The target ``"auto"``: the double-tap search (docs/rules.md) picks the column.
AUTO: Final = Target(-1)

# The grammar of a place, once: the API's schema gives these patterns, and the parser below reads
# a text (trimmed of surrounding blanks) with the target's, which takes every place.
_COLUMN: Final = "[tT][1-7]"
_SUIT: Final = f"[{either_case(SUITS)}]"
#: What a move's ``from`` may be (the schema's pattern): a column or one suit's foundation.
SOURCE_PATTERN: Final = f"^({_COLUMN}|[fF]{_SUIT})$"
#: What a move's ``to`` may be: a column, a foundation (any: the card's own is taken), ``f`` or ``auto``.
TARGET_PATTERN: Final = f"^({_COLUMN}|[fF]{_SUIT}?|[aA][uU][tT][oO])$"
_PLACE_RE: Final = re.compile(TARGET_PATTERN)
_TEXT_RE: Final = re.compile(r"([^:>]+)(?::([^>]+))?>(.+)")
_FIELDS: Final = frozenset({"from", "card", "to"})


def source_name(place: Source) -> str:
    return f"t{place + 1}" if place < FOUNDATION else "f" + SUITS[place - FOUNDATION]


def target_name(place: Target) -> str:
    if place == AUTO:
        return "auto"
    return "f" if place == TO_FOUNDATION else f"t{place + 1}"


def _match_place(text: object, expected: str) -> tuple[str | None, str | None, bool]:
    """The (column digit, suit letter, "auto") of a place's text; ``BadMove`` quoting it otherwise."""
    if not isinstance(text, str) or len(text) > 8:
        raise BadMove(f"bad place: {text!r}")
    place = text.strip()
    if _PLACE_RE.fullmatch(place) is None:
        raise BadMove(f"bad place: {text!r} (expected {expected})")
    kind = place[0].lower()
    if kind == "t":
        return place[1], None, False
    if kind == "f":
        return None, place[1:].upper() or None, False
    return None, None, True


def _parse_source(text: object) -> Source:
    column, suit, auto = _match_place(text, "t1..t7, fS, fH, fD, fC")
    if column:
        return Source(int(column) - 1)
    if auto:
        raise BadMove(f"bad place: {text!r} can only be a target")
    if suit is None:
        raise BadMove(f"bad place: {text!r} (name the foundation: fS, fH, fD or fC)")
    return Source(FOUNDATION + SUITS.index(suit))


def _parse_target(text: object) -> Target:
    column, _suit, auto = _match_place(text, "t1..t7, fS, fH, fD, fC, f or auto")
    if column:
        return Target(int(column) - 1)
    return AUTO if auto else TO_FOUNDATION  # fH as a target: the app finds the card's own foundation itself


@dataclass(frozen=True, slots=True)
class Move:
    """Move the group from ``card`` up (or the last card) of ``src`` to ``dst``."""

    src: Source
    dst: Target
    card: int | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move of a text form such as ``t3:7H>t5``, ``t3>f``, ``fH>t2``, ``t3:7H>auto``."""
        match = _TEXT_RE.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise BadMove(f"bad move: {text!r} (expected e.g. 't3:7H>t5')")
        src, card, dst = match.groups()
        return cls.from_json({"from": src, "card": card, "to": dst})

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """The move of its JSON form ``{"from", "card"?, "to"}``; ``BadMove`` for malformed input.

        The one reading of a move's JSON: the API hands its body over as it came (without the API's
        own fields), and its schema's patterns are this grammar's (``SOURCE_PATTERN``,
        ``TARGET_PATTERN``, ``CARD_PATTERN``).
        """
        if not isinstance(data, dict):
            raise BadMove("a move is an object with 'from', 'to' and optionally 'card'")
        unknown = data.keys() - _FIELDS
        if unknown:
            raise BadMove(f"unknown fields in move: {', '.join(sorted(map(str, unknown)))}")
        if "from" not in data or "to" not in data:
            raise BadMove("a move needs 'from' and 'to'")
        src = _parse_source(data["from"])
        dst = _parse_target(data["to"])
        card_text = data.get("card")
        card: int | None = None
        if card_text is not None:
            try:
                card = parse_card(card_text)
            except ValueError:
                expected = "expected rank A23456789TJQK and suit SHDC, e.g. '7H'"
                raise BadMove(f"bad card: {card_text!r} ({expected})") from None
        return cls(src, dst, card)

    def to_json(self) -> dict[str, str]:
        out = {"from": source_name(self.src)}
        if self.card is not None:
            out["card"] = CARD_NAMES[self.card]
        out["to"] = target_name(self.dst)
        return out

    def __str__(self) -> str:
        card = "" if self.card is None else ":" + CARD_NAMES[self.card]
        return f"{source_name(self.src)}{card}>{target_name(self.dst)}"
