"""Help for practice games: a fair hint, and "is this game still winnable?" (docs/rules.md, "The hint").

:func:`advise` sees only what the player sees (``game.view()``) and the positions the game has
already had (``seen``: :func:`position_key` of each, from the server's move log). It deals the
unseen cards into the face-down places, uniformly, from a seed of the view alone, and for each
fresh move (one that does not go back to a position the game had) solves every sample after it
within a node budget (no clock: the same view and history, the same hint): the move that wins
most samples, a flat Monte-Carlo over the hidden cards, so a move counts by how many deals of the
unseen cards it keeps winnable, not by which move a solver's line happens to start with. On a
tie, the move that turns a card up (information before the next hint), puts one up or empties a
column before one that only moves cards between columns, then the one under the most face-down
cards, then the one whose samples were won in the fewest nodes. A player who follows it never goes
round in a loop; when no sample is won after any fresh move and none turns a card up, puts one up
or empties a column, it says so (``no_progress``) instead of shuffling cards.
:func:`still_winnable` answers about the real deal, face-down cards included, so it is for
practice games only (never today's daily deal).

>>> game = Game.from_code("YU1-C-AAAAAAB")
>>> str(hint(game))
't5:6S>t1'
>>> still_winnable(game)
'yes'
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from games.engine.cards import ACE, CARD_NAMES, HIDDEN, RANK, SUITS, card_of, fits, parse_card
from games.engine.game import Game
from games.engine.moves import FOUNDATION, TO_FOUNDATION, Move

from .search import Verdict, solve

__all__ = [
    "HINT_NODES",
    "HINT_SAMPLES",
    "WINNABLE_NODES",
    "Advice",
    "Rating",
    "advise",
    "hint",
    "position_key",
    "rate",
    "still_winnable",
]

#: Samples of the unseen cards, and the node budget of each fresh move in each (one solve each).
#: ``bench/hint_bench.py`` measures the won share and the time (p95 under 300 ms of one core);
#: twice the samples at half the nodes, or twice the nodes, won no more (README).
HINT_SAMPLES: Final = 24
HINT_NODES: Final = 3_000  # per fresh move and sample
WINNABLE_NODES: Final = 100_000  # about 0.1 s of CPU at most (what it leaves unknown: README)

Answer = Literal["yes", "no", "unknown"]
Reason = Literal["move", "none", "no_progress"]


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: ``move``, or None with the ``reason``: ``none`` (no legal move, or won) or
    ``no_progress`` (no move helps: every move goes back to a position the game already had, or
    only moves cards between columns where no sample finds a win)."""

    move: Move | None
    reason: Reason


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


def position_key(game: Game) -> str:
    """The position as the player sees it, as a text. Within one game it is exact: a face-down
    card never moves, so the same visible position is the same position."""
    parts = [",".join(map(str, game.foundations))]
    for col, d in zip(game.columns, game.down, strict=True):
        parts.append(f"{d}:" + "".join(CARD_NAMES[c] for c in col[d:]))
    return "|".join(parts)


def _sampled_games(game: Game, samples: int, known: frozenset[int] = frozenset(), salt: str = "") -> list[Game]:
    """``samples`` deals of the cards the player has not seen into the face-down places. A card
    of ``known`` that lies face down (seen before and turned down again by undo: a face-down card
    never moves) stays in its place. The seed comes from what the player sees (and knows, and the
    ``salt``), so the same view gives the same samples."""
    faces, down, tops, text = _visible(game)
    seen = {c for col in faces for c in col}
    seen.update(card_of(s, r) for s in range(4) for r in range(ACE, tops[s] + 1))
    kept = [[c if c in known else None for c in game.columns[i][:d]] for i, d in enumerate(down)]
    placed = {c for col in kept for c in col if c is not None}
    unseen = [c for c in range(52) if c not in seen and c not in placed]
    if placed:
        text += "|known:" + ",".join(CARD_NAMES[c] for c in sorted(placed))
    seed = int.from_bytes(hashlib.sha256((text + salt).encode()).digest()[:8], "big")
    rng = random.Random(seed)
    out = []
    for _ in range(samples):
        cards = list(unseen)
        rng.shuffle(cards)
        columns = []
        for places, col in zip(kept, faces, strict=True):
            hidden = [c if c is not None else cards.pop() for c in places] if placed else cards[: len(places)]
            if not placed:
                del cards[: len(places)]
            columns.append(hidden + col)
        out.append(Game(game.code, columns, list(down), list(tops)))
    return out


