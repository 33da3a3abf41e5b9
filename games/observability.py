"""What the games app tells an operator (registered by ``GamesConfig.ready``; common's /readyz and
/metrics import no app): whether today's daily deal is ready, and at each scrape the ranked wins
waiting for review and the daily deals certified ahead."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db.models import Count, Q
from prometheus_client.core import GaugeMetricFamily, Metric

from common.dependencies import DEPENDENCY_ERRORS
from games.competition import clock
from games.models import DailyDeal, Game, ReviewChoices, StatusChoices

logger = logging.getLogger(__name__)


def daily_deal_readiness() -> str:
    """``ok`` when today's deal is certified and dated, or a certified spare waits for the day's
    first request; ``missing`` when a request for it would answer 503 ``daily_not_ready``."""
    certified = DailyDeal.objects.filter(solution_length__isnull=False)
    today = certified.filter(date=clock.today()).exists()
    return "ok" if today or certified.filter(date__isnull=True).exists() else "missing"


def scraped_metrics() -> Iterator[Metric]:
    """Held and pending ranked wins, and the certified deals of today, ahead and spare."""
    today = clock.today()
    try:
        waiting = dict(
            Game.objects.filter(
                daily__isnull=False,
                status=StatusChoices.WON,
                ranked=True,
                review__in=[ReviewChoices.HELD, ReviewChoices.PENDING],
            )
            .values_list("review")
            .annotate(n=Count("pk"))
            .order_by()
        )
        deals = DailyDeal.objects.filter(solution_length__isnull=False).aggregate(
            today=Count("pk", filter=Q(date=today)),
            ahead=Count("pk", filter=Q(date__gt=today)),
            spare=Count("pk", filter=Q(date__isnull=True)),
        )
    except DEPENDENCY_ERRORS as exc:
        logger.warning("metrics: database unreachable (%s): no game figures", type(exc).__name__)
        return
    review = GaugeMetricFamily(
        "yukon_ranked_wins_waiting",
        "Won ranked attempts not yet on the board: held for a staff review, or pending their automatic check.",
        labels=["review"],
    )
    for state in (ReviewChoices.HELD, ReviewChoices.PENDING):
        review.add_metric([state.value], float(waiting.get(state.value, 0)))
    yield review
    for name, text, value in (
        ("yukon_daily_deal_today_certified", "1 when today's deal is dated and certified.", deals["today"]),
        ("yukon_daily_deals_ahead", "Certified deals dated after today (days ready ahead).", deals["ahead"]),
        ("yukon_daily_deals_spare", "Certified spare deals without a date yet.", deals["spare"]),
    ):
        yield GaugeMetricFamily(name, text, value=float(value))
