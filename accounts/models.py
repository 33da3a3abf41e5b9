"""A player's account is Django's user; its profile keeps the play settings (SPEC section 3)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: The settings and their defaults: "Doppelklick", "Ablagehilfe", "Interaktive Regeln", "Automatische Ablage".
SETTING_DEFAULTS: dict[str, bool] = {
    "double_click": True,
    "drop_hints": True,
    "interactive_rules": True,
    "auto_drop": False,
}


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    double_click = models.BooleanField(default=True, help_text="Doppelklick: double-tap finds a column.")
    drop_hints = models.BooleanField(default=True, help_text="Ablagehilfe: highlight legal drop targets.")
    interactive_rules = models.BooleanField(
        default=True, help_text="Interaktive Regeln: explain the rule when a move is refused."
    )
    auto_drop = models.BooleanField(default=False, help_text="Automatische Ablage: choose the target on release.")

    def __str__(self) -> str:
        return f"profile of {self.user}"

    def settings(self) -> dict[str, bool]:
        return {name: getattr(self, name) for name in SETTING_DEFAULTS}
