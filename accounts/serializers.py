from __future__ import annotations

from rest_framework import serializers

from common.serializers import StrictBooleanField, StrictCharField


class CredentialsSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150, trim_whitespace=False)
    password = StrictCharField(max_length=1024, trim_whitespace=False, style={"input_type": "password"})


class PasswordConfirmSerializer(serializers.Serializer):
    password = StrictCharField(
        max_length=1024,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="The account's password, asked again.",
    )


class AuthTokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(
        help_text="Send as `Authorization: Token <token>`. A new one with every login; the session's "
        "logout revokes it, and so does `POST auth/logout` sent with it."
    )


class ApiTokenSerializer(serializers.Serializer):
    """One of the account's API tokens, as listed: never its key."""

    id = serializers.IntegerField(help_text="For `DELETE auth/tokens/{token_id}`.")
    name = serializers.CharField(help_text="`login`, `register`, or the name it was made with.")
    prefix = serializers.CharField(help_text="The key's first 8 characters: they tell tokens apart.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="To about a minute; null: never used.")
    current = serializers.BooleanField(help_text="This request's token, or the one this session's login returned.")


class NewApiTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text="The key, in this answer only: send as `Authorization: Token <token>`.")


class TokenCreateSerializer(serializers.Serializer):
    name = StrictCharField(
        max_length=60, required=False, allow_blank=True, default="", help_text="What it is for (default `api`)."
    )


class PlayerSettingsSerializer(serializers.Serializer):
    """The play settings of SPEC section 3, remembered per player (account or guest session)."""

    double_click = StrictBooleanField(help_text="Doppelklick: double-tap finds a column (default on).")
    drop_hints = StrictBooleanField(help_text="Ablagehilfe: highlight legal drop targets (default on).")
    interactive_rules = StrictBooleanField(
        help_text="Interaktive Regeln: explain the rule when a move is refused (default on)."
    )
    auto_drop = StrictBooleanField(help_text="Automatische Ablage: choose the target column on release (default off).")


class MeSerializer(serializers.Serializer):
    authenticated = serializers.BooleanField(help_text="false for a guest (then username and date_joined are null)")
    username = serializers.CharField(allow_null=True)
    date_joined = serializers.DateTimeField(allow_null=True)
    settings = PlayerSettingsSerializer()
