"""API tokens: issued (one per sign-in, or asked for by name; at most :data:`MAX_TOKENS` an
account), listed and revoked. Only a key's hash is kept; a revoked token ends on every web process
at once (:mod:`accounts.authentication`)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet

from accounts.models import ApiToken, token_hash

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
