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


def test_no_module_but_the_clock_compares_a_date_with_today():
    """ "Is the day over?", "is it today?" are the clock's (is_over, code_public, is_today,
    is_future): a comparison with today written anywhere else could disagree with it, and where it
    decides what stays secret, that is a leak."""
    root = CLOCK.parents[2]
    found = []
    for package in ("games", "stats", "accounts", "frontend", "common", "yukon_site"):
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts or path == CLOCK:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Compare) and any(_is_today(side) for side in [node.left, *node.comparators]):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_the_guard_sees_a_comparison_with_today():
    for text in ("game.daily >= clock.today(now)", "day < today", "utc_today() == row.day"):
        (node,) = ast.parse(text).body
        assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Compare)
        assert any(_is_today(side) for side in [node.value.left, *node.value.comparators]), text


def test_the_days_questions_agree_at_midnight():
    day = date(2026, 12, 1)
    before, at = clock.day_end(day) - timedelta(microseconds=1), clock.day_end(day)
    assert (clock.is_today(day, before), clock.is_over(day, before), clock.code_public(day, before)) == (
        True,
        False,
        False,
    )
    assert (clock.is_today(day, at), clock.is_over(day, at), clock.code_public(day, at)) == (False, True, True)
    assert clock.is_future(day + timedelta(days=1), before) and not clock.is_future(day + timedelta(days=1), at)


def _is_today(node: ast.AST) -> bool:
    """A call of ``today()``/``clock.today()``/``utc_today()``, or a name ``today``."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("today", "utc_today")
    return isinstance(node, ast.Name) and node.id == "today"
