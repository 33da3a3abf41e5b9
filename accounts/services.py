"""Accounts: registration, what happens on sign-in, API tokens, and the play settings of accounts
and guests."""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Iterable, Mapping, MutableMapping
from importlib import import_module
from typing import Any

from django.conf import settings as django_settings
from django.contrib.admin.models import LogEntry
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.contrib.auth.password_validation import validate_password
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils import timezone, translation

from common.errors import ApplicationError, ErrorCode
from common.sessions import SessionStore
from games.competition import clock
from games.models import COUNTED_REVIEWS, DailyStartLink, Game, IdempotencyRecord, StatusChoices
from games.play.services import games_claim_guest
from social.services import account_clubs_leave
from stats.services import daily_players_recount, daily_results_detach

from .models import SETTING_DEFAULTS, ApiToken, LoginSession, Profile, token_hash

GUEST_SETTINGS_KEY = "settings"
#: In the session: the id of the token its login (or registration) returned; its logout revokes it.
SESSION_TOKEN_KEY = "api_token_id"
#: In the session: when its :class:`LoginSession` row was last written ([session key, epoch seconds]).
SESSION_SEEN_KEY = "seen_at"
#: A session's "last seen" is written at most this often.
SEEN_EVERY_SECONDS = 60


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


def user_register(
    *,
    username: str,
    password: str,
    settings: Mapping[str, bool] | None = None,
    email: str = "",
    language: str = "",
) -> Any:
    """A new account with its profile (starting from ``settings``, e.g. the guest's). An ``email``
    waits for its confirmation (:func:`user_email_set` sends the link).

    Names are unique whatever their case (a unique index on ``LOWER(username)`` holds it even
    for registrations at the same moment: ``accounts/migrations/0002``)."""
    User = get_user_model()
    username = username_clean(username)
    email = email_clean(email) if email else ""
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(ErrorCode.USERNAME_TAKEN)
    _password_check(password, User(username=username, email=email))
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            Profile.objects.create(user=user, language=_language(language), **_clean_settings(settings or {}))
            if email:
                user_email_set(user=user, email=email)
    except IntegrityError:  # registered at the same moment by someone else
        raise ApplicationError(ErrorCode.USERNAME_TAKEN) from None
    return user


def _password_check(password: str, user: Any) -> None:
    """Django's password validators (``AUTH_PASSWORD_VALIDATORS``): 400 ``weak_password`` with their reasons."""
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ApplicationError(ErrorCode.WEAK_PASSWORD, reason=" ".join(exc.messages)) from None


def _language(language: str) -> str:
    return language if language in dict(django_settings.LANGUAGES) else ""


# -- password ----------------------------------------------------------------------------------


def user_password_change(*, user_id: Any, old_password: str, new_password: str) -> Any:
    """A new password for the account, if ``old_password`` is its present one (400
    ``wrong_password``) and Django's validators take ``new_password`` (400 ``weak_password``).
    Returns the account as stored now (for ``update_session_auth_hash``). Changing the password
    changes the session check hash of every session logged in before: they end on their next
    request (the account's cache entry goes with the save); :func:`account_sign_out_elsewhere`
    ends them at once and revokes the tokens."""
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user_id)
        if not user.check_password(old_password):
            raise ApplicationError(ErrorCode.WRONG_PASSWORD)
        _password_check(new_password, user)
        user.set_password(new_password)
        user.save(update_fields=["password"])
    return user


def account_sign_out_elsewhere(
    *, user: Any, keep_session_key: str | None, keep_token_ids: Iterable[int] = (), all_tokens: bool = True
) -> int:
    """End every signed-in session of ``user`` but ``keep_session_key`` (the session and its row go,
    in the database and the cache), and revoke its tokens but ``keep_token_ids``: all of them
    (``all_tokens``: after a password change or reset) or only those the ended sessions' logins
    returned ("log out everywhere else"). Returns how many live sessions ended."""
    store_class = import_module(django_settings.SESSION_ENGINE).SessionStore
    rows = LoginSession.objects.filter(user=user).exclude(session_key=keep_session_key or "")
    keep = set(keep_token_ids)
    session_tokens: list[int] = []
    ended = 0
    for key in list(rows.values_list("session_key", flat=True)):
        store = store_class(session_key=key)
        if store.get(SESSION_KEY) == str(user.pk):  # (a session that ended is empty)
            ended += 1
            if isinstance(token_id := store.get(SESSION_TOKEN_KEY), int):
                session_tokens.append(token_id)
            store.delete()
    rows.delete()
    tokens = ApiToken.objects.filter(user=user).exclude(pk__in=keep)
    if not all_tokens:
        tokens = tokens.filter(pk__in=session_tokens)
    tokens.delete()  # (each revoked in the cache too: accounts.authentication)
    return ended


