"""Prometheus metrics: ``/metrics`` (README, "Watching the service").

What is counted as it happens (in the process where it happens):

- every request: its duration by route and method, its answer by route, method and status, and
  every 4xx/5xx by its error code (:class:`common.errors.ErrorCode`; ``none`` for an HTML page).
  The route is the URL pattern (``api/v1/games/<uuid:game_id>/moves``), never the path with its ids;
  ``<static>`` for a static file, ``<unmatched>`` when no pattern matched (a 404, or an answer
  before the URL was resolved);
- every move and undo played (committed), by rule, and every win;
- every Celery task's duration by task name and final state (Celery's ``task_prerun`` and
  ``task_postrun`` signals, in the worker process that runs it).

What is read at each scrape: the Celery queues' lengths and the tasks taken but not acknowledged
(Redis), the ranked wins held for review or waiting for their check, and the daily deals
certified ahead (PostgreSQL). Nothing is kept for them between scrapes.

Several processes: the web server runs ``WEB_CONCURRENCY`` processes and the worker its pool's
children, each with its own counters. With ``METRICS_DIR`` set (deploy/web.sh and
deploy/stack.sh set it; docker-compose.yml gives web and worker one volume), every process keeps
its counters in a file of its own (prometheus-client's multiprocess mode, which settings.py
switches on before anything is counted), in a folder per machine (container) so that two
containers' equal pids never share a file, and ``/metrics`` in any web process adds up every
file of every folder: the web processes' and the worker's, dead processes' too (a counter never
goes back). Without ``METRICS_DIR`` (``make run``, the tests) the counters are this process's.

Not public: ``/metrics`` answers 404 unless ``METRICS_TOKEN`` is set, and then only to
``Authorization: Bearer <METRICS_TOKEN>`` (401 otherwise).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from celery import current_app
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from .dependencies import DEPENDENCY_ERRORS, redis_client
from .errors import ErrorCode

logger = logging.getLogger(__name__)

REQUEST_DURATION = Histogram(
    "yukon_http_request_duration_seconds",
    "Time from the request's arrival in Django to its answer, by route and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
RESPONSES = Counter("yukon_http_responses", "Answers by route, method and status.", ["route", "method", "status"])
ERRORS = Counter(
    "yukon_http_errors", "4xx and 5xx answers by route, status and error code.", ["route", "status", "code"]
)
MOVES = Counter("yukon_moves", "Moves and undos played (committed), by rule.", ["rule", "kind"])
WINS = Counter("yukon_games_won", "Games won, by rule.", ["rule"])
TASK_DURATION = Histogram(
    "yukon_celery_task_duration_seconds",
    "Celery tasks' run time by task and final state (SUCCESS, FAILURE, RETRY...).",
    ["task", "state"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0),
)

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CODES = frozenset(code.value for code in ErrorCode)
UNMATCHED = "<unmatched>"
STATIC = "<static>"
_STATIC_PREFIX = settings.STATIC_URL or "/static/"


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/v1/games/<uuid:game_id>``), not the path; ``<static>``
    for a file WhiteNoise served (before any URL is resolved)."""
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route:
        return str(match.route)
    return STATIC if request.path.startswith(_STATIC_PREFIX) else UNMATCHED


def error_code_of(response: HttpResponse) -> str:
    """The ``error`` of an API error answer (DRF's or :func:`common.views.api_error`'s); ``none``
    for a page."""
    code = getattr(response, "error_code", None)
    if code is None:
        data = getattr(response, "data", None)  # a DRF Response
        code = data.get("error") if isinstance(data, dict) else None
    return str(code) if code in _CODES else "none"


#: The labelled series of each (route, method, status) seen, and of each (rule, kind) of the moves,
#: so that a request skips ``labels()`` (a lock and a look-up of its own: half the cost of
#: counting). As many as the routes times methods and statuses they answer: bounded.
_series: dict[tuple[str, str, int], tuple[Any, Any]] = {}
_move_series: dict[tuple[str, str], Any] = {}


def request_observe(request: HttpRequest, response: HttpResponse, seconds: float) -> None:
    route = route_of(request)
    method = request.method if request.method in _METHODS else "other"
    status = response.status_code
    series = _series.get((route, method, status))
    if series is None:
        series = (REQUEST_DURATION.labels(route, method), RESPONSES.labels(route, method, str(status)))
        _series[(route, method, status)] = series
    series[0].observe(seconds)
    series[1].inc()
    if status >= 400:
        ERRORS.labels(route, str(status), error_code_of(response)).inc()


