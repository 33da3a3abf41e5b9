"""The documented shapes of the following and friends' board answers (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers

from common.serializers import StrictBooleanField, StrictCharField


class FollowStateSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="The player (their profile: `/players/{username}`).")
    following = serializers.BooleanField(help_text="Whether you follow them (false for a guest).")
    followers = serializers.IntegerField(min_value=0, help_text="How many accounts follow them.")


class FollowedSerializer(serializers.Serializer):
    username = serializers.CharField()
    since = serializers.DateTimeField(help_text="When you started following them.")


class FriendEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(min_value=1, help_text="The place among you and the people you follow.")
    board_rank = serializers.IntegerField(min_value=1, help_text="The place on the day's whole board.")
    board_rank_exact = serializers.BooleanField(
        help_text="False while the day is open, for others than you: the place of the result's 5-second "
        "bucket of the day's times (exact to within that bucket's results); exact once the day's board is "
        "rebuilt after the close."
    )
    username = serializers.CharField()
    time_ms = serializers.IntegerField(min_value=0)
    moves = serializers.IntegerField(min_value=0)
    score = serializers.IntegerField(min_value=0)
    verified = serializers.BooleanField(help_text="The server replayed the move log and it reproduced the win.")
    me = serializers.BooleanField(help_text="Your own result.")


class FriendsBoardSerializer(serializers.Serializer):
    """A day's counted results of you and the players you follow (held, pending and rejected wins
    never show, as on the whole board)."""

    date = serializers.DateField()
    following = serializers.IntegerField(min_value=0, help_text="How many players you follow.")
    entries = FriendEntrySerializer(many=True)


class ClubCreateSerializer(serializers.Serializer):
    name = StrictCharField(
        min_length=3, max_length=40, trim_whitespace=False, help_text="3 to 40 characters, unique in any case."
    )


class ClubJoinSerializer(serializers.Serializer):
    invite = StrictCharField(
        max_length=400, trim_whitespace=False, help_text="The invite of the link the owner shared."
    )


class ClubChangeSerializer(serializers.Serializer):
    name = StrictCharField(
        min_length=3, max_length=40, trim_whitespace=False, required=False, help_text="A new name (the owner)."
    )
    owner = StrictCharField(
        max_length=150, trim_whitespace=False, required=False, help_text="A member to hand the club over to."
    )


class ClubSerializer(serializers.Serializer):
    slug = serializers.SlugField(help_text="The club's page: `/clubs/{slug}`.")
    name = serializers.CharField()
    owner = serializers.CharField(help_text="The owner's name.")
    members = serializers.IntegerField(min_value=1)
    mine = serializers.BooleanField(help_text="Whether you own it.")


class ClubMemberSerializer(serializers.Serializer):
    username = serializers.CharField()
    joined_at = serializers.DateTimeField()


class ClubRemovedSerializer(serializers.Serializer):
    username = serializers.CharField()
    removed_at = serializers.DateTimeField()


class ClubDetailSerializer(ClubSerializer):
    """A club as its members see it; its invite for the owner only."""

    member_list = ClubMemberSerializer(many=True, help_text="The members, the longest first.")
    invite = serializers.CharField(
        allow_null=True,
        help_text="For the owner: an invite valid for 7 days from this answer (the link "
        "`/clubs/join/{invite}`); every invite stops working when the owner revokes them. Null for members.",
    )
    invite_expires_at = serializers.DateTimeField(allow_null=True)
    removed = ClubRemovedSerializer(
        many=True,
        help_text="For the owner: the players removed from the club, who cannot join again until the owner lets "
        "them (`DELETE clubs/{slug}/removed/{name}`). Empty for members.",
    )


class ClubDaySerializer(serializers.Serializer):
    """A day's counted results of the club's members, ranked within the club."""

    club = serializers.CharField()
    date = serializers.DateField()
    members = serializers.IntegerField(min_value=1)
    entries = FriendEntrySerializer(many=True)


class ClubWeekEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(min_value=1)
    username = serializers.CharField()
    points = serializers.IntegerField(min_value=0, help_text="Each day's place p of n: n - p + 1 points.")
    days = serializers.IntegerField(min_value=0, help_text="Days of the week with a counted result.")
    time_ms = serializers.IntegerField(min_value=0, help_text="Their times added up: ties go to the lower.")
    me = serializers.BooleanField()


class ClubWeekSerializer(serializers.Serializer):
    club = serializers.CharField()
    week = serializers.CharField(help_text="The ISO week, e.g. `2026-W49`.")
    starts = serializers.DateField(help_text="Its Monday.")
    entries = ClubWeekEntrySerializer(many=True)


class PrivacySerializer(serializers.Serializer):
    profile_hidden = StrictBooleanField(
        help_text="Show your profile (`/players/{name}`) only to the players you follow; your results stay on the "
        "boards either way."
    )
