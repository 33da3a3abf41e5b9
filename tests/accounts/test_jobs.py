"""The services send their tasks by name (``games/jobs.py``, ``stats/jobs.py``, ``social/jobs.py``,
``accounts/jobs.py``: no service imports a tasks module). A name is a string, so nothing but a
test sees a typo: each job must name a task the Celery app has registered, with arguments that
task takes."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any, get_type_hints

import pytest

from accounts import jobs as accounts_jobs
from common import background
from games import jobs as games_jobs
from social import jobs as social_jobs
from stats import jobs as stats_jobs
from yukon_site.celery import app

JOB_MODULES = [games_jobs, stats_jobs, social_jobs, accounts_jobs]

#: A value of each type a job's parameter may have.
DUMMIES: dict[Any, Any] = {int: 7, str: "x", bool: False, date: date(2025, 1, 6)}


def jobs() -> Iterator[Any]:
    for module in JOB_MODULES:
        for name, job in inspect.getmembers(module, inspect.isfunction):
            if job.__module__ == module.__name__ and not name.startswith("_"):
                yield pytest.param(job, id=f"{module.__name__}.{name}")


def dummy_arguments(job: Callable[..., None]) -> dict[str, Any]:
    """A value for each parameter of ``job`` without a default, by its annotation."""
    hints = get_type_hints(job)
    return {
        name: DUMMIES[hints[name]]
        for name, parameter in inspect.signature(job).parameters.items()
        if parameter.default is inspect.Parameter.empty
    }


class _Recorded:
    """What ``common.background`` looks up by name, recording what it is sent."""

    app = app
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]]

    def __init__(self, name: str) -> None:
        self.name = name

    def delay(self, *args: Any, **kwargs: Any) -> None:
        self.sent.append((self.name, args, kwargs))

    def apply(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.delay(*args, **kwargs)


@pytest.mark.django_db
@pytest.mark.parametrize("job", list(jobs()))
def test_each_job_sends_a_registered_task_with_arguments_it_takes(
    job: Callable[..., None], monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(_Recorded, "sent", sent, raising=False)
    monkeypatch.setattr(background, "task_named", _Recorded)
    # (the solver's tasks go apart: recorded where they are sent, not run on a thread)
    monkeypatch.setattr(background, "task_send_apart", lambda task, *args, **kwargs: task.delay(*args, **kwargs))

    with django_capture_on_commit_callbacks(execute=True):
        job(**dummy_arguments(job))

    [(name, args, kwargs)] = sent
    assert name in app.tasks, f"{job.__module__}.{job.__name__} sends {name!r}, which no task is registered as"
    inspect.signature(app.tasks[name].run).bind(*args, **kwargs)  # (TypeError if the task does not take them)


def test_every_job_module_is_seen() -> None:
    seen = {param.values[0].__module__ for param in jobs()}
    assert seen == {module.__name__ for module in JOB_MODULES}
    assert "accounts.email_confirmation_send" in app.tasks and "accounts.email_confirmation_sendd" not in app.tasks
    assert "games.winnable_decide" in app.tasks and "stats.game_results_update" in app.tasks
