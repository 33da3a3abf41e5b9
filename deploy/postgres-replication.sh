#!/usr/bin/env bash
# Run once by the postgres image on its first start (/docker-entrypoint-initdb.d): a role that a
# streaming replica connects as (docker-compose.yml, service postgres-replica), if
# POSTGRES_REPLICATION_PASSWORD is set, and the line of pg_hba.conf that lets it stream.
set -euo pipefail
if [ -z "${POSTGRES_REPLICATION_PASSWORD:-}" ]; then
  exit 0
fi
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v password="$POSTGRES_REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
