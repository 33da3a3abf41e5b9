"""Registration: the names a new account may take (ASCII, none that pretends to be the site)
and the new account itself, with its profile and the address it gave waiting for its
confirmation."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.models import Profile
from common.errors import ApplicationError, ErrorCode

from .email import email_clean, user_email_set
from .passwords import password_check
from .settings import language_clean, settings_clean

#: The names a new account may take: ASCII letters, digits, ``_``, ``-`` and ``.``. Nothing else
#: can look like another name (a Cyrillic "ѕ" like an "s", a full-width "Ｓ" like an "S"); older
#: accounts with other characters keep their names and log in with them as before.
USERNAME = re.compile(r"[A-Za-z0-9_.-]{1,150}")


def username_clean(username: str) -> str:
    """The name a registration asks for, in the form it is stored: NFKC-normalised (as Django
    stores names; full-width letters become plain ones), then held to :data:`USERNAME` and kept
    off the names of the site (:func:`username_reserved`)."""
    name = unicodedata.normalize("NFKC", username)
    if not USERNAME.fullmatch(name):
        raise ApplicationError(ErrorCode.BAD_USERNAME)
    if username_reserved(name):
        raise ApplicationError(ErrorCode.USERNAME_RESERVED)
    return name


def username_reserved(name: str) -> bool:
    """Whether ``name`` pretends to be the site (``settings.RESERVED_USERNAMES``): compared
    whatever its case and without its ``_ - .`` ("Ad.Min", "sup_port" are reserved too)."""
    bare = _bare_name(name)
    return any(bare == _bare_name(reserved) for reserved in django_settings.RESERVED_USERNAMES)


def _bare_name(name: str) -> str:
    return re.sub(r"[_.\-]", "", unicodedata.normalize("NFKC", name)).casefold()


def user_register(
    *,
    username: str,
    password: str,
    settings: Mapping[str, bool] | None = None,
    email: str = "",
    language: str = "",
) -> Any:
    """A new account with its profile (starting from ``settings``, e.g. the guest's). An ``email``
    waits for its confirmation (:func:`user_email_set` sends the link).

    Names are unique whatever their case (a unique index on ``LOWER(username)`` holds it even
    for registrations at the same moment: ``accounts/migrations/0002``)."""
    User = get_user_model()
    username = username_clean(username)
    email = email_clean(email) if email else ""
    if User.objects.filter(username__iexact=username).exists():
        raise ApplicationError(ErrorCode.USERNAME_TAKEN)
    password_check(password, User(username=username, email=email))
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            Profile.objects.create(user=user, language=language_clean(language), **settings_clean(settings or {}))
            if email:
                user_email_set(user=user, email=email)
    except IntegrityError:  # registered at the same moment by someone else
        raise ApplicationError(ErrorCode.USERNAME_TAKEN) from None
    return user
