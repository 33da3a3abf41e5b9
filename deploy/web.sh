#!/usr/bin/env bash
# The web process (Procfile, container image): granian serving yukon_site.edge, Django's WSGI
# application behind an ASGI front that receives each request whole before a thread sees it.
#
# Slow clients: under granian's WSGI interface a Django thread read the body itself, so 64
# connections that sent a head and 1 byte of a 100 KB body held all 4 x 2 threads and the site
# answered nothing (/healthz and a move: no answer within 5 s; tests/faults/test_edge.py). Now a
# body is received by granian's event loop (BODY_READ_TIMEOUT, 10 s in all, then 408), a head by
# granian within HEADER_READ_TIMEOUT_MS (10 s); a thread gets only complete requests.
#
# Why granian: it parses HTTP and keeps the connections in Rust, so a request costs less CPU in
# the web process than under gunicorn (measured with the token-move path this project had before
# issue 18, which is gone; bench/loadtest.py now plays as browsers do, and its figures are in the
# README and bench/loadtest_notes.md).
# Two processes per core with two threads each: while one request waits on PostgreSQL or
# Redis another runs, and a slow request (a hint's solver) never holds up a whole process.
#
# Environment: BIND (default 127.0.0.1:$PORT), WEB_CONCURRENCY (processes; 2 per core),
# WEB_THREADS (Django threads per process; 2), WEB_WORKER_LIFETIME (a process is replaced after this long,
# which bounds its memory; 6h). Behind a load balancer, which must set X-Forwarded-Proto, and
# X-Forwarded-For if NUM_PROXIES says to trust it (.env.example; 0 by default: not trusted).
set -euo pipefail
cd "$(dirname "$0")/.."

bind=${BIND:-127.0.0.1:${PORT:-8000}}
# Metrics: each process counts in a file of its own under METRICS_DIR, and /metrics adds them up
# (common/metrics.py); without it a scrape would see one process's counters only.
export METRICS_DIR=${METRICS_DIR:-$PWD/var/metrics}
granian=.venv/bin/granian
[ -x "$granian" ] || granian=granian  # the container image has it on PATH

exec "$granian" --interface asgi --no-ws \
  --host "${bind%:*}" --port "${bind##*:}" \
  --workers "${WEB_CONCURRENCY:-$((2 * $(nproc)))}" \
  --http1-header-read-timeout "${HEADER_READ_TIMEOUT_MS:-10000}" \
  --backlog 2048 \
  --respawn-failed-workers --workers-lifetime "${WEB_WORKER_LIFETIME:-6h}" --workers-kill-timeout 20s \
  --no-access-log \
  yukon_site.edge:application
