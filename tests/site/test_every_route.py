"""Every route of the URL resolver answers OPTIONS and HEAD (and GET) without a server error.

The routes are walked from ``ROOT_URLCONF`` itself, so a route added later is covered without
touching this file; each is sent as a visitor, as a token client and as a staff member's session
(the admin's pages), with the path parameters filled from existing rows where the admin names one.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter, PathConverter, SlugConverter, StringConverter, UUIDConverter
from django.urls.resolvers import RoutePattern

from common.errors import ErrorCode
from games.competition import clock
from games.models import DailyDeal
from tests import factories

pytestmark = pytest.mark.django_db

METHODS = ("OPTIONS", "HEAD", "GET")
_ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
_REGEX_GROUP = re.compile(r"\(\?P<(?P<name>\w+)>(?P<body>[^)]*)\)")


def _paths(patterns: list[Any], prefix: str = "/") -> Iterator[str]:
    """A concrete path of every endpoint below ``prefix`` (the includes' filled in above it)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _paths(pattern.url_patterns, prefix + _concrete(pattern, prefix))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + _concrete(pattern, prefix)


def _sample(converter: Any, name: str, before: str) -> str:
    """A value for a path parameter: an existing admin object's key where the path names a model."""
    admin_model = re.fullmatch(r"/admin/([a-z_]+)/([a-z_]+)/", before)
    if name == "object_id" and admin_model:
        model = apps.get_model(*admin_model.groups())
        first = model._default_manager.order_by("pk").first()
        return str(first.pk) if first is not None else "1"
    if isinstance(converter, UUIDConverter):
        return str(uuid.UUID(int=1))
    if isinstance(converter, IntConverter) or name in ("id", "content_type_id"):
        return "1"
    if isinstance(converter, SlugConverter | StringConverter | PathConverter):
        return "2026-01-31" if name == "day" else "x"
    raise AssertionError(f"no sample for the path parameter {name!r} ({type(converter).__name__})")


def _concrete(pattern: Any, prefix: str) -> str:
    """The text of a pattern with every parameter filled (regular expressions: a fitting text)."""
    pattern = pattern.pattern
    text = str(pattern)
    if isinstance(pattern, RoutePattern):  # a route: "games/<uuid:game_id>/moves"
        out, end = "", 0
        for match in _ROUTE_PARAMETER.finditer(text):
            out += text[end : match.start()]
            out += _sample(pattern.converters[match["name"]], match["name"], prefix + out)
            end = match.end()
        return out + text[end:]
    # A regular expression: each named group takes its first alternative ("x" for a wildcard).
    filled = _REGEX_GROUP.sub(lambda m: "x" if m["body"] in (".*", ".+") else m["body"].split("|")[0], text)
    filled = filled.lstrip("^").rstrip("$")
    assert pattern.regex.search(filled), f"fill in a sample for the pattern {text!r}"
    return filled


def _every_path() -> list[str]:
    return list(_paths(get_resolver().url_patterns))


@pytest.fixture
def clients() -> dict[str, Client]:
    """A visitor, a token client (whose game, move and idempotency record fill the admin's
    pages) and a logged-in staff member."""
    # Today's daily deal is ready, as the beat task leaves it (without one: 503 daily_not_ready,
    # by design and tested in tests/stats/test_daily_deal.py).
    DailyDeal.objects.create(date=clock.today(), code="YU1-C-AAAAAAB", solution_length=97)
    account = factories.user()
    token = factories.token_client(account)
    game = token.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    token.post(f"/api/v1/games/{game['id']}/moves", game["legal_moves"][0], HTTP_IDEMPOTENCY_KEY="walk-1")
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("walker", password=factories.PASSWORD))
    return {
        "visitor": Client(),
        "token": Client(HTTP_AUTHORIZATION=f"Token {factories.token_key(account)}"),
        "staff": staff,
    }


def test_the_walk_finds_the_routes_of_every_part() -> None:
    paths = _every_path()

    for expected in ("/api/v1/games/", "/api/v1/auth/login", "/admin/login/", "/healthz", "/login", "/api/v1/docs/"):
        assert any(path.startswith(expected) for path in paths), (expected, paths)


@pytest.mark.parametrize("who", ["visitor", "token", "staff"])
def test_every_route_answers_options_and_head_without_a_server_error(clients: dict[str, Client], who: str) -> None:
    client = clients[who]
    failures = []
    for path in _every_path():
        for method in METHODS:
            response = client.generic(method, path)
            if response.status_code >= 500:
                failures.append((method, path, response.status_code, response.content[:200]))
            elif path.startswith("/api/") and method == "OPTIONS" and response.status_code == 200:
                if "Allow" not in response:
                    failures.append((method, path, "no Allow header"))
            elif path.startswith("/api/") and response.status_code >= 400 and method != "HEAD":
                body = response.json()
                if set(body) != {"error", "detail"} or body["error"] not in set(ErrorCode):
                    failures.append((method, path, response.status_code, body))
            if method == "HEAD" and response.content:
                failures.append((method, path, "a body in the answer to HEAD"))

    assert not failures, failures


def test_options_on_the_game_endpoints_lists_the_methods_and_names_the_schema(player: Any) -> None:
    """Found by an outside audit: ``OPTIONS /api/v1/games`` and ``.../moves`` answered 500 (DRF's
    metadata asked the views for a ``serializer_class``), anonymous or not."""
    game = player.post("/api/v1/games", {"rule": "classic"}).json()
    for client in (player, Client()):
        for path, allowed in (
            ("/api/v1/games", {"GET", "POST", "HEAD", "OPTIONS"}),
            (f"/api/v1/games/{game['id']}/moves", {"GET", "POST", "HEAD", "OPTIONS"}),
        ):
            response = client.options(path)
            assert response.status_code == 200, (path, response.content[:300])
            assert {method.strip() for method in response["Allow"].split(",")} == allowed
            assert response.json()["schema"] == "/api/v1/schema/"
