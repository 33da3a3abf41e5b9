"""The accounts' tasks as its verbs send them: one function a task, by the task's name
(:func:`common.background.task_send`), so that no verb imports ``accounts.tasks`` (the tasks
import the verbs and the mails). Each mail goes once the write that asks for it commits (a task
must find what the request wrote); a failure to send it is raised (``robust=False``): the request
answers that it failed rather than that a link is on its way."""

from __future__ import annotations

from common.background import task_send


def email_confirmation_send(*, user_id: int, email: str, language: str) -> None:
    """The link that confirms ``email`` mailed to it (:func:`accounts.mail.email_confirmation_send`)."""
    task_send("accounts.email_confirmation_send", user_id=user_id, email=email, language=language, robust=False)


def email_changed_send(*, user_id: int, previous: str, current: str, language: str) -> None:
    """The confirmed address before told that it was replaced or removed, with its undo link
    (:func:`accounts.mail.email_changed_send`)."""
    task_send(
        "accounts.email_changed_send",
        user_id=user_id,
        previous=previous,
        current=current,
        language=language,
        robust=False,
    )


def password_reset_send(*, email: str, language: str) -> None:
    """A password-reset link mailed to the account whose confirmed address is ``email``, if there
    is one (:func:`accounts.mail.password_reset_send`)."""
    task_send("accounts.password_reset_send", email=email, language=language, robust=False)
