"""The cache on Redis: Django's cache API (``BaseCache``) over the process's one redis-py client.

Every user of Redis in a process shares one thread-safe client and its connection pool
(:func:`common.dependencies.redis_client`): this cache (sessions, accounts, tokens), the rate
limits' counters (:mod:`common.counters`, on this cache's keys through :attr:`RedisCache.redis`),
the readiness check and the metrics. Django's own Redis cache builds a new client for every call,
and each one fills a table of about 170 reply callbacks: a quarter of a millisecond per call,
several calls per move. The entries are stored as Django's Redis cache stores them (integers as
they are, so that ``INCR`` counts them; anything else pickled), so either backend reads the
other's. :meth:`RedisCache.clear` deletes this cache's entries only: the Celery broker's queues
and results share the Redis database.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from typing import Any, cast

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache

from .dependencies import redis_client


class RedisCache(BaseCache):
    """``LOCATION`` is the Redis URL (the settings give ``REDIS_URL``); ``OPTIONS`` are not read."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        #: The process's client of this cache's Redis; its keys are :meth:`make_key`'s.
        self.redis = redis_client(server)

    def get_backend_timeout(self, timeout: float | None = DEFAULT_TIMEOUT) -> int | None:  # type: ignore[override]
        """Seconds from now (Redis's ``EX``), ``None`` for no expiry, 0 (or less) for gone at once."""
        if timeout == DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return None if timeout is None else max(0, int(timeout))

    def add(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)
        if seconds == 0:
            added = bool(self.redis.set(key, _dumps(value), nx=True))
            if added:
                self.redis.delete(key)
            return added
        return bool(self.redis.set(key, _dumps(value), ex=seconds, nx=True))

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        value = self.redis.get(self.make_and_validate_key(key, version=version))
        return default if value is None else _loads(value)

    def set(self, key: Any, value: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        key = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)
        if seconds == 0:
            self.redis.delete(key)
        else:
            self.redis.set(key, _dumps(value), ex=seconds)

    def touch(self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)
        return bool(self.redis.persist(key) if seconds is None else self.redis.expire(key, seconds))

    def delete(self, key: Any, version: int | None = None) -> bool:
        return bool(self.redis.delete(self.make_and_validate_key(key, version=version)))

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        names = {self.make_and_validate_key(key, version=version): key for key in keys}
        if not names:
            return {}
        values = self.redis.mget(list(names))
        return {key: _loads(value) for key, value in zip(names.values(), values, strict=True) if value is not None}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return bool(self.redis.exists(self.make_and_validate_key(key, version=version)))

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        if not self.redis.exists(key):
            raise ValueError(f"Key {key!r} not found.")
        return int(self.redis.incr(key, delta))

    def set_many(
        self, data: dict[Any, Any], timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        if not data:
            return []
        values = {self.make_and_validate_key(key, version=version): _dumps(value) for key, value in data.items()}
        seconds = self.get_backend_timeout(timeout)
        pipe = self.redis.pipeline()
        pipe.mset(values)
        if seconds is not None:  # MSET sets no expiry
            for key in values:
                pipe.expire(key, seconds)
        pipe.execute()
        return []

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        names = [self.make_and_validate_key(key, version=version) for key in keys]
        if names:
            self.redis.delete(*names)

    def clear(self) -> None:
        self.entries_delete()

    def entries_delete(self) -> int:
        """Delete every entry of this cache (its prefix's keys) and nothing else; returns how many."""
        gone = 0
        batch: list[bytes] = []
        for key in self.redis.scan_iter(match=self.make_key("*"), count=1000):
            batch.append(key)
            if len(batch) == 1000:
                gone += self.redis.delete(*batch)
                batch = []
        if batch:
            gone += self.redis.delete(*batch)
        return gone


def _dumps(value: Any) -> Any:
    # An int as it is (INCR counts it; not a bool, whose type is not int), anything else pickled.
    return value if type(value) is int else pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes | str) -> Any:
    try:
        return int(data)
    except ValueError:
        return pickle.loads(cast(bytes, data))  # (the client decodes no replies)


def cache_entries_forget() -> int:
    """Delete every entry of the default cache and nothing else in its Redis database (the Celery
    broker's queues and results live there too). After a restore of the database, cached copies
    of rows the restore took back (sessions, accounts, tokens) must not outlive them. Returns how
    many entries went."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        backend.clear()  # a process-local cache (DEBUG, tests): nothing else is in it
        return 0
    return backend.entries_delete()
