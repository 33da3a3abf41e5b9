"""The account's preferences and who is playing: the profile (made with the defaults where
missing), the play settings of accounts and guests (a guest's in its session), the language of
the pages and mails, and ``auth/me`` (:func:`player_me`: the account, its settings and address)."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import SETTING_DEFAULTS, Profile

GUEST_SETTINGS_KEY = "settings"


def language_clean(language: str) -> str:
    return language if language in dict(django_settings.LANGUAGES) else ""


def user_language_set(*, user: Any, language: str) -> str:
    """The language of the account's pages and mails ("" : the browser's)."""
    with transaction.atomic():
        profile = profile_of(user, lock=True)
        profile.language = language_clean(language)
        profile.save(update_fields=["language"])
    return profile.language


def user_language(*, user: Any) -> str:
    return profile_of(user).language


def account_email(*, user: Any) -> dict[str, Any]:
    """What ``auth/me`` says of the account's address."""
    profile = profile_of(user)
    confirmed = get_user_model().objects.filter(pk=user.pk).values_list("email", flat=True).first() or ""
    return {
        "email": confirmed or profile.email_pending or None,
        "email_confirmed": bool(confirmed),
        "email_pending": profile.email_pending or None,
        "language": profile.language,
    }


def player_me(*, user: Any, session: Mapping[str, Any]) -> dict[str, Any]:
    """Who is playing (``GET auth/me``, and every page's own copy of it: frontend/views.py): the
    account with its settings and address, or a guest (``authenticated: false``) with the
    session's settings."""
    if not user.is_authenticated:
        return {
            "authenticated": False,
            "username": None,
            "date_joined": None,
            "settings": player_settings_get(user=None, session=session),
        }
    return {
        "authenticated": True,
        "username": user.get_username(),
        "date_joined": user.date_joined,
        "settings": player_settings_get(user=user, session=session),
        **account_email(user=user),
    }


def player_settings_get(*, user: Any | None, session: Mapping[str, Any]) -> dict[str, bool]:
    """The play settings: the account's profile, or the guest's session (defaults where unset)."""
    if user is not None:
        return profile_of(user).settings()
    return {**SETTING_DEFAULTS, **settings_clean(session.get(GUEST_SETTINGS_KEY, {}))}


def player_settings_update(
    *, user: Any | None, session: MutableMapping[str, Any], changes: Mapping[str, bool]
) -> dict[str, bool]:
    changes = settings_clean(changes)
    if user is None:
        session[GUEST_SETTINGS_KEY] = {**player_settings_get(user=None, session=session), **changes}
        return player_settings_get(user=None, session=session)
    with transaction.atomic():
        profile = profile_of(user, lock=True)
        for name, value in changes.items():
            setattr(profile, name, value)
        if changes:
            profile.save(update_fields=list(changes))
    return profile.settings()


def profile_of(user: Any, *, lock: bool = False) -> Profile:
    """The user's profile, created with the defaults for accounts made elsewhere (createsuperuser)."""
    manager = Profile.objects.select_for_update() if lock else Profile.objects
    profile, _ = manager.get_or_create(user=user)
    return profile


def settings_clean(values: Mapping[str, Any]) -> dict[str, bool]:
    return {name: bool(values[name]) for name in SETTING_DEFAULTS if name in values}
