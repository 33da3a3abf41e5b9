#!/usr/bin/env bash
# The edge of `make stack` (Procfile `edge`): Caddy from the Debian package (`apt-get install caddy`),
# run as a plain process with deploy/Caddyfile in front of granian, with a certificate of Caddy's own
# local CA (`tls internal`) for DOMAIN (localhost), on unprivileged ports: HTTPS on WEB_PORT+443
# (8443), plain HTTP (a redirect to HTTPS) on WEB_PORT+80 (8080), unless HTTPS_PORT/HTTP_PORT say
# otherwise. WEB_PORT is granian's port (stack.sh sets it; honcho gives each process a PORT of its own).
# Its local CA, certificates and state live in CADDY_HOME (var/caddy), not in the user's home.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${WEB_PORT:-${PORT:-8000}}
export DOMAIN=${DOMAIN:-localhost}
export UPSTREAM=${UPSTREAM:-127.0.0.1:$port}
export STATIC_DIR=${STATIC_DIR:-$PWD/var/static}
export CADDY_TLS=${CADDY_TLS-tls internal}
export HTTPS_PORT=${HTTPS_PORT:-$((port + 443))}
export HTTP_PORT=${HTTP_PORT:-$((port + 80))}
home=${CADDY_HOME:-$PWD/var/caddy}
mkdir -p "$home"
export XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config
exec caddy run --config deploy/Caddyfile --adapter caddyfile
