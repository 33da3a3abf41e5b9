"""``manage.py clear_cache`` (run by ``make restore``): every cache entry goes, so that no cached
session or account outlives the rows a restore took back; the Celery broker's keys, which share
the Redis database in production, stay. On Redis in .ci/run's PostgreSQL phase (REDIS_URL set),
on the in-process cache in the other."""

from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache, caches
from django.core.management import call_command

from common.cache import RedisCache


@pytest.mark.services
def test_clear_cache_forgets_every_entry_and_keeps_the_broker_queues() -> None:
    names = [f"clear-cache-test:{uuid.uuid4().hex}:{n}" for n in range(3)]
    cache.set_many(dict.fromkeys(names, "cached"), 60)
    broker_key = f"celery-like:{uuid.uuid4().hex}"  # no cache prefix, as Celery's keys
    backend = caches["default"]
    client = backend.redis if isinstance(backend, RedisCache) else None
    if client is not None:
        client.rpush(broker_key, b"a queued task")

    call_command("clear_cache")

    assert cache.get_many(names) == {}
    if client is not None:
        assert client.lrange(broker_key, 0, -1) == [b"a queued task"]
        client.delete(broker_key)
