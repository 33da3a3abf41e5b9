"""A solver's post-mortem of a finished game: the first move after which it could no longer be
won, whether a later undo brought it back, or that it stayed winnable throughout.

:func:`analyse` works on engine values only (the deal and the logged moves); the solver answers
about each position it is asked with a bounded node budget (``POSTMORTEM_NODES`` per position,
no clock: the same game gets the same answer) and at most ``POSTMORTEM_MAX_SOLVES`` positions per
game; where a budget runs out the answer says ``unknown``. It runs in the Celery task
``games.game_postmortem`` (:func:`postmortem_record`), never in a request.

How few positions it solves: winnability is monotone along moves (a position reached from a lost
one is lost, one from which a winnable one was reached is winnable), and an undo restores an
earlier position exactly. So the positions of a won game on its final line (its moves once the
undone ones are taken out) are winnable without a search, every position before a winnable one
on its line is too, and within a run of moves without an undo the first lost position is found by
bisection. ``par``: the length of the solver's line from the deal (a daily deal's is its certified
solution's).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final, Literal
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.competition import clock
from games.competition.daily import daily_game_par
from games.engine import BadCode, BadMove, GameCode, IllegalMove, replay
from games.engine import Game as EngineGame
from games.models import COUNTED_REVIEWS, Game, GamePostMortem, StatusChoices
from games.movelog import moves_read
from games.solver import Verdict, solve

Answer = Literal["yes", "no", "unknown"]
Key = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]

#: Practice games that are not won count as finished after this long without a move.
IDLE: Final = timedelta(minutes=30)


def _key(game: EngineGame) -> Key:
    return (tuple(tuple(col) for col in game.columns), tuple(game.down), tuple(game.foundations))


@dataclass(slots=True)
class Analysis:
    """What :func:`analyse` found. Seqs are move counters: position ``n`` is the one after the
    ``n``-th logged entry (0: the deal)."""

    verdict: Literal["winnable", "lost", "unknown"]
    lost_at: int | None = None  # the first move after which the position could no longer be won
    winnable_until: int | None = None  # the last position before the loss known to be winnable
    rescued_at: int | None = None  # the undo after ``lost_at`` that made the position winnable again
    final: Literal["won", "winnable", "lost", "unknown"] = "unknown"
    par: int | None = None
    solved: int = 0  # positions given to the solver
    unknown: int = 0  # of them, how many it could not decide within the budget
    seconds: float = 0.0
    answers: dict[int, Answer] = field(default_factory=dict)  # by position (for tests)


class _Oracle:
    """Winnability of the positions of one game: inferred where it can be, else solved (memo)."""

    def __init__(self, positions: list[EngineGame], max_nodes: int, max_solves: int) -> None:
        self.positions = positions
        self.keys = [_key(p) for p in positions]
        self.max_nodes = max_nodes
        self.max_solves = max_solves
        self.known: dict[Key, Answer] = {}
        self.solved = 0
        self.unknown = 0
        self.lines: dict[Key, int] = {}  # the solver's winning line lengths (for the par)
        self.stacks: list[tuple[int, ...]] = []  # per position, the positions of its line (the undo stack)

    def mark_yes(self, index: int) -> None:
        for i in self.stacks[index]:
            self.known[self.keys[i]] = "yes"

    def ask(self, index: int, *, line: bool = False) -> Answer:
        """Whether position ``index`` can be won; ``line``: solve it even if that is known (for
        the length of a winning line)."""
        key = self.keys[index]
        known = answer = self.known.get(key)
        if answer is not None and answer != "unknown" and not (line and answer == "yes"):
            return answer
        if answer == "unknown" or self.solved >= self.max_solves:
            return answer or "unknown"
        position = self.positions[index]
        self.solved += 1
        result = solve(position.copy(), max_nodes=self.max_nodes, max_seconds=None)
        if result.verdict is Verdict.WINNABLE:
            answer = "yes"
            if result.moves is not None:
                self.lines[key] = len(result.moves)
        elif result.verdict is Verdict.NOT_WINNABLE:
            answer = "no"
        else:
            answer = "unknown"
            self.unknown += 1
        if known == "yes":  # solved only for its line: what was known stays
            return "yes"
        self.known[key] = answer
        if answer == "yes":
            self.mark_yes(index)
        return answer


def _positions(code: GameCode, entries: Sequence[str]) -> tuple[list[EngineGame], list[tuple[int, ...]], list[bool]]:
    """Every position of the game (0: the deal), each position's line (the indices on its undo
    stack), and for each entry whether it was an undo."""
    game = EngineGame.new(code)
    positions = [game.copy()]
    stack: list[int] = [0]
    stacks = [tuple(stack)]
    undos = [False]
    for step in replay(game, entries):
        undo = step.entry == "undo"
        if undo:
            stack.pop()
        else:
            stack.append(step.seq)
        undos.append(undo)
        positions.append(step.game.copy())
        stacks.append(tuple(stack))
    return positions, stacks, undos


def analyse(
    code: GameCode | str,
    entries: Sequence[str],
    *,
    par: int | None = None,
    max_nodes: int | None = None,
    max_solves: int | None = None,
) -> Analysis:
    """The post-mortem of the game of ``code`` after the logged ``entries`` (``str(move)`` or
    ``"undo"``). ``par``: a known solution length (a daily deal's); else the solver's from the deal."""
    began = time.process_time()
    code = code if isinstance(code, GameCode) else GameCode.parse(code)
    positions, stacks, undos = _positions(code, entries)
    oracle = _Oracle(
        positions,
        max_nodes if max_nodes is not None else settings.POSTMORTEM_NODES,
        max_solves if max_solves is not None else settings.POSTMORTEM_MAX_SOLVES,
    )
    oracle.stacks = stacks
    last = len(positions) - 1
    won = positions[last].is_won
    if won:
        oracle.mark_yes(last)  # the final line led to the win
    # The deal: its answer gives the par (a practice deal may also be lost from the start).
    start = oracle.ask(0, line=par is None)
    if par is None:
        par = oracle.lines.get(oracle.keys[0])
    result = Analysis(verdict="winnable", par=par)
    # Runs of moves without an undo: [begin, end] position indices.
    runs: list[tuple[int, int]] = []
    begin = 0
    for index in range(1, last + 1):
        if undos[index]:
            runs.append((begin, index - 1))
            begin = index
    runs.append((begin, last))
    lost_at: int | None = 0 if start == "no" else None
    uncertain = start == "unknown"
    winnable_until: int | None = 0 if start == "yes" else None
    for run_begin, run_end in runs:
        if lost_at is None and not uncertain:
            found, until, unsure = _first_lost(oracle, run_begin, run_end)
            if until is not None:
                winnable_until = until
            lost_at, uncertain = found, unsure
        elif lost_at is not None and result.rescued_at is None and undos[run_begin]:
            if oracle.ask(run_begin) == "yes":
                result.rescued_at = run_begin
    final = "won" if won else oracle.ask(last)
    result.final = {"won": "won", "yes": "winnable", "no": "lost", "unknown": "unknown"}[final]  # type: ignore[assignment]
    if uncertain:
        result.verdict = "unknown"  # the budget ran out where it mattered: winnable until at least
    elif lost_at is not None:
        result.verdict, result.lost_at = "lost", lost_at
    else:
        winnable_until = last
    result.winnable_until = winnable_until
    result.solved, result.unknown = oracle.solved, oracle.unknown
    result.answers = {i: oracle.known.get(oracle.keys[i], "unknown") for i in range(last + 1)}
    result.seconds = time.process_time() - began
    return result


def _first_lost(oracle: _Oracle, begin: int, end: int) -> tuple[int | None, int | None, bool]:
    """In a run of moves (positions ``begin``..``end``, no undo between them: monotone), the first
    lost position, the last one known winnable before it, and whether an unknown answer left the
    boundary unsure."""
    at_end = oracle.ask(end)
    if at_end == "yes":
        return None, end, False
    at_begin = oracle.ask(begin)
    if at_begin == "no":
        return begin, None, False
    if at_begin == "unknown":
        return None, None, True
    lo, hi = begin, end  # lo winnable; hi lost or unknown (then the boundary may be unsure)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if oracle.ask(mid) == "yes":
            lo = mid
        else:
            hi = mid
    if oracle.ask(hi) == "no":
        return hi, lo, False
    return None, lo, True


# -- the service: which games, and the stored result ---------------------------------------------


def postmortem_due(game: Game, *, now: datetime, last_move_at: datetime | None) -> bool:
    """Whether ``game`` is finished for a post-mortem: a daily deal's once its day is over (never
    before: it would tell about today's deal); a practice game once won, or left without a move
    for ``IDLE``. A game without a move has nothing to analyse."""
    if game.moves == 0:
        return False
    if game.daily is not None:
        return clock.is_over(game.daily, now)
    if game.status == StatusChoices.WON:
        return True
    return last_move_at is not None and now - last_move_at >= IDLE


def postmortem_record(*, game_id: UUID | str, now: datetime | None = None) -> GamePostMortem | None:
    """Analyse a finished game and store the result (one row per game, for its move count).
    Idempotent: a game already analysed at its current move count is left as it is; ``None``
    when the game is not due (or gone)."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id).only("id", "code", "daily", "status", "moves").first()
    if game is None:
        return None
    existing = GamePostMortem.objects.filter(game_id=game.pk).first()
    if existing is not None and existing.moves == game.moves:
        return existing
    entries = moves_read([game.pk])[game.pk]
    if not postmortem_due(game, now=now, last_move_at=entries[-1].at if entries else None):
        return None
    par = daily_game_par(game)  # None but for a daily game
    try:
        found = analyse(game.code, [entry.move for entry in entries], par=par)
    except (BadCode, BadMove, IllegalMove, ValueError, KeyError):  # a log the engine does not replay
        return None
    values: dict[str, Any] = {
        "moves": len(entries),
        "verdict": found.verdict,
        "lost_at": found.lost_at,
        "winnable_until": found.winnable_until,
        "rescued_at": found.rescued_at,
        "final": found.final,
        "par": found.par,
        "solved": found.solved,
        "unknown": found.unknown,
        "seconds": round(found.seconds, 3),
        "created_at": now,
    }
    with transaction.atomic():
        # The game row locked first: if its account was deleted during the analysis, nothing is written.
        if not Game.objects.select_for_update().filter(pk=game.pk).exists():
            return None
        row, _ = GamePostMortem.objects.update_or_create(game_id=game.pk, defaults=values)
    return row


def postmortems_due(*, now: datetime | None = None) -> list[str]:
    """The games the beat analyses without being asked: yesterday's top ``POSTMORTEM_DAILY_TOP``
    results (its day just closed; the replays most players open) that have no post-mortem yet.
    Every other game is analysed when its replay is opened (:mod:`games.help.replay`)."""
    now = now or timezone.now()
    top = (
        Game.objects.filter(
            daily=clock.today(now) - timedelta(days=1),
            ranked=True,
            status=StatusChoices.WON,
            review__in=COUNTED_REVIEWS,
        )
        .order_by("time_ms", "moves")
        .values_list("pk", flat=True)[: settings.POSTMORTEM_DAILY_TOP]
    )
    return [
        str(pk) for pk in Game.objects.filter(pk__in=list(top), postmortem__isnull=True).values_list("pk", flat=True)
    ]
