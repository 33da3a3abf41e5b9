"""Help for practice games: a fair hint, and "is this game still winnable?".

:func:`hint` sees only what the player sees (``game.view()``): it deals the unseen cards into
the face-down places a few times, from a seed of that view alone, solves each sample with a
small node budget (no clock: the same view, the same hint) and returns the move that most often
starts a win, or a rule of thumb if none is solved. :func:`still_winnable` answers about the real
deal, face-down cards included, so it is for practice games only (never today's daily deal).

>>> game = Game.from_code("YU1-C-AAAAAAB")
>>> str(hint(game))
't7:TS>t2'
>>> still_winnable(game)
'yes'
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Final, Literal

from games.engine.cards import ACE, CARD_NAMES, HIDDEN, RANK, SUIT, SUITS, card_of, fits, parse_card
from games.engine.game import Game
from games.engine.moves import FOUNDATION, TO_FOUNDATION, Move

from .search import Verdict, solve

__all__ = ["HINT_NODES", "HINT_SAMPLES", "WINNABLE_NODES", "hint", "still_winnable"]

HINT_SAMPLES: Final = 5
HINT_NODES: Final = 6_000  # per sample
WINNABLE_NODES: Final = 100_000  # about 0.1 s of CPU at most (what it leaves unknown: README)

Answer = Literal["yes", "no", "unknown"]


def _visible(game: Game) -> tuple[list[list[int]], list[int], list[int], str]:
    """Face-up cards per column, face-down counts, foundation tops, and a text of all that."""
    view = game.view()
    faces: list[list[int]] = []
    down: list[int] = []
    for column in view["tableau"]:
        hidden = sum(1 for name in column if name == HIDDEN)
        down.append(hidden)
        faces.append([parse_card(name) for name in column[hidden:]])
    tops = [0, 0, 0, 0]
    for suit, name in view["foundations"].items():
        if name is not None:
            tops[SUITS.index(suit)] = RANK[parse_card(name)]
    text = "|".join(
        [game.rule.value, ",".join(map(str, tops))]
        + [f"{d}:" + ",".join(CARD_NAMES[c] for c in col) for d, col in zip(down, faces, strict=True)]
    )
    return faces, down, tops, text


def _sampled_games(game: Game, samples: int) -> list[Game]:
    faces, down, tops, text = _visible(game)
    seen = {c for col in faces for c in col}
    seen.update(card_of(s, r) for s in range(4) for r in range(ACE, tops[s] + 1))
    unseen = [c for c in range(52) if c not in seen]
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        cards = list(unseen)
        rng.shuffle(cards)
        columns = []
        for d, col in zip(down, faces, strict=True):
            columns.append(cards[:d] + col)
            del cards[:d]
        out.append(Game(game.code, columns, list(down), list(tops)))
    return out


def _rule_of_thumb(game: Game) -> Move | None:
    """A sensible move from the visible position alone, or None when there is no legal move."""
    moves = game.legal_moves()
    if not moves:
        return None
    columns, down = game.columns, game.down  # only lengths and face-down counts are read

    def score(move: Move) -> tuple[int, int]:
        if move.src >= FOUNDATION:
            return (0, 0)  # a take-back: last
        col = columns[move.src]
        index = len(col) - 1 if move.card is None else col.index(move.card, down[move.src])
        flips = down[move.src] > 0 and index == down[move.src]
        if move.dst == TO_FOUNDATION:
            return (5 if flips else 3, down[move.src])
        if flips:
            return (4, down[move.src])
        if index == 0:
            # a card that could go into an empty column gains nothing by leaving one
            return (1, 0) if fits(col[0], None, relaxed=game.relaxed) else (2, 0)
        below = col[index - 1]
        return (2 if game.foundations[SUIT[below]] == RANK[below] - 1 else 1, 0)

    return max(moves, key=score)


def hint(game: Game, *, samples: int = HINT_SAMPLES, max_nodes: int = HINT_NODES) -> Move | None:
    """The suggested next move for the player of ``game``, from the visible position only.

    ``None`` when there is no legal move (or the game is won).
    """
    if game.is_won or not game.legal_moves():
        return None
    firsts: Counter[Move] = Counter()
    order: dict[Move, int] = {}
    for sampled in _sampled_games(game, samples):
        result = solve(sampled, max_nodes=max_nodes, max_seconds=None)
        if result.verdict is Verdict.WINNABLE and result.moves:
            first = result.moves[0]
            firsts[first] += 1
            order.setdefault(first, len(order))
    if firsts:
        return max(firsts, key=lambda m: (firsts[m], -order[m]))
    return _rule_of_thumb(game)


def still_winnable(game: Game, *, max_nodes: int = WINNABLE_NODES, max_seconds: float | None = None) -> Answer:
    """ "yes", "no" or "unknown" (budget spent) for the real position of ``game``, hidden cards included.

    Without ``max_seconds`` the answer depends on the position alone.
    """
    result = solve(game, max_nodes=max_nodes, max_seconds=max_seconds)
    if result.verdict is Verdict.WINNABLE:
        return "yes"
    if result.verdict is Verdict.NOT_WINNABLE:
        return "no"
    return "unknown"
