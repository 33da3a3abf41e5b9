"""Accounts: registration, what happens on sign-in, API tokens, and the play settings of accounts
and guests."""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Mapping, MutableMapping
from typing import Any

from django.conf import settings as django_settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from common.errors import ApplicationError, ErrorCode
from common.sessions import SessionStore
from games.models import DailyStartLink, Game, IdempotencyRecord
from games.services import games_claim_guest
from stats.services import daily_players_recount, daily_results_detach

from .models import SETTING_DEFAULTS, ApiToken, Profile, token_hash

GUEST_SETTINGS_KEY = "settings"


#: The names a new account may take: ASCII letters, digits, ``_``, ``-`` and ``.``. Nothing else
#: can look like another name (a Cyrillic "ѕ" like an "s", a full-width "Ｓ" like an "S"); older
#: accounts with other characters keep their names and log in with them as before.
USERNAME = re.compile(r"[A-Za-z0-9_.-]{1,150}")


def username_clean(username: str) -> str:
    """The name a registration asks for, in the form it is stored: NFKC-normalised (as Django
    stores names; full-width letters become plain ones), then held to :data:`USERNAME` and kept
    off the names of the site (:func:`username_reserved`)."""
    name = unicodedata.normalize("NFKC", username)
    if not USERNAME.fullmatch(name):
        raise ApplicationError(ErrorCode.BAD_USERNAME)
    if username_reserved(name):
        raise ApplicationError(ErrorCode.USERNAME_RESERVED)
    return name


def username_reserved(name: str) -> bool:
    """Whether ``name`` pretends to be the site (``settings.RESERVED_USERNAMES``): compared
    whatever its case and without its ``_ - .`` ("Ad.Min", "sup_port" are reserved too)."""
    bare = _bare_name(name)
    return any(bare == _bare_name(reserved) for reserved in django_settings.RESERVED_USERNAMES)


def _bare_name(name: str) -> str:
    return re.sub(r"[_.\-]", "", unicodedata.normalize("NFKC", name)).casefold()


def username_stored(username: str) -> str:
    """The stored name that a login's ``username`` means: the same name in any case and in the
    NFKC form of registration ("ｊｏｎａｓ" and "jonas" log in as "Jonas"). An exact match comes first
    (older accounts may differ only in case); a name nobody has comes back NFKC-normalised."""
    name = unicodedata.normalize("NFKC", username)
    names = list(get_user_model().objects.filter(username__iexact=name).values_list("username", flat=True)[:10])
    if username in names or name in names:
        return username if username in names else name
    return names[0] if len(names) == 1 else name


def user_register(*, username: str, password: str, settings: Mapping[str, bool] | None = None) -> Any:
    """A new account with its profile (starting from ``settings``, e.g. the guest's).

    Names are unique whatever their case (a unique index on ``LOWER(username)`` holds it even
    for registrations at the same moment: ``accounts/migrations/0002``)."""
    User = get_user_model()
    username = username_clean(username)
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(ErrorCode.USERNAME_TAKEN)
    try:
        validate_password(password, user=User(username=username))
    except ValidationError as exc:
        reasons = " ".join(exc.messages)
        raise ApplicationError(ErrorCode.WEAK_PASSWORD, reason=reasons) from None
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            Profile.objects.create(user=user, **_clean_settings(settings or {}))
    except IntegrityError:  # registered at the same moment by someone else
        raise ApplicationError(ErrorCode.USERNAME_TAKEN) from None
    return user


def user_signed_in(*, user: Any, guest_session_key: str | None, token_name: str) -> tuple[ApiToken, str]:
    """After register or login: the guest's games of that session move to the account, and a new
    API token is made for this sign-in (its row and its key)."""
    with transaction.atomic():
        games_claim_guest(session_key=guest_session_key, user=user)
        return token_issue(user=user, name=token_name)


#: Tokens an account holds at most. A new one beyond it replaces the oldest never used (a browser's
#: login tokens usually are), else the one used longest ago; so logging in again and again never
#: ends a token in use. It also bounds what a token client gains from the per-player rate limits,
#: which count per token.
MAX_TOKENS = 10


