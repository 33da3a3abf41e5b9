"""The service's dependencies (database, Redis/broker) and the errors that mean one is down.

A request that fails because PostgreSQL or Redis is unreachable is answered 503
``service_unavailable`` with ``Retry-After``, never 500: the client did nothing wrong and may retry.
"""

from __future__ import annotations

from functools import cache

import redis
from django.conf import settings
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

DEPENDENCY_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    BrokerError,
    ConnectionError,
    TimeoutError,
)


def is_dependency_error(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says a dependency is unreachable."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, DEPENDENCY_ERRORS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def redis_client(url: str | None = None) -> redis.Redis:
    """The process's one client of the Redis at ``url`` (``REDIS_URL`` unless given): the cache
    (:mod:`common.cache`, and through it the rate limits' counters), the readiness check and the
    metrics share it. redis-py's client is thread-safe: its pool lends each call a connection.
    Its calls give up after 2 s (then 503, as for the database)."""
    return _client_of(settings.REDIS_URL if url is None else url)


@cache
def _client_of(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
