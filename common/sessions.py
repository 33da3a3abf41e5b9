"""Sessions kept in the database and read from the cache (Redis in production): Django's
``cached_db`` engine, which refuses malformed session keys before they reach either.

Every request of a browser reads its session, and a database read cost a PostgreSQL round trip
per request: cached, it is one Redis GET; writes still go to the database as well, so a Redis
restart loses no session (a guest's games belong to it for 90 days). Django's own key check only
wants 8+ characters; a cookie with a NUL byte would make PostgreSQL raise instead of just starting
a fresh session.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDatabaseSessionStore

# Sessions logged in with an earlier backend of this site name it (Django's own, before the
# account cache; the cached one at its first address): they stay logged in, with today's.
_FORMER_BACKENDS = frozenset({"django.contrib.auth.backends.ModelBackend", "common.authentication.CachedModelBackend"})


class SessionStore(CachedDatabaseSessionStore):
    cache_key_prefix = "session:"

    def _validate_session_key(self, key: str | None) -> bool:
        return key is not None and 8 <= len(key) <= 40 and key.isascii() and key.isalnum()

    def load(self) -> dict[str, Any]:
        data: dict[str, Any] = super().load()
        if data.get(BACKEND_SESSION_KEY) in _FORMER_BACKENDS:
            data[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        return data