# -- signed-in sessions ------------------------------------------------------------------------


def login_session_seen(*, user_id: Any, session: MutableMapping[str, Any], session_key: str, user_agent: str) -> None:
    """Note that a logged-in session was seen now: its row (made on first sight) and its last-seen
    time, written at most once a minute (:data:`SEEN_EVERY_SECONDS`, the time kept in the session)."""
    now = time.time()
    seen = session.get(SESSION_SEEN_KEY)  # [session key, time]: a new key (login, password change) is new
    if isinstance(seen, list) and len(seen) == 2 and seen[0] == session_key and now - seen[1] < SEEN_EVERY_SECONDS:
        return
    session[SESSION_SEEN_KEY] = [session_key, now]
    moment = timezone.now()
    if LoginSession.objects.filter(session_key=session_key).update(last_seen_at=moment):
        return
    try:
        with transaction.atomic():
            LoginSession.objects.create(
                user_id=user_id, session_key=session_key, user_agent=user_agent_summary(user_agent), last_seen_at=moment
            )
    except IntegrityError:  # made by a request of the same session at the same moment
        pass


def login_session_end(*, session_key: str | None) -> None:
    """The row of a session that logs out."""
    if session_key:
        LoginSession.objects.filter(session_key=session_key).delete()


def login_sessions_prune() -> int:
    """Drop the rows of sessions that ended without a logout (expired, flushed); how many."""
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    deleted, _ = LoginSession.objects.exclude(session_key__in=live).delete()
    return deleted


def login_session_list(*, user: Any) -> QuerySet[LoginSession]:
    """The account's signed-in sessions that have not ended, last seen first."""
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    return LoginSession.objects.filter(user=user, session_key__in=live).order_by("-last_seen_at", "-id")


_BROWSERS = [
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
]
_SYSTEMS = [
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
]


def user_agent_summary(user_agent: str) -> str:
    """Browser and system of a User-Agent header, e.g. "Firefox, Windows" (an API client's first word).

    >>> user_agent_summary("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")
    'Firefox, Windows'
    >>> user_agent_summary("python-requests/2.32")
    'python-requests'
    """
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    if browser or system:
        return ", ".join(part for part in (browser, system) if part)
    return user_agent.split("/")[0].strip()[:80]


# -- e-mail ------------------------------------------------------------------------------------

_EMAIL_SALT = "accounts.email-confirm"


def email_clean(email: str) -> str:
    """An address as stored (its domain in lower case), or 400 ``bad_email``."""
    email = BaseUserManager.normalize_email(unicodedata.normalize("NFKC", email).strip())
    try:
        validate_email(email)
    except ValidationError:
        raise ApplicationError(ErrorCode.BAD_EMAIL) from None
    return email


def user_email_set(*, user: Any, email: str, password: str | None = None) -> bool:
    """A new address for the account: it waits for its confirmation (the confirmed one, if any,
    stays until then), and the link goes to it once this transaction commits. Whether another
    account has it confirmed is said only to whoever opens the link (no answer here tells who
    has an account). The present address again drops a waiting one. True if a link is sent (it
    points at ``SITE_URL``). ``password``: asked again when an account changes its address (400
    ``wrong_password``); at sign-up there is none to ask."""
    from .tasks import email_confirmation_send  # (the tasks module imports this one)

    if password is not None and not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    email = email_clean(email)
    with transaction.atomic():
        profile = _profile_of(user, lock=True)
        same = email.casefold() == (user.email or "").casefold()
        profile.email_pending = "" if same else email
        profile.save(update_fields=["email_pending"])
    if not same:
        kwargs = {"user_id": user.pk, "email": email, "language": _mail_language(profile)}
        transaction.on_commit(lambda: email_confirmation_send.delay(**kwargs))
    return not same