def token_issue(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new API token of ``user``: its row and its key (shown once: only its hash is kept)."""
    key = secrets.token_hex(20)  # 40 hex digits, as common.authentication expects
    with transaction.atomic():
        token = ApiToken.objects.create(user=user, digest=token_hash(key), prefix=key[:8], name=name)
        others = token_list(user=user).exclude(pk=token.pk)
        keep_first = others.order_by(F("last_used_at").desc(nulls_last=True), "-created_at", "-id")
        surplus = list(keep_first.values_list("id", flat=True)[MAX_TOKENS - 1 :])
        if surplus:
            ApiToken.objects.filter(pk__in=surplus).delete()  # (each revoked in the cache too)
    return token, key


def token_list(*, user: Any) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens (at once on every web process: see common.authentication);
    False if the account has no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def player_settings_get(*, user: Any | None, session: Mapping[str, Any]) -> dict[str, bool]:
    """The play settings: the account's profile, or the guest's session (defaults where unset)."""
    if user is not None:
        return _profile_of(user).settings()
    return {**SETTING_DEFAULTS, **_clean_settings(session.get(GUEST_SETTINGS_KEY, {}))}


def player_settings_update(
    *, user: Any | None, session: MutableMapping[str, Any], changes: Mapping[str, bool]
) -> dict[str, bool]:
    changes = _clean_settings(changes)
    if user is None:
        session[GUEST_SETTINGS_KEY] = {**player_settings_get(user=None, session=session), **changes}
        return player_settings_get(user=None, session=session)
    with transaction.atomic():
        profile = _profile_of(user, lock=True)
        for name, value in changes.items():
            setattr(profile, name, value)
        if changes:
            profile.save(update_fields=list(changes))
    return profile.settings()


def _profile_of(user: Any, *, lock: bool = False) -> Profile:
    """The user's profile, created with the defaults for accounts made elsewhere (createsuperuser)."""
    manager = Profile.objects.select_for_update() if lock else Profile.objects
    profile, _ = manager.get_or_create(user=user)
    return profile


def _clean_settings(values: Mapping[str, Any]) -> dict[str, bool]:
    return {name: bool(values[name]) for name in SETTING_DEFAULTS if name in values}


def account_delete(*, user: Any, password: str) -> None:
    """Delete ``user``'s account (its password asked again: ``wrong_password`` otherwise, and
    nothing changes): the account, its profile, sessions, API tokens, games with their move logs,
    post-mortems and idempotency records, bests, fair-play links and the admin's log about it go,
    in one transaction. Its daily results stay on their boards without a name ("deleted player"),
    so no other player's rank changes; the players of the days it played are recounted (a result
    that stays still counts its player, an attempt not won goes with its game).

    The account's games are locked first: a stats or post-mortem task that holds one commits
    before the rows are collected, and one that comes later finds no game and writes nothing.
    """
    if not password or not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    User = get_user_model()
    with transaction.atomic():
        game_ids = list(Game.objects.select_for_update().filter(owner=user).order_by("pk").values_list("pk", flat=True))
        User.objects.select_for_update().filter(pk=user.pk).exists()  # (no login meanwhile)
        days = daily_results_detach(user_id=user.pk)
        session_keys = account_session_keys(user_id=user.pk)
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


def account_session_keys(*, user_id: int) -> list[str]:
    """The keys of the unexpired sessions logged in to ``user_id``. Sessions name their account
    only inside their (signed) data, so each is decoded: a scan of every live session, guests'
    too (measured 0.26 ms a session on the shared development machine: 26 s per 100,000). That is
    a stopgap: with an index of each account's signed-in sessions (the account page's list, issue
    26) the deletion ends exactly those and this scan goes."""
    store = SessionStore()
    keys: list[str] = []
    rows = Session.objects.filter(expire_date__gt=timezone.now()).values_list("session_key", "session_data")
    for key, data in rows.iterator(chunk_size=2000):
        if str(store.decode(data).get(SESSION_KEY)) == str(user_id):
            keys.append(key)
    return keys
