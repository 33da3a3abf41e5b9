#!/usr/bin/env bash
# The web process (Procfile, container image): granian serving yukon_site.wsgi.
#
# Why granian and these numbers, measured with `make loadtest` on the 2-core machine (64 players;
# paced phase: 515 moves/s in all):
#   gunicorn gthread, 2 processes x 4 threads: 660 moves/s flat out, paced p99 51-60 ms
#   gunicorn gthread, 4 x 1:                   658 moves/s,          paced p99 41 ms
#   granian, 4 processes x 2 threads:          775 moves/s,          paced p95 11 ms, p99 19 ms
# granian parses HTTP and keeps the connections in Rust: a request costs ~0.25 ms less Python
# than in gunicorn, and no request waits behind another thread's HTTP parsing for the GIL.
# Two processes per core with two threads each: while one request waits on PostgreSQL or
# Redis another runs, and a slow request (a hint's solver) never holds up a whole process.
#
# Environment: BIND (default 127.0.0.1:$PORT), WEB_CONCURRENCY (processes; 2 per core),
# WEB_THREADS (per process; 2), WEB_WORKER_LIFETIME (a process is replaced after this long,
# which bounds its memory; 6h). Behind a load balancer, which must set X-Forwarded-Proto and
# X-Forwarded-For (see NUM_PROXIES in .env.example).
set -euo pipefail
cd "$(dirname "$0")/.."

bind=${BIND:-127.0.0.1:${PORT:-8000}}
granian=.venv/bin/granian
[ -x "$granian" ] || granian=granian  # the container image has it on PATH

exec "$granian" --interface wsgi \
  --host "${bind%:*}" --port "${bind##*:}" \
  --workers "${WEB_CONCURRENCY:-$((2 * $(nproc)))}" --blocking-threads "${WEB_THREADS:-2}" \
  --backlog 2048 \
  --respawn-failed-workers --workers-lifetime "${WEB_WORKER_LIFETIME:-6h}" --workers-kill-timeout 20s \
  --no-access-log \
  yukon_site.wsgi:application
