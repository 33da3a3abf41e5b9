"""The signed text of the links the account's mails carry: the link that confirms an address and
the one that puts the address before back (an account id, an address and the time, signed with
``SECRET_KEY``). Below both their writer (:mod:`accounts.mail`) and the verbs that read them
(:mod:`accounts.actions.email`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.core import signing

from common.errors import ApplicationError, ErrorCode

_EMAIL_SALT = "accounts.email-confirm"
_EMAIL_UNDO_SALT = "accounts.email-undo"


def email_confirmation_token(*, user_id: Any, email: str) -> str:
    """The signed text of a confirmation link (its time inside: valid ``EMAIL_CONFIRM_TIMEOUT``)."""
    return _link_sign(_EMAIL_SALT, user_id=user_id, email=email)


def email_confirmation_read(*, token: str) -> tuple[Any, str]:
    """The account id and the address of a confirmation link, without confirming anything; 400
    ``link_invalid`` if it is forged or expired."""
    return _link_read(_EMAIL_SALT, token, max_age=django_settings.EMAIL_CONFIRM_TIMEOUT)


def email_undo_token(*, user_id: Any, previous: str) -> str:
    """The signed text of an undo link: put ``previous`` back as the account's address."""
    return _link_sign(_EMAIL_UNDO_SALT, user_id=user_id, email=previous)


def email_undo_read(*, token: str) -> tuple[Any, str]:
    """The account id and the address an undo link puts back; 400 ``link_invalid`` if forged or
    older than ``EMAIL_UNDO_TIMEOUT``."""
    return _link_read(_EMAIL_UNDO_SALT, token, max_age=django_settings.EMAIL_UNDO_TIMEOUT)


def _link_sign(salt: str, *, user_id: Any, email: str) -> str:
    """A mailed link's signed text: an account and an address, and the time (``TimestampSigner``)."""
    return signing.TimestampSigner(salt=salt).sign_object({"u": user_id, "e": email}, compress=True)


def _link_read(salt: str, token: str, *, max_age: int) -> tuple[Any, str]:
    """The account id and the address of :func:`_link_sign`'s text; 400 ``link_invalid`` if it is
    forged or older than ``max_age`` seconds."""
    try:
        data = signing.TimestampSigner(salt=salt).unsign_object(token, max_age=max_age)
        return data["u"], str(data["e"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise ApplicationError(ErrorCode.LINK_INVALID) from None
