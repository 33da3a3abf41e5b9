"""Who is playing: an account, or a guest known by the browser session; and who is asking (a
request's player, for the APIs of every app and the pages)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q

if TYPE_CHECKING:
    from django.http import HttpRequest
    from rest_framework.request import Request


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


def player_of(request: Request | HttpRequest, *, start_session: bool = False) -> Player:
    """The account of the request, or the guest of its session (started here if asked to); an API
    request's or a page's (the replay page checks who may watch)."""
    if request.user.is_authenticated:
        return Player(user=request.user)
    session = request.session
    if session.session_key is None and start_session:
        session["guest"] = True
        session.save()
    return Player(session_key=session.session_key)
