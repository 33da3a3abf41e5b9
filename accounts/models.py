"""A player's account is Django's user; its profile keeps the play settings (docs/rules.md), its
API tokens let API clients in."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone

#: The settings and their defaults: "Doppelklick", "Ablagehilfe", "Interaktive Regeln", "Automatische
#: Ablage", and the four-colour deck (a display choice, kept with the account too: issue 26). The one
#: place of the defaults: the profile's fields, a guest's settings and the pages (frontend/views.py
#: renders them into each page for settings.js) take them from here.
SETTING_DEFAULTS: dict[str, bool] = {
    "double_click": True,
    "drop_hints": True,
    "interactive_rules": True,
    "auto_drop": False,
    "four_color": False,
}


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    double_click = models.BooleanField(
        default=SETTING_DEFAULTS["double_click"], help_text="Doppelklick: double-tap finds a column."
    )
    drop_hints = models.BooleanField(
        default=SETTING_DEFAULTS["drop_hints"], help_text="Ablagehilfe: highlight legal drop targets."
    )
    interactive_rules = models.BooleanField(
        default=SETTING_DEFAULTS["interactive_rules"],
        help_text="Interaktive Regeln: explain the rule when a move is refused.",
    )
    auto_drop = models.BooleanField(
        default=SETTING_DEFAULTS["auto_drop"], help_text="Automatische Ablage: choose the target on release."
    )
    four_color = models.BooleanField(
        default=SETTING_DEFAULTS["four_color"], help_text="Four-colour deck: diamonds blue, clubs green."
    )
    email_pending = models.EmailField(
        blank=True, help_text="A new address waiting for its confirmation link (the confirmed one is the user's email)."
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        choices=settings.LANGUAGES,
        help_text="The language of the account's e-mails and pages (empty: the browser's).",
    )

    def __str__(self) -> str:
        return f"profile of {self.user}"

    def settings(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in SETTING_DEFAULTS}


def token_hash(key: str) -> str:
    """What the database keeps of a token's key (SHA-256, hex): a stolen copy of the table lets
    nobody in."""
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """One API token of an account (``Authorization: Token <key>``): one per login or
    registration, and any made on demand (``POST auth/tokens``). The key is shown once, when the
    token is made; the database keeps its hash and its first characters (to tell tokens apart)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key (hex).")
    prefix = models.CharField(max_length=8, help_text="The key's first characters.")
    name = models.CharField(
        max_length=60, blank=True, help_text="What it is for: login, register, or the owner's name."
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True, help_text="To about a minute (null: never used).")

    class Meta:
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… of {self.user_id}"


class LoginSession(models.Model):
    """A logged-in browser session of an account, for the account page's list ("log out
    everywhere else"): which browser, when last seen (written at most once a minute, by
    ``accounts.middleware.LoginSessionMiddleware``). The session itself is Django's; a row whose
    session has ended is not listed, and goes with the next sign-out everywhere."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_sessions")
    session_key = models.CharField(max_length=40, unique=True)
    user_agent = models.CharField(max_length=80, blank=True, help_text="Browser and system, e.g. 'Firefox, Windows'.")
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"session of {self.user_id} ({self.user_agent})"