class MetricsMiddleware:
    """Times each request and counts its answer (first in the chain but the request id: the
    time includes every other middleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        request_observe(request, response, time.perf_counter() - started)
        return response


def move_played(*, rule: str, undo: bool, won: bool) -> None:
    """A move or an undo was committed (``games.play.services``)."""
    kind = "undo" if undo else "move"
    series = _move_series.get((rule, kind))
    if series is None:
        series = _move_series[(rule, kind)] = MOVES.labels(rule, kind)
    series.inc()
    if won:
        WINS.labels(rule).inc()


# -- Celery ---------------------------------------------------------------------------------------

_task_started: dict[str, float] = {}


def _task_prerun(task_id: str | None = None, **kwargs: Any) -> None:
    if task_id is not None:
        _task_started[task_id] = time.perf_counter()


def _task_postrun(task_id: str | None = None, task: Any = None, state: str | None = None, **kwargs: Any) -> None:
    started = _task_started.pop(task_id, None) if task_id is not None else None
    if started is not None:
        name = getattr(task, "name", None) or "unknown"
        TASK_DURATION.labels(name, state or "unknown").observe(time.perf_counter() - started)


def task_signals_connect() -> None:
    """Time every task (CommonConfig.ready: in the worker, and in a web process that runs tasks eagerly)."""
    from celery.signals import task_postrun, task_prerun

    task_prerun.connect(_task_prerun, weak=False, dispatch_uid="yukon-metrics-prerun")
    task_postrun.connect(_task_postrun, weak=False, dispatch_uid="yukon-metrics-postrun")


# -- what is read at each scrape --------------------------------------------------------------------

#: kombu's Redis transport keeps a queue's messages of priority 3, 6 and 9 in lists of their own.
_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


#: What the apps read when /metrics is scraped (the games app: held wins, deals ahead), added by
#: :func:`scraped_register` from their ``ready()``: common imports no app.
_SCRAPED: list[Callable[[], Iterable[Metric]]] = []


def scraped_register(collect: Callable[[], Iterable[Metric]]) -> None:
    """Have ``collect()`` read at each scrape of /metrics (once per function)."""
    if collect not in _SCRAPED:
        _SCRAPED.append(collect)


def _queue_names() -> list[str]:
    app = current_app  # the project's (it names itself current when made): common imports no project module
    names = {app.conf.task_default_queue or "celery"}
    names.update(queue.name for queue in app.conf.task_queues or ())
    return sorted(names)


class ServiceCollector(Collector):
    """The state of the service, read when scraped."""

    def collect(self) -> Iterator[Metric]:
        yield from self._queues()
        for collect in _SCRAPED:
            yield from collect()

    def _queues(self) -> Iterator[Metric]:
        if not settings.REDIS_URL:
            return  # tasks run in the request: no queue
        queues = GaugeMetricFamily(
            "yukon_celery_queue_length", "Tasks waiting in the Celery queue (Redis list lengths).", labels=["queue"]
        )
        unacked = GaugeMetricFamily(
            "yukon_celery_tasks_unacked", "Tasks a worker took and has not acknowledged yet (running or reserved)."
        )
        try:
            client = redis_client()
            names = _queue_names()
            pipe = client.pipeline(transaction=False)
            for name in names:
                for suffix in _PRIORITY_SUFFIXES:
                    pipe.llen(name + suffix)
            pipe.hlen("unacked")
            lengths = pipe.execute()
        except DEPENDENCY_ERRORS as exc:
            logger.warning("metrics: Redis unreachable (%s): no queue lengths", type(exc).__name__)
            return
        for index, name in enumerate(names):
            step = len(_PRIORITY_SUFFIXES)
            queues.add_metric([name], float(sum(lengths[index * step : (index + 1) * step])))
        unacked.add_metric([], float(lengths[-1]))
        yield queues
        yield unacked


# -- /metrics ------------------------------------------------------------------------------------------


class _Counted(Collector):
    """Every process's counters: the files of ``METRICS_DIR`` added up, or this process's."""

    def __init__(self, metrics_dir: str) -> None:
        self.metrics_dir = metrics_dir

    def collect(self) -> Iterator[Metric]:
        if not self.metrics_dir:
            yield from REGISTRY.collect()
            return
        files = sorted(str(path) for path in Path(self.metrics_dir).glob("*/*.db"))
        yield from MultiProcessCollector.merge(files, accumulate=True)


def metrics_text(*, metrics_dir: str | None = None) -> bytes:
    """The Prometheus text of every metric (``metrics_dir``: ``settings.METRICS_DIR``)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Counted(settings.METRICS_DIR if metrics_dir is None else metrics_dir))
    registry.register(ServiceCollector())
    return generate_latest(registry)


def operator_asks(request: HttpRequest) -> bool:
    """Whether the request carries the operator's token (``Authorization: Bearer <METRICS_TOKEN>``,
    when it is set): what /metrics and the details of /readyz answer to."""
    token = settings.METRICS_TOKEN
    return bool(token) and _authorized(request, token)


def _authorized(request: HttpRequest, token: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and secrets.compare_digest(given.strip().encode(), token.encode())


@never_cache
@require_safe
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404  # not switched on: as if there were nothing here
    if not _authorized(request, token):
        response = HttpResponse(status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)
