#!/usr/bin/env bash
# `make stack`: the production processes (granian, Celery worker, Celery beat, and the edge: Caddy
# in front of granian, deploy/caddy.sh) from the Procfile, run by honcho on this machine against
# the local PostgreSQL and Redis. The edge serves https://localhost:$((PORT+443)) with a certificate
# of its own local CA (`tls internal`); granian also answers plain HTTP on loopback (the load test
# and the fault tests talk to it), so HTTPS redirects and secure cookies are off here; everything
# else is as in production. Without caddy (apt-get install caddy) it runs without the edge.
set -euo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/yukon}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
export DEBUG=${DEBUG:-0}
export DB_CONN_MAX_AGE=${DB_CONN_MAX_AGE:-60}
export SECURE_SSL_REDIRECT=${SECURE_SSL_REDIRECT:-0}
export SESSION_COOKIE_SECURE=${SESSION_COOKIE_SECURE:-0}
export SECURE_HSTS_SECONDS=${SECURE_HSTS_SECONDS:-0}
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-127.0.0.1,localhost}
export PORT=${PORT:-8000}
export SITE_URL=${SITE_URL:-https://localhost:${HTTPS_PORT:-$((PORT + 443))}}  # the links in mails: the edge's address
export WEB_PORT=$PORT  # honcho hands the web process PORT; the edge reads WEB_PORT (deploy/caddy.sh)
export NUM_PROXIES=${NUM_PROXIES:-1}  # granian listens on loopback: the edge is the one proxy
mkdir -p var
# The processes' metrics (common/metrics.py): a fresh stack, so the last run's counters go.
export METRICS_DIR=${METRICS_DIR:-$PWD/var/metrics}
mkdir -p "$METRICS_DIR" && find "$METRICS_DIR" -name '*.db' -type f -delete
if [ -z "${SECRET_KEY:-}" ]; then
  # A key of this machine's own, made once and kept out of the repository.
  [ -s var/secret_key ] || .venv/bin/python -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
  SECRET_KEY=$(cat var/secret_key)
  export SECRET_KEY
fi

# Create the database if it does not exist yet (PostgreSQL only), then migrate.
.venv/bin/python - <<'PY'
import os
from urllib.parse import urlparse

import psycopg

url = urlparse(os.environ["DATABASE_URL"])
if url.scheme.startswith("postgres"):
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")
PY
.venv/bin/python manage.py migrate --noinput
.venv/bin/python manage.py collectstatic --noinput -v0  # the hashed, compressed files DEBUG=0 serves
if [ $# -eq 0 ] && ! command -v caddy >/dev/null; then
  echo "caddy is not installed (apt-get install caddy): no edge, granian alone"
  set -- web worker beat
fi
echo "serving http://127.0.0.1:$PORT/ (granian) and https://localhost:${HTTPS_PORT:-$((PORT + 443))}/ (Caddy)," \
  "with a Celery worker and beat; Ctrl+C stops all"
exec .venv/bin/honcho start -f Procfile "$@"
