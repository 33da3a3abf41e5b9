"""Bad input: schemathesis against the API's own OpenAPI schema (/api/v1/schema/).

Every operation of the schema, and HEAD and OPTIONS of every path (which the schema leaves to
the framework, so this file adds them to its copy), in every phase: the schema's examples, the
coverage phase (boundary values, each parameter and field missing or of the wrong type, methods
the path does not allow, malformed content types) and the fuzzing phase, each as three clients:
a visitor, a logged-in session sending its CSRF token, and a token client. No answer may be a
server error, and every answer has a documented status, content type and body, and an error
code of ``common.errors.ErrorCode``. The stateful runs follow the schema's OpenAPI links (start a game ->
move -> move / undo -> ..., make a token -> revoke it) as a token client and as a session.

Everything runs in-process through Django's WSGI application, on the database of the test run
(SQLite, or PostgreSQL in the second phase of ``.ci/run``); bounded so that the file takes a few
minutes on the project's 2-core machine (the README has the figures).
"""

from __future__ import annotations

import copy
import itertools
import json
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import Client
from django.utils import timezone
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import ApiToken, token_hash
from common.errors import ErrorCode
from common.sessions import SessionStore
from games.competition import clock
from games.competition.daily import daily_deals_prepare
from games.engine import GameCode, Rule
from games.models import DailyDeal, Game, WinnableDeal
from stats.models import PersonalBest
from tests import factories
from yukon_site.celery import app as celery_app
from yukon_site.wsgi import application

# Each request commits, as in production: a failed statement in one request (PostgreSQL aborts
# the transaction) cannot spoil the next, and the games that links lead to are really there.
pytestmark = pytest.mark.django_db(transaction=True)

SCHEMA_PATH = "/api/v1/schema/"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

# Reproducible in CI (derandomize), bounded in time, no example database left behind. The
# coverage phase adds its own cases (as explicit examples) to each operation's test.
FUZZ_SETTINGS = hypothesis.settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    # The fixtures (the application, a token) serve every example on purpose.
    suppress_health_check=[hypothesis.HealthCheck.too_slow, hypothesis.HealthCheck.function_scoped_fixture],
)
STATEFUL_SETTINGS = hypothesis.settings(
    max_examples=40,
    stateful_step_count=20,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[hypothesis.HealthCheck.too_slow, hypothesis.HealthCheck.filter_too_much],
)

# The logged-in clients: a token (schemathesis sends it as configured authentication, so it
# also checks that operations needing an account refuse a request without it or with a wrong
# one), and a session with its CSRF token (sent by the auth provider below). The fixtures make
# the account, the token and the session with exactly these keys.
TOKEN = "5c4e3f0b9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"
SESSION = "schemathesissession0000000000000001"
CSRF = "Schemathesis0Csrf0Secret00000001"  # the csrftoken cookie's secret (32 characters)

