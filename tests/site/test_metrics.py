"""/metrics: Prometheus's text of what the service does, for the operator only (common/metrics.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from common import metrics
from common.dependencies import redis_client
from games.competition import clock
from games.models import DailyDeal, ReviewChoices
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "scrape-me-0123456789"
MOVES_ROUTE = "api/v1/games/<uuid:game_id>/moves"


@pytest.fixture
def scraper(settings: Any) -> Client:
    settings.METRICS_TOKEN = TOKEN
    return Client(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")


def scrape(client: Client) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics")
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain; version=")
    return parse(response.content.decode())


def parse(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def browser() -> Client:
    """A guest's browser: session cookie, and the CSRF token from the page for unsafe requests."""
    client = Client(enforce_csrf_checks=True)
    assert client.get("/").status_code == 200
    client.defaults["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    return client


def test_metrics_are_not_there_without_a_token_in_the_environment(settings: Any) -> None:
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    assert Client(HTTP_AUTHORIZATION="Bearer ").get("/metrics").status_code == 404


@pytest.mark.django_db
def test_metrics_need_the_bearer_token(scraper: Client) -> None:
    for headers in ({}, {"HTTP_AUTHORIZATION": "Bearer wrong"}, {"HTTP_AUTHORIZATION": f"Token {TOKEN}"}):
        response = Client(**headers).get("/metrics")
        assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")
        assert b"yukon_" not in response.content
    assert scraper.get("/metrics").status_code == 200


@pytest.mark.django_db
def test_a_move_played_by_a_browser_moves_the_counters_by_route_never_by_path(scraper: Client) -> None:
    player = browser()
    state = player.post("/api/v1/games", {"rule": "classic"}, content_type="application/json").json()
    before = scrape(scraper)

    played = player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0], content_type="application/json")
    refused = player.post(
        f"/api/v1/games/{state['id']}/moves", {"from": "t1", "card": "KS", "to": "t1"}, content_type="application/json"
    )
    after = scrape(scraper)

    assert played.status_code == 200 and refused.status_code in (400, 422)
    code = refused.json()["error"]
    assert value(after, "yukon_moves_total", rule="classic", kind="move") == (
        value(before, "yukon_moves_total", rule="classic", kind="move") + 1
    )
    answered = {"route": MOVES_ROUTE, "method": "POST"}
    assert value(after, "yukon_http_responses_total", **answered, status="200") == (
        value(before, "yukon_http_responses_total", **answered, status="200") + 1
    )
    assert value(after, "yukon_http_request_duration_seconds_count", **answered) == (
        value(before, "yukon_http_request_duration_seconds_count", **answered) + 2
    )
    failed = {"route": MOVES_ROUTE, "status": str(refused.status_code), "code": code}
    assert value(after, "yukon_http_errors_total", **failed) == value(before, "yukon_http_errors_total", **failed) + 1
    # No label holds a path with its game id.
    assert state["id"] not in scraper.get("/metrics").content.decode()


@pytest.mark.django_db
def test_errors_are_counted_by_their_code_pages_and_paths_that_name_nothing_too(scraper: Client) -> None:
    before = scrape(scraper)
    Client().get("/api/v1/games/00000000-0000-0000-0000-000000000001")
    Client().get("/no-such-page")
    after = scrape(scraper)

    game = {"route": "api/v1/games/<uuid:game_id>", "status": "404", "code": "not_found"}
    assert value(after, "yukon_http_errors_total", **game) == value(before, "yukon_http_errors_total", **game) + 1
    page = {"route": "<unmatched>", "status": "404", "code": "none"}
    assert value(after, "yukon_http_errors_total", **page) == value(before, "yukon_http_errors_total", **page) + 1


def test_static_files_are_one_route(scraper: Client, db: Any) -> None:
    served = {"route": "<static>", "method": "GET", "status": "200"}
    before = value(scrape(scraper), "yukon_http_responses_total", **served)
    assert Client().get("/static/frontend/app.css").status_code == 200
    assert value(scrape(scraper), "yukon_http_responses_total", **served) == before + 1


def test_a_tasks_duration_is_recorded_by_name_and_state(scraper: Client, db: Any) -> None:
    from yukon_site.celery import ping

    labels = {"task": "yukon_site.ping", "state": "SUCCESS"}
    before = value(scrape(scraper), "yukon_celery_task_duration_seconds_count", **labels)
    assert ping.apply().get() == "pong"
    assert value(scrape(scraper), "yukon_celery_task_duration_seconds_count", **labels) == before + 1


