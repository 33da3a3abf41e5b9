"""Tasks sent by name (``common.background.task_send``): once the write that asks commits, or at once;
and those a request must not wait for: sent to the worker, or with eager tasks (the embedded
defaults) run on a thread of their own, never in the request."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import transaction

from common import background
from common.background import task_send_apart
from yukon_site.celery import app


class _Task:
    """A task's surface as task_send_apart uses it, recording where it ran."""

    name = "tests.recorded"
    app = app

    def __init__(self) -> None:
        self.ran: list[tuple[str, tuple[Any, ...]]] = []
        self.done = threading.Event()

    def apply(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.ran.append((threading.current_thread().name, args))
        self.done.set()

    def delay(self, *args: Any) -> None:
        self.ran.append(("sent", args))


def test_with_eager_tasks_it_runs_on_a_thread_of_its_own(eager_tasks: None) -> None:
    task = _Task()
    task_send_apart(task, "g1")
    assert task.done.wait(10)
    assert task.ran == [("tests.recorded", ("g1",))]
    assert threading.current_thread().name != "tests.recorded"


def test_with_a_worker_it_is_sent() -> None:
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    try:
        task = _Task()
        task_send_apart(task, "g1")
    finally:
        app.conf.task_always_eager = eager
    assert task.ran == [("sent", ("g1",))]


class _Broken(_Task):
    """A task whose sending fails (the broker is down)."""

    def delay(self, *args: Any) -> None:
        raise ConnectionError("broker down")


@pytest.mark.django_db
def test_a_task_sent_by_name_goes_once_the_write_commits_or_at_once_when_a_read_asks(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    tasks = {"tests.written": _Task(), "tests.read": _Task()}
    monkeypatch.setattr(background, "task_named", tasks.__getitem__)

    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            background.task_send("tests.written", "g1")
            background.task_send("tests.read", "g2", after_commit=False)
            assert tasks["tests.written"].ran == [] and tasks["tests.read"].ran == [("sent", ("g2",))]
    assert tasks["tests.written"].ran == [("sent", ("g1",))]


@pytest.mark.django_db
def test_a_failed_send_after_the_commit_is_logged_or_raised_as_the_sender_says(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    monkeypatch.setattr(background, "task_named", lambda name: _Broken())

    with django_capture_on_commit_callbacks(execute=True):
        background.task_send("tests.anything", "g1")  # robust: the write and the answer stand
    with pytest.raises(ConnectionError), django_capture_on_commit_callbacks(execute=True):
        background.task_send("tests.anything", "g1", robust=False)  # the accounts' mails
