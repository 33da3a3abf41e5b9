"""The competition's clock (games/competition/clock.py): the one place that says which UTC date
is today and when a day ends; it does not import the solver."""

from __future__ import annotations

import ast
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from games.competition import clock

CLOCK = Path(clock.__file__)


def test_a_day_ends_at_the_next_midnight_utc_and_is_over_from_then_on():
    day = date(2026, 12, 1)
    end = datetime(2026, 12, 2, tzinfo=UTC)

    assert clock.day_start(day) == datetime(2026, 12, 1, tzinfo=UTC)
    assert clock.day_end(day) == end
    assert not clock.is_over(day, end - timedelta(microseconds=1))
    assert clock.is_over(day, end)


def test_today_is_the_utc_date_whatever_the_offset_of_now():
    late_in_berlin = datetime(2026, 12, 2, 0, 30, tzinfo=timezone(timedelta(hours=1)))  # 23:30 UTC

    assert clock.today(late_in_berlin) == date(2026, 12, 1)


def test_the_clock_imports_neither_the_solver_nor_the_models():
    imported = set()
    for node in ast.walk(ast.parse(CLOCK.read_text())):
        if isinstance(node, ast.ImportFrom):
            imported.add(("." * node.level) + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)

    assert imported <= {"__future__", "datetime", "django.utils"}


def test_the_old_names_are_the_clock():
    from games import daily, models

    assert daily.utc_today is clock.today and models.day_end is clock.day_end and daily.day_end is clock.day_end
