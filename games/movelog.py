"""A game's move log, in either of its two forms, read through one door.

While a game is played, each accepted move (or take-back) is a row of :class:`~games.models.MoveLog`
(its text, points, the card it turned up, its step back for an undo, its time): a move adds one row
in the same statement that updates the game (:mod:`games.play.store`), and an undo reads one step back.
Once the game is won nothing changes it any more, and its rows are packed into one
:class:`~games.models.PackedLog` (:func:`log_pack`): the move texts and their times, compressed,
about 5 bytes a move instead of about 200 (docs/capacity.md). What the rows held beside them
(points, the card turned up) follows from the deal and the moves, and the engine gives it back
when the log is read.

Everything that reads a log (the replay, the review of a ranked win, the post-mortem, the
export, the hint's positions, the move log's API, the pace of an attempt) reads it here:
:func:`moves_read` for the moves and their times, :func:`logs_read` (:func:`log_read` for one
game) for what each move did too. They read the rows first and the packed log only where there
are none: packing writes the one and deletes the other in one transaction,
so a reader sees one whole form or the other, never a half.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, TypeVar

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from games.engine import Game as EngineGame
from games.engine import replay
from games.models import Game, MoveLog, PackedLog, StatusChoices

__all__ = [
    "LogEntry",
    "Played",
    "log_pack",
    "log_read",
    "logs_pack_pending",
    "logs_read",
    "moves_read",
    "pack",
    "unpack",
]

#: The packed form's first byte: how the rest reads.
FORMAT = 1
#: Games looked at in one query of :func:`logs_pack_pending`.
BATCH = 500
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
Entry = TypeVar("Entry")


class Played(NamedTuple):
    """One accepted move or take-back as logged: ``seq`` is the move counter after it (1, 2, ...),
    ``move`` its text (``t3:7H>t5``, ``undo``), ``at`` the server's time of it."""

    seq: int
    move: str
    at: datetime


@dataclass(frozen=True, slots=True)
class LogEntry:
    """A logged entry with what it did: ``points`` it scored and the card it turned face up
    (``flipped``, ``""``: none)."""

    seq: int
    move: str
    points: int
    flipped: str
    at: datetime


def moves_read(game_ids: Iterable[Any]) -> dict[Any, list[Played]]:
    """The logged moves (texts and times) of the games ``game_ids``, by id, oldest first: one query
    for the rows, and one for the packed logs of the games that have none."""
    return _read(
        game_ids,
        ("seq", "move", "created_at"),
        Played,
        lambda game_id, packed: [Played(seq, move, at) for seq, (move, at) in enumerate(packed, start=1)],
    )


def logs_read(codes: Mapping[Any, str]) -> dict[Any, list[LogEntry]]:
    """The whole logs of the games ``codes`` names (game id: its code), by id: the rows as they
    are, a packed log replayed on its deal for what each entry did."""
    return _read(
        codes,
        ("seq", "move", "points", "flipped", "created_at"),
        LogEntry,
        lambda game_id, packed: _entries(codes[game_id], packed),
    )


def _read(
    game_ids: Iterable[Any],
    columns: tuple[str, ...],
    entry: Callable[..., Entry],
    from_packed: Callable[[Any, list[tuple[str, datetime]]], list[Entry]],
) -> dict[Any, list[Entry]]:
    """The one reading of both forms: each game's rows (``columns``, made into ``entry``), and for
    the games without rows their packed log (made into entries by ``from_packed``). Rows first: a
    game packed in between has its packed log by the time the second query runs."""
    logs: dict[Any, list[Entry]] = {game_id: [] for game_id in game_ids}
    rows = MoveLog.objects.filter(game_id__in=list(logs)).order_by("game_id", "seq")
    for game_id, *values in rows.values_list("game_id", *columns).iterator(chunk_size=5000):
        logs[game_id].append(entry(*values))
    rest = [game_id for game_id, entries in logs.items() if not entries]
    if rest:
        for game_id, data in PackedLog.objects.filter(game_id__in=rest).values_list("game_id", "data"):
            logs[game_id] = from_packed(game_id, unpack(bytes(data)))
    return logs


def log_read(game: Game) -> list[LogEntry]:
    """``game``'s whole log, oldest first."""
    return logs_read({game.pk: game.code})[game.pk]