def _kind(game: Game, move: Move) -> int:
    """How much a move does that the player can see: 3 turns a card up, 2 puts one up, 1 empties
    a column (a King's group into an empty column empties nothing useful: 0), 0 only moves cards
    between columns, or takes one back."""
    if move.src >= FOUNDATION:
        return 0
    col, down = game.columns[move.src], game.down[move.src]
    index = len(col) - 1 if move.card is None else col.index(move.card, down)
    if down and index == down:
        return 3
    if move.dst == TO_FOUNDATION:
        return 2
    if index == 0 and not fits(col[0], None, relaxed=game.relaxed):
        return 1
    return 0


def _thumb(game: Game, move: Move) -> tuple[int, int]:
    """A rule of thumb among the moves that make progress: the kind, then the most face-down
    cards in the source column (the longest pile to dig out)."""
    return (_kind(game, move), game.down[move.src] if move.src < FOUNDATION else 0)


def _rank(game: Game, move: Move, wins: int, nodes: int) -> tuple[int, int, int, int]:
    """How good a fresh move looks: the samples it keeps winnable, then (on a tie) the rule of
    thumb (a card turned up first: the next hint sees more), then the fewest nodes its samples'
    searches took (the easier wins)."""
    return (wins, *_thumb(game, move), -nodes)


@dataclass(frozen=True, slots=True)
class Rating:
    """Every rated move's outcome in each sample of the unseen cards (``wins[move][i]``: sample
    ``i`` was won after it within the node budget; ``nodes[move][i]``: the nodes that took), the
    fresh moves (those that go back to no position the game had) and the best of them, as
    :func:`advise` ranks."""

    wins: dict[Move, tuple[bool, ...]]
    nodes: dict[Move, tuple[int, ...]]
    fresh: tuple[Move, ...]
    best: Move | None

    def won(self, move: Move) -> int:
        return sum(self.wins[move])


def _fresh(game: Game, moves: list[Move], seen: Iterable[str]) -> list[Move]:
    had = set(seen)
    had.add(position_key(game))
    fresh: list[Move] = []
    for move in moves:
        after = game.copy()
        after.play(move)
        if position_key(after) not in had:
            fresh.append(move)
    return fresh


def rate(
    game: Game,
    seen: Iterable[str] = (),
    *,
    also: Iterable[Move] = (),
    known: frozenset[int] = frozenset(),
    salt: str = "",
    samples: int = HINT_SAMPLES,
    max_nodes: int = HINT_NODES,
) -> Rating:
    """Solve every sample of the unseen cards after each fresh move of ``game`` (and after each
    move of ``also``): the hint's flat Monte-Carlo. ``known``: cards the player has seen that lie
    face down now (they stay in place in every sample); ``salt`` gives other samples."""
    fresh = _fresh(game, game.legal_moves(), seen)
    rated = list(dict.fromkeys([*fresh, *also]))
    sampled = _sampled_games(game, samples, known, salt) if rated else []
    wins: dict[Move, tuple[bool, ...]] = {}
    nodes: dict[Move, tuple[int, ...]] = {}
    for move in rated:
        results = []
        for sample in sampled:
            after = sample.copy()
            after.play(move)
            results.append(solve(after, max_nodes=max_nodes, max_seconds=None, line=False))
        wins[move] = tuple(result.verdict is Verdict.WINNABLE for result in results)
        nodes[move] = tuple(result.nodes for result in results)
    best = max(fresh, key=lambda m: _rank(game, m, sum(wins[m]), sum(nodes[m]))) if fresh else None
    return Rating(wins, nodes, tuple(fresh), best)


def advise(game: Game, seen: Iterable[str] = (), *, samples: int = HINT_SAMPLES, max_nodes: int = HINT_NODES) -> Advice:
    """The suggested next move for the player of ``game``, from the visible position only, never
    to a position in ``seen`` (keys of :func:`position_key`: the positions the game had)."""
    if game.is_won or not game.legal_moves():
        return Advice(None, "none")
    rating = rate(game, seen, samples=samples, max_nodes=max_nodes)
    best = rating.best
    if best is None or (rating.won(best) == 0 and _kind(game, best) == 0):
        return Advice(None, "no_progress")
    return Advice(best, "move")


def hint(
    game: Game, seen: Iterable[str] = (), *, samples: int = HINT_SAMPLES, max_nodes: int = HINT_NODES
) -> Move | None:
    """The move of :func:`advise`, or None (no legal move, or none that makes progress)."""
    return advise(game, seen, samples=samples, max_nodes=max_nodes).move


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
