"""Refusals: one exception type with a machine-readable reason and its rule in two languages."""

from __future__ import annotations

from typing import Final

#: reason -> (German, English): the "Interaktive Regeln" explanation of the broken rule.
EXPLANATIONS: Final[dict[str, tuple[str, str]]] = {
    "illegal_move": (
        "Auf einen Zielstapel kommt nur die letzte Karte einer Spalte, eine Karte nach der anderen.",
        "Only the last card of a column can go to a foundation, one card at a time.",
    ),
    "card_not_available": (
        "Diese Karte liegt nicht offen in dieser Spalte.",
        "That card is not face up in that column.",
    ),
    "does_not_fit": (
        "Eine Karte passt nur auf eine offene Karte der Gegenfarbe, die genau einen Rang höher ist.",
        "A card fits only on a face-up card of the other colour that is exactly one rank higher.",
    ),
    "does_not_fit_relaxed": (
        "Eine Karte passt nur auf eine offene Karte, die genau einen Rang höher ist.",
        "A card fits only on a face-up card that is exactly one rank higher.",
    ),
    "only_king_on_empty": (
        "In eine leere Spalte darf nur ein König gelegt werden, allein oder mit den Karten darauf.",
        "Only a King, alone or with the cards on it, may go into an empty column.",
    ),
    "group_too_large": (
        "Es lassen sich höchstens 20 Karten auf einmal verschieben.",
        "At most 20 cards can be moved at once.",
    ),
    "not_next_on_foundation": (
        "Auf einen Zielstapel kommt nur die nächste Karte seiner Farbe, vom Ass bis zum König.",
        "A foundation takes only the next card of its suit, from Ace up to King.",
    ),
    "empty_source": (
        "Hier liegt keine Karte, die sich bewegen lässt.",
        "There is no card to move here.",
    ),
    "same_column": (
        "Die Karten liegen schon in dieser Spalte.",
        "The cards are already in that column.",
    ),
    "nothing_to_undo": (
        "Es gibt keinen Zug, der sich rückgängig machen lässt (höchstens die letzten 100).",
        "There is no move left to undo (at most the last 100).",
    ),
    "game_over": (
        "Die Partie ist schon gewonnen.",
        "This game is already won.",
    ),
}

#: The reason codes a refused move or undo can carry.
REASONS: Final[frozenset[str]] = frozenset(EXPLANATIONS) - {"does_not_fit_relaxed"}


def explain(reason: str, lang: str = "de", *, relaxed: bool = False) -> str:
    """One sentence naming the broken rule, in German (default) or English.

    >>> explain("group_too_large", "en")
    'At most 20 cards can be moved at once.'
    """
    key = "does_not_fit_relaxed" if relaxed and reason == "does_not_fit" else reason
    german, english = EXPLANATIONS.get(key, EXPLANATIONS["illegal_move"])
    return english if lang.lower().startswith("en") else german


class IllegalMove(ValueError):
    """A move or undo the rules refuse; nothing has changed."""

    def __init__(self, reason: str, *, relaxed: bool = False) -> None:
        assert reason in REASONS, reason
        self.reason = reason
        self.relaxed = relaxed
        super().__init__(f"{reason}: {self.explain('en')}")

    def explain(self, lang: str = "de") -> str:
        return explain(self.reason, lang, relaxed=self.relaxed)


class BadCode(ValueError):
    """Text that is not a game code."""


class BadMove(ValueError):
    """Input that is not a move at all (as opposed to a move the rules refuse)."""
