"""Moves: small frozen values with a text form (``t3:7H>t5``) and the API's JSON form.

Places are numbered inside the engine: columns ``t1..t7`` are 0..6, foundations
``fS fH fD fC`` are 7..10. A move's target is a column, ``FOUNDATION`` (the moved
card's own foundation, ``"f"``) or ``AUTO`` (the double-tap search, ``"auto"``).

>>> move = Move.parse("t3:7h>t5")
>>> str(move), move.to_json()
('t3:7H>t5', {'from': 't3', 'card': '7H', 'to': 't5'})
>>> str(Move.from_json({"from": "fH", "to": "t2"}))
'fH>t2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES, SUITS, parse_card
from .errors import BadMove

FOUNDATION = 7  # as a target: the card's own foundation; as a source, 7 + suit
AUTO = -1
_PLACE_RE = re.compile(r"(?:t([1-7])|f([SHDC])?|(auto))")
_TEXT_RE = re.compile(r"([^:>]+)(?::([^>]+))?>(.+)")


def place_name(place: int, *, as_target: bool = False) -> str:
    if place == AUTO:
        return "auto"
    if place < 7:
        return f"t{place + 1}"
    return "f" if as_target else "f" + SUITS[place - 7]


def _parse_place(text: object, *, target: bool) -> int:
    if not isinstance(text, str) or len(text) > 8:
        raise BadMove(f"bad place: {text!r}")
    raw = text.strip()
    match = _PLACE_RE.fullmatch(raw[:1].lower() + raw[1:].upper() if raw[:1] in "tTfF" else raw.lower())
    if match is None:
        raise BadMove(f"bad place: {text!r} (expected t1..t7, fS, fH, fD, fC{', f or auto' if target else ''})")
    column, suit, auto = match.groups()
    if column:
        return int(column) - 1
    if auto:
        if not target:
            raise BadMove(f"bad place: {text!r} can only be a target")
        return AUTO
    if target:
        return FOUNDATION  # the app finds the card's own foundation itself
    if suit is None:
        raise BadMove(f"bad place: {text!r} (name the foundation: fS, fH, fD or fC)")
    return FOUNDATION + SUITS.index(suit)


@dataclass(frozen=True, slots=True)
class Move:
    """Move the group from ``card`` up (or the last card) of ``src`` to ``dst``."""

    src: int
    dst: int
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
        """The move of an API body ``{"from", "card"?, "to"}``; ``BadMove`` for malformed input."""
        if not isinstance(data, dict):
            raise BadMove("a move is an object with 'from', 'to' and optionally 'card'")
        unknown = set(data) - {"from", "to", "card", "seq"}
        if unknown:
            raise BadMove(f"unknown fields in move: {', '.join(sorted(map(str, unknown)))}")
        if "from" not in data or "to" not in data:
            raise BadMove("a move needs 'from' and 'to'")
        src = _parse_place(data["from"], target=False)
        dst = _parse_place(data["to"], target=True)
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
        out = {"from": place_name(self.src)}
        if self.card is not None:
            out["card"] = CARD_NAMES[self.card]
        out["to"] = place_name(self.dst, as_target=True)
        return out

    def __str__(self) -> str:
        card = "" if self.card is None else ":" + CARD_NAMES[self.card]
        return f"{place_name(self.src)}{card}>{place_name(self.dst, as_target=True)}"
