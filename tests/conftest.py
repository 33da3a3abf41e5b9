from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from common import background
from tests import factories
from yukon_site.celery import app

DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def depends_on_services(item: pytest.Item) -> bool:
    """Whether a test's outcome can depend on the database, the cache or the worker: it is marked
    ``postgres`` or ``celery_worker``, or it uses the database and is no browser test. The pure
    engine and solver tests cannot; a browser test drives the pages over the same API whose
    behaviour on PostgreSQL the API tests check, so it runs once, on the embedded defaults."""
    if "postgres" in item.keywords or "celery_worker" in item.keywords:
        return True
    if "browser" in item.keywords:
        return False
    uses_database = item.get_closest_marker("django_db") is not None
    return uses_database or bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgres`` need real row locks: they are skipped on SQLite, and only there.

    Tests marked ``celery_worker`` need Redis and a real worker process: skipped without ``REDIS_URL``
    (the embedded defaults run tasks in-process), and only then.

    Tests whose outcome can depend on the services get the marker ``services``: ``.ci/run`` runs
    ``make test`` (everything, on the embedded defaults) and then ``-m services`` on PostgreSQL,
    Redis and a real worker. A test that depends on the worker or the cache without using the
    database, or a browser test whose outcome does, is marked ``services`` by hand
    (``tests/site/test_celery.py``, ``tests/frontend/test_account.py``).
    """
    skip_sqlite = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL); the database is SQLite")
    skip_redis = pytest.mark.skip(reason="needs Redis and a Celery worker (set REDIS_URL); tasks run in-process")
    for item in items:
        if depends_on_services(item):
            item.add_marker(pytest.mark.services)
        if "postgres" in item.keywords and connection.vendor == "sqlite":
            item.add_marker(skip_sqlite)
        if "celery_worker" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(skip_redis)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _plain_static_files(settings: Any) -> None:
    """Tests run with DEBUG off and no collectstatic: the pages name the plain static files.
    (The production storage, hashed and compressed, is tested in tests/frontend/test_static_files.py.)"""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_clairvoyance_test(settings: Any) -> None:
    """The clairvoyance test costs seconds of CPU per ranked win: tests that win one get it only
    when they ask (``settings.FAIRPLAY_CLAIRVOYANCE_TOP``; tests/games/test_clairvoyance.py).
    (The worker of .ci/run's second phase is started with it off too.)"""
    settings.FAIRPLAY_CLAIRVOYANCE_TOP = 0


@pytest.fixture(autouse=True)
def _few_arrangements(settings: Any) -> None:
    """A day's deal has 16,384 arrangements in production (minutes of the solver's time to
    certify): the tests that prepare a day make 8 (tests/stats/test_arrangements.py sets its own)."""
    settings.DAILY_ARRANGEMENTS = 8


@pytest.fixture(autouse=True)
def _every_account_established(settings: Any) -> None:
    """The tests' accounts are made as the test begins, so each would be a newcomer, off the public
    board of its first day (stats/established.py): tests get the rule only when they ask for it
    (``settings.BOARD_ESTABLISHED_DAYS``; tests/stats/test_established.py). Production counts 1."""
    settings.BOARD_ESTABLISHED_DAYS = 0


@pytest.fixture(autouse=True)
def _site_url(settings: Any) -> None:
    """The site's address in the mails' links: the test client's (a browser test sets its server's)."""
    settings.SITE_URL = "http://testserver"


@pytest.fixture(autouse=True)
def _fresh_cache(settings: Any) -> None:
    """Throttle counters live in the cache: every test gets a namespace of its own.

    (Cheaper than ``cache.clear()``, which on Redis scans the database for the cache's keys.)
    """
    default = settings.CACHES["default"]
    settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}


@pytest.fixture(autouse=True)
def _solver_tasks_recorded(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[tuple[Any, ...]]]:
    """The solver's tasks a request sends apart (``common.background.task_send_apart``: a thread
    with the embedded defaults, the worker with Redis) are only recorded in tests, where they are
    sent: after the commit that asks, as in production (games/jobs.py). So no solver runs beside
    the test and no worker writes deals into the test's database; the tests call the tasks' work
    themselves. Every other task goes as it would."""
    daily: list[str] = []
    winnable: list[tuple[Any, ...]] = []
    send = background.task_send_apart

    def recorded(task: Any, *args: Any, **kwargs: Any) -> None:
        if task.name == "games.daily_deals_prepare":
            daily.append("daily_deals_prepare")
        elif task.name == "games.winnable_decide":
            winnable.append(("decide", *args))
        elif task.name == "games.winnable_deals_fill":
            winnable.append(("fill",))
        else:
            send(task, *args, **kwargs)

    monkeypatch.setattr(background, "task_send_apart", recorded)
    return daily, winnable


@pytest.fixture(autouse=True)
def _daily_preparation_asked(_solver_tasks_recorded: tuple[list[str], list[tuple[Any, ...]]]) -> list[str]:
    """A request that finds no daily deal asks a task to prepare one: recorded (above)."""
    return _solver_tasks_recorded[0]


@pytest.fixture(autouse=True)
def winnable_asked(_solver_tasks_recorded: tuple[list[str], list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
    """A dealt game asks the worker to decide its deal, "still winnable?" may ask it to decide a
    position, and a deal taken from the winnable pool asks for the pool to be topped up
    (games/play/winnable.py): recorded (above)."""
    return _solver_tasks_recorded[1]


@pytest.fixture(autouse=True)
def steady_throttle_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits count in fixed windows (a minute: a new count at each minute's start), so a
    test whose requests straddle a minute's end would see its count start again: hold the clock
    of the limits in the middle of a window, for every test (a test of the windows themselves sets
    its own clock). Every test has a cache of its own (``_fresh_cache``), so no count carries over."""
    from common.throttles import RateThrottle

    monkeypatch.setattr(RateThrottle, "timer", staticmethod(lambda: 1_800_000_030.0))


@pytest.fixture
def guest() -> APIClient:
    """A browser without an account: it plays with its session cookie."""
    return APIClient()


@pytest.fixture
def account(db: Any) -> Any:
    return factories.user()


@pytest.fixture
def player(account: Any) -> APIClient:
    """An API client authenticated with the account's token."""
    return factories.token_client(account)


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Run tasks in this process even when REDIS_URL is set (the test's data is not committed)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
