"""Reads that may come from a streaming replica of PostgreSQL.

A view whose answer is public and read-only (a day's board, the archive, a player's profile) runs
its handler inside :func:`replica_reads`; while it does, :class:`ReplicaRouter` sends the ORM's
reads to the ``replica`` database when one is configured (``DATABASE_REPLICA_URL``), and to the
primary otherwise. Everything else (authentication, which runs before the handler, every write,
and every other view) reads from the primary, so a player always reads what they just wrote
except on those pages, where a replica's lag (well under a second when it streams) may show a
new result a moment later.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings

REPLICA = "replica"
_reading_from_replica: ContextVar[bool] = ContextVar("reading_from_replica", default=False)

View = TypeVar("View", bound=Callable[..., Any])


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within: the ORM's reads may go to the replica."""
    token = _reading_from_replica.set(True)
    try:
        yield
    finally:
        _reading_from_replica.reset(token)


def from_replica(handler: View) -> View:
    """A view handler whose reads may go to the replica (:func:`replica_reads`)."""

    @functools.wraps(handler)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with replica_reads():
            return handler(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


class ReplicaRouter:
    """Reads inside :func:`replica_reads` to the replica, if there is one; all else to default."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if _reading_from_replica.get() and REPLICA in settings.DATABASES:
            return REPLICA
        return None

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return None

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # one database, streamed

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db != REPLICA  # the replica gets the schema by streaming
