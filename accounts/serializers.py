from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.serializers import StrictBooleanField, StrictCharField

from .models import SETTING_DEFAULTS


@extend_schema_field({"type": "string", "format": "email", "maxLength": 254})
class EmailAddressField(StrictCharField):
    """An e-mail address: documented as one (``format: email``); checked by the service
    (``accounts.actions.email.email_clean``), which answers 400 ``bad_email``."""


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


class RegisterSerializer(CredentialsSerializer):
    email = EmailAddressField(
        max_length=254,
        required=False,
        allow_blank=True,
        default="",
        help_text="Optional: a confirmation link goes to it; once confirmed, it lets you reset a forgotten password.",
    )


class PasswordChangeSerializer(serializers.Serializer):
    old_password = StrictCharField(max_length=1024, trim_whitespace=False, style={"input_type": "password"})
    new_password = StrictCharField(max_length=1024, trim_whitespace=False, style={"input_type": "password"})


class EmailSerializer(serializers.Serializer):
    email = EmailAddressField(max_length=254)


class EmailChangeSerializer(PasswordConfirmSerializer):
    """A new address for the account, with its password asked again (a session alone, on a shared
    computer or stolen, must not be able to take the account through a reset mail)."""

    email = EmailAddressField(max_length=254)


class AcceptedSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text="What happens next, in the request's language.")


class LanguageSerializer(serializers.Serializer):
    language = serializers.ChoiceField(
        choices=[("", "the browser's"), ("de", "Deutsch"), ("en", "English")],
        allow_blank=True,
        help_text="`de`, `en`, or empty for the browser's (Accept-Language).",
    )


class LoginSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_agent = serializers.CharField(help_text="Browser and system, e.g. `Firefox, Windows`.")
    created_at = serializers.DateTimeField(help_text="When it logged in.")
    last_seen_at = serializers.DateTimeField(help_text="To about a minute.")
    current = serializers.BooleanField(help_text="This request's session.")


class SessionsEndedSerializer(serializers.Serializer):
    ended = serializers.IntegerField(help_text="How many other sessions were logged out.")


class AuthTokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(
        help_text="Send as `Authorization: Token <token>`. A new one with every login; the session's "
        "logout revokes it, and so does `POST auth/logout` sent with it."
    )
    games_kept = serializers.IntegerField(
        help_text="How many games this browser played as a guest (at least one move) moved to the account "
        "with this sign-in."
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


def _default(name: str) -> str:
    """How the schema names a setting's default (``SETTING_DEFAULTS``, the one place of them)."""
    return "default on" if SETTING_DEFAULTS[name] else "default off"


class PlayerSettingsSerializer(serializers.Serializer):
    """The play settings of docs/rules.md, remembered per player (account or guest session)."""

    double_click = StrictBooleanField(help_text=f"Doppelklick: double-tap finds a column ({_default('double_click')}).")
    drop_hints = StrictBooleanField(help_text=f"Ablagehilfe: highlight legal drop targets ({_default('drop_hints')}).")
    interactive_rules = StrictBooleanField(
        help_text=f"Interaktive Regeln: explain the rule when a move is refused ({_default('interactive_rules')})."
    )
    auto_drop = StrictBooleanField(
        help_text=f"Automatische Ablage: choose the target column on release ({_default('auto_drop')})."
    )
    four_color = StrictBooleanField(
        required=False,
        help_text=f"Four-colour deck: diamonds blue, clubs green ({_default('four_color')}; optional in a PUT).",
    )


class MeSerializer(serializers.Serializer):
    authenticated = serializers.BooleanField(help_text="false for a guest (then username and date_joined are null)")
    username = serializers.CharField(allow_null=True)
    date_joined = serializers.DateTimeField(allow_null=True)
    settings = PlayerSettingsSerializer()
    email = serializers.EmailField(
        allow_null=True,
        required=False,
        help_text="The confirmed address, else the one waiting (null: none; absent for a guest).",
    )
    email_confirmed = serializers.BooleanField(required=False, help_text="Whether `email` is confirmed.")
    email_pending = serializers.EmailField(
        allow_null=True,
        required=False,
        help_text="A new address waiting for its confirmation link (the confirmed one stays until then).",
    )
    language = serializers.CharField(required=False, help_text="`de`, `en`, or empty: the browser's.")
