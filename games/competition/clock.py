"""The competition's clock (docs/fair-play.md, "The day closes"): which UTC date is "today", and
when a day starts and ends. The one place that knows: the models, the move path, the close and
the pages ask here. Standard library and ``django.utils.timezone`` only (no solver, no ORM).

>>> from datetime import date
>>> day_end(date(2026, 12, 1))
datetime.datetime(2026, 12, 2, 0, 0, tzinfo=datetime.timezone.utc)
>>> is_over(date(2026, 12, 1), day_end(date(2026, 12, 1)))
True
>>> daily_number(date(2026, 11, 30)), daily_number(date(2026, 12, 11)), daily_number(date(2026, 11, 29))
(1, 12, None)
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django.utils import timezone

__all__ = [
    "FIRST_DAY",
    "code_public",
    "daily_number",
    "day_end",
    "day_start",
    "is_future",
    "is_over",
    "is_today",
    "today",
]

#: Day 1 of the daily deal, "Yukon #1": the UTC date the site dealt its first daily deal (docs/daily.md).
FIRST_DAY = date(2026, 11, 30)


def today(now: datetime | None = None) -> date:
    """The current UTC date (settings: ``USE_TZ``, ``TIME_ZONE = "UTC"``), or ``now``'s."""
    return (now or timezone.now()).astimezone(UTC).date()


def day_start(day: date) -> datetime:
    """The moment a UTC date begins: its 00:00 UTC."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_end(day: date) -> datetime:
    """The moment a UTC date ends: the next 00:00 UTC, when its daily competition closes."""
    return day_start(day + timedelta(days=1))


def is_over(day: date, now: datetime | None = None) -> bool:
    """Whether ``day`` has ended at ``now`` (default: now): its competition is closed."""
    return (now or timezone.now()) >= day_end(day)


def code_public(day: date, now: datetime | None = None) -> bool:
    """Whether the deal of ``day`` may be shown (its code, its board's replays, its solution's
    length): once the day is over, never before (docs/fair-play.md)."""
    return is_over(day, now)


def is_today(day: date, now: datetime | None = None) -> bool:
    """Whether ``day`` is the current UTC date at ``now``."""
    return day == today(now)


def is_future(day: date, now: datetime | None = None) -> bool:
    """Whether ``day`` has not begun yet at ``now``."""
    return day > today(now)


def daily_number(day: date) -> int | None:
    """The daily deal's number, as a shared result names it ("Yukon #12"): the days since
    :data:`FIRST_DAY`, which is #1; ``None`` for a date before it (no daily deal was dealt then)."""
    number = (day - FIRST_DAY).days + 1
    return number if number >= 1 else None
