#!/usr/bin/env bash
# `make restore FILE=var/backups/yukon-....dump`: the database as it was in that dump (deploy/backup.sh).
# Every table the dump has is dropped and restored in one transaction (an error changes nothing);
# the database is created first if it is gone. Then the cache entries are deleted (cached copies
# of sessions and accounts must not outlive the rows the restore took back); the Celery queues in
# the same Redis database stay.
#
# Stop what writes first: `make stack` (Ctrl+C), or with BACKUP_COMPOSE=1 (the docker-compose.yml
# stack) this script stops web, worker and beat itself and starts them again afterwards.
# Where the database and the cache are: DATABASE_URL and REDIS_URL if set (make stack's defaults otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."

file=${1:?usage: make restore FILE=path/to/yukon-....dump}
[ -r "$file" ] || { echo "no such backup: $file" >&2; exit 1; }
options=(--clean --if-exists --no-owner --no-privileges --single-transaction --exit-on-error)

if [ "${BACKUP_COMPOSE:-0}" = 1 ]; then
  # Refuse anything that is not a pg_dump archive before touching the data.
  docker compose exec -T postgres pg_restore --list >/dev/null <"$file"
  docker compose stop web worker beat
  # shellcheck disable=SC2016  # expanded in the container
  docker compose exec -T postgres sh -c \
    'createdb --username="$POSTGRES_USER" "$POSTGRES_DB" 2>/dev/null || true; pg_restore '"${options[*]}"' --username="$POSTGRES_USER" --dbname="$POSTGRES_DB"' <"$file"
  docker compose run --rm --no-deps web python manage.py clear_cache
  docker compose start web worker beat
else
  pg_restore --list "$file" >/dev/null
  export DATABASE_URL=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/yukon}
  export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
  python=.venv/bin/python
  [ -x "$python" ] || python=python
  # The database again if it was dropped (on the server's maintenance database `postgres`).
  "$python" - <<'PY'
import os
from urllib.parse import urlparse

import psycopg

url = urlparse(os.environ["DATABASE_URL"])
name = url.path.lstrip("/")
with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
    if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
        conn.execute(f'CREATE DATABASE "{name}"')
        print(f"created database {name}")
PY
  pg_restore "${options[@]}" --dbname="$DATABASE_URL" "$file"
  "$python" manage.py clear_cache
fi
echo "restored $file"