def log_pack(*, game_id: Any, models: tuple[Any, Any, Any] | None = None) -> bool:
    """Pack the won game ``game_id``'s rows into its :class:`PackedLog` and delete them, in one
    transaction; returns whether it did. Idempotent: a game already packed, not won, or whose rows
    do not replay to its state (never seen; they stay as they are) is left alone. ``models``: the
    ``Game``, ``MoveLog`` and ``PackedLog`` models to use (a migration passes its historical ones)."""
    game_model, log_model, packed_model = models or (Game, MoveLog, PackedLog)
    with transaction.atomic():
        game = game_model.objects.select_for_update().filter(pk=game_id, status=StatusChoices.WON).first()
        if game is None:
            return False
        rows = list(log_model.objects.filter(game_id=game_id).order_by("seq").values_list("seq", "move", "created_at"))
        if not rows or [seq for seq, _, _ in rows] != list(range(1, len(rows) + 1)) or len(rows) != game.moves:
            return False
        entries = [(move, at) for _, move, at in rows]
        try:
            replayed = EngineGame.replay(game.code, [move for move, _ in entries])
            if replayed.view() != EngineGame.from_state(game.state).view():
                return False
        except (ValueError, LookupError):
            return False
        packed_model.objects.update_or_create(game_id=game_id, defaults={"data": pack(entries)})
        log_model.objects.filter(game_id=game_id).delete()
    return True


def logs_pack_pending(*, since: datetime, until: datetime, models: tuple[Any, Any, Any] | None = None) -> int:
    """Pack the logs of the games won between ``since`` and ``until`` that still have rows (the
    task sent at each win was lost, or the game is from before packing), in batches of
    :data:`BATCH`, each game in a transaction of its own; returns how many were packed."""
    game_model, log_model, _ = models or (Game, MoveLog, PackedLog)
    won = game_model.objects.filter(status=StatusChoices.WON, finished_at__gte=since, finished_at__lt=until)
    unpacked = won.filter(Exists(log_model.objects.filter(game_id=OuterRef("pk")))).order_by("finished_at", "pk")
    packed = 0
    after: tuple[datetime, Any] | None = None
    while True:
        batch = (
            unpacked
            if after is None
            else unpacked.filter(Q(finished_at__gt=after[0]) | Q(finished_at=after[0], pk__gt=after[1]))
        )
        rows = list(batch.values_list("finished_at", "pk")[:BATCH])
        if not rows:
            return packed
        packed += sum(log_pack(game_id=pk, models=models) for _, pk in rows)
        after = rows[-1]


# -- the packed form -----------------------------------------------------------------------------


def pack(entries: Sequence[tuple[str, datetime]]) -> bytes:
    """``entries`` (each move's text and time) as bytes: the format, then zlib of the count, the
    first time in milliseconds since 1970, each next time as the difference in milliseconds from
    the one before (zigzag: a clock that stepped back still packs), all as varints, and the texts
    one per line. Times keep milliseconds (their microseconds go)."""
    body = bytearray(_varint(len(entries)))
    before = 0
    for n, (_, at) in enumerate(entries):
        ms = _ms(at)
        body += _varint(ms) if n == 0 else _varint(_zigzag(ms - before))
        before = ms
    body += "\n".join(move for move, _ in entries).encode("ascii")
    return bytes([FORMAT]) + zlib.compress(bytes(body), 9)


def unpack(data: bytes) -> list[tuple[str, datetime]]:
    """The entries :func:`pack` packed (with their times to the millisecond)."""
    if not data or data[0] != FORMAT:
        raise ValueError(f"unknown packed log format: {data[:1]!r}")
    body = zlib.decompress(data[1:])
    count, at = _read_varint(body, 0)
    times: list[int] = []
    for n in range(count):
        value, at = _read_varint(body, at)
        times.append(value if n == 0 else times[-1] + _unzigzag(value))
    moves = body[at:].decode("ascii").split("\n") if count else []
    if len(moves) != count:
        raise ValueError(f"packed log of {count} entries holds {len(moves)} moves")
    return [(move, _EPOCH + timedelta(milliseconds=ms)) for move, ms in zip(moves, times, strict=True)]


def _entries(code: str, packed: list[tuple[str, datetime]]) -> list[LogEntry]:
    """Packed entries with what the engine says each did (points, the card turned up)."""
    steps = replay(EngineGame.from_code(code), [move for move, _ in packed])
    return [
        LogEntry(step.seq, step.entry, step.result.points, step.result.flipped or "", at)
        for step, (_, at) in zip(steps, packed, strict=True)
    ]


def _ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at