def _mail_language(profile: Profile | None) -> str:
    """The language of the account's mails: its own, else the request's."""
    return (profile.language if profile is not None else "") or translation.get_language() or "de"


def password_reset_request(*, email: str) -> None:
    """Mail a password-reset link to the account whose confirmed address is ``email``, if there is
    one. Nothing here differs for an address without an account: the look-up and the mail happen
    in a task, once the request has answered, so neither the answer nor its time tells."""
    from .tasks import password_reset_send

    email = email_clean(email)
    language = translation.get_language() or "de"
    transaction.on_commit(lambda: password_reset_send.delay(email=email, language=language))


def user_email_remove(*, user: Any, password: str) -> None:
    """No address any more: neither the confirmed one nor one waiting (the password asked again:
    400 ``wrong_password``). The confirmed one is told, with a link that puts it back."""
    if not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    with transaction.atomic():
        profile = _profile_of(user, lock=True)
        profile.email_pending = ""
        profile.save(update_fields=["email_pending"])
        previous = get_user_model().objects.filter(pk=user.pk).values_list("email", flat=True).first() or ""
        get_user_model().objects.filter(pk=user.pk).update(email="")
        user.email = ""
        if previous:
            _email_change_tell(user=user, previous=previous, current="", language=_mail_language(profile))


_EMAIL_UNDO_SALT = "accounts.email-undo"


def _email_change_tell(*, user: Any, previous: str, current: str, language: str) -> None:
    """Once this transaction commits: a mail to the ``previous`` confirmed address that it was
    replaced by ``current`` (or removed), with a link that undoes it (``EMAIL_UNDO_TIMEOUT``)."""
    from .tasks import email_changed_send

    kwargs = {"user_id": user.pk, "previous": previous, "current": current, "language": language}
    transaction.on_commit(lambda: email_changed_send.delay(**kwargs))


def email_undo_token(*, user_id: Any, previous: str) -> str:
    """The signed text of an undo link: put ``previous`` back as the account's address."""
    return _link_sign(_EMAIL_UNDO_SALT, user_id=user_id, email=previous)


def email_undo_read(*, token: str) -> tuple[Any, str]:
    """The account id and the address an undo link puts back; 400 ``link_invalid`` if forged or
    older than ``EMAIL_UNDO_TIMEOUT``."""
    return _link_read(_EMAIL_UNDO_SALT, token, max_age=django_settings.EMAIL_UNDO_TIMEOUT)


def _link_sign(salt: str, *, user_id: Any, email: str) -> str:
    """A mailed link's signed text: an account and an address, and the time (``TimestampSigner``)."""
    return signing.TimestampSigner(salt=salt).sign_object({"u": user_id, "e": email}, compress=True)


