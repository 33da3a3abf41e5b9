"""Counters that expire, in the default cache's namespace: what the rate limits count with.

On Redis each counter is an ``INCR`` with ``EXPIRE ... NX`` (its lifetime set by the first count
only), several counters pipelined in one round trip, through the cache's own client
(:attr:`common.cache.RedisCache.redis`, the process's one). The names are the cache's
(``cache.make_key``: its prefix and version), and the values plain integers as the cache stores
them, so the cache's ``decr`` and ``delete`` work on them too. On the in-process cache of the
embedded defaults they are the cache's ``add`` and ``incr``.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache import DEFAULT_CACHE_ALIAS, caches

from .cache import RedisCache


def add_one(counters: Sequence[tuple[str, int]]) -> list[int]:
    """Add one to each ``(name, seconds)`` counter, made with that lifetime if it is not there,
    and return the new counts: one round trip to Redis for all of them."""
    if not counters:
        return []
    cache = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(cache, RedisCache):
        return [_add_one_here(name, seconds) for name, seconds in counters]
    pipe = cache.redis.pipeline(transaction=False)
    for name, seconds in counters:
        key = cache.make_key(name)
        pipe.incr(key)
        pipe.expire(key, seconds, nx=True)
    return [int(count) for count in pipe.execute()[::2]]


def count(name: str) -> int:
    """A counter's value now (0 when it is not there): a read, nothing counted."""
    return int(caches[DEFAULT_CACHE_ALIAS].get(name) or 0)


def take_one(name: str) -> None:
    """Take one from a counter again (nothing if it has expired meanwhile)."""
    try:
        caches[DEFAULT_CACHE_ALIAS].decr(name)
    except ValueError:  # not there (any more)
        pass


def _add_one_here(name: str, seconds: int) -> int:
    cache = caches[DEFAULT_CACHE_ALIAS]
    cache.add(name, 0, timeout=seconds)
    try:
        return int(cache.incr(name))
    except ValueError:  # expired between add() and incr()
        cache.add(name, 1, timeout=seconds)
        return 1
