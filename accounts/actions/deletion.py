"""Deleting an account (:func:`account_delete`): what goes, what stays on the boards without a
name, and the days recounted, in one transaction (docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken, LoginSession
from common.errors import ApplicationError, ErrorCode
from common.sessions import SessionStore
from games.competition import clock
from games.models import COUNTED_REVIEWS, DailyStartLink, Game, IdempotencyRecord, StatusChoices
from social.services import account_clubs_leave
from stats.services import daily_players_recount, daily_results_detach


def account_delete(*, user: Any, password: str) -> None:
    """Delete ``user``'s account (its password asked again: ``wrong_password`` otherwise, and
    nothing changes): the account, its profile, sessions, API tokens, games with their move logs,
    post-mortems and idempotency records, bests, fair-play links and the admin's log about it go,
    in one transaction. Its results of days that are over stay on their boards without a name
    ("deleted player"), so no other player's rank changes, and so do their games and move logs,
    without an owner, so staff can still replay and reject them (docs/fair-play.md, "Evidence
    stays"); its result of a day not over yet goes with its game. The players of the days it
    played are recounted (a result that stays still counts its player).

    The account's games are locked first: a stats or post-mortem task that holds one commits
    before the rows are collected, and one that comes later finds no game and writes nothing.
    """
    if not password or not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    User = get_user_model()
    with transaction.atomic():
        game_ids = list(Game.objects.select_for_update().filter(owner=user).order_by("pk").values_list("pk", flat=True))
        User.objects.select_for_update().filter(pk=user.pk).exists()  # (no login meanwhile)
        today = clock.today()
        days = daily_results_detach(user_id=user.pk, today=today)
        account_clubs_leave(user=user)  # (its clubs handed over to their longest members first)
        # The games of results that stay: kept without an owner, with their logs.
        Game.objects.filter(
            pk__in=game_ids, ranked=True, status=StatusChoices.WON, review__in=COUNTED_REVIEWS, daily__lt=today
        ).update(owner=None, owner_deleted_at=timezone.now())
        session_keys = list(LoginSession.objects.filter(user=user).values_list("session_key", flat=True))
        Session.objects.filter(session_key__in=session_keys).delete()
        IdempotencyRecord.objects.filter(scope=f"user:{user.pk}").delete()
        DailyStartLink.objects.filter(user=user).delete()
        LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)).delete()
        ApiToken.objects.filter(user=user).delete()  # each revoked in the token cache too (a signal)
        ranked_days = {
            day for day in Game.objects.filter(pk__in=game_ids, ranked=True).values_list("daily", flat=True) if day
        }
        user.delete()  # and with it (CASCADE) the games, move logs, bests, profile
        for day in sorted(ranked_days | set(days)):
            daily_players_recount(day=day)
        # The cached copies of its sessions (a cache-backed store): gone once the deletion holds.
        store = caches[django_settings.SESSION_CACHE_ALIAS]
        cached = [SessionStore.cache_key_prefix + key for key in session_keys]
        transaction.on_commit(lambda: store.delete_many(cached))