def _link_read(salt: str, token: str, *, max_age: int) -> tuple[Any, str]:
    """The account id and the address of :func:`_link_sign`'s text; 400 ``link_invalid`` if it is
    forged or older than ``max_age`` seconds."""
    try:
        data = signing.TimestampSigner(salt=salt).unsign_object(token, max_age=max_age)
        return data["u"], str(data["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ApplicationError(ErrorCode.LINK_INVALID) from None


def user_email_undo(*, token: str) -> Any:
    """Undo a change of the account's address from the link mailed to the address before: it is
    the account's confirmed address again (a waiting one goes), and every session and API token
    of the account ends (whoever changed it is signed out; the owner signs in again, and may set
    a new password through the address). 400 ``link_invalid``, or ``email_taken`` if another
    account has confirmed that address meanwhile."""
    user_id, previous = email_undo_read(token=token)
    User = get_user_model()
    try:
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if profile is None:
                raise ApplicationError(ErrorCode.LINK_INVALID)
            user = profile.user
            if User.objects.filter(email__iexact=previous).exclude(pk=user.pk).exists():
                raise ApplicationError(ErrorCode.EMAIL_TAKEN)
            user.email = previous
            user.save(update_fields=["email"])
            profile.email_pending = ""
            profile.save(update_fields=["email_pending"])
            account_sign_out_elsewhere(user=user, keep_session_key=None)
    except IntegrityError:
        raise ApplicationError(ErrorCode.EMAIL_TAKEN) from None
    return user


def email_confirmation_token(*, user_id: Any, email: str) -> str:
    """The signed text of a confirmation link (its time inside: valid ``EMAIL_CONFIRM_TIMEOUT``)."""
    return _link_sign(_EMAIL_SALT, user_id=user_id, email=email)


def email_confirmation_read(*, token: str) -> tuple[Any, str]:
    """The account id and the address of a confirmation link, without confirming anything; 400
    ``link_invalid`` if it is forged or expired."""
    return _link_read(_EMAIL_SALT, token, max_age=django_settings.EMAIL_CONFIRM_TIMEOUT)


def user_email_confirm(*, token: str) -> Any:
    """Confirm the address of a link: it becomes the account's (the one before goes). 400
    ``link_invalid`` if the link is forged, expired, or its address is no longer the one waiting;
    400 ``email_taken`` if another account confirmed it meanwhile. Confirming twice is fine."""
    User = get_user_model()
    user_id, email = email_confirmation_read(token=token)
    try:
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if profile is None:
                raise ApplicationError(ErrorCode.LINK_INVALID)
            user = profile.user
            if user.email.casefold() == email.casefold() and not profile.email_pending:
                return user  # confirmed already
            if profile.email_pending.casefold() != email.casefold():
                raise ApplicationError(ErrorCode.LINK_INVALID)
            if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
                raise ApplicationError(ErrorCode.EMAIL_TAKEN)
            previous = user.email
            user.email = profile.email_pending
            user.save(update_fields=["email"])
            profile.email_pending = ""
            profile.save(update_fields=["email_pending"])
            if previous and previous.casefold() != user.email.casefold():
                _email_change_tell(user=user, previous=previous, current=user.email, language=_mail_language(profile))
    except IntegrityError:  # confirmed for another account at the same moment (the index on LOWER(email))
        raise ApplicationError(ErrorCode.EMAIL_TAKEN) from None
    return user


def user_language_set(*, user: Any, language: str) -> str:
    """The language of the account's pages and mails ("" : the browser's)."""
    with transaction.atomic():
        profile = _profile_of(user, lock=True)
        profile.language = _language(language)
        profile.save(update_fields=["language"])
    return profile.language


def user_language(*, user: Any) -> str:
    return _profile_of(user).language


def account_email(*, user: Any) -> dict[str, Any]:
    """What ``auth/me`` says of the account's address."""
    profile = _profile_of(user)
    confirmed = get_user_model().objects.filter(pk=user.pk).values_list("email", flat=True).first() or ""
    return {
        "email": confirmed or profile.email_pending or None,
        "email_confirmed": bool(confirmed),
        "email_pending": profile.email_pending or None,
        "language": profile.language,
    }


def user_signed_in(*, user: Any, guest_session_key: str | None, token_name: str) -> tuple[ApiToken, str, int]:
    """After register or login: the guest's games of that session move to the account, and a new
    API token is made for this sign-in (its row and its key, and how many guest games moved)."""
    with transaction.atomic():
        kept = games_claim_guest(session_key=guest_session_key, user=user)
        token, key = token_issue(user=user, name=token_name)
        return token, key, kept


#: Tokens an account holds at most. A new one beyond it replaces the oldest never used (a browser's
#: login tokens usually are), else the one used longest ago; so logging in again and again never
#: ends a token in use. (The per-player rate limits count per account, whichever token it sends.)
MAX_TOKENS = 10


def token_issue(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new API token of ``user``: its row and its key (shown once: only its hash is kept)."""
    key = secrets.token_hex(20)  # 40 hex digits, as accounts.authentication expects
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
    """Revoke one of ``user``'s tokens (at once on every web process: see accounts.authentication);
    False if the account has no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def player_me(*, user: Any, session: Mapping[str, Any]) -> dict[str, Any]:
    """Who is playing (``GET auth/me``, and every page's own copy of it: frontend/views.py): the
    account with its settings and address, or a guest (``authenticated: false``) with the
    session's settings."""
    if not user.is_authenticated:
        return {
            "authenticated": False,
            "username": None,
            "date_joined": None,
            "settings": player_settings_get(user=None, session=session),
        }
    return {
        "authenticated": True,
        "username": user.get_username(),
        "date_joined": user.date_joined,
        "settings": player_settings_get(user=user, session=session),
        **account_email(user=user),
    }


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
