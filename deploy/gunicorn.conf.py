"""gunicorn settings for the web process (``make stack`` and the container image).

Sync workers: a request is a short, mostly CPU-bound transaction, so one request per process is
the cheapest model; scale out with more processes here and more machines behind the balancer.
"""

import multiprocessing
import os

bind = os.environ.get("BIND", f"127.0.0.1:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
backlog = 2048
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 20000  # recycle workers now and then (bounded memory), with jitter
max_requests_jitter = 2000
accesslog = None  # the app writes JSON access lines with the request id
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
