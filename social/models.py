"""Who follows whom (docs/social.md): the people a player compares the day's result with.

Following needs no consent and tells the followed player nothing but a count on their profile.
An account's deletion takes its links both ways with it (the database's cascade).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Follow(models.Model):
    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following_links")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follower_links")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # (follower, followed) is also the index of "whom do I follow", the friends' board's one read
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_follower_followed_unique"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed"], name="follow_followed")]  # a profile's count

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
