"""What the site keeps of games and sessions, and when it lets them go (README, "Fair play:
what is stored"; docs/capacity.md). Each retention is a setting:

* ``SESSIONS_ENDED_KEEP_DAYS`` (7): a session that ended (expired) is removed this many days
  later (Django's ``clearsessions``, in batches and with a grace period);
* a guest's games go with its session: once the session is removed, the games it played that no
  account took over (on sign-up or login) are deleted;
* ``IDLE_GAMES_DAYS`` (90): an unfinished practice game without a move for this long is deleted;
  its player is told on the list of games ``IDLE_GAMES_WARN_DAYS`` (14) before
  (:func:`removal_at`). Daily games stay: they are a day's record.

Each function deletes in batches of ``BATCH`` games or sessions, each batch in a transaction of
its own (a game with its log and everything else that hangs on it): a worker killed half way
leaves every game whole, and the next run goes on. Beat runs them hourly (``games.tasks``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Game, MoveLog, StatusChoices

BATCH = 500
#: A guest's game is never removed in its first day, whatever its session looks like (a session
#: row is written as its first game starts; this keeps the two apart).
GUEST_GAME_MIN_AGE = timedelta(days=1)


def sessions_ended_prune(*, now: datetime, limit: int = 100 * BATCH) -> int:
    """Remove the sessions that ended more than ``SESSIONS_ENDED_KEEP_DAYS`` ago; how many."""
    cutoff = now - timedelta(days=settings.SESSIONS_ENDED_KEEP_DAYS)
    removed = 0
    while removed < limit:
        keys = list(Session.objects.filter(expire_date__lt=cutoff).values_list("session_key", flat=True)[:BATCH])
        if not keys:
            break
        removed += Session.objects.filter(session_key__in=keys, expire_date__lt=cutoff).delete()[0]
    return removed


def guest_games_prune(*, now: datetime, limit: int = 20 * BATCH) -> int:
    """Delete the guest games whose session is gone (ended and removed) that no account took over;
    how many."""
    games = (
        Game.objects.filter(owner__isnull=True, owner_deleted_at__isnull=True, created_at__lt=now - GUEST_GAME_MIN_AGE)
        .exclude(guest_session_key="")
        .exclude(guest_session_key__in=Session.objects.values("session_key"))
    )
    return _delete_in_batches(games, limit)


def idle_games_prune(*, now: datetime, limit: int = 20 * BATCH) -> int:
    """Delete the unfinished practice games without a move for ``IDLE_GAMES_DAYS``; how many."""
    cutoff = now - timedelta(days=settings.IDLE_GAMES_DAYS)
    idle = {"last_activity_at__lt": cutoff}  # (the annotation's: django-stubs cannot see it)
    games = with_last_activity(_open_practice().filter(created_at__lt=cutoff)).filter(**idle)
    return _delete_in_batches(games, limit)


def with_last_activity(games: QuerySet[Game]) -> QuerySet[Game]:
    """``games`` with ``last_activity_at``: the time of its last move (its log's last entry, by its
    key), or of its start."""
    last_move = MoveLog.objects.filter(game=OuterRef("pk"), seq=OuterRef("moves")).values("created_at")[:1]
    return games.annotate(last_activity_at=Coalesce(Subquery(last_move), "created_at"))


def removal_at(game: Game, *, now: datetime) -> datetime | None:
    """When ``game`` will be removed for want of a move (an unfinished practice game, read with
    :func:`with_last_activity`), if that is within ``IDLE_GAMES_WARN_DAYS``; else None."""
    last = getattr(game, "last_activity_at", None)
    if last is None or game.status != StatusChoices.PLAYING or game.daily is not None:
        return None
    removal = last + timedelta(days=settings.IDLE_GAMES_DAYS)
    if removal - timedelta(days=settings.IDLE_GAMES_WARN_DAYS) > now:
        return None
    return removal


def _open_practice() -> QuerySet[Game]:
    return Game.objects.filter(status=StatusChoices.PLAYING, daily__isnull=True)


def _delete_in_batches(games: QuerySet[Game], limit: int) -> int:
    deleted = 0
    while deleted < limit:
        ids = list(games.order_by().values_list("pk", flat=True)[:BATCH])
        if not ids:
            break
        with transaction.atomic():  # the conditions checked again as it deletes (a claim, a move meanwhile)
            _, counts = games.filter(pk__in=ids).delete()
        deleted += counts.get(Game._meta.label, 0)
        if len(ids) < BATCH:
            break
    return deleted
