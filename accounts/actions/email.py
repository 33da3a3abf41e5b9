"""The account's address: a new one waits for the confirmation link mailed to it; confirming it,
removing it, and undoing a change from the link mailed to the address before. The links' signed
text is :mod:`accounts.links`' to make and read; the mails go by :mod:`accounts.jobs` once the
write commits."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import BaseUserManager
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import translation

from accounts import jobs
from accounts.links import email_confirmation_read, email_undo_read
from accounts.models import Profile
from common.errors import ApplicationError, ErrorCode

from .sessions import account_sign_out_elsewhere
from .settings import profile_of


def email_clean(email: str) -> str:
    """An address as stored (its domain in lower case), or 400 ``bad_email``."""
    email = BaseUserManager.normalize_email(unicodedata.normalize("NFKC", email).strip())
    try:
        validate_email(email)
    except ValidationError:
        raise ApplicationError(ErrorCode.BAD_EMAIL) from None
    return email


def user_email_set(*, user: Any, email: str, password: str | None = None) -> bool:
    """A new address for the account: it waits for its confirmation (the confirmed one, if any,
    stays until then), and the link goes to it once this transaction commits. Whether another
    account has it confirmed is said only to whoever opens the link (no answer here tells who
    has an account). The present address again drops a waiting one. True if a link is sent (it
    points at ``SITE_URL``). ``password``: asked again when an account changes its address (400
    ``wrong_password``); at sign-up there is none to ask."""
    if password is not None and not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    email = email_clean(email)
    with transaction.atomic():
        profile = profile_of(user, lock=True)
        same = email.casefold() == (user.email or "").casefold()
        profile.email_pending = "" if same else email
        profile.save(update_fields=["email_pending"])
    if not same:
        jobs.email_confirmation_send(user_id=user.pk, email=email, language=_mail_language(profile))
    return not same


def _mail_language(profile: Profile | None) -> str:
    """The language of the account's mails: its own, else the request's."""
    return (profile.language if profile is not None else "") or translation.get_language() or "de"


def user_email_remove(*, user: Any, password: str) -> None:
    """No address any more: neither the confirmed one nor one waiting (the password asked again:
    400 ``wrong_password``). The confirmed one is told, with a link that puts it back."""
    if not user.check_password(password):
        raise ApplicationError(ErrorCode.WRONG_PASSWORD)
    with transaction.atomic():
        profile = profile_of(user, lock=True)
        profile.email_pending = ""
        profile.save(update_fields=["email_pending"])
        previous = get_user_model().objects.filter(pk=user.pk).values_list("email", flat=True).first() or ""
        get_user_model().objects.filter(pk=user.pk).update(email="")
        user.email = ""
        if previous:
            _email_change_tell(user=user, previous=previous, current="", language=_mail_language(profile))


def _email_change_tell(*, user: Any, previous: str, current: str, language: str) -> None:
    """Once this transaction commits: a mail to the ``previous`` confirmed address that it was
    replaced by ``current`` (or removed), with a link that undoes it (``EMAIL_UNDO_TIMEOUT``)."""
    jobs.email_changed_send(user_id=user.pk, previous=previous, current=current, language=language)


def user_email_undo(*, token: str) -> Any:
    """Undo a change of the account's address from the link mailed to the address before: it is
    the account's confirmed address again (a waiting one goes), and every session and API token
    of the account ends (whoever changed it is signed out; the owner signs in again, and may set
    a new password through the address). 400 ``link_invalid``, or ``email_taken`` if another
    account has confirmed that address meanwhile."""
    user_id, previous = email_undo_read(token=token)
    User = get_user_model()
    try:
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if profile is None:
                raise ApplicationError(ErrorCode.LINK_INVALID)
            user = profile.user
            if User.objects.filter(email__iexact=previous).exclude(pk=user.pk).exists():
                raise ApplicationError(ErrorCode.EMAIL_TAKEN)
            user.email = previous
            user.save(update_fields=["email"])
            profile.email_pending = ""
            profile.save(update_fields=["email_pending"])
            account_sign_out_elsewhere(user=user, keep_session_key=None)
    except IntegrityError:
        raise ApplicationError(ErrorCode.EMAIL_TAKEN) from None
    return user


def user_email_confirm(*, token: str) -> Any:
    """Confirm the address of a link: it becomes the account's (the one before goes). 400
    ``link_invalid`` if the link is forged, expired, or its address is no longer the one waiting;
    400 ``email_taken`` if another account confirmed it meanwhile. Confirming twice is fine."""
    User = get_user_model()
    user_id, email = email_confirmation_read(token=token)
    try:
        with transaction.atomic():
            profile = Profile.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
            if profile is None:
                raise ApplicationError(ErrorCode.LINK_INVALID)
            user = profile.user
            if user.email.casefold() == email.casefold() and not profile.email_pending:
                return user  # confirmed already
            if profile.email_pending.casefold() != email.casefold():
                raise ApplicationError(ErrorCode.LINK_INVALID)
            if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
                raise ApplicationError(ErrorCode.EMAIL_TAKEN)
            previous = user.email
            user.email = profile.email_pending
            user.save(update_fields=["email"])
            profile.email_pending = ""
            profile.save(update_fields=["email_pending"])
            if previous and previous.casefold() != user.email.casefold():
                _email_change_tell(user=user, previous=previous, current=user.email, language=_mail_language(profile))
    except IntegrityError:  # confirmed for another account at the same moment (the index on LOWER(email))
        raise ApplicationError(ErrorCode.EMAIL_TAKEN) from None
    return user
