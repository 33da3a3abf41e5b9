"""The Yukon rules engine: pure Python, no Django.

The single authority on the rules (SPEC sections 1–4): the API, the tasks and the solver call it.

>>> game = Game.from_code("YU1-C-AAAAAAB")
>>> len(game.legal_moves()) > 0, game.score, game.moves
(True, 0, 0)
"""

from .cards import CARD_NAMES, HIDDEN, RANKS, SUITS, card_name, parse_card
from .codes import GameCode, Rule, deal, deal_order, random_order, shuffled_deck
from .errors import REASONS, BadCode, BadMove, IllegalMove, explain
from .game import GROUP_LIMIT, UNDO_LIMIT, Game, MoveResult
from .moves import AUTO, FOUNDATION, Move

__all__ = [
    "AUTO",
    "CARD_NAMES",
    "FOUNDATION",
    "GROUP_LIMIT",
    "HIDDEN",
    "RANKS",
    "REASONS",
    "SUITS",
    "UNDO_LIMIT",
    "BadCode",
    "BadMove",
    "Game",
    "GameCode",
    "IllegalMove",
    "Move",
    "MoveResult",
    "Rule",
    "card_name",
    "deal",
    "deal_order",
    "explain",
    "parse_card",
    "random_order",
    "shuffled_deck",
]
