"""A NUL character anywhere a client's text could reach a query is refused: 400 ``bad_character``.

Found by an outside audit: ``GET /api/v1/players/%00/stats`` answered 500 on PostgreSQL
(``DataError``: PostgreSQL text cannot hold NUL), where SQLite just found nobody.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

JSON = "application/json"

NUL_PATHS = [
    "/api/v1/players/%00/stats",
    "/api/v1/players/lena%00/stats",
    "/api/v1/daily/2026-01-01%00",
    "/api/v1/leaderboards/daily/%00",
    "/api/v1/games?page=%00",
    "/api/v1/games?page_size=1%00",
    "/api/v1/players/lena/stats?%00=1",
    "/api/v1/nothing%00here",
]


@pytest.mark.parametrize("path", NUL_PATHS)
@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "POST", "DELETE"])
def test_a_nul_in_the_path_or_the_query_is_refused(player: Any, path: str, method: str) -> None:
    for client in (player, APIClient()):
        response = client.generic(method, path)
        assert response.status_code == 400, (method, path, response.status_code, response.content[:200])
        if method != "HEAD":
            assert_error(response, 400, "bad_character")


def test_the_refusal_is_in_the_requests_language(guest: Any) -> None:
    english = assert_error(guest.get("/api/v1/players/%00/stats", HTTP_ACCEPT_LANGUAGE="en"), 400, "bad_character")
    german = assert_error(guest.get("/api/v1/players/%00/stats"), 400, "bad_character")

    assert "NUL" in english["detail"] and english["detail"] != german["detail"]


def test_an_escaped_percent_before_00_is_no_nul(guest: Any) -> None:
    assert_error(guest.get("/api/v1/players/a%2500/stats"), 404, "not_found")


@pytest.mark.parametrize("path", ["/login%00", "/admin/%00/", "/stats?next=%00"])
def test_pages_refuse_a_nul_too(path: str) -> None:
    assert Client().get(path).status_code == 400


@pytest.mark.parametrize(
    ("path", "method", "body"),
    [
        ("/api/v1/auth/login", "POST", '{"username": "lena\\u0000", "password": "x"}'),
        ("/api/v1/auth/register", "POST", '{"username": "lena", "password": "Klondike-1896\\u0000"}'),
        ("/api/v1/auth/settings", "PATCH", '{"auto_drop\\u0000": true}'),
        ("/api/v1/games", "POST", '{"code": "YU1-C-AAAAAAB", "x": [{"deep": ["\\u0000"]}]}'),
    ],
)
def test_a_nul_in_a_json_body_is_refused(guest: Any, path: str, method: str, body: str) -> None:
    assert_error(guest.generic(method, path, body, content_type=JSON), 400, "bad_character")


def test_a_nul_in_a_move_is_refused_on_the_token_clients_fast_path_too(player: Any) -> None:
    game = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()

    body = '{"from": "t7", "card": "TS\\u0000", "to": "t2"}'
    assert_error(
        player.generic("POST", f"/api/v1/games/{game['id']}/moves", body, content_type=JSON), 400, "bad_character"
    )


def test_an_escaped_backslash_before_u0000_is_plain_text(guest: Any) -> None:
    # The JSON text \\u0000 is a backslash and "u0000": no NUL, so an ordinary refusal.
    body = '{"username": "lena\\\\u0000", "password": "x"}'
    assert_error(guest.generic("POST", "/api/v1/auth/login", body, content_type=JSON), 400, "bad_credentials")


@pytest.mark.postgres
@pytest.mark.parametrize("path", NUL_PATHS[:4])
def test_no_nul_reaches_postgresql(guest: Any, player: Any, path: str) -> None:
    for client in (guest, player):
        assert_error(client.get(path), 400, "bad_character")


@pytest.mark.postgres
def test_a_nul_in_the_admin_login_form_reaches_no_query_on_postgresql(db: Any) -> None:
    factories.user(username="lena")
    response = Client().post("/admin/login/", {"username": "lena\x00", "password": "x"})

    assert response.status_code in (200, 400)  # the form refuses it; no DataError


def test_a_session_cookie_with_a_nul_is_a_new_guest(db: Any) -> None:
    """The session key reaches a query too (the session's row): a cookie with a NUL (a quoted
    cookie can spell it as \\000) is no session of ours, and the visitor is a guest with a fresh
    one, on PostgreSQL as well (Django's own key check let it through to a DataError: a 500)."""
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    assert "\\000" in client.cookies.output()  # (sent as the quoted escape, as a browser could)

    me = client.get("/api/v1/auth/me")
    page = client.get("/")

    assert me.status_code == 200 and me.json()["authenticated"] is False
    assert page.status_code == 200