SETTINGS: dict[str, Any] = {
    # No NUL characters: the API refuses a NUL in any text by design (400 `bad_character`, before
    # any view: PostgreSQL cannot hold one), which no schema can say of every string, or of the
    # names of the extra fields a body may carry. tests/site/test_nul_characters.py sends them.
    "generation": {"mode": "all", "deterministic": True, "database": "none", "allow-x00": False},
    "operations": [
        {
            # OPTIONS describes the path's view and reads no parameter (DRF answers it before any
            # is parsed): there is nothing for it to refuse, so no negative case is refused.
            "include-method": "OPTIONS",
            "checks": {"negative_data_rejection": {"enabled": False}},
        },
        {
            # `positive_data_acceptance` expects a request that fits the schema to be accepted.
            # No schema can say which password belongs to a username, which usernames are
            # taken, or which passwords Django's validators find too weak: these two refuse
            # well-formed requests with 400 (`bad_credentials`, `username_taken`,
            # `weak_password`) by design (docs/api.md); nor which password deletes an account or
            # is the present one, or changes or removes the e-mail address (`wrong_password`: the
            # clients here never send theirs).
            "include-operation-id": [
                "auth_login",
                "auth_register",
                "auth_me_destroy",
                "auth_password_change",
                "auth_email_set",
                "auth_email_remove",
            ],
            "checks": {"positive_data_acceptance": {"enabled": False}},
        },
        {
            # A version-2 game code is 48 letters, a number in base 26, and valid only below 52!
            # (26^48 is a little larger): no pattern can say which 48 letters stay below it, so a
            # well-formed code can be `bad_code` (400; docs/codes.md). So for this operation the
            # check accepts a 400 too (tests/games/test_games_api.py holds the starts by rule,
            # code and daily to their 201).
            "include-operation-id": ["games_create"],
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
                }
            },
        },
        {
            # Friends and clubs (docs/social.md): no schema can say which club names are taken,
            # which invites are still valid (signed, 7 days, revocable), how many clubs an account
            # has or follows, or which ISO weeks exist (2026-W54 does not): these refuse
            # well-formed requests with 400 (`club_name_taken`, `bad_club_name` for a name of
            # only spaces, `club_limit`, `club_owner_limit`, `club_no_heir`, `club_full`,
            # `invite_expired`, `follow_self`, `follow_limit`, `bad_week`) by design.
            "include-operation-id": [
                "clubs_create",
                "clubs_join",
                "clubs_members_destroy",
                "clubs_partial_update",
                "clubs_week",
                "players_follow_create",
            ],
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
                }
            },
        },
        {
            # A well-formed move or undo that the rules refuse is 422 (`does_not_fit`,
            # `empty_source`, `nothing_to_undo`, ...; docs/api.md), and so is help asked for
            # today's daily deal (`no_help_for_daily`): the game decides, not the schema.
            # Everything else of the check stays: a well-formed request is never 400.
            "include-operation-id": [
                "games_moves_create",
                "games_undo",
                "games_hint",
                "games_winnable",
                "games_batch",
            ],
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
                }
            },
        },
        {
            # A game dealt offline: its code may be `bad_code` (400) as for `games_create`, and its
            # moves are the rules' to refuse (422 `batch_refused`, the game kept up to its last
            # legal move; docs/api.md, "Played offline").
            "include-operation-id": ["games_offline"],
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429", "5xx"]
                }
            },
        },
    ],
}
#: The fields an error answer carries beside its code and text, by code (docs/api.md).
ERROR_EXTRAS = {"batch_refused": {"index", "applied", "reason", "state"}}
TOKEN_AUTH = {"auth": {"openapi": {"tokenAuth": {"api_key": f"Token {TOKEN}"}}}}
GUEST = SchemathesisConfig.from_dict(SETTINGS)
PLAYER = SchemathesisConfig.from_dict({**SETTINGS, **TOKEN_AUTH})
SESSION_PLAYER = SchemathesisConfig.from_dict(SETTINGS)
# The stateful runs play games and make and revoke tokens: the other operations are for the tests above.
STATEFUL_OPERATIONS = [
    *SETTINGS["operations"],
    {"exclude-path-regex": "^/api/v1/(games|auth/tokens)", "enabled": False},
]
# `ensure_resource_availability` expects a created game to stay: but a start with
# `replace_untouched: true` (what the web page sends) deletes the caller's other games that have
# no move yet, by design (so that dealt games nobody touched do not pile up; documented in the
# schema and tests/games/test_continuity.py), and the next GET of such a game is 404.
STATEFUL_CHECKS = {"checks": {"ensure_resource_availability": {"enabled": False}}}
GAMES = SchemathesisConfig.from_dict({**SETTINGS, **TOKEN_AUTH, **STATEFUL_CHECKS, "operations": STATEFUL_OPERATIONS})
SESSION_GAMES = SchemathesisConfig.from_dict({**SETTINGS, **STATEFUL_CHECKS, "operations": STATEFUL_OPERATIONS})


