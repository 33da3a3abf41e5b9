"""Following (docs/social.md): writes, each in one transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from common.errors import ApplicationError, ErrorCode
from stats.selectors import user_by_username

from .models import Follow

#: The most players one account follows: a friends' board stays one short read.
MAX_FOLLOWED = 500


def follow_add(*, user: Any, username: str) -> tuple[Any, bool]:
    """``user`` follows the player called ``username`` (``not_found`` if there is none,
    ``follow_self``, ``follow_limit`` past :data:`MAX_FOLLOWED`). Following again changes nothing:
    the followed account and whether this call added the link."""
    target = user_by_username(username=username)
    if target.pk == user.pk:
        raise ApplicationError(ErrorCode.FOLLOW_SELF)
    with transaction.atomic():
        # One account's follows one after the other, so two at once cannot pass the limit together.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        links = Follow.objects.filter(follower=user)
        if links.filter(followed=target).exists():
            return target, False
        if links.count() >= MAX_FOLLOWED:
            raise ApplicationError(ErrorCode.FOLLOW_LIMIT, limit=MAX_FOLLOWED)
        Follow.objects.create(follower=user, followed=target)
    return target, True


def follow_remove(*, user: Any, username: str) -> Any:
    """``user`` no longer follows ``username`` (not following it is no error: the end is the same)."""
    target = user_by_username(username=username)
    Follow.objects.filter(follower=user, followed=target).delete()
    return target
