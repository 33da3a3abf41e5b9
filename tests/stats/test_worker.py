"""The tasks on a real Celery worker and Redis (the PostgreSQL phase of .ci/run).

The first tests use the worker that .ci/run starts. The crash tests start workers of their own on
a queue of their own, with the test hooks of ``worker_hooks.py``, and kill them with SIGKILL in the
middle of a task: with late acknowledgement the task is delivered again and the result is right.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection

from games.models import Game
from stats import tasks
from stats.models import DailyResult, PersonalBest
from tests import factories
from tests.stats.helpers import deal, win_as_a_human, winning_line, won_ranked_game
from tests.stats.worker_hooks import attempts_key, paused_key
from yukon_site.celery import app

pytestmark = [pytest.mark.celery_worker, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 90


def poll(check: Callable[[], Any], *, timeout: float = TIMEOUT, what: str = "the worker") -> Any:
    """Ask ``check`` until it answers something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what} did not finish within {timeout} s")


@pytest.fixture
def ci_worker() -> None:
    """The worker of .ci/run (it reads the test database)."""
    if not app.control.ping(timeout=2.0):
        if os.environ.get("CELERY_WORKER_EXPECTED"):
            pytest.fail("REDIS_URL is set and CELERY_WORKER_EXPECTED, but no Celery worker answers")
        pytest.skip("REDIS_URL is set but no Celery worker runs")


@pytest.fixture
def broker() -> redis.Redis:
    return redis.Redis.from_url(os.environ["REDIS_URL"])


def _database_url() -> str:
    db = connection.settings_dict  # the test database that pytest-django made
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Workers:
    """Celery workers started by a test, each in a process group of its own."""

    def __init__(self, queue: str, logs: Path) -> None:
        self.queue = queue
        self.logs = logs
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, *, pool: str, **env: str) -> subprocess.Popen[bytes]:
        number = len(self.processes) + 1
        log = open(self.logs / f"worker-{number}.log", "wb")  # noqa: SIM115 - closed with the process
        command = [sys.executable, "-m", "celery", "-A", "yukon_site", "worker", "-Q", self.queue, "-P", pool]
        command += ["-c", "1", "-n", f"{self.queue}-{number}@%h", "-I", "tests.stats.worker_hooks", "-l", "info"]
        command += ["--without-mingle", "--without-gossip", "--without-heartbeat"]
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": _database_url(), **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        self.processes.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes]) -> None:
        """SIGKILL the worker and every process of its group (its pool)."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def tail(self) -> str:
        return "\n".join(
            f"--- {path.name}\n" + path.read_text(errors="replace")[-3000:] for path in sorted(self.logs.glob("*.log"))
        )


@pytest.fixture
def own_workers(tmp_path: Path) -> Iterator[Workers]:
    workers = Workers(f"yukon-test-{uuid.uuid4().hex[:12]}", tmp_path)
    yield workers
    workers.stop_all()
    print(workers.tail())  # shown when the test failed


def test_winning_a_game_ends_with_the_personal_best_and_the_board_updated_by_the_worker(ci_worker, today, todays_deal):
    account = factories.user()
    client = factories.token_client(account)
    state = client.post("/api/v1/games", {"daily": True}).json()

    win_as_a_human(client, state["id"])  # the request commits; its on_commit sends the tasks to Redis

    game = Game.objects.get(pk=state["id"])
    moves = len(winning_line(todays_deal.code))
    best = poll(lambda: PersonalBest.objects.filter(user=account, rule="classic").first())
    assert (best.best_time_ms, best.fewest_moves, best.clean_wins) == (game.time_ms, moves, int(game.score == 625))
    result = poll(lambda: DailyResult.objects.filter(day=today, user=account).first())
    assert (result.game_id, result.time_ms, result.moves, result.score) == (game.pk, game.time_ms, moves, game.score)
    assert Game.objects.get(pk=game.pk).review == "verified"  # replayed by the worker before it counted
    board = client.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()
    me = {"rank": 1, "username": account.username, "time_ms": game.time_ms, "moves": moves, "score": game.score}
    # Replayed by the server; today: no replay link; on the public board (the worker's rule for
    # established accounts is off, as the tests' own: .ci/run).
    assert board["me"] == {**me, "verified": True, "replay": None, "public": True, "public_in_days": None}


def test_the_same_tasks_delivered_twice_change_nothing(ci_worker, today):
    account = factories.user()
    game = won_ranked_game(owner=account, day=today, time_ms=75_000, moves=180, score=625)

    def deliver() -> None:
        tasks.game_results_update.apply_async(args=[str(game.pk)], ignore_result=False).get(timeout=TIMEOUT)

    deliver()
    best, result = PersonalBest.objects.values().get(user=account), DailyResult.objects.values().get(user=account)
    deliver()

    assert PersonalBest.objects.values().get(user=account) == best
    assert DailyResult.objects.values().get(user=account) == result
    assert (best["best_time_ms"], best["fewest_moves"]) == (75_000, 180)
    assert (result["time_ms"], result["game_id"]) == (75_000, game.pk)
    assert PersonalBest.objects.count() == DailyResult.objects.count() == 1


def test_a_worker_killed_in_the_middle_of_a_task_loses_nothing(own_workers, broker, today):
    account = factories.user()
    deal(today)
    game = won_ranked_game(owner=account, day=today, time_ms=42_000, moves=222, score=625)
    first = own_workers.start(pool="solo", YUKON_TEST_PAUSE_AFTER_WRITE="300", YUKON_TEST_VISIBILITY_TIMEOUT="5")

    task_id = tasks.game_results_update.apply_async(args=[str(game.pk)], queue=own_workers.queue).id
    poll(lambda: broker.get(paused_key(task_id)), what="the first worker's write", timeout=120)
    assert not DailyResult.objects.exists()  # written, not committed
    own_workers.kill(first)  # the whole worker, mid-transaction: no acknowledgement was sent
    own_workers.start(pool="solo", YUKON_TEST_VISIBILITY_TIMEOUT="5")

    result = poll(lambda: DailyResult.objects.filter(game=game).first(), what="the redelivery", timeout=120)
    assert (result.day, result.user_id, result.time_ms) == (today, account.pk, 42_000)
    assert (result.moves, result.score) == (222, 625)
    assert int(broker.get(attempts_key(task_id))) == 2
    assert DailyResult.objects.count() == 1


def test_a_pool_process_killed_in_the_middle_of_a_task_loses_nothing(own_workers, broker):
    account = factories.user()
    game = factories.game(owner=account, engine=factories.one_move_from_winning())
    Game.objects.filter(pk=game.pk).update(status="won", time_ms=33_000, moves=99, score=615)
    own_workers.start(pool="prefork", YUKON_TEST_PAUSE_AFTER_WRITE="300")

    task_id = tasks.game_results_update.apply_async(args=[str(game.pk)], queue=own_workers.queue).id
    child = int(poll(lambda: broker.get(paused_key(task_id)), what="the pool process's write", timeout=120))
    os.kill(child, signal.SIGKILL)  # the worker sees its pool process lost and puts the task back

    best = poll(lambda: PersonalBest.objects.filter(user=account).first(), what="the redelivery", timeout=120)
    assert (best.rule, best.best_time_ms, best.fewest_moves, best.clean_wins) == ("classic", 33_000, 99, 0)
    assert int(broker.get(attempts_key(task_id))) == 2
