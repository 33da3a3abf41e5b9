from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from games.daily import utc_today
from yukon_site.celery import app


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """Run tasks in this process even when REDIS_URL is set (the test's data is not committed)."""
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture
def today() -> date:
    return utc_today()
