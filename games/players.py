"""Who is playing: an account, or a guest known by the browser session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q


@dataclass(frozen=True, slots=True)
class Player:
    """An account (``user``) or a guest (``session_key``); a player with neither owns nothing."""

    user: Any | None = None  # settings.AUTH_USER_MODEL
    session_key: str | None = None

    @property
    def scope(self) -> str:
        """A stable name of the player, for records keyed per player (idempotency keys)."""
        return f"user:{self.user.pk}" if self.user is not None else f"session:{self.session_key}"

    def owns(self) -> Q:
        """The filter of this player's games."""
        if self.user is not None:
            return Q(owner=self.user)
        if self.session_key:
            return Q(owner__isnull=True, guest_session_key=self.session_key)
        return Q(pk__in=[])
