"""Test-only hooks, imported only by the workers that ``test_worker.py`` starts (``celery worker -I``).

- ``YUKON_TEST_VISIBILITY_TIMEOUT``: a short broker visibility timeout (and a sweep every second),
  so that the task of a killed worker is delivered again within the test.
- ``YUKON_TEST_PAUSE_AFTER_WRITE``: on a task's first delivery, sleep this many seconds right after
  its first INSERT or UPDATE, inside its open transaction: the point where the test kills it.

Every delivery counts itself in Redis (``yukon-test:attempts:<task id>``); the paused one leaves its
process id in ``yukon-test:paused:<task id>``.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis
from celery.signals import task_postrun, task_prerun
from django.db import connection

from yukon_site.celery import app

_timeout = os.environ.get("YUKON_TEST_VISIBILITY_TIMEOUT")
if _timeout:
    app.conf.broker_transport_options = {
        **app.conf.broker_transport_options,
        "visibility_timeout": int(_timeout),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }

_PAUSE = float(os.environ.get("YUKON_TEST_PAUSE_AFTER_WRITE") or 0)
_wrappers: dict[str, Any] = {}


def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ["REDIS_URL"])


def attempts_key(task_id: str) -> str:
    return f"yukon-test:attempts:{task_id}"


def paused_key(task_id: str) -> str:
    return f"yukon-test:paused:{task_id}"


@task_prerun.connect
def _count_and_maybe_pause(task_id: str, **kwargs: Any) -> None:
    broker = _redis()
    attempt = broker.incr(attempts_key(task_id))
    broker.expire(attempts_key(task_id), 600)
    if not _PAUSE or attempt != 1:
        return

    def pause_after_first_write(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")) and not broker.exists(paused_key(task_id)):
            broker.set(paused_key(task_id), os.getpid(), ex=600)
            time.sleep(_PAUSE)
        return result

    wrapper = connection.execute_wrapper(pause_after_first_write)
    wrapper.__enter__()
    _wrappers[task_id] = wrapper


@task_postrun.connect
def _unwrap(task_id: str, **kwargs: Any) -> None:
    wrapper = _wrappers.pop(task_id, None)
    if wrapper is not None:
        wrapper.__exit__(None, None, None)
