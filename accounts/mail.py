"""The site's mails: a password-reset link (Django's ``PasswordResetForm`` and its tokens) and the
link that confirms an address (``accounts.links.email_confirmation_token``). Each in the
account's language (else the one of the request that asked), as plain text and HTML, from
``DEFAULT_FROM_EMAIL`` through the backend ``EMAIL_URL`` chose (``common/mail.py``). Their links
point at ``SITE_URL``, the site's own address, never at a request's Host."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from .links import email_confirmation_token, email_undo_token
from .models import Profile

TEMPLATES = "accounts/mail/"


class _ResetForm(PasswordResetForm):
    """Django's form, each mail in its account's language."""

    fallback_language = "de"

    def send_mail(
        self, subject_template_name: str, email_template_name: str, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> None:
        profile = Profile.objects.filter(user=context["user"]).first()
        language = (profile.language if profile else "") or self.fallback_language
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


def password_reset_send(*, email: str, language: str) -> int:
    """Mail a reset link to each active account whose confirmed address is ``email`` (at most one:
    confirmed addresses are unique); how many were sent."""
    form = _ResetForm({"email": email})
    if not form.is_valid():
        return 0
    form.fallback_language = language
    users = list(form.get_users(email))
    base = urlsplit(settings.SITE_URL)
    form.save(
        domain_override=base.netloc,
        use_https=base.scheme == "https",
        subject_template_name=TEMPLATES + "password_reset_subject.txt",
        email_template_name=TEMPLATES + "password_reset.txt",
        html_email_template_name=TEMPLATES + "password_reset.html",
    )
    return len(users)


def email_changed_send(*, user_id: int, previous: str, current: str, language: str) -> bool:
    """Tell the address the account had (``previous``, confirmed) that it was replaced by
    ``current`` (or removed, ``""``), when, and how to undo it (a link, valid a week)."""
    profile = Profile.objects.select_related("user").filter(user_id=user_id).first()
    if profile is None:
        return False
    token = email_undo_token(user_id=user_id, previous=previous)
    context = {"user": profile.user, "current": current, "when": timezone.now()}
    _send(
        "email_changed",
        to=previous,
        link=reverse("email-undo", args=[token]),
        context=context,
        language=profile.language or language,
    )
    return True


def _send(template: str, *, to: str, link: str, context: dict[str, Any], language: str) -> None:
    """Render ``<template>_subject.txt``, ``.txt`` and ``.html`` in ``language`` with ``context``, the
    site's ``link`` (a path on ``SITE_URL``) and its name, and mail them to ``to``."""
    context = {**context, "link": settings.SITE_URL + link, "site": urlsplit(settings.SITE_URL).netloc}
    with translation.override(language):
        subject = "".join(render_to_string(f"{TEMPLATES}{template}_subject.txt", context).splitlines())
        message = EmailMultiAlternatives(subject, render_to_string(f"{TEMPLATES}{template}.txt", context), to=[to])
        message.attach_alternative(render_to_string(f"{TEMPLATES}{template}.html", context), "text/html")
        message.send()


def email_confirmation_send(*, user_id: int, email: str, language: str) -> bool:
    """Mail the confirmation link of ``email`` to it, if it still waits for one on that account."""
    profile = Profile.objects.select_related("user").filter(user_id=user_id).first()
    if profile is None or profile.email_pending != email:
        return False  # changed or confirmed meanwhile: that link would not work
    token = email_confirmation_token(user_id=user_id, email=email)
    _send(
        "email_confirm",
        to=email,
        link=reverse("email-confirm", args=[token]),
        context={"user": profile.user, "email": email},
        language=profile.language or language,
    )
    return True