def error_code_is_registered(ctx: Any, response: Any, case: Any) -> bool | None:
    """An error answer is ``{"error": code, "detail": text}`` with a code of ``common.errors.ErrorCode``
    (and the fields its code carries besides, :data:`ERROR_EXTRAS`)."""
    if response.status_code < 400 or response.request.method == "HEAD":
        return None
    body = json.loads(response.content)
    extras = ERROR_EXTRAS.get(body.get("error"), set())
    assert set(body) == {"error", "detail"} | extras and body["error"] in set(ErrorCode) and body["detail"], body
    return None


# At least these, whatever the defaults of the installed schemathesis are.
REQUIRED_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    error_code_is_registered,
]

_OPTIONS_BODY = {
    "type": "object",
    "required": ["name", "description", "renders", "parses", "schema"],
    "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "renders": {"type": "array", "items": {"type": "string"}},
        "parses": {"type": "array", "items": {"type": "string"}},
        "schema": {"type": "string"},
    },
}


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def with_head_and_options(raw: dict[str, Any]) -> dict[str, Any]:
    """The schema with HEAD (as GET, without a body) and OPTIONS (``common.metadata``) operations
    on every path: Django and DRF answer them for every view, so they are part of the API."""
    schema = copy.deepcopy(raw)
    for path, item in schema["paths"].items():
        operations = [operation for method, operation in item.items() if isinstance(operation, dict)]
        first = operations[0]
        if "get" in item and "head" not in item:
            head = copy.deepcopy(item["get"])
            head["operationId"] += "_head"
            for response in head["responses"].values():
                response.pop("links", None)
            item["head"] = head
        path_parameters = [
            parameter
            for parameter in {p["name"]: p for op in operations for p in op.get("parameters", [])}.values()
            if parameter["in"] == "path"
        ]
        item["options"] = {
            "operationId": f"{first['operationId']}_options",
            "summary": f"What {path} allows (the Allow header) and where the schema is",
            "parameters": path_parameters,
            "security": first.get("security", [{}]),
            "responses": {
                "200": {
                    "description": "The view's name and media types, and the schema's address.",
                    "content": {"application/json": {"schema": _OPTIONS_BODY}},
                },
                "400": _error("`bad_character`: a NUL character in the path."),
                "401": _error("`authentication_failed`: a wrong or revoked token."),
                "404": _error("`not_found`: the path names nothing (e.g. a malformed id)."),
                "406": _error("`not_acceptable`: the `Accept` header allows no JSON."),
                "429": _error("`throttled`: the operation's rate limit."),
                "503": _error("`service_unavailable`."),
            },
        }
    return schema


def _load(config: SchemathesisConfig) -> Any:
    """The application's schema (with HEAD and OPTIONS) for one kind of client."""
    response = Client().get(SCHEMA_PATH, HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200, response.content[:300]
    schema = schemathesis.openapi.from_dict(with_head_and_options(json.loads(response.content)), config=config)
    schema.app = application
    schema.location = SCHEMA_PATH
    return schema


class SessionWithCsrf:
    """The session cookie of the logged-in session and the CSRF token (cookie and header) that
    the browser's page sends with it."""

    def get(self, case: Any, context: Any) -> str:
        return SESSION

    def set(self, case: Any, data: str, context: Any) -> None:
        case.cookies = {**(case.cookies or {}), "sessionid": data, "csrftoken": CSRF}
        case.headers = {**(case.headers or {}), "X-CSRFToken": CSRF}


@pytest.fixture
def api_app(settings: Any) -> Iterator[Any]:
    """The WSGI application as the tests reach it: tasks in-process, one connection, and every
    rate limit lifted, for this test only: the registration and login limits (30 a minute) would
    otherwise answer 429 after the first few cases and leave those operations untested.

    Like Django's test client, keep the database connection over requests (the WSGI handler would
    close it after each one).
    """
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {scope: "1000000/minute" for scope in rates},
    }
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    # Today's daily deal is ready, as the beat task leaves it (without one: 503 daily_not_ready).
    DailyDeal.objects.get_or_create(date=clock.today(), defaults={"code": "YU1-C-AAAAAAB", "solution_length": 97})
    # And the pool of winnable deals is full, as its beat task leaves it (empty: 503 winnable_not_ready).
    # (Random codes: the fuzzer plays them as any other deal.)
    WinnableDeal.objects.bulk_create(
        WinnableDeal(code=str(code), rule=code.rule.value)
        for code in (GameCode.random(rule) for rule in Rule for _ in range(300))
    )
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield application
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        celery_app.conf.task_always_eager = eager


