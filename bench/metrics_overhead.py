"""What the metrics (common/metrics.py) cost a request: moves through Django's whole stack in this
process, with the metrics middleware and the move counter and without them, in prometheus-client's
multiprocess mode as deploy/web.sh runs it (each count written to a memory-mapped file).

A guest plays a move and takes it back, again and again (both are moves); the two variants take
turns in rounds, so that a slower moment of the machine falls on both. Prints each variant's
median and mean per request, their difference, and the cost of one request's counting alone.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/yukon REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/metrics_overhead.py --requests 400
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("METRICS_DIR", tempfile.mkdtemp(prefix="yukon-metrics-bench-"))
os.environ.update(
    {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "THROTTLE_MOVES": "1000000/minute",
        "THROTTLE_MOVES_IP": "1000000/minute",
        "ACCESS_LOG_LEVEL": "WARNING",
    }
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from common import metrics  # noqa: E402


def play(client: Client, game_id: str, move: dict[str, str], count: int) -> list[tuple[float, float]]:
    """``count`` requests, a move and its undo in turn; the seconds of each: wall clock, and CPU of
    this process (what the metrics add to; on a busy machine the wall clock waits for the CPU too)."""
    times = []
    for n in range(count):
        started, cpu = time.perf_counter(), time.process_time()
        if n % 2 == 0:
            response = client.post(f"/api/v1/games/{game_id}/moves", move, content_type="application/json")
        else:
            response = client.post(f"/api/v1/games/{game_id}/undo", {}, content_type="application/json")
        times.append((time.perf_counter() - started, time.process_time() - cpu))
        assert response.status_code == 200, response.content[:300]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="requests per variant (default 400)")
    parser.add_argument("--rounds", type=int, default=8, help="turns of each variant (default 8)")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    client = Client()
    state = client.post("/api/v1/games", {"rule": "classic"}, content_type="application/json").json()
    move = state["legal_moves"][0]
    without_middleware = [name for name in settings.MIDDLEWARE if name != "common.metrics.MetricsMiddleware"]
    counted = metrics.move_played
    # Django's test client loads the middleware once, at its first request: one client of each.
    bare = Client()
    bare.cookies = client.cookies  # the same guest, the same game
    with override_settings(MIDDLEWARE=without_middleware):
        play(bare, state["id"], move, 40)  # (and warm up: connections, caches)
    play(client, state["id"], move, 40)
    times: dict[str, list[tuple[float, float]]] = {"with metrics": [], "without": []}
    per_round = max(2, args.requests // args.rounds // 2 * 2)
    for _ in range(args.rounds):
        times["with metrics"] += play(client, state["id"], move, per_round)
        metrics.move_played = lambda **kwargs: None  # type: ignore[assignment]
        times["without"] += play(bare, state["id"], move, per_round)
        metrics.move_played = counted
    print(
        f"{len(times['without'])} requests per variant (moves and undos), multiprocess mode in {settings.METRICS_DIR}"
    )
    figures = {}
    for name, values in times.items():
        wall, cpu = ([value[i] * 1000 for value in values] for i in (0, 1))
        figures[name] = (statistics.median(wall), statistics.fmean(wall), statistics.median(cpu), statistics.fmean(cpu))
        print(
            "  {:13} wall median {:7.3f} ms mean {:7.3f} ms   CPU median {:7.3f} ms mean {:7.3f} ms".format(
                name, *figures[name]
            )
        )
    difference = [a - b for a, b in zip(figures["with metrics"], figures["without"], strict=True)]
    print(
        "  {:13} wall median {:+7.3f} ms mean {:+7.3f} ms   CPU median {:+7.3f} ms mean {:+7.3f} ms".format(
            "difference", *difference
        )
    )

    class Match:
        route = "api/v1/games/<uuid:game_id>/moves"

    class Request:
        method = "POST"
        path = "/api/v1/games/1/moves"
        resolver_match = Match()

    class Response:
        status_code = 200

    n = 20000
    started = time.process_time()
    for _ in range(n):
        metrics.request_observe(Request(), Response(), 0.01)  # type: ignore[arg-type]
        metrics.move_played(rule="classic", undo=False, won=False)
    alone = (time.process_time() - started) / n * 1e6
    print(f"  counting alone (a request's histogram and counter, a move's counter): {alone:.1f} µs of CPU")


if __name__ == "__main__":
    main()
