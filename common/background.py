"""Sending tasks: by name, from the services' side, without importing the task's module.

Each app sends its tasks through one small module (``games/jobs.py``, ``stats/jobs.py``, ...): a
function a task, which names it and says when it goes (:func:`task_send`). Tasks import services
and services send tasks by name, so no import goes both ways (tests/site/test_layers.py).

Some tasks a request asks for must not wait for (the solver's: a daily deal's certificate, a
game's post-mortem): sent to the worker as usual, but where Celery runs tasks eagerly
(``task_always_eager``: the embedded defaults, ``make run``, no worker) run on a thread of their
own instead of inside the request (:func:`task_send_apart`). Read from the task's own app, so no
app needs the project's Celery module.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

from celery import current_app
from django.db import transaction


def task_send(
    name: str, *args: Any, apart: bool = False, after_commit: bool = True, robust: bool = True, **kwargs: Any
) -> None:
    """Send the task registered as ``name`` with ``args`` and ``kwargs``: once the current
    transaction commits (at once outside one), or at once (``after_commit=False``: a read asked
    for it, there is no write to wait for). ``apart``: a task the request must not wait for even
    with eager tasks (:func:`task_send_apart`). ``robust``
    (after the commit): a failure to send is logged, not raised (the write stands, the answer
    too); the accounts' mails raise it (the request then says it failed, as it always has)."""
    task = task_named(name)  # (a name no task has fails here, in the request that sends it)
    send = partial(task_send_apart, task, *args, **kwargs) if apart else partial(task.delay, *args, **kwargs)
    # Django names a robust callback that failed by its ``__qualname__``, which a partial lacks (the
    # failure would be raised after all, as an AttributeError).
    send.__qualname__ = f"sending {name}"  # type: ignore[union-attr]
    if after_commit:
        transaction.on_commit(send, robust=robust)
    else:
        send()


def task_named(name: str) -> Any:
    """The task registered as ``name`` (every app's ``tasks`` module is imported when Django starts)."""
    return current_app.tasks[name]


def task_send_apart(task: Any, *args: Any, **kwargs: Any) -> None:
    """Send ``task(*args, **kwargs)`` to the worker, or with eager tasks run it on a thread of its own."""
    if task.app.conf.task_always_eager:
        threading.Thread(target=task.apply, args=(args, kwargs), name=task.name, daemon=True).start()
    else:
        task.delay(*args, **kwargs)
