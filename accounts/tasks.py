"""Celery tasks of the accounts app: the mails (thin: they call :mod:`accounts.mail`).

A retried mail task may send its mail twice; a reset or confirmation link sent twice is harmless.
"""

from __future__ import annotations

from celery import shared_task

from common.retries import RETRY

from . import mail
from .actions import sessions


@shared_task(name="accounts.password_reset_send", **RETRY)
def password_reset_send(*, email: str, language: str, link_base: str = "") -> None:
    # (``link_base``: sent by a process from before SITE_URL, ignored: a link is the site's own)
    mail.password_reset_send(email=email, language=language)


@shared_task(name="accounts.login_sessions_prune", **RETRY)
def login_sessions_prune() -> None:
    """Beat, hourly: the list rows of sessions that ended without a logout go (idempotent)."""
    sessions.login_sessions_prune()


@shared_task(name="accounts.email_changed_send", **RETRY)
def email_changed_send(*, user_id: int, previous: str, current: str, language: str) -> None:
    mail.email_changed_send(user_id=user_id, previous=previous, current=current, language=language)


@shared_task(name="accounts.email_confirmation_send", **RETRY)
def email_confirmation_send(*, user_id: int, email: str, language: str, link_base: str = "") -> None:
    # (``link_base``: as above)
    mail.email_confirmation_send(user_id=user_id, email=email, language=language)
