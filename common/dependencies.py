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


@cache
def redis_client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
