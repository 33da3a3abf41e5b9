"""What stats tells the apps above it: one Django signal, sent after the commit (as games' own,
:mod:`games.signals`). ``social`` listens (a club's week standing); stats imports none of them."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

from .models import DailyResult

#: A game's result on its day's board was written or taken off (``game_ids``: list of str).
daily_result_changed = Signal()


def daily_result_changed_send(*, game_ids: list[str]) -> None:
    """Send :data:`daily_result_changed` once the current transaction commits."""
    transaction.on_commit(partial(daily_result_changed.send, sender=DailyResult, game_ids=game_ids), robust=True)


#: Asked before a player's profile is shown (``owner``, ``viewer``: accounts; ``viewer`` may be
#: anonymous): a receiver answers False to keep it from that viewer (social: a hidden profile).
profile_viewed = Signal()


def profile_visible(*, owner: object, viewer: object) -> bool:
    """Whether ``viewer`` may see ``owner``'s profile: no receiver of :data:`profile_viewed` says no."""
    return all(answer is not False for _, answer in profile_viewed.send(sender=None, owner=owner, viewer=viewer))
