"""A database of a bench's own (PostgreSQL, or a throwaway SQLite file), and the median of
repeated timings.

``BENCH_DATABASE_URL`` if set (used as is, kept); otherwise a scratch database on the server of
``DATABASE_URL`` (or 127.0.0.1), created before the bench and dropped after it. Without a
reachable PostgreSQL server the bench says so and exits 0.
"""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def _server_url() -> str:
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        base = "postgres://postgres@127.0.0.1:5432/postgres"
    return base


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _libpq(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_libpq(_with_database(url, "postgres")), autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql)


def with_scratch_database(name: str, bench: str, run: Callable[[str], int]) -> int:
    """``run(database_url)`` on the bench's database (see the module's docstring); its exit code."""
    import psycopg

    scratch = "BENCH_DATABASE_URL" not in os.environ
    server = _server_url()
    url = os.environ.get("BENCH_DATABASE_URL") or _with_database(server, name)
    try:
        if scratch:
            _admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            _admin(server, f"CREATE DATABASE {name}")
        else:
            psycopg.connect(_libpq(url), connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        where = urlsplit(url).hostname or "127.0.0.1"
        print(f"{bench}: skipped: PostgreSQL is not reachable at {where} ({str(exc).strip()[:120]})")
        return 0
    try:
        return run(url)
    finally:
        if scratch:
            from django.db import connections

            connections.close_all()
            _admin(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def django_on_scratch_sqlite(bench: str) -> None:
    """Set Django up on a fresh SQLite file in a temporary folder (removed at exit), tasks in-process."""
    scratch = tempfile.mkdtemp(prefix=f"yukon-{bench}-bench-")
    atexit.register(shutil.rmtree, scratch, True)
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import django

    django.setup()


def median_ms(run: Callable[[], object], times: int) -> float:
    """The median wall time of ``times`` calls of ``run``, in milliseconds."""
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)
