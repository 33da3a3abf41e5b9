"""The game: a Yukon position with its score, move counter and undo history (docs/rules.md,
docs/scoring.md).

The stored state (:meth:`Game.to_state`) holds the position, not the undo history: each move's
step back (six characters, :attr:`MoveResult.step`) is kept with the move in the log, and a game
read from its state is given the one step its next undo takes back (:meth:`Game.undo_step_load`).
So the state a move rewrites stays small (docs/capacity.md).

>>> game = Game.from_code("YU1-C-AAAAAAB")
>>> game.view()["tableau"][1]
['XX', '4H', '8D', '8H', '5C', 'JH']
>>> result = game.play(Move.parse("t7:7S>t1"))
Traceback (most recent call last):
...
games.engine.errors.IllegalMove: card_not_available
>>> result = game.play(Move.parse("t7:TS>auto"))
>>> str(result.move), result.points, result.flipped
('t7:TS>t2', 5, '8S')
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES, HIDDEN, KING, RANK, SUIT, SUITS, card_of, fits, parse_card
from .codes import GameCode, Rule, deal_order
from .errors import IllegalMove
from .moves import AUTO, FOUNDATION, TO_FOUNDATION, Move, Source, Target

UNDO_LIMIT = 100
#: One step of the undo history: (src, dst, count, flipped, points, card, seq, below).
Step = tuple[int, int, int, bool, int, int, int, int]
GROUP_LIMIT = 20
FLIP_POINTS = 5
FOUNDATION_POINTS = 10
#: The score of a game won without take-backs (docs/scoring.md): every card put on a foundation
#: once, every face-down card of the deal flipped once. A take-back and its return earn 10 again.
CLEAN_WIN_SCORE = 52 * FOUNDATION_POINTS + 21 * FLIP_POINTS  # 625
STATE_VERSION = 3  # 3: no undo history, only its size and top (2: the history as text; 1: as lists)
_ALL_UP = [KING] * 4  # the foundations of a won game

#: For each rule (relaxed?) and each card, the cards that fit on it (:func:`.cards.fits`).
_FITS = {
    relaxed: tuple(tuple(c for c in range(52) if fits(c, top, relaxed=relaxed)) for top in range(52))
    for relaxed in (False, True)
}
#: For each card, whether it may go into an empty column (the same under both rules).
_ENTERS_EMPTY = tuple(fits(c, None, relaxed=False) for c in range(52))
# Every move the engine can list, made once: legal_moves() hands out these shared values.
_TABLEAU_MOVES = {
    (s, c, t): Move(Source(s), Target(t), c) for s in range(7) for c in range(52) for t in range(7) if s != t
}
_TO_FOUNDATION = tuple(Move(Source(s), TO_FOUNDATION) for s in range(7))
_FROM_FOUNDATION = {(f, t): Move(Source(FOUNDATION + f), Target(t)) for f in range(4) for t in range(7)}


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What an accepted move did: the concrete move (``auto`` resolved), its points, the card it
    flipped; for a move (not an undo) also its step back (``step``, six characters) and the move
    counter of the step below it on the undo stack (``below``, 0: none), which the log keeps."""

    move: Move | None
    points: int
    flipped: str | None
    step: str = ""
    below: int = 0


