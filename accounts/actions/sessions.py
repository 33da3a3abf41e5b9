"""Signed-in sessions: what happens on sign-in (the guest's games move to the account, an API
token for the sign-in), each session's row and its last-seen time, the list of them, and ending
them ("sign out everywhere else", after a password change or an undone change of address)."""

from __future__ import annotations

import time
from collections.abc import Iterable, MutableMapping
from importlib import import_module
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import ApiToken, LoginSession
from games.play.services import games_claim_guest

from .tokens import token_issue

#: In the session: the id of the token its login (or registration) returned; its logout revokes it.
SESSION_TOKEN_KEY = "api_token_id"
#: In the session: when its :class:`LoginSession` row was last written ([session key, epoch seconds]).
SESSION_SEEN_KEY = "seen_at"
#: A session's "last seen" is written at most this often.
SEEN_EVERY_SECONDS = 60


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


def user_signed_in(*, user: Any, guest_session_key: str | None, token_name: str) -> tuple[ApiToken, str, int]:
    """After register or login: the guest's games of that session move to the account, and a new
    API token is made for this sign-in (its row and its key, and how many guest games moved)."""
    with transaction.atomic():
        kept = games_claim_guest(session_key=guest_session_key, user=user)
        token, key = token_issue(user=user, name=token_name)
        return token, key, kept
