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


class Club(models.Model):
    """A group of players with boards of their own: of each day, and of each ISO week."""

    name = models.CharField(max_length=40)
    # The name as a comparison sees it: NFKC, case folded ("Büro" and "BÜRO" are one name). Not
    # unique on the site, only among the clubs one player is in (social.services: a unique name told
    # strangers that a private club exists).
    name_key = models.CharField(max_length=160)
    # The name made readable and a random tail: nothing to guess from a name.
    slug = models.SlugField(max_length=60, unique=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clubs_owned")
    # The invite links name it: raising it revokes every link given out so far.
    invite_generation = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A member of a club (its owner is one too)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="membership_club_user_unique")]
        indexes = [models.Index(fields=["user"], name="membership_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.club_id}"


class ClubRemoval(models.Model):
    """A player the owner removed from a club: no invite lets them in again until the owner lifts
    it (``social.services.removal_lift``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    removed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="clubremoval_club_user_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} removed from {self.club_id}"


class ClubWeekEntry(models.Model):
    """One line of a club's standing over an ISO week's daily deals (docs/social.md: the points),
    rebuilt from the members' results by the tasks (``social.services.club_week_rebuild``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="week_entries")
    week = models.DateField(help_text="The week's Monday.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    days = models.PositiveSmallIntegerField()  # the days of the week with a counted result
    time_ms = models.PositiveBigIntegerField()  # their times added up: the tie-break

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "week", "user"], name="clubweekentry_club_week_user_unique")
        ]
        indexes = [models.Index(fields=["club", "week", "rank"], name="clubweekentry_standing")]

    def __str__(self) -> str:
        return f"{self.club_id} {self.week}: {self.user_id} #{self.rank}"


class Privacy(models.Model):
    """What an account shows: its profile to everyone (the default), or only to the players it
    follows (``profile_hidden``); its results stay on the boards either way."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+")
    profile_hidden = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"privacy of {self.user_id}"
