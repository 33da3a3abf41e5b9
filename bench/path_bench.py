"""What the move path's own machinery saves: ``games/play/store.py`` and ``common/throttles.py``
against the plain Django and DRF code they stand in for, in one process, per move.

* the game's read and its versioned write (the row, the move log entry) through
  :mod:`games.play.store` against the ORM's ``filter().first()`` and ``filter(version=).update()`` +
  ``create()`` in a transaction;
* the move's two rate limits (per player and per IP) counted together in one round trip
  (:class:`common.throttles.RateLimits`, over :mod:`common.counters`) against DRF's
  ``SimpleRateThrottle``, which reads, extends and writes back a list of the window's request
  times per limit.

Prints the median wall time and the CPU time per operation of each; asserts nothing.

    python bench/path_bench.py [--times 2000]

Database: ``BENCH_DATABASE_URL`` (e.g. postgres://postgres@127.0.0.1:5432/yukon_fast; migrated,
kept), else a fresh SQLite file; cache: ``BENCH_REDIS_URL`` (e.g. redis://127.0.0.1:6379/11),
else the in-process cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(run: Callable[[], object], times: int) -> tuple[float, float]:
    """Median wall milliseconds of one call, and CPU milliseconds per call."""
    samples = []
    cpu = time.process_time()
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), (time.process_time() - cpu) * 1000 / times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=2000)
    args = parser.parse_args()
    scratch = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_DATABASE_URL") or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", "")
    os.environ.setdefault("DB_CONN_MAX_AGE", "60")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.db.models import F
    from django.test import RequestFactory
    from rest_framework.request import Request
    from rest_framework.throttling import SimpleRateThrottle

    from common import throttles
    from games.engine import Rule
    from games.models import Game, MoveLog
    from games.play import services, store
    from games.players import Player

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(username=f"bench{time.time_ns()}", password="x")
    player = Player(user=user)
    game_id = services.game_start(player=player, rule=Rule.CLASSIC).id
    fields = ["state", "score", "moves", "version"]
    seq = [0]

    def log_of(game: Game) -> MoveLog:
        seq[0] += 1
        return MoveLog(game=game, seq=seq[0], move="t1:AS>f", points=10, flipped="")

    def store_move() -> None:
        game = store.game_read(game_id=game_id, player=player)
        assert game is not None
        game.moves += 1
        assert store.game_change_save(game=game, read_version=game.version, fields=fields, logs=[log_of(game)])

    def orm_move() -> None:
        game = Game.objects.filter(pk=game_id, owner=user).first()
        assert game is not None
        game.moves += 1
        with transaction.atomic():
            changed = Game.objects.filter(pk=game_id, version=game.version).update(
                state=game.state, score=game.score, moves=game.moves, version=F("version") + 1
            )
            assert changed == 1
            log_of(game).save()

    request = Request(RequestFactory().post("/api/v1/games/x/moves"))
    request.user = user  # (as DRF's authentication sets it)
    (limits,) = throttles.throttles("moves", "moves_ip")

    def one_round_trip() -> None:
        assert limits.allow_request(request, None)

    class DrfPlayerThrottle(SimpleRateThrottle):
        scope = "moves"

        def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
            return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

    class DrfIpThrottle(SimpleRateThrottle):
        scope = "moves_ip"

        def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
            return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    SimpleRateThrottle.THROTTLE_RATES = {"moves": "100000/minute", "moves_ip": "100000/minute"}
    drf_limits = [DrfPlayerThrottle(), DrfIpThrottle()]

    def drf_throttles() -> None:
        assert all(limit.allow_request(request, None) for limit in drf_limits)  # type: ignore[arg-type]

    from django.conf import settings

    settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].update(moves="100000/minute", moves_ip="100000/minute")
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"path_bench: {connection.vendor}, cache {cache}, {args.times} times each (median wall ms; CPU ms per call)")
    rows = [
        ("move read + write, games.play.store", store_move),
        ("move read + write, ORM", orm_move),
        ("2 rate limits, one round trip", one_round_trip),
        ("2 rate limits, DRF's throttles", drf_throttles),
    ]
    for name, run in rows:
        measure(run, max(50, args.times // 10))  # warm up: prepared statements, connections
        wall, cpu = measure(run, args.times)
        print(f"path_bench:   {name:34s} {wall:7.3f} ms   CPU {cpu:7.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
