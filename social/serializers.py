"""The documented shapes of the following and friends' board answers (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers


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
