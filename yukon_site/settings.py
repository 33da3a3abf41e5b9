"""Settings, read from the environment with embedded defaults for development.

Unset, everything runs on one machine with nothing else installed: a SQLite file under
``var/``, an in-process cache, and Celery tasks executed eagerly in the request. Set
``DATABASE_URL`` (e.g. ``postgres://postgres@127.0.0.1:5432/yukon``) and ``REDIS_URL``
(e.g. ``redis://127.0.0.1:6379/0``) and the same code runs on PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import csp.constants
import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from common.limits import rates_from_env
from common.mail import email_settings
from frontend.headers import static_headers

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEV_SECRET_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY
# DEBUG shows Django's debug pages (a traceback, every URL of the site) instead of the site's own
# error pages: for developers (`make dev`), never for players.
DEBUG = env_bool("DEBUG", True)
# `make run`: the site on this machine as a player meets it (DEBUG off: the site's own error pages),
# one runserver process on loopback over plain HTTP. So it needs no Redis (one process, one cache),
# no HTTPS, no secret key of its own, and serves the static files from the apps as they are (no
# collectstatic). Production is DEBUG off without it.
LOCAL_RUN = env_bool("LOCAL_RUN", False)
PRODUCTION = not DEBUG and not LOCAL_RUN
if PRODUCTION and SECRET_KEY == DEV_SECRET_KEY and not env_bool("ALLOW_DEV_SECRET_KEY", False):
    raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY (the development key is public)")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
# The site's own address (scheme and host, e.g. https://yukon.example.com): the links in its mails
# and their "at <site>" come from it, never from a request's Host header (which a client chooses).
# Production must set it (`manage.py check` warns); `make run` serves http://127.0.0.1:$PORT (8000).
SITE_URL = os.environ.get(
    "SITE_URL", "" if PRODUCTION else f"http://127.0.0.1:{os.environ.get('PORT') or '8000'}"
).rstrip("/")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "common",  # first: its runserver (TCP_NODELAY) replaces staticfiles' one
    "yukon_site.apps.AdminConfig",  # django.contrib.admin, its login rate-limited
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "stats",
    "social",
    "frontend",
]

MIDDLEWARE = [
    "common.observability.RequestIdMiddleware",
    "common.metrics.MetricsMiddleware",  # request durations and answers by route (/metrics)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",  # the Content-Security-Policy below, on every answer but static files
    "frontend.middleware.PageGZipMiddleware",  # pages gzipped (why that is safe from BREACH: there)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "common.middleware.RefuseNulMiddleware",  # after the locale: its answer is in the request's language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.LoginSessionMiddleware",  # the account page's list of signed-in sessions
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "common.middleware.ApiErrorMiddleware",
    "common.devices.DeviceIdMiddleware",  # the device id cookie of fair play (docs/fair-play.md)
]

ROOT_URLCONF = "yukon_site.urls"
WSGI_APPLICATION = "yukon_site.wsgi.application"
ASGI_APPLICATION = "yukon_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# -- database ----------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # A kept connection can be checked (one more round trip) before each request reuses it, so
        # that a restarted PostgreSQL costs no failed request. Off, the one request per process
        # that meets the dead connection answers 503 (and is retried), and the next reconnects.
        conn_health_checks=env_bool("DB_HEALTH_CHECKS", False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue up at BEGIN instead of failing with "database is locked" mid-transaction;
    # WAL lets readers go on while one writes, and commits without a sync of every page.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Fail fast (then 503) instead of hanging while PostgreSQL is unreachable.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 3)
    # Behind PgBouncer in transaction mode (docker-compose.yml: DB_POOLER=transaction) a cursor
    # cannot outlive its transaction: no server-side cursors (Django's advice for poolers).
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = os.environ.get("DB_POOLER", "") == "transaction"
# A streaming replica of PostgreSQL (DATABASE_REPLICA_URL): the read-only answers (the boards, the
# archive, the players' profiles) read from it through common.db.ReplicaRouter; everything else,
# and every write, goes to the primary. Its tests use the primary's test database.
if DATABASE_REPLICA_URL := os.environ.get("DATABASE_REPLICA_URL", ""):
    DATABASES["replica"] = {
        **dj_database_url.parse(
            DATABASE_REPLICA_URL,
            conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
            conn_health_checks=DATABASES["default"]["CONN_HEALTH_CHECKS"],
        ),
        "OPTIONS": {**DATABASES["default"].get("OPTIONS", {})},
        "TEST": {"MIRROR": "default"},
    }
DATABASE_ROUTERS = ["common.db.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- cache, sessions ---------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if PRODUCTION and not REDIS_URL:
    # Without it each process would keep its own cache: every web process its own rate-limit
    # counters (N processes, N times the limits) and its own token cache (a revoked token would
    # live on in the others for a minute), and Celery would run the tasks inside the requests.
    raise ImproperlyConfigured(
        "DEBUG is off: set REDIS_URL (e.g. redis://127.0.0.1:6379/0). Production needs Redis, shared by "
        "every process, for the rate limits, the token cache and the Celery broker."
    )
CACHES = {
    "default": (
        {"BACKEND": "common.cache.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
SESSION_ENGINE = "common.sessions"  # in the database, read from the cache (Redis)
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90  # guests keep their games for 90 days of inactivity
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

# -- security: production (DEBUG off) is HTTPS-only unless the environment says otherwise -------
# Behind a load balancer that ends TLS, it must set X-Forwarded-Proto. (`make run` is plain HTTP.)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", PRODUCTION)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]  # probes and scrapers: plain HTTP inside the network
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if PRODUCTION else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp), the same wherever the site runs: scripts, styles, images,
# fonts and requests from the site's own origin only. The one inline script (the play page's
# "how-to seen" class, set before the first paint) carries the answer's nonce; nothing inline runs
# without it, and nothing may frame the site, change its base URL or post a form elsewhere.
# `data:` images: the favicon and the chart's canvas exports. tests/site/test_csp.py checks it on
# every kind of answer, and the browser tests fail on any violation (tests/frontend/conftest.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.constants.SELF],
        "script-src": [csp.constants.SELF, csp.constants.NONCE],
        "style-src": [csp.constants.SELF],
        "img-src": [csp.constants.SELF, "data:"],
        "connect-src": [csp.constants.SELF],
        "object-src": [csp.constants.NONE],
        "frame-ancestors": [csp.constants.NONE],
        "base-uri": [csp.constants.NONE],
        "form-action": [csp.constants.SELF],
    }
}

# -- Celery ------------------------------------------------------------------------------------
# Two queues: `solver` for the tasks that run the solver for seconds (the post-mortems, the
# clairvoyance test on request, certifying the daily deals), `celery` for the rest (the boards, the
# reviews, mail, packing logs). A worker without -Q takes both (make stack, CI); at scale, workers
# of their own for each (docker-compose.yml: worker and solver), so that a burst of post-mortems
# never delays a board.
SOLVER_TASKS = (
    "games.game_postmortem",
    "games.clairvoyance_check",
    "games.daily_deals_prepare",
    "games.winnable_decide",
    "games.winnable_deals_fill",
)
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (Queue("celery"), Queue("solver"))
CELERY_TASK_ROUTES = {name: {"queue": "solver"} for name in SOLVER_TASKS}
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# Redelivery of an unacknowledged task waits this long: well above any task's time limit.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True  # they are re-delivered anyway
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # The daily competition closes at 00:00 UTC: the unfinished ranked attempts of the day that
    # ended become practice (and again every few minutes, in case a beat was missed).
    "daily-close": {"task": "games.daily_attempts_close", "schedule": crontab(minute="0,10,20,30,40,50")},
    # Today's and the next days' deals, certified by the solver ahead of time, and a few spares:
    # no request ever waits for the solver.
    "daily-deals": {"task": "games.daily_deals_prepare", "schedule": 600.0},
    # The pool of certified winnable deals that "winnable deals only" deals from (games/play/winnable.py).
    "winnable-deals": {"task": "games.winnable_deals_fill", "schedule": 60.0},
    # Safety net behind the per-game tasks: rebuild yesterday's and today's boards.
    "daily-boards": {
        "task": "stats.daily_boards_rebuild",
        "schedule": float(os.environ.get("DAILY_BOARDS_REBUILD_SECONDS", "600")),
    },
    # Safety net behind the per-result tasks: the week standings of the clubs that played lately.
    "club-weeks": {
        "task": "social.club_weeks_rebuild",
        "schedule": float(os.environ.get("CLUB_WEEKS_REBUILD_SECONDS", "1800")),
    },
    # Safety net behind the per-game tasks: the bests of recent wins again (idempotent).
    "personal-bests": {"task": "stats.personal_bests_repair", "schedule": 600.0},
    # A solver's post-mortem of yesterday's top results (every other game's when its replay is opened).
    "postmortems": {"task": "games.postmortems_pending", "schedule": 60.0},
    # Idempotency records only need to outlive a client's retries.
    "idempotency-prune": {"task": "games.idempotency_records_prune", "schedule": 3600.0},
    "fairplay-links-prune": {"task": "games.fairplay_links_prune", "schedule": 3600.0},
    # Safety net behind the review task of each ranked win: the wins still pending (a task lost in
    # flight: a worker killed, or the broker gone while the clairvoyance test ran).
    "ranked-reviews": {
        "task": "games.ranked_reviews_pending",
        "schedule": float(os.environ.get("RANKED_REVIEWS_SWEEP_SECONDS", "60")),
    },
    "login-sessions-prune": {"task": "accounts.login_sessions_prune", "schedule": 3600.0},
    # What is kept, and for how long (games/lifecycle.py): ended sessions with their guests' games,
    # unfinished practice games left alone.
    "data-prune": {"task": "games.data_prune", "schedule": 3600.0},
    # Safety net behind the task sent at each win: the logs of recent wins still to be packed.
    "logs-pack": {"task": "games.logs_pack_pending", "schedule": 3600.0},
}
# games/movelog.py: a won game's log is packed by a task sent at the win; hourly, the wins of the
# last LOG_PACK_SWEEP_HOURS whose logs were not (a task lost in flight) are packed.
LOG_PACK_SWEEP_HOURS = int(os.environ.get("LOG_PACK_SWEEP_HOURS", "26"))
# games/lifecycle.py: an ended session is removed this many days later, and with it its guest's
# games that no account took over; an unfinished practice game without a move for IDLE_GAMES_DAYS
# is removed, its player told on the list of games IDLE_GAMES_WARN_DAYS before.
SESSIONS_ENDED_KEEP_DAYS = int(os.environ.get("SESSIONS_ENDED_KEEP_DAYS", "7"))
IDLE_GAMES_DAYS = int(os.environ.get("IDLE_GAMES_DAYS", "90"))
IDLE_GAMES_WARN_DAYS = int(os.environ.get("IDLE_GAMES_WARN_DAYS", "14"))

# -- the daily deal (games/competition/daily.py) ------------------------------------------------------------
# One opening and DAILY_ARRANGEMENTS arrangements of its face-down cards a day (docs/daily.md),
# each certified winnable by the solver before it is used, within DAILY_CERTIFY_NODES nodes (and
# DAILY_CERTIFY_SECONDS of CPU; an arrangement the solver cannot settle so quickly is not used), and
# only those whose par lies within DAILY_PAR_BAND moves of the opening's median par (equally
# hard). Done by the beat task, ahead of time: 16,384 take about 70 CPU seconds. `make run` serves one
# machine and keeps 1,024 a day (seconds to prepare), unless told otherwise.
DAILY_ARRANGEMENTS = int(os.environ.get("DAILY_ARRANGEMENTS", "1024" if LOCAL_RUN else "16384"))
DAILY_CERTIFY_NODES = int(os.environ.get("DAILY_CERTIFY_NODES", "5000"))
DAILY_CERTIFY_SECONDS = float(os.environ.get("DAILY_CERTIFY_SECONDS", "1"))
DAILY_PAR_BAND = int(os.environ.get("DAILY_PAR_BAND", "4"))
# The public board of a day counts the accounts established when it began (stats/established.py,
# issue 46): made before that day, with a ranked attempt played on at least this many earlier days
# (0: every account counts, as before).
BOARD_ESTABLISHED_DAYS = int(os.environ.get("BOARD_ESTABLISHED_DAYS", "1"))
# Days after today whose deals are ready, and spare certified deals kept besides.
DAILY_DAYS_AHEAD = int(os.environ.get("DAILY_DAYS_AHEAD", "1"))
DAILY_SPARE_DEALS = int(os.environ.get("DAILY_SPARE_DEALS", "3"))
# -- "still winnable?" and winnable deals (games/play/winnable.py) -----------------------------------
# CPU seconds the worker's solver has for deciding a game's deal as it is dealt, or a position the
# request's small budget could not settle (then the answer is "unknown" after all).
WINNABLE_DECIDE_SECONDS = float(os.environ.get("WINNABLE_DECIDE_SECONDS", "3"))
# Deals of each rule kept for "winnable deals only", each won by the solver within
# WINNABLE_CERTIFY_SECONDS of CPU. They are dealt again and again (a random one the player has not
# had), so nobody can empty the pool; the beat grows it by WINNABLE_FILL_BATCH a minute up to
# WINNABLE_POOL_SIZE (500 classic deals: about 90 s of the worker's CPU, once; docs/capacity.md).
WINNABLE_POOL_SIZE = int(os.environ.get("WINNABLE_POOL_SIZE", "500"))
WINNABLE_FILL_BATCH = int(os.environ.get("WINNABLE_FILL_BATCH", "20"))
WINNABLE_CERTIFY_SECONDS = float(os.environ.get("WINNABLE_CERTIFY_SECONDS", "1"))
# A won ranked attempt faster than a human is held for review (docs/fair-play.md): under this long
# in all, or with a median gap between consecutive moves under this.
RANKED_REVIEW_MIN_TIME_MS = int(os.environ.get("RANKED_REVIEW_MIN_TIME_MS", "60000"))
RANKED_REVIEW_MIN_MEDIAN_GAP_MS = int(os.environ.get("RANKED_REVIEW_MIN_MEDIAN_GAP_MS", "400"))
# A win still pending this long after it was won has lost its review task: the sweep reviews it
# (above the longest review: the clairvoyance test takes up to ~30 s of CPU, docs/fair-play.md).
RANKED_REVIEW_LOST_AFTER_SECONDS = int(os.environ.get("RANKED_REVIEW_LOST_AFTER_SECONDS", "90"))
# Days the fair-play links (device id hash, salted network hash) of a daily start are kept.
FAIRPLAY_RETENTION_DAYS = int(os.environ.get("FAIRPLAY_RETENTION_DAYS", "30"))
# An attempt of a day's deal, won or not, with at least this many moves and a median gap between
# them under RANKED_REVIEW_MIN_MEDIAN_GAP_MS marks its account suspect for that day (issue 24).
FAIRPLAY_SUSPECT_MIN_MOVES = int(os.environ.get("FAIRPLAY_SUSPECT_MIN_MOVES", "50"))
# A ranked attempt with a window of FAIRPLAY_SUSPECT_MIN_MOVES entries played at under this many ms
# each on average is at a machine's pace: its account is suspect that day, linked or not (issue 39).
FAIRPLAY_MACHINE_GAP_MS = int(os.environ.get("FAIRPLAY_MACHINE_GAP_MS", "100"))
# The clairvoyance test (games/competition/clairvoyance.py) runs in the review of every ranked win
# that would enter its day's top this many (0: none; staff can still ask for it in the admin), and
# at the close on the top results not checked yet (issue 39). A few seconds of CPU a win.
FAIRPLAY_CLAIRVOYANCE_TOP = int(os.environ.get("FAIRPLAY_CLAIRVOYANCE_TOP", "100"))
# Probes across days (games/competition/probes.py, issue 46): a ranked attempt left after 1 to
# FAIRPLAY_PROBE_MAX_MOVES moves is a probe; an account with FAIRPLAY_PROBE_DAYS probe days among
# the FAIRPLAY_PROBE_WINDOW_DAYS days before a win has that win held (``probe``; 0 days: never).
FAIRPLAY_PROBE_MAX_MOVES = int(os.environ.get("FAIRPLAY_PROBE_MAX_MOVES", "15"))
FAIRPLAY_PROBE_DAYS = int(os.environ.get("FAIRPLAY_PROBE_DAYS", "3"))
FAIRPLAY_PROBE_WINDOW_DAYS = int(os.environ.get("FAIRPLAY_PROBE_WINDOW_DAYS", "14"))
# A held win's player is told staff look at it within this many hours of its day's close.
FAIRPLAY_REVIEW_HOURS = int(os.environ.get("FAIRPLAY_REVIEW_HOURS", "24"))
# The post-mortem of a finished game (games/help/postmortem.py): the solver's node budget per position
# (about 0.1 s of CPU) and the most positions it is asked about per game.
POSTMORTEM_NODES = int(os.environ.get("POSTMORTEM_NODES", "100000"))
POSTMORTEM_MAX_SOLVES = int(os.environ.get("POSTMORTEM_MAX_SOLVES", "24"))
# It runs when a player opens a finished game's replay, and, once a day is over, for that day's
# this many top results (its public replays, which most players open): never for every game
# (docs/capacity.md).
POSTMORTEM_DAILY_TOP = int(os.environ.get("POSTMORTEM_DAILY_TOP", "10"))

# -- auth --------------------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = ["accounts.authentication.CachedModelBackend"]  # a session's account, cached
# Where the admin's login goes when its `next` is missing or points off the site (Django's default,
# /accounts/profile/, is no page here). The site's own login is the API's and says where to go itself.
LOGIN_REDIRECT_URL = "/admin/"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Names a new account may not take, whatever their case and without their _ - . (they would pretend
# to be the site); RESERVED_USERNAMES adds to them (comma-separated).
RESERVED_USERNAMES = [
    "admin",
    "administrator",
    "root",
    "staff",
    "support",
    "moderator",
    "mod",
    "system",
    "yukon",
    "yukonsolitaire",
    "solitaire",
    "deleted",
    "deletedplayer",
    "guest",
    "anonymous",
    "official",
    "team",
    "help",
    "info",
    "security",
    "webmaster",
    "postmaster",
    "noreply",
    "api",
    *env_list("RESERVED_USERNAMES", ""),
]

# Password reset links (Django's tokens) are valid one day; e-mail confirmation links three days.
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(24 * 3600)))
EMAIL_CONFIRM_TIMEOUT = int(os.environ.get("EMAIL_CONFIRM_TIMEOUT", str(3 * 24 * 3600)))
# The link to undo a change of the account's address, mailed to the address before: a week.
EMAIL_UNDO_TIMEOUT = int(os.environ.get("EMAIL_UNDO_TIMEOUT", str(7 * 24 * 3600)))

# -- e-mail (password reset, address confirmation) ----------------------------------------------
# EMAIL_URL: smtp://user:password@host:587 (STARTTLS: port 587 or ?tls=1), smtps://user:password@host:465
# (TLS from the start), read like DATABASE_URL (common/mail.py). Unset: the mails are printed on the
# console (`make run`: the links appear in the terminal).
EMAIL_URL = os.environ.get("EMAIL_URL", "")
globals().update(email_settings(EMAIL_URL))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Yukon Solitaire <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# -- languages, time ---------------------------------------------------------------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", "Deutsch"), ("en", "English")]
USE_I18N = True
LOCALE_PATHS = [BASE_DIR / "locale"]  # make messages; the .mo files are committed
TIME_ZONE = "UTC"
USE_TZ = True

# -- static files ------------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"  # collectstatic's target; made here so WhiteNoise finds it
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Minified, hashed names, gzip and brotli copies, served with immutable caching (frontend/storage.py).
# With DEBUG off the pages name the hashed files: `manage.py collectstatic` must have run (Dockerfile,
# deploy/stack.sh). Under DEBUG (`make dev`) and `make run` they name the plain files, which WhiteNoise
# serves from the apps (no collectstatic: the first one compresses for two minutes).
STATIC_FROM_APPS = DEBUG or LOCAL_RUN
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if LOCAL_RUN
        else "frontend.storage.StaticStorage"
    },
}
WHITENOISE_USE_FINDERS = STATIC_FROM_APPS
# The npm packages the pages load as published (Pyodide, Workbox): `make install` copies them to
# var/vendor/ (frontend/vendor.mjs), served under static/frontend/vendor/ beside the vendored Chart.js.
STATICFILES_DIRS = [("frontend/vendor", VAR_DIR / "vendor")]
# The engine's Web Worker (offline practice) gets a policy of its own: WebAssembly may compile
# there ('wasm-unsafe-eval', Pyodide), and nowhere else; no page needs it (frontend/headers.py).
WHITENOISE_ADD_HEADERS_FUNCTION = static_headers

# -- API ---------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous API call gets 401 with "WWW-Authenticate: Token".
        "accounts.authentication.StrictTokenAuthentication",
        "accounts.authentication.GuestSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": ["common.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.errors.api_exception_handler",
    # OPTIONS: the view's name, media types and the schema's address (DRF's own asserted: 500).
    "DEFAULT_METADATA_CLASS": "common.metadata.ApiMetadata",
    # How many proxies in front of the web processes append to X-Forwarded-For (1 behind one load
    # balancer). 0: the throttles count the connection's address and ignore that header, which a
    # client could otherwise set to anything to dodge the per-IP limits.
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Per player (account or guest session) and per IP; a 429 says when to retry.
    "DEFAULT_THROTTLE_RATES": rates_from_env(),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Yukon Solitaire API",
    "DESCRIPTION": (
        "Play Yukon Solitaire against a server that checks every move. Authenticate with the "
        "session cookie (browser; unsafe methods need the `X-CSRFToken` header from the "
        "`csrftoken` cookie) or `Authorization: Token <key>` (API clients). Guests play with "
        "their session cookie and keep their games when they register or log in. Errors are "
        '`{"error": code, "detail": text}` with the text in the language of `Accept-Language` '
        "(German by default, English)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "RuleEnum": "games.models.RuleChoices",
        "GameStatusEnum": "games.models.StatusChoices",
    },
    # The errors every operation can answer, links from a game's answers to its next steps, examples.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "common.schema.add_common_errors",
        "common.schema.add_links",
        "common.schema.add_examples",
    ],
}

# -- metrics and error reports (README, "Watching the service") ------------------------------------
# /metrics (common/metrics.py) answers 404 unless METRICS_TOKEN is set, then only to
# "Authorization: Bearer <METRICS_TOKEN>".
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The processes' counters, one file per process in a folder per machine (container) under
# METRICS_DIR, added up by /metrics in any web process (deploy/web.sh and deploy/stack.sh set it,
# docker-compose.yml shares it between web and worker). prometheus-client reads
# PROMETHEUS_MULTIPROC_DIR when it is first imported: here, before any app counts anything.
METRICS_DIR = os.environ.get("METRICS_DIR", "")
if METRICS_DIR and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _metrics_folder = Path(METRICS_DIR) / socket.gethostname()
    _metrics_folder.mkdir(parents=True, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(_metrics_folder)
# Errors go to Sentry only when SENTRY_DSN is set; without it the SDK is not even initialised.
# What an event may carry (no card, no daily code, no body): common/sentry.py.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from common.sentry import sentry_init

    sentry_init(
        dsn=SENTRY_DSN, environment=os.environ.get("SENTRY_ENVIRONMENT") or ("development" if DEBUG else "production")
    )

# -- logging: JSON lines with a request id; paths and codes only, never bodies or game states ----
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "common.observability.RequestIdFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "json", "filters": ["request_id"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own request lines would repeat the access line (and warn on every 4xx).
        "django.request": {"level": "ERROR"},
        "django.server": {"level": "ERROR"},
        "yukon.access": {"level": os.environ.get("ACCESS_LOG_LEVEL", "INFO")},
    },
}
