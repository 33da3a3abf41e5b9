"""Game codes (format version 1, frozen) and the deal algorithm of SPEC section 4.

>>> code = GameCode.parse("yu1-c-aaaaaab")
>>> code.number, code.rule.value, str(code)
(1, 'classic', 'YU1-C-AAAAAAB')
>>> hex(SplitMix64(0).next())
'0xe220a8397b1dcdaf'
"""

from __future__ import annotations

import enum
import re
import secrets
from dataclasses import dataclass

from .errors import BadCode

MASK64 = (1 << 64) - 1
LETTERS = 7
MAX_NUMBER = 26**LETTERS - 1  # ZZZZZZZ = 8,031,810,175
COLUMN_SIZES = (1, 6, 7, 8, 9, 10, 11)
_CODE_RE = re.compile(r"YU1-([CR])-([A-Z]{7})")


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
    """The frozen random source of the deal: SplitMix64 with a 64-bit state."""

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
    """The 52 cards (indices) after the Fisher–Yates shuffle of deal ``number``."""
    deck = list(range(52))
    rng = SplitMix64(number)
    for i in range(51, 0, -1):
        j = rng.next() % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(number: int) -> tuple[list[list[int]], list[int]]:
    """The columns (bottom to top) and their face-down counts for deal ``number``."""
    deck = shuffled_deck(number)
    columns: list[list[int]] = []
    start = 0
    for size in COLUMN_SIZES:
        columns.append(deck[start : start + size])
        start += size
    down = [c for c in range(7)]  # column c (0-based) has c face-down cards
    return columns, down


@dataclass(frozen=True, slots=True)
class GameCode:
    """A deal and the rule it is played under: ``YU1-<C|R>-<7 letters>``."""

    rule: Rule
    number: int

    def __post_init__(self) -> None:
        if not 0 <= self.number <= MAX_NUMBER:
            raise BadCode(f"bad game code: deal number {self.number!r} out of range")

    @classmethod
    def parse(cls, text: str) -> GameCode:
        """Parse a code, case-insensitive; ``BadCode`` quoting the input otherwise."""
        match = _CODE_RE.fullmatch(text.strip().upper()) if isinstance(text, str) else None
        if match is None:
            raise BadCode(f"bad game code: {text!r} (expected e.g. 'YU1-C-AAAAAAB')")
        number = 0
        for letter in match.group(2):
            number = number * 26 + ord(letter) - 65
        return cls(Rule.from_letter(match.group(1)), number)

    @classmethod
    def random(cls, rule: Rule = Rule.CLASSIC) -> GameCode:
        """A deal drawn uniformly with a cryptographic source."""
        return cls(Rule(rule), secrets.randbelow(MAX_NUMBER + 1))

    def with_rule(self, rule: Rule) -> GameCode:
        return GameCode(Rule(rule), self.number)

    @property
    def letters(self) -> str:
        out = []
        n = self.number
        for _ in range(LETTERS):
            n, digit = divmod(n, 26)
            out.append(chr(65 + digit))
        return "".join(reversed(out))

    def __str__(self) -> str:
        return f"YU1-{self.rule.letter}-{self.letters}"
