"""A player's games as a download: NDJSON (one JSON object a line) or CSV, streamed.

The rows come from one ordered range scan of the player's games (``.iterator(chunk_size=...)``,
a server-side cursor on PostgreSQL), each chunk of games with its move logs in one more query
(tuples, no model instances), and are written out one line at a time: memory stays flat
whatever the number of games. The engine state (face-down cards) is never read; a daily deal
whose day is not over has no code (it would reveal the deal).
"""

from __future__ import annotations

import csv
import itertools
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final

from django.db.models import QuerySet
from django.utils import timezone

from games.competition import clock
from games.models import Game
from games.movelog import logs_read
from games.players import Player

CHUNK_SIZE: Final = 500
FORMATS: Final = {"ndjson": "application/x-ndjson; charset=utf-8", "csv": "text/csv; charset=utf-8"}
#: The columns of the CSV (and the keys of each NDJSON line, in this order).
FIELDS: Final = (
    "id",
    "code",
    "rule",
    "daily",
    "ranked",
    "status",
    "started_at",
    "finished_at",
    "moves",
    "score",
    "time_ms",
    "played_offline",
    "log",
)


_COLUMNS: Final = (
    "id",
    "code",
    "rule",
    "daily",
    "ranked",
    "status",
    "created_at",
    "finished_at",
    "moves",
    "score",
    "time_ms",
    "played_offline",
)


def export_games(*, player: Player) -> QuerySet[Game, tuple[Any, ...]]:
    """The player's games, oldest first, as tuples of :data:`_COLUMNS` (never the engine state)."""
    return Game.objects.filter(player.owns()).order_by("created_at", "pk").values_list(*_COLUMNS)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _logs(codes: dict[Any, str]) -> dict[Any, list[str]]:
    """The move logs of a chunk of games (game id: its code) in two queries (:mod:`games.movelog`)."""
    return {
        game_id: [f"{entry.move}/{entry.flipped}" if entry.flipped else entry.move for entry in entries]
        for game_id, entries in logs_read(codes).items()
    }


def export_row(game: tuple[Any, ...], log: list[str], *, now: datetime) -> dict[str, Any]:
    """One exported game. ``log``: each accepted move as logged (``t3:7H>t5``, ``undo``), with
    the card it turned face up after a ``/`` (``t3:7H>t5/QS``)."""
    game_id, code, rule, daily, ranked, status, created_at, finished_at, moves, score, time_ms, offline = game
    return {
        "id": str(game_id),
        "code": "" if daily is not None and not clock.code_public(daily, now) else code,
        "rule": rule,
        "daily": daily.isoformat() if daily else None,
        "ranked": ranked,
        "status": status,
        "started_at": _iso(created_at),
        "finished_at": _iso(finished_at),
        "moves": moves,
        "score": score,
        "time_ms": time_ms,
        "played_offline": offline,
        "log": log,
    }


def _rows(player: Player) -> Iterator[dict[str, Any]]:
    now = timezone.now()
    games = iter(export_games(player=player).iterator(chunk_size=CHUNK_SIZE))
    while chunk := list(itertools.islice(games, CHUNK_SIZE)):
        logs = _logs({game[0]: game[1] for game in chunk})
        for game in chunk:
            yield export_row(game, logs[game[0]], now=now)


def ndjson_lines(player: Player) -> Iterator[str]:
    for row in _rows(player):
        yield json.dumps(row, separators=(",", ":")) + "\n"


class _Line:
    """A file for ``csv.writer`` that hands back what is written instead of keeping it."""

    def write(self, text: str) -> str:
        return text


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def csv_lines(player: Player) -> Iterator[str]:
    writer = csv.writer(_Line())
    yield writer.writerow(FIELDS)
    for row in _rows(player):
        row["log"] = " ".join(row["log"])
        yield writer.writerow([_cell(row[f]) for f in FIELDS])


def export_lines(*, player: Player, fmt: str) -> Iterator[str]:
    return ndjson_lines(player) if fmt == "ndjson" else csv_lines(player)
