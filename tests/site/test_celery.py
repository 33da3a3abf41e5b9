"""Celery runs tasks: in-process without REDIS_URL, on a real worker with it."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from yukon_site.celery import app, ping


def test_celery_is_configured_for_safe_redelivery():
    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.broker_transport_options["visibility_timeout"] > conf.task_time_limit


# Its outcome depends on the worker and it uses no database, so tests/conftest.py cannot tell: marked
# by hand, so that the PostgreSQL phase of .ci/run (`-m services`, a real worker) runs it too.
@pytest.mark.services
def test_a_task_runs_and_answers():
    if not settings.CELERY_TASK_ALWAYS_EAGER and not app.control.ping(timeout=2.0):
        if os.environ.get("CELERY_WORKER_EXPECTED"):
            pytest.fail("REDIS_URL is set and CELERY_WORKER_EXPECTED, but no Celery worker answers")
        pytest.skip("REDIS_URL is set but no Celery worker runs")

    assert ping.delay().get(timeout=30) == "pong"
