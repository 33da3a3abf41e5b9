"""gunicorn settings for the web process (``make stack`` and the container image).

Threaded workers (gthread), one process per core with a few threads each: a request is short and
mostly CPU-bound, but waits a little on PostgreSQL and Redis, which another thread uses; and
connections are kept alive between requests (sync workers close each one). Measured on the
2-core machine (``make loadtest``, 64 players): 2 processes x 4 threads did 418 moves/s and
1,707 trivial requests/s, against 378 and 1,131 for 3 sync workers; more processes than cores
cost more, as each request then finds its process's caches cold. Scale out with more machines
behind the balancer (and ``WEB_CONCURRENCY`` / ``GUNICORN_THREADS`` on bigger ones).
"""

import multiprocessing
import os

bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
backlog = 2048
timeout = 30
graceful_timeout = 20
keepalive = 5
# Recycle a process now and then (bounded memory), with jitter: at a thousand requests a second a
# process restarts every few minutes, not every few seconds (each restart costs a cold start).
max_requests = 200_000
max_requests_jitter = 20_000
accesslog = None  # the app writes JSON access lines with the request id
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker: object) -> None:
    """Keep the loaded application out of the garbage collector's full passes.

    A worker holds some hundred thousand long-lived objects (Django, DRF, the URL and schema
    tables), and every full collection walked all of them: under load each one stopped the
    worker's threads for 30-100 ms (measured with gc.callbacks during ``make loadtest``), which
    was most of the moves' p99. Frozen after start-up, they are never walked again.
    """
    import gc

    gc.collect()
    gc.freeze()
