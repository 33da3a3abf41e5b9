"""Bad input: schemathesis against the API's own OpenAPI schema (/api/v1/schema/).

Every operation, as a guest and logged in, with generated valid and invalid requests: no answer is
a server error, and every answer has a documented status, content type and body. The stateful
run follows the schema's OpenAPI links (start a game -> move -> move / undo -> ...) and plays
sequences. Everything runs in-process through Django's WSGI application; bounded so the whole
file takes about two minutes on the project's 2-core machine.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.daily import daily_deals_prepare, utc_today
from games.engine import GameCode, Rule
from games.models import DailyDeal, Game
from stats.models import PersonalBest
from tests import factories
from yukon_site.celery import app as celery_app
from yukon_site.wsgi import application

# Each request commits, as in production: a failed statement in one request (PostgreSQL aborts
# the transaction) cannot spoil the next, and the games that links lead to are really there.
pytestmark = pytest.mark.django_db(transaction=True)

SCHEMA_PATH = "/api/v1/schema/"

# Reproducible in CI (derandomize), bounded in time, no example database left behind.
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

# The token of the logged-in player (the fixture `player_token` creates it): schemathesis sends it
# as configured authentication, so it also checks that operations needing an account refuse a
# request without it or with a wrong one.
TOKEN = "5c4e3f0b9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"

SETTINGS: dict[str, Any] = {
    "generation": {"mode": "all", "deterministic": True, "database": "none"},
    # The coverage phase sends hundreds of boundary cases per operation: beyond the time budget.
    "phases": {"coverage": {"enabled": False}},
    "operations": [
        {
            # `positive_data_acceptance` expects a request that fits the schema to be accepted.
            # No schema can say which password belongs to a username, which usernames are
            # taken, or which passwords Django's validators find too weak: these two refuse
            # well-formed requests with 400 (`bad_credentials`, `username_taken`,
            # `weak_password`) by design (SPEC section 7).
            "include-operation-id": ["auth_login", "auth_register"],
            "checks": {"positive_data_acceptance": {"enabled": False}},
        },
        {
            # A well-formed move or undo that the rules refuse is 422 (`does_not_fit`,
            # `empty_source`, `nothing_to_undo`, ...; SPEC section 7), and so is help asked for
            # today's daily deal (`no_help_for_daily`): the game decides, not the schema.
            # Everything else of the check stays: a well-formed request is never 400.
            "include-operation-id": ["games_moves_create", "games_undo", "games_hint", "games_winnable"],
            "checks": {
                "positive_data_acceptance": {
                    "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
                }
            },
        },
    ],
}
GUEST = SchemathesisConfig.from_dict(SETTINGS)
PLAYER = SchemathesisConfig.from_dict({**SETTINGS, "auth": {"openapi": {"tokenAuth": {"api_key": f"Token {TOKEN}"}}}})
# The stateful run plays games: the other operations are for the tests above.
GAMES = SchemathesisConfig.from_dict(
    {
        **SETTINGS,
        "auth": {"openapi": {"tokenAuth": {"api_key": f"Token {TOKEN}"}}},
        "operations": [*SETTINGS["operations"], {"exclude-path-regex": "^/api/v1/games", "enabled": False}],
    }
)

# At least these, whatever the defaults of the installed schemathesis are.
REQUIRED_CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def api_app(settings: Any) -> Iterator[Any]:
    """The WSGI application as the tests reach it: no throttling, tasks in-process, one connection.

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
    DailyDeal.objects.get_or_create(date=utc_today(), defaults={"code": "YU1-C-AAAAAAB", "solution_length": 97})
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield application
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        celery_app.conf.task_always_eager = eager


@pytest.fixture
def player_token(db: Any) -> str:
    account = factories.user()
    Token.objects.filter(user=account).update(key=TOKEN)
    return TOKEN


# Loaded at collection (one test per operation and kind of client); the request reads no database.
guest_schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, application, config=GUEST)
player_schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, application, config=PLAYER)


@FUZZ_SETTINGS
@guest_schema.parametrize()
def test_every_operation_as_a_guest(case: Any, api_app: Any) -> None:
    case.call_and_validate(additional_checks=REQUIRED_CHECKS)


@FUZZ_SETTINGS
@player_schema.parametrize()
def test_every_operation_logged_in(case: Any, api_app: Any, player_token: str) -> None:
    case.call_and_validate(additional_checks=REQUIRED_CHECKS)


def test_the_links_play_games_in_sequence(api_app: Any, player_token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start games and follow the links: moves (legal and not), undos, the log, the state.

    Hypothesis replays scenarios (to generate and to shrink), and what it may do next depends on
    what the server answered: so every scenario starts from the same server state (no games, the
    same deals in the same order), and the same choices get the same answers.
    """
    calls: Counter[tuple[str, int]] = Counter()

    games_schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, api_app, config=GAMES)
    daily_deals_prepare(today=utc_today())  # once, before (as the beat task does): the solver takes a moment

    class Player(games_schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            numbers = itertools.count(1)
            monkeypatch.setattr(
                GameCode, "random", classmethod(lambda cls, rule=Rule.CLASSIC: cls(Rule(rule), next(numbers)))
            )
            for model in (Game, PersonalBest):
                model.objects.all().delete()

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            calls[case.operation.label, response.status_code] += 1
            super().validate_response(response, case, additional_checks=REQUIRED_CHECKS, **kwargs)

    Player.run(settings=STATEFUL_SETTINGS)

    assert calls["POST /api/v1/games/{game_id}/moves", 200] >= 10, calls
    assert calls["POST /api/v1/games/{game_id}/undo", 200] >= 3, calls
    assert calls["POST /api/v1/games/{game_id}/moves", 422] >= 1, calls


def test_the_schema_links_a_new_game_to_its_moves() -> None:
    links = guest_schema.raw_schema["paths"]["/api/v1/games"]["post"]["responses"]["201"]["links"]
    assert links["PlayMove"] == {
        "operationId": "games_moves_create",
        "parameters": {"game_id": "$response.body#/id"},
        "description": "Play a move in this game.",
    }
    assert links["PlayLegalMove0"]["requestBody"] == "$response.body#/legal_moves/0"
