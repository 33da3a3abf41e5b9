"""Positions for the solver's tests: small random end games, deals played into, lines replayed."""

from __future__ import annotations

import random

from games.engine import ACE, CARD_NAMES, KING, SUITS, Game, GameCode, Move, Rule, card_of


def small_position(rng: random.Random, rule: Rule, left: int) -> Game:
    """About ``left`` cards in the tableau, some face down, the rest of each suit up."""
    while True:
        tops = [KING] * 4
        for _ in range(left):
            tops[rng.randrange(4)] -= 1
        if min(tops) >= 0:
            break
    cards = [card_of(s, r) for s in range(4) for r in range(tops[s] + 1, KING + 1)]
    rng.shuffle(cards)
    columns: list[list[str]] = [[] for _ in range(7)]
    for card in cards:
        columns[rng.randrange(7)].append(CARD_NAMES[card])
    layout = []
    for col in columns:
        hidden = rng.randrange(len(col)) if col else 0
        layout.append([n.lower() if i < hidden else n for i, n in enumerate(col)])
    foundations = {
        s: (CARD_NAMES[card_of(f, t)] if t >= ACE else None) for f, (s, t) in enumerate(zip(SUITS, tops, strict=True))
    }
    return Game.from_layout(layout, foundations, rule=rule)


def played_into(rng: random.Random, moves: int) -> Game:
    """A classic deal after random legal moves (take-backs included)."""
    game = Game.new(GameCode(Rule.CLASSIC, rng.randrange(10**9)))
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_won:
            break
        game.play(rng.choice(legal))
    return game


def position(columns: list[str], foundations: list[int]) -> Game:
    """A position from its stored form: columns as card names bottom first, face down in lower case."""
    state = {"v": 2, "code": "YU1-C-AAAAAAA", "t": columns, "f": foundations, "score": 0, "moves": 0}
    return Game.from_state({**state, "h": "", "last": None})


def wins(game: Game, moves: tuple[Move, ...] | None) -> bool:
    """Whether the engine, playing ``moves`` from (a copy of) ``game``, wins."""
    copy = game.copy()
    for move in moves or ():
        copy.play(move)
    return moves is not None and copy.is_won
