"""Game codes in two format versions and the deal of docs/codes.md.

Version 1 (``YU1-<rule>-<7 letters>``, frozen) names one of 26^7 deals of a public shuffle: the
practice games. Version 2 (``YU2-<rule>-<48 letters>``) names any of the 52! orderings of the
deck by its Lehmer rank: the daily deals, drawn with ``secrets``, so that their face-up cards say
nothing about their face-down ones.

>>> code = GameCode.parse("yu1-c-aaaaaab")
>>> code.number, code.rule.value, str(code)
(1, 'classic', 'YU1-C-AAAAAAB')
>>> hex(SplitMix64(0).next())
'0xe220a8397b1dcdaf'
>>> str(GameCode.from_order(range(52)))
'YU2-C-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
>>> GameCode.parse(str(code.to_version2())).order == code.order
True
"""

from __future__ import annotations

import enum
import functools
import math
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import BadCode

MASK64 = (1 << 64) - 1
LETTERS = 7
MAX_NUMBER = 26**LETTERS - 1  # ZZZZZZZ = 8,031,810,175
LETTERS_V2 = 48  # 26^48 > 52!
ORDERINGS = math.factorial(52)
COLUMN_SIZES = (1, 6, 7, 8, 9, 10, 11)
_CODE_RE = re.compile(r"YU([12])-([CR])-([A-Z]+)")
_LENGTHS = {1: LETTERS, 2: LETTERS_V2}
_LIMITS = {1: MAX_NUMBER + 1, 2: ORDERINGS}


class Rule(str, enum.Enum):  # noqa: UP042 - str() of a member stays 'Rule.CLASSIC', as callers expect
    CLASSIC = "classic"
    RELAXED = "relaxed"

    @property
    def letter(self) -> str:
        return "C" if self is Rule.CLASSIC else "R"

    @classmethod
    def from_letter(cls, letter: str) -> Rule:
        return cls.CLASSIC if letter.upper() == "C" else cls.RELAXED


class SplitMix64:
    """The frozen random source of the version-1 deal: SplitMix64 with a 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def shuffled_deck(number: int) -> list[int]:
    """The 52 cards (indices) after the Fisher–Yates shuffle of version-1 deal ``number``."""
    deck = list(range(52))
    rng = SplitMix64(number)
    for i in range(51, 0, -1):
        j = rng.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_order(order: Iterable[int]) -> tuple[list[list[int]], list[int]]:
    """The columns (bottom to top) and their face-down counts of the cards in dealing ``order``."""
    deck = list(order)
    columns: list[list[int]] = []
    start = 0
    for size in COLUMN_SIZES:
        columns.append(deck[start : start + size])
        start += size
    down = [c for c in range(7)]  # column c (0-based) has c face-down cards
    return columns, down


def lehmer_rank(order: Iterable[int]) -> int:
    """The rank ``0 <= r < 52!`` of an ordering of the 52 deck indices (docs/codes.md)."""
    cards = list(order)
    if sorted(cards) != list(range(52)):
        raise BadCode(f"bad game code: not an ordering of the 52 cards: {cards!r}")
    remaining = list(range(52))
    rank = 0
    for i, card in enumerate(cards):
        k = remaining.index(card)
        rank = rank * (52 - i) + k
        remaining.pop(k)
    return rank


def lehmer_unrank(rank: int) -> list[int]:
    """The ordering of rank ``rank``: the inverse of :func:`lehmer_rank`."""
    if not 0 <= rank < ORDERINGS:
        raise BadCode(f"bad game code: deal number {rank!r} out of range")
    digits = []
    for radix in range(1, 53):  # the last position has radix 1, the first radix 52
        rank, digit = divmod(rank, radix)
        digits.append(digit)
    remaining = list(range(52))
    return [remaining.pop(k) for k in reversed(digits)]


def random_order() -> list[int]:
    """A uniformly random ordering of the 52 cards: Fisher–Yates with ``secrets.randbelow``."""
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = secrets.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class GameCode:
    """A deal and the rule it is played under: ``YU1-<C|R>-<7 letters>`` or ``YU2-<C|R>-<48 letters>``.

    ``number`` is the version-1 deal number, or the version-2 ordering's Lehmer rank.
    """

    rule: Rule
    number: int
    version: int = 1

    def __post_init__(self) -> None:
        if self.version not in _LIMITS:
            raise BadCode(f"bad game code: unknown format version {self.version!r}")
        if not 0 <= self.number < _LIMITS[self.version]:
            raise BadCode(f"bad game code: deal number {self.number!r} out of range")

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Parse a code of either version, case-insensitive (version 2 may hold spaces); only the
        ASCII letters count as letters. ``BadCode`` quoting the input otherwise."""
        if not isinstance(text, str):
            raise BadCode(f"bad game code: {text!r} (expected e.g. 'YU1-C-AAAAAAB')")
        return _parse(text)

    @classmethod
    def random(cls, rule: Rule = Rule.CLASSIC) -> GameCode:
        """A version-1 deal drawn uniformly with a cryptographic source (practice games)."""
        return cls(Rule(rule), secrets.randbelow(MAX_NUMBER + 1))

    @classmethod
    def random_ordering(cls, rule: Rule = Rule.CLASSIC) -> GameCode:
        """A version-2 deal: a uniformly random ordering of the 52 cards (daily deals)."""
        return cls.from_order(random_order(), rule)

    @classmethod
    def from_order(cls, order: Iterable[int], rule: Rule = Rule.CLASSIC) -> GameCode:
        """The version-2 code of the cards (deck indices) in dealing ``order``."""
        return cls(Rule(rule), lehmer_rank(order), 2)

    def to_version2(self) -> GameCode:
        """The version-2 code that deals the same cards."""
        return self if self.version == 2 else GameCode.from_order(self.order, self.rule)

    @property
    def order(self) -> list[int]:
        """The 52 deck indices in dealing order (docs/codes.md, step 4)."""
        return shuffled_deck(self.number) if self.version == 1 else lehmer_unrank(self.number)

    @property
    def letters(self) -> str:
        out = []
        n = self.number
        for _ in range(_LENGTHS[self.version]):
            n, digit = divmod(n, 26)
            out.append(chr(65 + digit))
        return "".join(reversed(out))

    def __str__(self) -> str:
        return f"YU{self.version}-{self.rule.letter}-{self.letters}"


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> GameCode:
    """Every move reads its game's code again: the parsed codes are kept (bounded)."""
    cleaned = text.strip()
    if cleaned.isascii() and cleaned[:3].upper() == "YU2":
        cleaned = "".join(cleaned.split())
    match = _CODE_RE.fullmatch(cleaned.upper()) if cleaned.isascii() else None
    if match is None or len(match.group(3)) != _LENGTHS[int(match.group(1))]:
        raise BadCode(f"bad game code: {text!r} (expected e.g. 'YU1-C-AAAAAAB')")
    number = 0
    for letter in match.group(3):
        number = number * 26 + ord(letter) - 65
    if number >= _LIMITS[int(match.group(1))]:
        raise BadCode(f"bad game code: {text!r} (the number is too large for a deal)")
    return GameCode(Rule.from_letter(match.group(2)), number, int(match.group(1)))