@pytest.mark.django_db
def test_held_results_and_the_daily_deals_ready_ahead_are_read_at_each_scrape(scraper: Client) -> None:
    today = clock.today()
    for offset in (0, 1, 2):
        DailyDeal.objects.create(date=today + timedelta(days=offset), code="YU1-C-AAAAAAB", solution_length=90)
    DailyDeal.objects.create(date=None, code="YU1-C-AAAAAAC", solution_length=80)
    DailyDeal.objects.create(date=None, code="YU1-C-AAAAAAD", solution_length=None)  # not certified
    won = factories.one_move_from_winning()
    for review in (ReviewChoices.HELD, ReviewChoices.HELD, ReviewChoices.PENDING, ReviewChoices.VERIFIED):
        factories.game(owner=factories.user(), daily=today, ranked=True, review=review, status="won", engine=won)

    samples = scrape(scraper)

    assert value(samples, "yukon_ranked_wins_waiting", review="held") == 2
    assert value(samples, "yukon_ranked_wins_waiting", review="pending") == 1
    assert value(samples, "yukon_daily_deal_today_certified") == 1
    assert value(samples, "yukon_daily_deals_ahead") == 2
    assert value(samples, "yukon_daily_deals_spare") == 1


@pytest.mark.django_db
def test_the_celery_queue_lengths_are_read_from_redis(scraper: Client, settings: Any, monkeypatch: Any) -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs Redis (REDIS_URL)")
    queue = f"yukon-metrics-test-{os.getpid()}"
    monkeypatch.setattr(metrics, "_queue_names", lambda: [queue])
    client = redis_client()
    try:
        client.lpush(queue, "a", "b", "c")
        client.lpush(queue + "\x06\x166", "d")  # a priority-6 message: a list of its own
        assert value(scrape(scraper), "yukon_celery_queue_length", queue=queue) == 4
    finally:
        client.delete(queue, queue + "\x06\x166")


@pytest.mark.django_db
def test_a_scrape_while_redis_is_down_still_answers_without_the_queues(scraper: Client, settings: Any) -> None:
    dead = "redis://127.0.0.1:1/0"
    settings.REDIS_URL = dead
    settings.CACHES = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": dead}}
    samples = scrape(scraper)
    assert not any(name == "yukon_celery_queue_length" for name, _ in samples)
    assert ("yukon_daily_deals_spare", frozenset()) in samples


CHILD = """
import os
os.environ["DJANGO_SETTINGS_MODULE"] = "yukon_site.settings"
import django
django.setup()
from django.test import Client
from yukon_site.celery import ping
client = Client()
for _ in range({n}):
    assert client.get("/healthz").status_code == 200
ping.apply()
print(os.environ["PROMETHEUS_MULTIPROC_DIR"])
"""


@pytest.mark.django_db
def test_the_counters_of_several_processes_add_up(tmp_path: Path) -> None:
    """The web server's processes and the worker's each count in a file of their own under
    METRICS_DIR; a scrape answered by any one process adds them all up."""
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("PROMETHEUS_MULTIPROC_DIR", "DATABASE_URL", "REDIS_URL")},
        "METRICS_DIR": str(tmp_path),
    }
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD.format(n=n)], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for n in (3, 4)
    ]
    folders = set()
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err.decode()[-2000:]
        folders.add(out.decode().split()[-1])

    assert len(folders) == 1 and Path(folders.pop()).parent == tmp_path  # this machine's folder
    samples = parse(metrics.metrics_text(metrics_dir=str(tmp_path)).decode())
    healthz = {"route": "healthz", "method": "GET"}
    assert value(samples, "yukon_http_responses_total", **healthz, status="200") == 7
    assert value(samples, "yukon_http_request_duration_seconds_count", **healthz) == 7
    assert value(samples, "yukon_celery_task_duration_seconds_count", task="yukon_site.ping", state="SUCCESS") == 2


def test_the_compose_file_gives_web_and_worker_one_metrics_folder() -> None:
    """The worker's task durations reach the web's /metrics only through a folder both share."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    folders = set()
    for service in ("web", "worker"):
        spec = compose["services"][service]
        folder = spec["environment"]["METRICS_DIR"]
        assert any(volume.split(":")[1] == folder for volume in spec["volumes"]), (service, spec["volumes"])
        folders.add((folder, tuple(spec["volumes"])))
    assert len(folders) == 1
