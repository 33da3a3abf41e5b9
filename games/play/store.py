"""The SQL of the move path: one read and one atomic write per move or undo.

A move is the hottest request of the service, and the ORM's query building cost more than the
rest of the move put together. What this module saves against the ORM (``filter().first()``,
then ``update()`` and ``create()`` in a transaction) is what ``bench/path_bench.py`` prints
(``make bench``; the last figures, with their date, in the README's "Tests and benchmarks"). So
the move path uses plain statements, built once per process from the models' own metadata
(table and column names, and the fields' own conversions to and from the database), that
return ordinary model instances:

* :func:`game_read` reads the game (no lock).
* :func:`game_change_save` writes the change only if the game is still at the version that was
  read (optimistic concurrency): the game's row and its move log entry, the only rows a move
  writes (a finish writes an entry for each of its moves). On PostgreSQL that is one statement
  (the row update and the inserts joined by ``WITH``), so it is atomic without a transaction of
  its own and costs one round trip; SQLite gets the same statements in a transaction, and so does
  a batch played offline of more than :data:`ONE_STATEMENT_MAX` entries on PostgreSQL (its inserts
  sent together, ``executemany``): a statement of its own for each count of entries up to 1,000
  would be kept, prepared, in every process.
* :func:`undo_step_read` reads what an undo needs of the move it takes back (rare: the ORM).
* :func:`answer_read` and :func:`answer_save` read and keep the answer to a request with an
  ``Idempotency-Key`` (:mod:`games.play.idempotency`, which holds the move and its answer in one
  transaction).

When another request changed the game in between, nothing is written and the caller reads again.
On PostgreSQL the statements are prepared once per connection, with the parameters sent apart;
they go through psycopg's own cursor (Django's error wrapping kept), so Django's query log does
not list them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, cast
from uuid import UUID

import psycopg
from django.db import connection, models, transaction
from django.db.models import Field, Model

from games.models import Game, IdempotencyRecord, MoveLog
from games.players import Player

__all__ = ["answer_read", "answer_save", "game_change_save", "game_read", "undo_step_read"]

_GAME_FIELDS: tuple[Field[Any, Any], ...] = tuple(Game._meta.concrete_fields)
#: The most log entries written in the one statement on PostgreSQL: a move's one, a finish's up to
#: 52, a short batch's. A longer batch's go in a transaction (:func:`game_change_save`).
ONE_STATEMENT_MAX = 64


def game_read(*, game_id: UUID, player: Player) -> Game | None:
    """The game ``game_id`` if it is ``player``'s, else None."""
    if player.user is not None:
        owner_sql, owner_params = "{owner} = %s", [player.user.pk]
    elif player.session_key:
        owner_sql, owner_params = "{owner} IS NULL AND {guest} = %s", [player.session_key]
    else:
        return None
    row = _fetchone(_game_select(owner_sql), [_prep(Game._meta.pk, game_id), *owner_params])
    if row is None:
        return None
    return _from_row(Game, row)


def game_change_save(*, game: Game, read_version: int, fields: Sequence[str], logs: Sequence[MoveLog]) -> bool:
    """Write ``fields`` of ``game`` (its ``version`` goes up by one) and ``logs`` (a move's one
    entry, a finish's several), all or nothing, if the game's row is still at ``read_version``;
    returns whether it was."""
    if not logs:
        raise ValueError("a change writes at least one log entry")
    postgres = connection.vendor == "postgresql" and len(logs) <= ONE_STATEMENT_MAX
    game_fields = [Game._meta.get_field(name) for name in fields if name != "version"]
    # On PostgreSQL the insert takes the game's id from the updated row (no parameter of its own).
    log_fields = _insert_fields(MoveLog, with_game=not postgres)
    update_params = [_prep(field, getattr(game, field.attname)) for field in game_fields]
    where_params = [_prep(Game._meta.pk, game.pk), read_version]
    log_params = [[_prep(field, getattr(log, field.attname)) for field in log_fields] for log in logs]
    update = _update_sql(tuple(field.column for field in game_fields))
    if postgres:
        params = [*update_params, *where_params, *(value for entry in log_params for value in entry)]
        row = _fetchone(_changed_sql(update, len(logs)), params)
        return bool(row and row[0])
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(update, [*update_params, *where_params])
        if cursor.rowcount != 1:
            return False
        if len(log_params) == 1:
            cursor.execute(_insert_sql(MoveLog), log_params[0])
        else:
            cursor.executemany(_insert_sql(MoveLog), log_params)
        return True


def undo_step_read(*, game_id: UUID, seq: int) -> tuple[str, int] | None:
    """What an undo of move ``seq`` needs from the log (the move's ``step`` and ``below``, written
    with it), or None if the log has no entry ``seq``: the state keeps no undo history."""
    return MoveLog.objects.filter(game_id=game_id, seq=seq).values_list("step", "below").first()


def answer_read(*, scope: str, key: str) -> IdempotencyRecord | None:
    """The answer kept for ``key`` of the player ``scope``, if there is one."""
    row = _fetchone(_answer_select(), [scope, key])
    return None if row is None else _from_row(IdempotencyRecord, row)


