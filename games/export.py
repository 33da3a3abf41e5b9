"""A player's games as a download: NDJSON (one JSON object a line) or CSV, streamed.

The rows come from one ordered range scan of the player's games (``.iterator(chunk_size=...)``,
a server-side cursor on PostgreSQL), each chunk with its move logs in one more query, and are
written out one line at a time: memory stays flat whatever the number of games. The engine state
(face-down cards) is never read; a daily deal whose day is not over has no code (it would
reveal the deal).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final

from django.db.models import Prefetch, QuerySet

from .daily import utc_today
from .models import Game, MoveLog
from .players import Player

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
    "log",
)


def export_games(*, player: Player) -> QuerySet[Game]:
    """The player's games, oldest first, without the engine state, each with its move log."""
    log = Prefetch("log", queryset=MoveLog.objects.only("game_id", "seq", "move", "flipped").order_by("seq"))
    return (
        Game.objects.filter(player.owns())
        .only("id", "code", "rule", "daily", "ranked", "status", "created_at", "finished_at", "moves", "score", "time_ms")
        .order_by("created_at", "pk")
        .prefetch_related(log)
    )


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def export_row(game: Game, *, today: Any) -> dict[str, Any]:
    """One exported game. ``log``: each accepted move as logged (``t3:7H>t5``, ``undo``), with
    the card it turned face up after a ``/`` (``t3:7H>t5/QS``)."""
    return {
        "id": str(game.id),
        "code": "" if game.daily is not None and game.daily >= today else game.code,
        "rule": game.rule,
        "daily": game.daily.isoformat() if game.daily else None,
        "ranked": game.ranked,
        "status": game.status,
        "started_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "moves": game.moves,
        "score": game.score,
        "time_ms": game.time_ms,
        "log": [f"{e.move}/{e.flipped}" if e.flipped else e.move for e in game.log.all()],
    }


def _rows(player: Player) -> Iterator[dict[str, Any]]:
    today = utc_today()
    for game in export_games(player=player).iterator(chunk_size=CHUNK_SIZE):
        yield export_row(game, today=today)


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
