"""Tasks a request asks for and must not wait for: sent to the worker, or with eager tasks (the
embedded defaults) run on a thread of their own, never in the request."""

from __future__ import annotations

import threading
from typing import Any

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