def _player_token() -> str:
    """The account of the logged-in clients, with the token ``TOKEN`` (made again if revoked)."""
    account = factories.user(username="fuzzer") if not _accounts().exists() else _accounts().get()
    ApiToken.objects.get_or_create(user=account, digest=token_hash(TOKEN), defaults={"prefix": TOKEN[:8]})
    return TOKEN


def _accounts() -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username="fuzzer")


def _player_session() -> str:
    """The session ``SESSION``, logged in to the account of :func:`_player_token` (made again)."""
    _player_token()
    account = _accounts().get()
    logged_in = {
        SESSION_KEY: str(account.pk),
        BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
        HASH_SESSION_KEY: account.get_session_auth_hash(),
    }
    # (A session store given an unknown key makes a new one: write the row with this key itself.)
    Session.objects.update_or_create(
        session_key=SESSION,
        defaults={"session_data": SessionStore().encode(logged_in), "expire_date": timezone.now() + timedelta(days=1)},
    )
    return SESSION


@pytest.fixture
def player_token(db: Any) -> str:
    return _player_token()


@pytest.fixture
def player_session(db: Any) -> str:
    return _player_session()


# Loaded at collection (one test per operation and kind of client); the request reads no database.
guest_schema = _load(GUEST)
player_schema = _load(PLAYER)
session_schema = _load(SESSION_PLAYER)
session_schema.auth()(SessionWithCsrf)


# What the run sent: (client, operation, phase, status) -> cases. Written to
# artifacts/schemathesis-<database>.json at the end (CI keeps artifacts/), and checked below.
TALLY: Counter[tuple[str, str, str, int]] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    started = time.monotonic()
    yield
    if not TALLY:
        return
    by_client: dict[str, dict[str, Any]] = {}
    for (client, operation, phase, _), n in TALLY.items():
        entry = by_client.setdefault(client, {"cases": 0, "phases": Counter(), "operations": set()})
        entry["cases"] += n
        entry["phases"][phase] += n
        entry["operations"].add(operation)
    summary = {
        "database": connection.vendor,
        "seconds": round(time.monotonic() - started, 1),
        "clients": {
            client: {"cases": e["cases"], "phases": dict(e["phases"]), "operations": len(e["operations"])}
            for client, e in by_client.items()
        },
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"schemathesis-{connection.vendor}.json").write_text(json.dumps(summary, indent=2) + "\n")


def _call(client: str, case: Any) -> None:
    response = case.call_and_validate(additional_checks=REQUIRED_CHECKS)
    phase = case.meta.phase.name if case.meta is not None else "explicit"
    TALLY[client, case.operation.label, str(phase), response.status_code] += 1


@FUZZ_SETTINGS
@guest_schema.parametrize()
def test_every_operation_as_a_visitor(case: Any, api_app: Any) -> None:
    _call("visitor", case)


@FUZZ_SETTINGS
@session_schema.parametrize()
def test_every_operation_as_a_session_with_csrf(case: Any, api_app: Any, player_session: str) -> None:
    _call("session", case)


@FUZZ_SETTINGS
@player_schema.parametrize()
def test_every_operation_as_a_token_client(case: Any, api_app: Any, player_token: str) -> None:
    _call("token", case)


