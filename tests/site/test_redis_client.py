"""One Redis client per process, through public interfaces (issue 35, point 6): the cache
(``common.cache``, Django's ``BaseCache`` over redis-py), the rate limits' counters (on the cache's
keys, through the cache's client), the readiness check and the metrics share the client of
``common.dependencies.redis_client``; no module builds another or reaches into Django's own
Redis cache client."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches

from common import counters
from common.cache import RedisCache
from common.dependencies import redis_client

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "redis://127.0.0.1:1/0"  # a client is made without connecting; nothing listens there


def test_the_cache_and_the_services_share_one_client(settings: Any) -> None:
    settings.REDIS_URL = NOWHERE
    settings.CACHES = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": NOWHERE}}
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    assert backend.redis is redis_client() is redis_client(NOWHERE)


class _Pipeline:
    def __init__(self, calls: list[tuple[Any, ...]]) -> None:
        self.calls = calls

    def incr(self, key: str) -> None:
        self.calls.append(("incr", key))

    def expire(self, key: str, seconds: int, nx: bool = False) -> None:
        self.calls.append(("expire", key, seconds, nx))

    def execute(self) -> list[Any]:
        return [7 if call[0] == "incr" else True for call in self.calls if call[0] != "pipeline"]


class _Client:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def pipeline(self, transaction: bool = True) -> _Pipeline:
        self.calls.append(("pipeline", transaction))
        return _Pipeline(self.calls)


def test_the_counters_count_on_the_cache_keys_through_the_cache_client(settings: Any, monkeypatch: Any) -> None:
    settings.CACHES = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": NOWHERE, "KEY_PREFIX": "p"}}
    backend = caches["default"]
    client = _Client()
    monkeypatch.setattr(backend, "redis", client)
    assert counters.add_one([("login:a", 60), ("login_ip:b", 3600)]) == [7, 7]
    assert client.calls == [
        ("pipeline", False),
        ("incr", "p:1:login:a"),
        ("expire", "p:1:login:a", 60, True),
        ("incr", "p:1:login_ip:b"),
        ("expire", "p:1:login_ip:b", 3600, True),
    ]


def _modules() -> list[Path]:
    return sorted(
        path
        for top in ("common", "games", "stats", "accounts", "frontend", "yukon_site", "bench", "deploy")
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
    )


#: How a Redis client is made: ``redis.Redis(...)``, ``Redis.from_url(...)``, ``redis.from_url(...)``.
MADE = [[*prefix, name] for name in ("Redis", "StrictRedis") for prefix in ([], ["redis"])] + [
    [owner, "from_url"] for owner in ("redis", "Redis", "StrictRedis")
]


def private_redis_uses(source: str) -> list[str]:
    """Where ``source`` builds a Redis client of its own, or imports Django's Redis cache (whose
    client is private)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "django.core.cache.backends.redis":
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}"
                for a in node.names
                if a.name.startswith("django.core.cache.backends.redis")
            ]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-2:] in MADE:
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from django.core.cache.backends.redis import RedisCache\n", 1),
        ("import redis\nclient = redis.Redis.from_url(url)\n", 1),
        ("import redis\nclient = redis.Redis(connection_pool=pool)\n", 1),
        ("from redis import Redis\nclient = Redis(host='redis')\n", 1),
        ("from .dependencies import redis_client\nclient = redis_client()\n", 0),
    ],
)
def test_a_client_of_its_own_is_found(source: str, found: int) -> None:
    assert len(private_redis_uses(source)) == found


def test_only_the_dependencies_module_makes_a_redis_client() -> None:
    offending = {
        str(path.relative_to(ROOT)): uses
        for path in _modules()
        if path != ROOT / "common" / "dependencies.py" and (uses := private_redis_uses(path.read_text()))
    }
    assert offending == {}, "use common.dependencies.redis_client() (the cache's client: RedisCache.redis)"


@pytest.mark.services
def test_the_cache_keeps_djangos_api_and_its_entries(settings: Any) -> None:
    """On the test's Redis (REDIS_URL): the cache answers as Django's cache API says, and its
    entries are those of Django's own Redis cache (either reads the other's)."""
    url = settings.REDIS_URL
    if not url:
        pytest.skip("needs Redis (REDIS_URL)")
    prefix = settings.CACHES["default"]["KEY_PREFIX"]  # the test's own (tests/conftest.py)
    settings.CACHES = {
        "default": {"BACKEND": "common.cache.RedisCache", "LOCATION": url, "KEY_PREFIX": prefix},
        "django": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url, "KEY_PREFIX": prefix},
    }
    ours, django = caches["default"], caches["django"]
    assert ours.add("a", {"x": 1}, 60) and not ours.add("a", "other", 60)
    assert ours.get("a") == django.get("a") == {"x": 1} and ours.get("missing", "none") == "none"
    django.set("n", 5, 60)
    assert ours.incr("n", 2) == 7 and ours.decr("n") == 6 and django.get("n") == 6
    ours.set("m", 3, 60)
    assert django.incr("m") == 4 and ours.get("m") == 4  # an integer as it is: Redis's INCR counts it
    with pytest.raises(ValueError):
        ours.incr("missing")
    ours.set_many({"b": [1, 2], "c": True}, 60)
    assert django.get_many(["b", "c", "missing"]) == {"b": [1, 2], "c": True}
    assert ours.get_many(["b", "c", "missing"]) == {"b": [1, 2], "c": True}
    assert ours.touch("b", None) and ours.redis.ttl(ours.make_key("b")) == -1
    assert ours.touch("c", 30) and 0 < ours.redis.ttl(ours.make_key("c")) <= 30
    ours.set("d", "gone at once", 0)
    assert not ours.has_key("d") and ours.has_key("b")
    assert ours.delete("b") and not ours.delete("b")
    ours.delete_many(["c", "n", "m"])
    assert ours.get_many(["c", "n", "m"]) == {}
    outside = f"not-the-cache:{prefix}"
    ours.redis.set(outside, b"kept")
    try:
        ours.set("e", 1, 60)
        ours.clear()
        assert ours.get_many(["a", "e"]) == {} and ours.redis.get(outside) == b"kept"
    finally:
        ours.redis.delete(outside)
