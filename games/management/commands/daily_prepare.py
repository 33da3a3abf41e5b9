"""``manage.py daily_prepare``: today's and the next days' daily deals and the spares, and the pool
of winnable deals ("winnable deals only"), now.

What the beat tasks do every few minutes; ``make run`` calls it before it serves (the embedded
default has no beat; a deal taken from the pool asks for more, on a thread of its own), so a
fresh clone shows a daily deal and deals winnable ones at once.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from games.competition.attempt import day_close
from games.competition.daily import daily_deals_prepare
from games.play.winnable import winnable_deals_fill


class Command(BaseCommand):
    help = "Draw and certify today's and the next days' daily deals (and the spares) if missing."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(
            f"Preparing the daily deals: {settings.DAILY_ARRANGEMENTS} arrangements of each, each one certified "
            "by the solver ..."
        )
        done = daily_deals_prepare(progress=self.progress)
        closed, _ = day_close()
        days = ", ".join(day.isoformat() for day in done.assigned) or "none needed"
        self.stdout.write(
            self.style.SUCCESS(
                f"Daily deals ready: {days} given a deal; {done.drawn} drawn and certified; "
                f"{done.spares} spares; {closed} ranked attempts of past days closed."
            )
        )
        pool = winnable_deals_fill()
        kept = ", ".join(f"{count} {rule}" for rule, count in pool.items())
        self.stdout.write(self.style.SUCCESS(f"Winnable deals ready: {kept}."))

    def progress(self, kept: int, wanted: int) -> None:
        self.stdout.write(f"  {kept} of {wanted} arrangements certified")