def answer_save(record: IdempotencyRecord) -> None:
    """Insert ``record`` (``IntegrityError`` if its player has kept an answer for its key already)."""
    fields = _insert_fields(IdempotencyRecord)
    _fetchone(
        _insert_sql(IdempotencyRecord) + f" RETURNING {_q('id')}",
        [_prep(f, getattr(record, f.attname)) for f in fields],
    )


def _fetchone(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    """Run ``sql`` and return its first row. On PostgreSQL with the parameters sent apart from the
    statement (not quoted into it: the game's state is about a kilobyte) and the statement prepared
    once per connection; Django's own cursors do neither (they suit connection poolers)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cast(tuple[Any, ...] | None, cursor.fetchone())
    connection.ensure_connection()
    connection.validate_no_broken_transaction()
    with connection.wrap_database_errors, psycopg.RawCursor(connection.connection) as cursor:
        cursor.execute(_numbered(sql), params, prepare=True)
        return cursor.fetchone()


@functools.cache
def _numbered(sql: str) -> str:
    """PostgreSQL's own placeholders ($1, $2, ...) for ``%s``: psycopg's raw cursor then sends the
    statement as it is, instead of rewriting it on every call. (Our statements hold no other %.)"""
    parts = sql.split("%s")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, start=1))


# -- statements ----------------------------------------------------------------------------------


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


@functools.cache
def _game_select(owner_sql: str) -> str:
    columns = ", ".join(_q(field.column) for field in _GAME_FIELDS)
    where = owner_sql.format(owner=_q("owner_id"), guest=_q("guest_session_key"))
    return f"SELECT {columns} FROM {_q(Game._meta.db_table)} WHERE {_q('id')} = %s AND {where}"


@functools.cache
def _answer_select() -> str:
    columns = ", ".join(_q(field.column) for field in IdempotencyRecord._meta.concrete_fields)
    return f"SELECT {columns} FROM {_q(IdempotencyRecord._meta.db_table)} WHERE {_q('scope')} = %s AND {_q('key')} = %s"


@functools.cache
def _update_sql(columns: tuple[str, ...]) -> str:
    assignments = ", ".join(f"{_q(column)} = %s" for column in columns)
    version = _q("version")
    return (
        f"UPDATE {_q(Game._meta.db_table)} SET {assignments}, {version} = {version} + 1 "
        f"WHERE {_q('id')} = %s AND {version} = %s"
    )


@functools.cache
def _insert_fields(model: type[Model], *, with_game: bool = True) -> tuple[Field[Any, Any], ...]:
    """The columns an insert of ``model`` names (all but its own id; ``game_id`` only if asked)."""
    return tuple(
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and (with_game or field.attname != "game_id")
    )


@functools.cache
def _insert_sql(model: type[Model]) -> str:
    fields = _insert_fields(model)
    columns = ", ".join(_q(field.column) for field in fields)
    return f"INSERT INTO {_q(model._meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"


@functools.cache
def _changed_sql(update: str, entries: int = 1) -> str:
    """PostgreSQL: the update, then the inserts of ``entries`` log entries only if the update
    found the row, in one statement (one insert each: a parameter of an ``INSERT ... SELECT`` takes
    its column's type, which a ``UNION`` of them would not)."""
    fields = _insert_fields(MoveLog, with_game=False)
    columns = ", ".join(_q(field.column) for field in fields)
    values = ", ".join(["%s"] * len(fields))
    table = _q(MoveLog._meta.db_table)
    insert = f"INSERT INTO {table} ({_q('game_id')}, {columns}) SELECT changed.id, {values} FROM changed"
    logged = ", ".join(f"logged{n} AS ({insert})" for n in range(entries))
    return f"WITH changed AS ({update} RETURNING {_q('id')} AS id), {logged} SELECT count(*) FROM changed"


# -- values --------------------------------------------------------------------------------------


_PLAIN = ((models.IntegerField, int), (models.CharField, str), (models.BooleanField, bool))


def _prep(field: Field[Any, Any], value: Any) -> Any:
    """The database value of ``value``: the field's own conversion, skipped where it changes nothing
    (a whole number for an integer column, text for a text column)."""
    for kind, plain in _PLAIN:
        if type(value) is plain and isinstance(field, kind):
            return value
    return field.get_db_prep_save(value, connection)


def _from_row(model: type[Model], row: Sequence[Any]) -> Any:
    """A model instance from a row of all its columns, converted as the ORM would (``from_db_value``
    and the backend's own)."""
    values = list(row)
    for index, convert in _converters(model, connection.vendor):
        values[index] = convert(values[index])
    return model.from_db(connection.alias, [field.attname for field in model._meta.concrete_fields], values)


@functools.cache
def _converters(model: type[Model], vendor: str) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        steps = [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]
        if steps:
            found.append((index, functools.partial(_convert, tuple(steps), column)))
    return tuple(found)


def _convert(steps: tuple[Callable[..., Any], ...], column: Any, value: Any) -> Any:
    for step in steps:
        value = step(value, column, connection)
    return value
