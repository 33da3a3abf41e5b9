"""One opening, many arrangements (docs/daily.md, "One opening, many arrangements").

A day's deal is an *opening* — the 31 face-up cards in their places, the same for everyone — and K
*arrangements* of the 21 face-down cards under it. Each arrangement is a full deal (a version-2
code), certified winnable before its day (:mod:`games.competition.daily`). Which arrangement an account gets
is a keyed hash of the day's secret key and the account: the same on every device and reload,
unknowable without the key, not chosen by the player. So what one account turns up tells another
nothing, unless both happen to hold the same one of K (docs/fair-play.md, "Scouting priced out").

Pure: the standard library and the engine's codes, no Django, no solver. The day's key is 32
random bytes kept with the deal; an arrangement is named by its *draw*, a number from which it
follows under that key (draws that the solver could not win, or that were too easy or too hard,
are skipped: the deal keeps the list of the K draws it kept).

>>> key = bytes(32)
>>> opening = list(range(52))
>>> order = arrangement_order(opening, key, 0)
>>> opening_of(order) == opening_of(opening), sorted(order) == opening
(True, True)
>>> arrangement_order(opening, key, 0) == order, arrangement_order(opening, key, 1) == order
(True, False)
>>> arrangement_order(arrangement_order(opening, key, 5), key, 0) == order  # from any deal of the opening
True
>>> 0 <= arrangement_index(key, account=7, arrangements=16384) < 16384
True
"""

from __future__ import annotations

import hashlib
import hmac
import sys
from array import array
from collections.abc import Sequence

from games.engine.codes import COLUMN_SIZES

__all__ = [
    "FACE_DOWN",
    "arrangement_index",
    "arrangement_order",
    "opening_of",
    "pack",
    "unpack",
]


def _face_down_slots() -> tuple[int, ...]:
    """The places in dealing order that are dealt face down: column c (0-based) has c of them at
    its bottom (docs/codes.md)."""
    slots: list[int] = []
    start = 0
    for column, size in enumerate(COLUMN_SIZES):
        slots.extend(range(start, start + column))
        start += size
    return tuple(slots)


#: The 21 face-down places of a deal, in dealing order.
FACE_DOWN = _face_down_slots()
_DOWN_SET = frozenset(FACE_DOWN)


def opening_of(order: Sequence[int]) -> tuple[int | None, ...]:
    """The opening of a deal: its 52 places with the face-down ones as ``None``. Two arrangements
    of one day have the same opening."""
    return tuple(None if slot in _DOWN_SET else card for slot, card in enumerate(order))


class _Stream:
    """Uniform numbers from HMAC-SHA256(key, draw || counter): a deterministic, keyed source."""

    __slots__ = ("_buffer", "_counter", "_key", "_prefix")

    def __init__(self, key: bytes, prefix: bytes) -> None:
        self._key, self._prefix, self._counter, self._buffer = key, prefix, 0, b""

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hmac.new(self._key, self._prefix + self._counter.to_bytes(4, "big"), hashlib.sha256).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, bound: int) -> int:
        """Uniform in ``range(bound)`` (rejection of the top part of 2^32: no bias)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            value = int.from_bytes(self._bytes(4), "big")
            if value < limit:
                return value % bound


def arrangement_order(opening: Sequence[int], key: bytes, draw: int) -> list[int]:
    """The deal (52 deck indices in dealing order) of arrangement ``draw`` under ``key``: the cards
    of the opening's face-down places shuffled among those places (Fisher–Yates), the face-up
    places as they are. ``opening`` is any deal of the day: its face-down cards are the set that
    is shuffled, taken in card order, so every deal of one opening gives the same arrangements."""
    cards = sorted(opening[slot] for slot in FACE_DOWN)
    stream = _Stream(key, b"draw:" + draw.to_bytes(4, "big"))
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    order = list(opening)
    for slot, card in zip(FACE_DOWN, cards, strict=True):
        order[slot] = card
    return order


def arrangement_index(key: bytes, *, account: int, arrangements: int) -> int:
    """Which of the day's ``arrangements`` an account gets: HMAC-SHA256 of the day's key and the
    account's id, modulo K (64 bits of it: no bias worth a word)."""
    digest = hmac.new(key, b"account:" + str(account).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % arrangements


def pack(values: Sequence[int], typecode: str) -> bytes:
    """Numbers as little-endian bytes (``"I"``: draws, ``"H"``: pars), as the deal keeps them."""
    packed = array(typecode, values)
    if sys.byteorder == "big":  # pragma: no cover - the bytes are little-endian on every host
        packed.byteswap()
    return packed.tobytes()


def unpack(data: bytes | memoryview, typecode: str) -> array[int]:
    out = array(typecode)
    out.frombytes(bytes(data))
    if sys.byteorder == "big":  # pragma: no cover - the bytes are little-endian on every host
        out.byteswap()
    return out
