from __future__ import annotations

from rest_framework import serializers


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(max_length=1024, trim_whitespace=False, style={"input_type": "password"})


class AuthTokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")


class PlayerSettingsSerializer(serializers.Serializer):
    """The play settings of SPEC section 3, remembered per player (account or guest session)."""

    double_click = serializers.BooleanField(help_text="Doppelklick: double-tap finds a column (default on).")
    drop_hints = serializers.BooleanField(help_text="Ablagehilfe: highlight legal drop targets (default on).")
    interactive_rules = serializers.BooleanField(
        help_text="Interaktive Regeln: explain the rule when a move is refused (default on)."
    )
    auto_drop = serializers.BooleanField(
        help_text="Automatische Ablage: choose the target column on release (default off)."
    )


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    settings = PlayerSettingsSerializer()
