"""Social listens to stats' board event (:mod:`stats.signals`) and hands each game to a task, by id
(:mod:`social.jobs`). Connected in :meth:`social.apps.SocialConfig.ready`."""

from __future__ import annotations

from typing import Any

from . import jobs, selectors


def on_daily_result_changed(sender: Any, *, game_ids: list[str], **kwargs: Any) -> None:
    """A result went on its day's board or off it: the week standings of its player's clubs."""
    for game_id in game_ids:
        jobs.club_weeks_update(game_id)


def on_profile_viewed(sender: Any, *, owner: Any, viewer: Any, **kwargs: Any) -> bool:
    """A hidden profile shows to its owner and to the players its owner follows."""
    return selectors.profile_visible(owner=owner, viewer=viewer)
