"""Django's Redis cache, keeping one client per connection pool.

Django's client builds a new ``redis.Redis`` for every cache call, and each one fills a table of
about 170 reply callbacks: a quarter of a millisecond per call, several calls per move. The
clients are thread-safe and share the pool's connections, so one per pool is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _KeptClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _KeptClient


def cache_entries_forget() -> int:
    """Delete every entry of the default cache and nothing else in its Redis database (the Celery
    broker's queues and results live there too: `cache.clear()` would flush them). After a
    restore of the database, cached copies of rows the restore took back (sessions, accounts,
    tokens) must not outlive them. Returns how many entries went."""
    from django.core.cache import DEFAULT_CACHE_ALIAS, caches

    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, DjangoRedisCache):
        backend.clear()  # a process-local cache (DEBUG, tests): nothing else is in it
        return 0
    client = backend._cache.get_client(write=True)
    gone = 0
    batch: list[bytes] = []
    for key in client.scan_iter(match=backend.make_key("*"), count=1000):
        batch.append(key)
        if len(batch) == 1000:
            gone += client.delete(*batch)
            batch = []
    if batch:
        gone += client.delete(*batch)
    return gone