class Game:
    """A game of Yukon. Every change goes through :meth:`play` or :meth:`undo`."""

    __slots__ = (
        "code",
        "rule",
        "relaxed",
        "columns",
        "down",
        "foundations",
        "score",
        "moves",
        "history",
        "undos",
        "top",
        "last",
    )

    def __init__(
        self,
        code: GameCode,
        columns: list[list[int]],
        down: list[int],
        foundations: list[int] | None = None,
    ) -> None:
        self.code = code
        self.rule = code.rule
        self.relaxed = code.rule is Rule.RELAXED
        self.columns = columns
        self.down = down
        self.foundations = foundations if foundations is not None else [0, 0, 0, 0]
        self.score = 0
        self.moves = 0
        # (src, dst, count, flipped, points, card, seq, below): enough to reverse one move, never a
        # copy. Both places are numbered as sources: a move up goes to FOUNDATION + suit. ``seq`` is
        # the move counter after the move, ``below`` that of the step under it (0: none). In memory:
        # the steps since the game was made or read, and one a caller loads; ``undos`` says how
        # many may be taken back.
        self.history: deque[Step] = deque(maxlen=UNDO_LIMIT)
        self.undos = 0  # moves that may be taken back now (at most UNDO_LIMIT)
        # The move counter after the move an undo takes back now (its seq in the log; 0: none;
        # -1: a state of version 1 or 2, whose steps are in its own history, not in the log).
        self.top = 0
        self.last: MoveResult | None = None

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def new(cls, code: GameCode) -> Game:
        columns, down = deal_order(code.order)
        return cls(code, columns, down)

    @classmethod
    def from_code(cls, text: str) -> Game:
        return cls.new(GameCode.parse(text))

    @classmethod
    def from_layout(
        cls,
        columns: Iterable[Iterable[str]],
        foundations: dict[str, str | None] | None = None,
        *,
        rule: Rule = Rule.CLASSIC,
        code: GameCode | None = None,
    ) -> Game:
        """A position from card names, bottom to top, lower case for face down (tests, fixtures).

        The layout need not hold all 52 cards; ``foundations`` names each suit's top card.
        """
        cols: list[list[int]] = []
        down: list[int] = []
        for column in columns:
            names = list(column)
            cols.append([parse_card(n) for n in names])
            hidden = 0
            while hidden < len(names) and names[hidden] != names[hidden].upper():
                hidden += 1
            if any(n != n.upper() for n in names[hidden:]):
                raise ValueError("face-down cards must lie below the face-up ones")
            if hidden and hidden == len(names):
                raise ValueError("the last card of a column is face up")
            down.append(hidden)
        if len(cols) != 7:
            raise ValueError("a layout has 7 columns")
        tops = [0, 0, 0, 0]
        for suit, top in (foundations or {}).items():
            if top:
                card = parse_card(top)
                if SUITS[SUIT[card]] != suit.upper():
                    raise ValueError(f"{top!r} is not a card of suit {suit!r}")
                tops[SUIT[card]] = RANK[card]
        return cls(code or GameCode(Rule(rule), 0), cols, down, tops)

    # -- queries ------------------------------------------------------------------------------
    @property
    def is_won(self) -> bool:
        return self.foundations == _ALL_UP

    @property
    def status(self) -> str:
        return "won" if self.is_won else "playing"

    @property
    def undo_available(self) -> int:
        return 0 if self.is_won else self.undos

    @property
    def undo_step_needed(self) -> int:
        """The move counter of the step an undo needs loaded (:meth:`undo_step_load`), or 0 when
        none is needed: nothing to undo, or the step already in memory."""
        if not self.undo_available or (self.history and self.history[-1][-2] == self.top):
            return 0
        return self.top

    def legal_moves(self) -> list[Move]:
        """Every legal move, pointless ones included, each tableau move once per (card, column)."""
        columns, down, fits = self.columns, self.down, _FITS[self.relaxed]
        wanted: dict[int, list[int]] = {}
        empties = []
        for t in range(7):
            col = columns[t]
            if col:
                for card in fits[col[-1]]:
                    wanted.setdefault(card, []).append(t)
            else:
                empties.append(t)
        moves: list[Move] = []
        append = moves.append
        tableau_moves = _TABLEAU_MOVES
        foundations = self.foundations
        for s in range(7):
            col = columns[s]
            if not col:
                continue
            length = len(col)
            start = down[s]
            if length - start > GROUP_LIMIT:
                start = length - GROUP_LIMIT
            for i in range(start, length):
                card = col[i]
                targets = wanted.get(card)
                if targets:
                    for t in targets:
                        if t != s:
                            append(tableau_moves[s, card, t])
                if empties and _ENTERS_EMPTY[card]:
                    for t in empties:
                        append(tableau_moves[s, card, t])
            last = col[-1]
            if foundations[SUIT[last]] == RANK[last] - 1:
                append(_TO_FOUNDATION[s])
        for f in range(4):
            top = foundations[f]
            if top:
                card = card_of(f, top)
                for t in wanted.get(card, ()):
                    append(_FROM_FOUNDATION[f, t])
                if _ENTERS_EMPTY[card]:
                    for t in empties:
                        append(_FROM_FOUNDATION[f, t])
        return moves

    def finish_moves(self) -> list[Move]:
        """The finish (docs/rules.md): once every card is face up, the moves that put each card
        left on the table onto its foundation, one at a time, lowest rank first (then the lowest
        column), so that the cards go up in the order a player would tap them. ``IllegalMove``
        when there is none: ``game_over`` (won already), ``cards_face_down`` (a card still lies
        face down: whether they would go up in order is not the player's to learn from a button),
        ``finish_blocked`` (a card lies on a lower card of its own suit: foundation moves alone
        cannot take it off).

        Foundation moves never block one another (each only uncovers a card and raises its
        suit's foundation), so if any order of them completes the game, this one does.

        >>> rest = {"S": "JS", "H": "JH", "D": "KD", "C": "KC"}
        >>> game = Game.from_layout([["KH", "KS", "QH"], ["QS"], [], [], [], [], []], rest)
        >>> [str(move) for move in game.finish_moves()]
        ['t1:QH>f', 't2:QS>f', 't1:KS>f', 't1:KH>f']
        >>> game = Game.from_layout([["QH", "KH"], ["KS", "QS"], [], [], [], [], []], rest)
        >>> [str(move) for move in game.finish_moves()]
        Traceback (most recent call last):
        ...
        games.engine.errors.IllegalMove: finish_blocked
        """
        if self.foundations == _ALL_UP:
            raise IllegalMove("game_over")
        if any(self.down):
            raise IllegalMove("cards_face_down")
        columns = [list(col) for col in self.columns]
        tops = list(self.foundations)
        moves: list[Move] = []
        while True:
            best = -1
            best_rank = KING + 1
            for s, col in enumerate(columns):
                if col:
                    card = col[-1]
                    rank = RANK[card]
                    if tops[SUIT[card]] == rank - 1 and rank < best_rank:
                        best, best_rank = s, rank
            if best < 0:
                break
            card = columns[best].pop()
            tops[SUIT[card]] = best_rank
            moves.append(Move(Source(best), TO_FOUNDATION, card))
        if tops != _ALL_UP:
            raise IllegalMove("finish_blocked")
        return moves

    @property
    def can_finish(self) -> bool:
        """Whether :meth:`finish` would play (:meth:`finish_moves` has its moves)."""
        if self.foundations == _ALL_UP or any(self.down):
            return False
        try:
            self.finish_moves()
        except IllegalMove:
            return False
        return True

    # -- changes ------------------------------------------------------------------------------
    def finish(self) -> list[MoveResult]:
        """Play :meth:`finish_moves`, each an ordinary move (counted, scored, one undo step each,
        though a won game takes no undo); ``IllegalMove`` and no change if there are none.

        >>> rest = {"S": "JS", "H": "JH", "D": "KD", "C": "KC"}
        >>> game = Game.from_layout([["KS", "QH"], ["KH", "QS"], [], [], [], [], []], rest)
        >>> [str(result.move) for result in game.finish()], game.moves, game.score, game.is_won
        (['t1:QH>f', 't2:QS>f', 't1:KS>f', 't2:KH>f'], 4, 40, True)
        """
        return [self.play(move) for move in self.finish_moves()]

    def play(self, move: Move) -> MoveResult:
        """Check ``move`` against the rules and make it; ``IllegalMove`` and no change otherwise."""
        if self.foundations == _ALL_UP:
            raise IllegalMove("game_over")
        src, dst = move.src, move.dst
        columns = self.columns
        if src >= FOUNDATION:
            suit = src - FOUNDATION
            top = self.foundations[suit]
            if not top:
                raise IllegalMove("empty_source")
            card = card_of(suit, top)
            if move.card is not None and move.card != card:
                raise IllegalMove("card_not_available")
            if dst < 0:  # to a foundation, or the double-tap search: only columns take a card back
                raise IllegalMove("illegal_move")
            self._check_fit(card, dst)
            columns[dst].append(card)
            self.foundations[suit] = top - 1
            return self._record(src, dst, 1, False, 0, card, move)

        col = columns[src]
        if not col:
            raise IllegalMove("empty_source")
        if move.card is None:
            index = len(col) - 1
        else:
            try:
                index = col.index(move.card, self.down[src])
            except ValueError:
                raise IllegalMove("card_not_available") from None
        card = col[index]
        if dst == TO_FOUNDATION:
            if index != len(col) - 1:
                raise IllegalMove("illegal_move")
            suit = SUIT[card]
            if self.foundations[suit] != RANK[card] - 1:
                raise IllegalMove("not_next_on_foundation")
            col.pop()
            self.foundations[suit] += 1
            flipped = self._flip(src)
            points = FOUNDATION_POINTS + (FLIP_POINTS if flipped else 0)
            return self._record(src, FOUNDATION + suit, 1, flipped, points, card, move)
        count = len(col) - index
        if count > GROUP_LIMIT:
            raise IllegalMove("group_too_large")
        if dst == AUTO:
            dst = self._auto_target(src, card)
            move = _TABLEAU_MOVES[src, card, dst]
        elif columns[dst] is col:
            raise IllegalMove("same_column")
        else:
            self._check_fit(card, dst)
        columns[dst].extend(col[index:])
        del col[index:]
        flipped = self._flip(src)
        return self._record(src, dst, count, flipped, FLIP_POINTS if flipped else 0, card, move)

    def undo(self) -> MoveResult:
        """Take back the last move (up to 100); counts as a move itself."""
        if self.foundations == _ALL_UP:
            raise IllegalMove("game_over")
        if not self.undos:
            raise IllegalMove("nothing_to_undo")
        if self.undo_step_needed:
            raise LookupError(f"the step of move {self.top} is not loaded (undo_step_load)")
        src, dst, count, flipped, points, card, _, below = self.history.pop()
        self.undos -= 1
        self.top = below
        columns = self.columns
        if flipped:
            self.down[src] += 1
        if src >= FOUNDATION:  # a take-back: the card returns to its foundation
            columns[dst].pop()
            self.foundations[src - FOUNDATION] += 1
        elif dst >= FOUNDATION:
            self.foundations[dst - FOUNDATION] -= 1
            columns[src].append(card)
        else:
            target = columns[dst]
            columns[src].extend(target[-count:])
            del target[-count:]
        self.score -= points
        self.moves += 1
        self.last = result = MoveResult(None, -points, None)
        return result

    # -- internals ----------------------------------------------------------------------------
    def _check_fit(self, card: int, dst: int) -> None:
        target = self.columns[dst]
        if target:
            if card not in _FITS[self.relaxed][target[-1]]:
                raise IllegalMove("does_not_fit", relaxed=self.relaxed)
        elif not _ENTERS_EMPTY[card]:
            raise IllegalMove("only_king_on_empty")

    def _auto_target(self, src: int, card: int) -> Target:
        """The double-tap target: the longest column the card fits (lowest number on a tie),
        else the lowest empty column, if the card may go into one."""
        relaxed = self.relaxed
        best = -1
        best_length = 0
        for t, col in enumerate(self.columns):
            if t != src and col and len(col) > best_length and fits(card, col[-1], relaxed=relaxed):
                best, best_length = t, len(col)
        if best >= 0:
            return Target(best)
        if fits(card, None, relaxed=relaxed):
            for t, col in enumerate(self.columns):
                if not col and t != src:
                    return Target(t)
            raise IllegalMove("only_king_on_empty")
        raise IllegalMove("does_not_fit", relaxed=self.relaxed)

    def _flip(self, column: int) -> bool:
        down = self.down[column]
        if down and down == len(self.columns[column]):
            self.down[column] = down - 1
            return True
        return False

    def _record(self, src: int, dst: int, count: int, flipped: bool, points: int, card: int, move: Move) -> MoveResult:
        below = self.top
        self.score += points
        self.moves += 1
        self.top = self.moves
        self.undos = min(self.undos + 1, UNDO_LIMIT)
        self.history.append((src, dst, count, flipped, points, card, self.moves, below))
        step = _history_text((src, dst, count, flipped, points, card))
        flip = CARD_NAMES[self.columns[src][-1]] if flipped else None
        self.last = result = MoveResult(move, points, flip, step, below)
        return result

    # -- views and storage -------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """What the player may see: every face-down card is ``"XX"``."""
        tableau = [
            [HIDDEN] * d + [CARD_NAMES[c] for c in col[d:]] for col, d in zip(self.columns, self.down, strict=True)
        ]
        won = self.is_won
        return {
            "tableau": tableau,
            "foundations": {
                SUITS[f]: (CARD_NAMES[card_of(f, top)] if top else None) for f, top in enumerate(self.foundations)
            },
            "score": self.score,
            "moves": self.moves,
            "undo_available": self.undo_available,
            "legal_moves": [] if won else [m.to_json() for m in self.legal_moves()],
            "status": "won" if won else "playing",
            "finish_available": not won and self.can_finish,
            "last": None if self.last is None else {"points": self.last.points, "flipped": self.last.flipped},
        }

    def layout(self) -> list[str]:
        """The columns as card names, bottom first, face-down cards in lower case (e.g.
        ``"8s4H8D"``): the form of docs/codes.md's test vectors."""
        return [
            "".join(CARD_NAMES[c].lower() if i < d else CARD_NAMES[c] for i, c in enumerate(col))
            for col, d in zip(self.columns, self.down, strict=True)
        ]

    def to_state(self) -> dict[str, Any]:
        """The whole game for the server's storage (face-down cards included): JSON-ready, and
        small, since every move rewrites it: one character a card (``t``: the columns bottom first,
        comma-separated; ``d``: how many lie face down in each; ``f``: each suit's top rank), the
        undo history's size and top (``u``, ``top``), the last move (``l``: its points and the card
        it flipped, ``+05 8S``-like without the space, fixed width). PostgreSQL then logs little of
        a move's update beyond what changed (bench/storage_bench.py)."""
        last = self.last
        return {
            "v": STATE_VERSION,
            "c": str(self.code),
            "d": "".join(_DIGITS[d] for d in self.down),
            "f": "".join(_DIGITS[f] for f in self.foundations),
            "t": ",".join("".join(_CARD_CHAR[c] for c in col) for col in self.columns),
            "u": self.undos,
            "top": self.top,
            "l": "" if last is None else f"{last.points:+03d}{last.flipped or '--'}",
            "moves": self.moves,
            "score": self.score,
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Game:
        """The game of :meth:`to_state` (read on every move: a table lookup per card), without its
        undo history: an undo needs its step loaded first (:meth:`undo_step_load`).

        A state of version 1 or 2 (written before the steps were kept in the log) holds its whole
        history: read with it, its ``top`` is -1, and only those steps can be taken back; a game
        that goes on needs its log's steps written first (migrations 0015 and 0027 of the games app)."""
        version = state.get("v")
        if version == STATE_VERSION:
            return cls._from_compact_state(state)
        if version not in (1, 2):
            raise ValueError(f"unknown state version: {version!r}")
        columns: list[list[int]] = []
        down: list[int] = []
        for text in state["t"]:
            names = [text[i : i + 2] for i in range(0, len(text), 2)]
            columns.append([_STORED_CARD[name] for name in names])
            hidden = 0
            while hidden < len(names) and names[hidden] in _FACE_DOWN:
                hidden += 1
            down.append(hidden)
        if len(columns) != 7:
            raise ValueError("a stored game has 7 columns")
        game = cls(GameCode.parse(state["code"]), columns, down, list(state["f"]))
        game.score = state["score"]
        game.moves = state["moves"]
        # the whole history in the state, without the moves' numbers
        if version == 1:
            steps = [
                (src, dst, count, bool(flipped), points, card) for src, dst, count, flipped, points, card in state["h"]
            ]
        else:
            text = state["h"]
            steps = [_history_entry(text[i : i + 6]) for i in range(0, len(text), 6)]
        game.history.extend((*step, -1, -1) for step in steps)
        game.undos, game.top = len(steps), (-1 if steps else 0)
        last = state.get("last")
        game.last = None if last is None else MoveResult(None, last[0], last[1])
        return game

    @classmethod
    def _from_compact_state(cls, state: dict[str, Any]) -> Game:
        columns = [[_CHAR_CARD[char] for char in text] for text in state["t"].split(",")]
        down = [_DIGIT_VALUE[digit] for digit in state["d"]]
        foundations = [_DIGIT_VALUE[digit] for digit in state["f"]]
        if len(columns) != 7 or len(down) != 7 or len(foundations) != 4:
            raise ValueError("a stored game has 7 columns and 4 foundations")
        game = cls(GameCode.parse(state["c"]), columns, down, foundations)
        game.score, game.moves = state["score"], state["moves"]
        game.undos, game.top = state["u"], state["top"]
        last = state["l"]
        if last:
            game.last = MoveResult(None, int(last[:3]), None if last[3:] == "--" else last[3:])
        return game

    def copy(self) -> Game:
        """An independent copy: the same position, score, counters, undo history and last result."""
        game = Game(self.code, [list(col) for col in self.columns], list(self.down), list(self.foundations))
        game.score, game.moves, game.last = self.score, self.moves, self.last
        game.history.extend(self.history)
        game.undos, game.top = self.undos, self.top
        return game

    def undo_steps(self) -> list[tuple[int, str, int]]:
        """The steps of the undo history in memory, oldest first, as the log keeps them: (the move
        counter after the move, its step, the counter of the step below it)."""
        return [(entry[6], _history_text(entry[:6]), entry[7]) for entry in self.history]

    def undo_step_load(self, step: str, below: int) -> None:
        """Give the game the step its next undo takes back (:attr:`undo_step_needed`), as the move
        log kept it: the move's ``step`` and ``below`` (:class:`MoveResult`)."""
        seq = self.undo_step_needed
        if not seq:
            raise ValueError("no step is needed")
        self.history.append((*_history_entry(step), seq, below))

    @classmethod
    def replay(cls, code: GameCode | str, entries: Iterable[str]) -> Game:
        """The game after the logged moves (``str(move)`` texts, or ``"undo"``)."""
        game = cls.new(code if isinstance(code, GameCode) else GameCode.parse(code))
        for _ in replay(game, entries):
            pass
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_state() == other.to_state()

    # Equal games are unhashable: with __eq__ and no __hash__, Python sets __hash__ to None.

    def __repr__(self) -> str:
        return f"<Game {self.code} moves={self.moves} score={self.score} {self.status}>"

    def __str__(self) -> str:
        view = self.view()
        lines = [f"{self.code}  score {self.score}  moves {self.moves}  {self.status}"]
        lines.append("foundations: " + " ".join(v or "--" for v in view["foundations"].values()))
        for n, col in enumerate(view["tableau"], 1):
            lines.append(f"t{n}: " + " ".join(col))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One logged entry replayed: its number (1, 2, ...: the move counter after it), its text,
    what it did, and the game after it (the live game, the same object at every step: ``copy()``
    it to keep a position)."""

    seq: int
    entry: str
    result: MoveResult
    game: Game


def replay(game: Game, entries: Iterable[str]) -> Iterator[ReplayStep]:
    """Play a move log (``str(move)`` texts, or ``"undo"``) on ``game``, one step per entry: the
    one replay loop of the product (the review of a ranked win, the replay viewer and the
    post-mortem iterate it). ``BadMove`` or ``IllegalMove`` at the entry that does not replay.

    >>> game = Game.from_code("YU1-C-AAAAAAB")
    >>> [(step.seq, step.entry, step.result.points, step.game.score) for step in replay(game, ["t7:TS>t2", "undo"])]
    [(1, 't7:TS>t2', 5, 5), (2, 'undo', -5, 0)]
    """
    for seq, entry in enumerate(entries, start=1):
        result = game.undo() if entry == "undo" else game.play(Move.parse(entry))
        yield ReplayStep(seq, entry, result, game)


# The stored undo history: each entry (src, dst, count, flipped, points, card) as six characters,
# one digit of this alphabet each (points offset by 32). A full history is 600 bytes instead of
# about 2,500 as JSON lists, which keeps a game's row small (PostgreSQL compresses a large value
# out of line on every write) and its JSON quick to read and write.
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
_DIGIT_VALUE = {digit: value for value, digit in enumerate(_DIGITS)}
_POINTS_OFFSET = 32


# Both are cached (bounded): histories repeat the same entries, and every move reads and writes a
# whole history.
@functools.lru_cache(maxsize=8192)
def _history_text(entry: tuple[int, int, int, bool, int, int]) -> str:
    src, dst, count, flipped, points, card = entry
    return "".join(_DIGITS[v] for v in (src, dst, count, 1 if flipped else 0, points + _POINTS_OFFSET, card))


@functools.lru_cache(maxsize=8192)
def _history_entry(text: str) -> tuple[int, int, int, bool, int, int]:
    src, dst, count, flipped, points, card = (_DIGIT_VALUE[digit] for digit in text)
    return src, dst, count, flipped == 1, points - _POINTS_OFFSET, card


# A card in the stored state: one character (deck order: _CARD_CHAR[card]).
_CARD_CHAR = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_CHAR_CARD = {char: card for card, char in enumerate(_CARD_CHAR)}

# The stored form of a card in versions 1 and 2: its name, in lower case when it lies face down.
_STORED_CARD: dict[str, int] = {
    **{name: card for card, name in enumerate(CARD_NAMES)},
    **{name.lower(): card for card, name in enumerate(CARD_NAMES)},
}
_FACE_DOWN = frozenset(name.lower() for name in CARD_NAMES)
