"""/metrics of the production processes: the Procfile's granian (3 processes), Celery worker and beat
on private PostgreSQL and Redis, as `make stack` runs them, with METRICS_DIR and METRICS_TOKEN set.

A scrape, whichever web process answers it, adds up every web process's counters and the worker's:
the moves played since the last scrape are all there, exactly, however the connections were spread,
and so are the durations of the tasks that the worker ran. Run with `make test-faults` (CI too).
"""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from .harness import STACK_READY_SECONDS, call, private_stack, wait_until

pytestmark = pytest.mark.faults

TOKEN = "stack-metrics-token-0123456789"
MOVES_ROUTE = "api/v1/games/<uuid:game_id>/moves"
Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(url: str) -> Samples:
    request = urllib.request.Request(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=15) as response:
        text = response.read().decode()
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def files_counting(folder: Path, name: str, **labels: str) -> int:
    """How many processes' files hold a count of the series."""
    found = 0
    for path in folder.glob("*/counter_*.db"):
        for metric in MultiProcessCollector.merge([str(path)], accumulate=True):
            if any(s.name == name and labels.items() <= s.labels.items() and s.value for s in metric.samples):
                found += 1
    return found


def test_a_scrape_adds_up_every_web_process_and_the_worker() -> None:
    with private_stack() as (stack, _, _, base):
        metrics_dir = base / "metrics"
        stack.env.update({"METRICS_TOKEN": TOKEN, "METRICS_DIR": str(metrics_dir)})
        stack.manage("migrate", "--noinput")
        for name in ("web", "worker", "beat"):
            stack.start(name)
        wait_until(stack.ready, STACK_READY_SECONDS, "the stack ready (today's deal certified by the worker)")
        url = stack.url
        assert call(url, "GET", "/metrics")[0] == 401  # no token, no metrics

        status, answer = call(url, "POST", "/api/v1/auth/register", {"username": "scraped", "password": "Scr4pe-me!x"})
        assert status == 201, answer
        headers = {"Authorization": f"Token {answer['token']}"}
        status, game = call(url, "POST", "/api/v1/games", {"rule": "classic"}, headers)
        assert status == 201, game
        before = scrape(url)
        for n in range(30):  # a move and its undo, 15 times; a new connection each (spread over the processes)
            if n % 2 == 0:
                status, _ = call(url, "POST", f"/api/v1/games/{game['id']}/moves", game["legal_moves"][0], headers)
            else:
                status, _ = call(url, "POST", f"/api/v1/games/{game['id']}/undo", {}, headers)
            assert status == 200
        after = scrape(url)

        for kind in ("move", "undo"):
            assert (
                value(after, "yukon_moves_total", rule="classic", kind=kind)
                - value(before, "yukon_moves_total", rule="classic", kind=kind)
                == 15
            ), kind
        answered = {"route": MOVES_ROUTE, "method": "POST", "status": "200"}
        assert (
            value(after, "yukon_http_responses_total", **answered)
            - value(before, "yukon_http_responses_total", **answered)
            == 15
        )
        assert files_counting(metrics_dir, "yukon_http_responses_total", route=MOVES_ROUTE) >= 2  # several processes

        # The worker's durations reach the web's /metrics: the beat's first task, today's deals. /readyz
        # answers once today's deal is certified, while that task goes on with the next days' and the
        # spare deals (seen in CI at load: not yet ended at the scrape above), so it is waited for.
        prepared = {"task": "games.daily_deals_prepare", "state": "SUCCESS"}

        def prepared_counted() -> Samples | None:
            samples = scrape(url)
            return samples if value(samples, "yukon_celery_task_duration_seconds_count", **prepared) >= 1 else None

        after = wait_until(prepared_counted, STACK_READY_SECONDS, "the worker's first task counted in /metrics")
        assert value(after, "yukon_daily_deals_spare") + value(after, "yukon_daily_deal_today_certified") >= 1
        assert ("yukon_celery_queue_length", frozenset({("queue", "celery")})) in after
