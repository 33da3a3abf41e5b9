"""Database sessions that refuse malformed session keys before they reach the database.

Django's own check only wants 8+ characters; a cookie with a NUL byte would then make
PostgreSQL raise instead of just starting a fresh session.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return key is not None and 8 <= len(key) <= 40 and key.isascii() and key.isalnum()
