"""The password: a new one held to Django's validators (:func:`password_check`), changing it
(the present one asked), and asking for a reset link by mail (the link itself is Django's
``PasswordResetForm``'s: :mod:`accounts.mail`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation

from accounts import jobs
from common.errors import ApplicationError, ErrorCode

from .email import email_clean


def password_check(password: str, user: Any) -> None:
    """Django's password validators (``AUTH_PASSWORD_VALIDATORS``): 400 ``weak_password`` with their reasons."""
    try:
        validate_password(password, user=user)
    except ValidationError as exc:
        raise ApplicationError(ErrorCode.WEAK_PASSWORD, reason=" ".join(exc.messages)) from None


def user_password_change(*, user_id: Any, old_password: str, new_password: str) -> Any:
    """A new password for the account, if ``old_password`` is its present one (400
    ``wrong_password``) and Django's validators take ``new_password`` (400 ``weak_password``).
    Returns the account as stored now (for ``update_session_auth_hash``). Changing the password
    changes the session check hash of every session logged in before: they end on their next
    request (the account's cache entry goes with the save); :func:`account_sign_out_elsewhere`
    ends them at once and revokes the tokens."""
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user_id)
        if not user.check_password(old_password):
            raise ApplicationError(ErrorCode.WRONG_PASSWORD)
        password_check(new_password, user)
        user.set_password(new_password)
        user.save(update_fields=["password"])
    return user


def password_reset_request(*, email: str) -> None:
    """Mail a password-reset link to the account whose confirmed address is ``email``, if there is
    one. Nothing here differs for an address without an account: the look-up and the mail happen
    in a task, once the request has answered, so neither the answer nor its time tells."""
    email = email_clean(email)
    language = translation.get_language() or "de"
    jobs.password_reset_send(email=email, language=language)
