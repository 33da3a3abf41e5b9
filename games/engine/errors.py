"""Refusals: one exception type with a machine-readable reason code; the texts are the API's.

The engine names the broken rule by its reason code only; what a player reads is
``common.errors.ErrorCode`` (one member per reason, its text in the gettext catalogues).
"""

from __future__ import annotations

from typing import Final

#: The reason codes a refused move or undo can carry.
REASONS: Final[frozenset[str]] = frozenset(
    {
        "illegal_move",  # only the last card of a column goes to a foundation, one at a time
        "card_not_available",  # the card is not face up in that column
        "does_not_fit",  # not on a face-up card one rank higher (of the other colour: classic)
        "only_king_on_empty",  # only a King (with the cards on it) into an empty column
        "group_too_large",  # more than GROUP_LIMIT cards at once
        "not_next_on_foundation",  # a foundation takes the next card of its suit only
        "empty_source",  # no card to move there
        "same_column",  # the cards are already in that column
        "nothing_to_undo",  # no move left to undo (UNDO_LIMIT)
        "game_over",  # the game is already won
        "cards_face_down",  # a finish while a card still lies face down
        "finish_blocked",  # a finish where a card lies on a lower card of its own suit
    }
)


class IllegalMove(ValueError):
    """A move or undo the rules refuse; nothing has changed.

    ``relaxed`` says the game's rule is the relaxed one (its ``does_not_fit`` ignores colour).

    >>> str(IllegalMove("group_too_large"))
    'group_too_large'
    """

    def __init__(self, reason: str, *, relaxed: bool = False) -> None:
        assert reason in REASONS, reason
        self.reason = reason
        self.relaxed = relaxed
        super().__init__(reason)


class BadCode(ValueError):
    """Text that is not a game code."""


class BadMove(ValueError):
    """Input that is not a move at all (as opposed to a move the rules refuse)."""
