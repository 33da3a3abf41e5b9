"""Authentication: API tokens (:class:`accounts.models.ApiToken`), and session cookies with CSRF
checked for guests too.

Every API call of a token client names its token, so the token's account is kept in the cache
(Redis in production) for a minute instead of being read from the database on each move. A
revoked token is written into the cache as revoked (for longer than an entry lives), so a logout
ends the token at once on every web process, even if a request that read the token just before
the logout stores it afterwards: storing never overwrites (``add``). A change of the account
(deactivated, renamed, made staff) drops its entries, so it applies within one request. The
token's ``last_used_at`` is written when its entry is made: at most about once a minute. The
account of a logged-in session is cached the same way (:class:`CachedModelBackend`).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import SessionScheme
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request

from common.errors import CSRF_FAILED
from common.usernames import username_stored

from .models import ApiToken, token_hash

_KEY = re.compile(r"[0-9a-f]{40}")

TOKEN_CACHE_SECONDS = 60
_REVOKED = "revoked"
_REVOKED_SECONDS = 10 * TOKEN_CACHE_SECONDS
# What a request learns of its account from the cache; any other field loads when first read.
_USER_FIELDS = ("id", "username", "is_active", "is_staff", "is_superuser")


def token_cache_key(token_key: str) -> str:
    return _cache_key_of(token_hash(token_key))


def _cache_key_of(stored_digest: str) -> str:
    """The cache key of a stored token (``ApiToken.digest``, the whole SHA-256 of its key)."""
    return "auth:token:" + stored_digest[:40]


def cached_account(entry: Any) -> Any:
    """The account a token's cache entry describes, or None when there is no entry or it says
    the token was revoked. (The account may be inactive: the caller checks.)"""
    if entry is None or entry == _REVOKED:
        return None
    model = get_user_model()
    # from_db takes the values in the model's field order; the fields not given stay deferred.
    names = [f.attname for f in model._meta.concrete_fields if f.attname in entry]
    return model.from_db(DEFAULT_DB_ALIAS, names, [entry[name] for name in names])


class StrictTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``; a malformed key is refused before it reaches the database,
    and a known one is answered from the cache."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        if not _KEY.fullmatch(key):
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        name = token_cache_key(key)
        entry = cache.get(name)
        if entry == _REVOKED:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not isinstance(entry, dict) or "token_id" not in entry:
            token = _token_of(key)
            fields = {field: getattr(token.user, field) for field in _USER_FIELDS}
            cache.add(name, {**fields, "token_id": token.pk}, TOKEN_CACHE_SECONDS)
            return token.user, token
        user = cached_account(entry)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, ApiToken(pk=entry["token_id"], user=user)  # (who it is, not all it holds)


def _token_of(key: str) -> ApiToken:
    """The stored token of ``key`` with its account (active), its last use noted."""
    token = ApiToken.objects.select_related("user").filter(digest=token_hash(key)).first()
    if token is None:
        raise exceptions.AuthenticationFailed(_("Invalid token."))
    if not token.user.is_active:
        raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() >= TOKEN_CACHE_SECONDS:
        token.last_used_at = now
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def user_cache_key(user_id: Any) -> str:
    return f"auth:user:{user_id}"


class CachedModelBackend(ModelBackend):
    """Django's model backend, with the account of a logged-in session read from the cache.

    Every request of a logged-in browser needs its account (``AuthenticationMiddleware``): from the
    cache that is one Redis GET instead of a PostgreSQL query. The entry holds the fields of
    ``_USER_FIELDS`` and the session's check hash (``get_session_auth_hash``), not the password
    hash; a change of the account (a new password, deactivated) drops it, so it applies within one
    request, as for tokens.
    """

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        """Django's check of the password, for the name in any case and in its NFKC form (docs/accounts.md)."""
        if isinstance(username, str):
            username = username_stored(username)
        return super().authenticate(request, username=username, password=password, **kwargs)

    def get_user(self, user_id: Any) -> Any:
        name = user_cache_key(user_id)
        entry = cache.get(name)
        if not isinstance(entry, dict) or "session_auth_hash" not in entry:
            user = super().get_user(user_id)
            if user is not None:
                fields = {field: getattr(user, field) for field in _USER_FIELDS}
                cache.add(name, {**fields, "session_auth_hash": user.get_session_auth_hash()}, TOKEN_CACHE_SECONDS)
            return user
        user = cached_account(entry)
        session_auth_hash = entry["session_auth_hash"]
        user.get_session_auth_hash = lambda: session_auth_hash  # (its password hash is not loaded)
        return user if self.user_can_authenticate(user) else None


def _token_revoked(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    cache.set(_cache_key_of(instance.digest), _REVOKED, _REVOKED_SECONDS)


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return  # a login changes nothing the cache holds
    digests = ApiToken.objects.filter(user_id=instance.pk).values_list("digest", flat=True)
    cache.delete_many([user_cache_key(instance.pk), *(_cache_key_of(digest) for digest in digests)])


def _user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    cache.delete(user_cache_key(instance.pk))


def connect_token_cache_signals() -> None:
    """Keep the token cache right (called once, from ``AccountsConfig.ready``)."""
    post_delete.connect(_token_revoked, sender=ApiToken, dispatch_uid="token_cache_revoked")
    post_save.connect(_user_changed, sender=get_user_model(), dispatch_uid="token_cache_user_changed")
    post_delete.connect(_user_deleted, sender=get_user_model(), dispatch_uid="user_cache_user_deleted")


class GuestSessionAuthentication(SessionAuthentication):
    """The session cookie, with the CSRF check for guests as well as for logged-in users.

    DRF checks CSRF only for logged-in users, but a guest's games belong to the session cookie
    too, so an unsafe request carrying that cookie must pass the check. Without a session cookie
    there is nothing to forge: such a request starts a fresh guest session.
    """

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        found: tuple[Any, None] | None = super().authenticate(request)  # a logged-in session: CSRF checked
        if found is None and request.method not in SAFE_METHODS and settings.SESSION_COOKIE_NAME in request.COOKIES:
            self.enforce_csrf(request)
        return found

    def enforce_csrf(self, request: Request) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(str(CSRF_FAILED)) from None


class GuestSessionScheme(SessionScheme):
    """Documents :class:`GuestSessionAuthentication` as the ``cookieAuth`` scheme."""

    target_class = "accounts.authentication.GuestSessionAuthentication"
