#!/usr/bin/env bash
# `make backup`: everything PostgreSQL holds (accounts, tokens, sessions, games, move logs, results,
# daily deals and boards) as one pg_dump file in its custom format (compressed; pg_restore can pick
# from it), named by the time in UTC: $BACKUP_DIR/yukon-YYYYmmddTHHMMSSZ.dump (var/backups). The dump
# is one consistent snapshot and takes no lock that stops the site. Redis needs no backup (README).
#
# Where the database is: DATABASE_URL if set (make stack's own default otherwise); with
# BACKUP_COMPOSE=1 (the docker-compose.yml stack), pg_dump runs in the postgres container.
# BACKUP_KEEP=N: then only the newest N dumps in BACKUP_DIR are kept (all by default).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${BACKUP_DIR:-var/backups}
mkdir -p "$dir"
file="$dir/yukon-$(date -u +%Y%m%dT%H%M%SZ).dump"
partial="$file.partial"  # renamed once complete: a dump that failed halfway is never taken for one
trap 'rm -f "$partial"' EXIT

# shellcheck disable=SC2016  # expanded in the container
if [ "${BACKUP_COMPOSE:-0}" = 1 ]; then
  docker compose exec -T postgres sh -c 'pg_dump --format=custom --username="$POSTGRES_USER" "$POSTGRES_DB"' >"$partial"
  docker compose exec -T postgres pg_restore --list >/dev/null <"$partial"  # a readable archive, or no backup
else
  pg_dump --format=custom --file="$partial" "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/yukon}"
  pg_restore --list "$partial" >/dev/null
fi
mv "$partial" "$file"
echo "$file ($(du -h "$file" | cut -f1))"

if [ -n "${BACKUP_KEEP:-}" ]; then
  ls -1t "$dir"/yukon-*.dump | tail -n +"$((BACKUP_KEEP + 1))" | xargs -r rm -f --
fi
