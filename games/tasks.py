"""Celery tasks of the games app: thin, idempotent, calling services. The services never import
this module: they send a task by its name (:mod:`games.jobs`).

Delivery is at least once (late acknowledgement, re-queued when a worker dies, see
``yukon_site/celery.py``): every task is an idempotent upsert or recomputation, so a retry or
a duplicate changes nothing. Database hiccups (a lost connection, a deadlock) are retried.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from common.retries import RETRY
from games import jobs, lifecycle, movelog
from games.competition import attempt, daily, links, suspects
from games.help import postmortem
from games.play import services, winnable

__all__ = [
    "clairvoyance_check",
    "daily_attempts_close",
    "daily_deals_prepare_task",
    "data_prune",
    "fairplay_links_prune",
    "game_postmortem",
    "idempotency_records_prune",
    "log_pack",
    "logs_pack_pending",
    "postmortems_pending",
    "ranked_reviews_pending",
    "ranked_win_review",
    "winnable_decide",
    "winnable_deals_fill_task",
]


@shared_task(name="games.idempotency_records_prune", ignore_result=True)
def idempotency_records_prune(hours: int = 24) -> None:
    """Beat, hourly: drop idempotency records older than ``hours`` (retries come within seconds)."""
    services.idempotency_records_prune(before=timezone.now() - timedelta(hours=hours))


@shared_task(name="games.data_prune", **RETRY)
def data_prune() -> None:
    """Beat, hourly: ended sessions and their guests' games, and idle unfinished practice games
    (:mod:`games.lifecycle`; batched, each batch on its own: a killed run loses nothing)."""
    now = timezone.now()
    lifecycle.sessions_ended_prune(now=now)
    lifecycle.guest_games_prune(now=now)
    lifecycle.idle_games_prune(now=now)


@shared_task(name="games.log_pack", **RETRY)
def log_pack(game_id: str) -> None:
    """A game was won: its move log packed (:mod:`games.movelog`; idempotent)."""
    movelog.log_pack(game_id=game_id)


@shared_task(name="games.logs_pack_pending", **RETRY)
def logs_pack_pending() -> None:
    """Beat, hourly: pack the logs of the games won in the last ``LOG_PACK_SWEEP_HOURS`` that still
    have rows (a task lost in flight), and not in the last minute (their own task is on its way)."""
    now = timezone.now()
    since = now - timedelta(hours=settings.LOG_PACK_SWEEP_HOURS)
    movelog.logs_pack_pending(since=since, until=now - timedelta(minutes=1))


@shared_task(name="games.fairplay_links_prune", ignore_result=True)
def fairplay_links_prune() -> None:
    """Beat, hourly: drop the fair-play links and suspect marks older than ``FAIRPLAY_RETENTION_DAYS``."""
    now = timezone.now()
    links.links_prune(now=now)
    suspects.suspects_prune(now=now)


@shared_task(name="games.daily_attempts_close", **RETRY)
def daily_attempts_close() -> None:
    """Beat, at 00:00 UTC and every few minutes after: close the days that are over (their open
    ranked attempts closed, their suspects marked, their wins linked to one held)."""
    attempt.day_close()


@shared_task(name="games.ranked_win_review", **RETRY)
def ranked_win_review(game_id: str) -> None:
    """A ranked attempt was won: replay and time it (pending → verified | held | invalid); the
    verdict goes out as the event ``results_changed`` (stats: the bests and the board). Sent on
    the win's commit (:mod:`games.play.services`), not through an event of games to itself."""
    attempt.attempt_review(game_id=game_id)


@shared_task(name="games.clairvoyance_check", **RETRY)
def clairvoyance_check(game_id: str) -> None:
    """Staff asked: the clairvoyance test of a ranked win (its report; verified → held if it is clairvoyant)."""
    attempt.attempt_clairvoyance(game_id=game_id)


@shared_task(name="games.ranked_reviews_pending", **RETRY)
def ranked_reviews_pending() -> None:
    """Beat, every minute: review the wins still pending ``RANKED_REVIEW_LOST_AFTER_SECONDS`` after
    they were won (a lost task)."""
    lost_after = timedelta(seconds=settings.RANKED_REVIEW_LOST_AFTER_SECONDS)
    for game_id in attempt.attempts_pending(before=timezone.now() - lost_after):
        attempt.attempt_review(game_id=game_id)


@shared_task(name="games.game_postmortem", **RETRY)
def game_postmortem(game_id: str) -> None:
    """A finished game: the solver's post-mortem, stored (idempotent: once per move count)."""
    postmortem.postmortem_record(game_id=game_id)


@shared_task(name="games.postmortems_pending", **RETRY)
def postmortems_pending() -> None:
    """Beat, every minute: a post-mortem task for each of yesterday's top results without one."""
    for game_id in postmortem.postmortems_due():
        game_postmortem.delay(game_id)


@shared_task(
    name="games.daily_deals_prepare",
    soft_time_limit=daily.PREPARE_SOFT_LIMIT,
    time_limit=daily.PREPARE_SOFT_LIMIT + 60,
    **RETRY,
)
def daily_deals_prepare_task() -> None:
    """Beat, every few minutes (and on demand when a request finds no deal for today): today's and
    the next days' certified deals, and the spares; one deal a run (certifying one takes minutes),
    then the task is sent again while more are missing."""
    if daily.daily_deals_prepare(limit=1).wanted:
        jobs.daily_deals_prepare()


@shared_task(name="games.winnable_decide", **RETRY)
def winnable_decide(game_id: str, moves: int, scope: str = "") -> None:
    """A game was dealt (``moves`` 0), or "still winnable?" could not settle its position in the
    request: the solver decides it, and the verdict is kept (:mod:`games.play.winnable`; idempotent)."""
    winnable.decide(game_id=game_id, moves=moves, scope=scope)


@shared_task(name="games.winnable_deals_fill", **RETRY)
def winnable_deals_fill_task() -> None:
    """Beat, every minute (and on demand while it is not full): the pool of certified winnable deals
    grown by ``WINNABLE_FILL_BATCH`` towards ``WINNABLE_POOL_SIZE`` of each rule (idempotent)."""
    winnable.winnable_deals_fill()
