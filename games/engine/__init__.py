"""The Yukon rules engine: pure Python, no Django.

The single authority on the rules: docs/rules.md (the moves), docs/scoring.md (points, counter,
undo) and docs/codes.md (the deal of a code). The API, the tasks and the solver call it.

>>> game = Game.from_code("YU1-C-AAAAAAB")
>>> len(game.legal_moves()) > 0, game.score, game.moves
(True, 0, 0)
"""

from .cards import ACE, CARD_NAMES, CARD_PATTERN, HIDDEN, KING, RANKS, SUITS, card_name, card_of, fits, parse_card
from .codes import GameCode, Rule, deal_order, random_order, shuffled_deck
from .errors import REASONS, BadCode, BadMove, IllegalMove
from .game import GROUP_LIMIT, UNDO_LIMIT, Game, MoveResult, ReplayStep, replay
from .moves import AUTO, FOUNDATION, SOURCE_PATTERN, TARGET_PATTERN, TO_FOUNDATION, Move, Source, Target

__all__ = [
    "ACE",
    "AUTO",
    "CARD_NAMES",
    "CARD_PATTERN",
    "FOUNDATION",
    "GROUP_LIMIT",
    "HIDDEN",
    "KING",
    "RANKS",
    "REASONS",
    "SOURCE_PATTERN",
    "SUITS",
    "TARGET_PATTERN",
    "TO_FOUNDATION",
    "UNDO_LIMIT",
    "BadCode",
    "BadMove",
    "Game",
    "GameCode",
    "IllegalMove",
    "Move",
    "MoveResult",
    "ReplayStep",
    "Rule",
    "Source",
    "Target",
    "card_name",
    "card_of",
    "deal_order",
    "fits",
    "parse_card",
    "random_order",
    "replay",
    "shuffled_deck",
]
