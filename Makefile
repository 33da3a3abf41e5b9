# Yukon Solitaire online. `make run` serves http://127.0.0.1:8000/ (PORT=8001 make run: another
# port), `make dev` the same for developers (DEBUG on), `make test` runs every test.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
NODE   ?= node
# The install is redone only when pyproject.toml changes (its hash names the stamp).
STAMP  := $(VENV)/.installed-$(shell sha256sum pyproject.toml | cut -c1-16)

.PHONY: install run dev test bench migrate lint typecheck schema stack loadtest test-faults messages lighthouse backup restore

# The pages' npm packages (frontend/package.json, pinned by its package-lock.json): Pyodide and
# Workbox, copied to var/vendor/ (frontend/vendor.mjs), which Django serves as static files. Redone
# when the lock file changes.
VENDOR := var/vendor/.installed-$(shell sha256sum frontend/package-lock.json | cut -c1-16)

install: $(STAMP) $(VENDOR)


$(VENDOR): frontend/package-lock.json frontend/vendor.mjs
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	$(NODE) frontend/vendor.mjs
	@touch $@

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
	print("\n".join(p["dependencies"] + p["optional-dependencies"]["dev"]))' > $(VENV)/requirements.txt
	$(PY) -m pip install --disable-pip-version-check -q -r $(VENV)/requirements.txt
	@rm -f $(VENV)/.installed-*
	@touch $@

migrate: install
	$(PY) manage.py migrate --noinput

# The site on this machine as a player meets it: its own error pages (DEBUG off), one process on
# 127.0.0.1:$(PORT) over plain HTTP (LOCAL_RUN: no Redis, no HTTPS, the static files served from the
# apps; yukon_site/settings.py). `make dev` (or DEBUG=1 make run): Django's debug pages, for
# developers, and the code reloaded when it changes. Today's and tomorrow's daily deals are certified
# before it serves (no beat runs here).
PORT  ?= 8000
DEBUG ?= 0
RUN_ENV = LOCAL_RUN=1 DEBUG=$(DEBUG) PORT=$(PORT)

run: migrate
	$(RUN_ENV) $(PY) manage.py daily_prepare
	$(RUN_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

dev:
	$(MAKE) run DEBUG=1

# The page modules' unit tests (tests/js/*.test.mjs) run first, on Node's own runner (Debian's
# nodejs, no npm package; about a second), then pytest, whose exit code ends the recipe (.ci/run
# reads pytest's 5, nothing collected, from it). JS_TESTS= leaves them out (.ci/run's second phase).
JS_TESTS ?= tests/js/

test: install
	$(if $(JS_TESTS),$(NODE) --test $(JS_TESTS))
	$(PY) -m pytest $(PYTEST_ARGS)

bench: install
	$(PY) bench/run_all.py

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

# mypy --strict on the rules engine and the solver; the Django apps with the Django and DRF stubs at
# the level pyproject.toml's [tool.mypy] sets (see there).
typecheck: install
	$(PY) -m mypy --strict games/engine games/solver
	$(PY) -m mypy accounts common games stats social frontend yukon_site

# The texts' gettext catalogues (locale/): gather the texts of the code, the templates and the
# scripts into the .po files, then compile the .mo files, which are committed, so that running the
# service needs no gettext tools (these targets do: apt-get install -y gettext). No source line
# references (--no-location): they changed with every edit and made parallel branches conflict.
MESSAGES_IGNORE := --ignore=var --ignore=tests --ignore=bench --ignore=deploy --ignore=artifacts
messages: install
	$(PY) manage.py makemessages -l de --no-obsolete --no-location $(MESSAGES_IGNORE)
	$(PY) manage.py makemessages -d djangojs -l de --no-obsolete --no-location $(MESSAGES_IGNORE) --ignore=frontend/static/frontend/vendor
	$(PY) manage.py compilemessages --ignore=.venv

schema: install
	$(PY) manage.py spectacular --validate --fail-on-warn --file var/schema.yaml

# The production processes (granian web server, Celery worker and beat, and Caddy in front: https://localhost:8443/)
# on this machine, against the local PostgreSQL and Redis (DATABASE_URL / REDIS_URL override the defaults).
# See deploy/stack.sh.
stack: install
	deploy/stack.sh

# Backups (deploy/backup.sh, deploy/restore.sh): `make backup` writes the database as one dated pg_dump file
# (custom format) to BACKUP_DIR (var/backups); `make restore FILE=...` puts it back (stop the stack first).
# DATABASE_URL names the database (make stack's by default); BACKUP_COMPOSE=1 for the docker-compose.yml one.
backup:
	deploy/backup.sh

restore:
	deploy/restore.sh "$(FILE)"

# Many simulated players against `make stack` on PostgreSQL (it starts one if none answers).
loadtest: install
	$(PY) bench/loadtest.py $(LOADTEST_ARGS)

# Restart PostgreSQL and Redis and SIGKILL the worker under load; nothing answered 2xx may be lost.
test-faults: install
	YUKON_FAULT_TESTS=1 $(PY) -m pytest tests/faults $(PYTEST_ARGS)

# Lighthouse's scores and CLS/LCP/TBT of every page, mobile and desktop, against granian with DEBUG=0 on
# PostgreSQL and Redis (a benchmark, not a test; bench/lighthouse/run.py). LIGHTHOUSE_ARGS: e.g. --runs 1.
lighthouse: install
	cd bench/lighthouse && { [ -d node_modules ] || npm ci --no-audit --no-fund; }
	CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} PORT=$${PORT:-8102} $(PY) bench/lighthouse/run.py $(LIGHTHOUSE_ARGS)
