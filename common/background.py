"""Tasks a request asks for and must not wait for (the solver's: a daily deal's certificate, a
game's post-mortem).

Sent to the worker as usual; where Celery runs tasks eagerly (``task_always_eager``: the embedded
defaults, ``make run``, no worker), run on a thread of their own instead of inside the request.
Read from the task's own app, so no app needs the project's Celery module.
"""

from __future__ import annotations

import threading
from typing import Any


def task_send_apart(task: Any, *args: Any) -> None:
    """Send ``task(*args)`` to the worker, or with eager tasks run it on a thread of its own."""
    if task.app.conf.task_always_eager:
        threading.Thread(target=task.apply, args=(args,), name=task.name, daemon=True).start()
    else:
        task.delay(*args)