def test_each_client_ran_every_phase_over_every_operation_and_got_in() -> None:
    """(After the tests above, in this file's order.) The session and the token clients are really
    logged in (the session passing its CSRF check), and no operation went untested."""
    if not TALLY:
        pytest.skip("runs after the per-operation tests of this file")
    operations = {operation for _, operation, _, _ in TALLY}
    for client in ("visitor", "session", "token"):
        seen = {key for key in TALLY if key[0] == client}
        assert {operation for _, operation, _, _ in seen} == operations, client
        assert {phase for _, _, phase, _ in seen} >= {"examples", "coverage", "fuzzing"}, client
    for client in ("session", "token"):
        assert TALLY[client, "GET /api/v1/auth/me", "fuzzing", 200], client
        assert any(
            TALLY[client, "POST /api/v1/auth/tokens", phase, 201] for phase in ("examples", "coverage", "fuzzing")
        )
    # A visitor is a guest: auth/me answers it (authenticated: false) without an error status.
    assert any(TALLY["visitor", "GET /api/v1/auth/me", phase, 200] for phase in ("examples", "coverage", "fuzzing"))
    # The rate limits are lifted (api_app): registration and login were tested, not throttled.
    assert any(key[1] == "POST /api/v1/auth/register" and key[3] == 201 for key in TALLY)
    assert not any(key[3] == 429 for key in TALLY), [key for key in TALLY if key[3] == 429]
    for head in ("HEAD /api/v1/games", "OPTIONS /api/v1/games", "OPTIONS /api/v1/games/{game_id}/moves"):
        assert head in operations


def _run_stateful(
    client: str, config: SchemathesisConfig, api_app: Any, monkeypatch: pytest.MonkeyPatch, *, auth: Any
) -> Counter:
    """Start games and follow the links: moves (legal and not), undos, the log, the state; make
    tokens and revoke them. Returns how often each operation answered each status.

    Hypothesis replays scenarios (to generate and to shrink), and what it may do next depends on
    what the server answered: so every scenario starts from the same server state (no games, the
    same deals in the same order, the client logged in again), and the same choices get the same
    answers.
    """
    calls: Counter[tuple[str, int]] = Counter()
    schema = _load(config)
    if auth is not None:
        schema.auth()(auth)
    daily_deals_prepare(today=clock.today())  # once, before (as the beat task does): the solver takes a moment

    class Player(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            numbers = itertools.count(1)
            monkeypatch.setattr(
                GameCode, "random", classmethod(lambda cls, rule=Rule.CLASSIC: cls(Rule(rule), next(numbers)))
            )
            for model in (Game, PersonalBest):
                model.objects.all().delete()
            ApiToken.objects.exclude(digest=token_hash(TOKEN)).delete()
            _player_session()

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            calls[case.operation.label, response.status_code] += 1
            TALLY[client, case.operation.label, "stateful", response.status_code] += 1
            super().validate_response(response, case, additional_checks=REQUIRED_CHECKS, **kwargs)

    Player.run(settings=STATEFUL_SETTINGS)
    return calls


def test_the_links_play_games_in_sequence_as_a_token_client(api_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _run_stateful("token", GAMES, api_app, monkeypatch, auth=None)

    assert calls["POST /api/v1/games/{game_id}/moves", 200] >= 10, calls
    assert calls["POST /api/v1/games/{game_id}/undo", 200] >= 3, calls
    assert calls["POST /api/v1/games/{game_id}/moves", 422] >= 1, calls
    assert calls["DELETE /api/v1/auth/tokens/{token_id}", 204] >= 1, calls


def test_the_links_play_games_in_sequence_as_a_session(api_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _run_stateful("session", SESSION_GAMES, api_app, monkeypatch, auth=SessionWithCsrf)

    assert calls["POST /api/v1/games/{game_id}/moves", 200] >= 10, calls
    assert calls["POST /api/v1/games/{game_id}/undo", 200] >= 3, calls


def test_the_schema_links_a_new_game_to_its_moves() -> None:
    links = guest_schema.raw_schema["paths"]["/api/v1/games"]["post"]["responses"]["201"]["links"]
    assert links["PlayMove"] == {
        "operationId": "games_moves_create",
        "parameters": {"game_id": "$response.body#/id"},
        "description": "Play a move in this game.",
    }
    assert links["PlayLegalMove0"]["requestBody"] == "$response.body#/legal_moves/0"
