#!/usr/bin/env bash
# The web process (Procfile, container image): granian serving yukon_site.wsgi.
#
# Why granian and these numbers, measured with bench/loadtest.py on the 2-core machine (64 players;
# paced phase: 515 moves/s in all), same application code, each server started by hand in the load
# generator's session (`--url`):
#   gunicorn gthread, 2 processes x 4 threads: 636-642 moves/s flat out, paced p99 56-93 ms
#   granian, 4 processes x 2 threads:          729-775 moves/s flat out, paced p99 19-28 ms
#   (granian 4 x 1: 727-799 and 23-26 ms; 2 x 1: 673 and 54 ms)
# Under `make loadtest` (honcho gives every process a session, which the kernel's autogroup
# scheduling weighs like the load generator: see README) granian 4 x 2 did 713-730 moves/s with
# a paced p99 of 50-71 ms, gunicorn 2 x 4 625-660 and 29-130 ms.
# granian parses HTTP and keeps the connections in Rust: a move costs ~0.3 ms less CPU in the web
# process (1.7 instead of 2.0 ms), and a trivial request about half.
# Two processes per core with two threads each: while one request waits on PostgreSQL or
# Redis another runs, and a slow request (a hint's solver) never holds up a whole process.
#
# Environment: BIND (default 127.0.0.1:$PORT), WEB_CONCURRENCY (processes; 2 per core),
# WEB_THREADS (per process; 2), WEB_WORKER_LIFETIME (a process is replaced after this long,
# which bounds its memory; 6h). Behind a load balancer, which must set X-Forwarded-Proto, and
# X-Forwarded-For if NUM_PROXIES says to trust it (.env.example; 0 by default: not trusted).
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
