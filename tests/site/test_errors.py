"""Errors the server did not plan for still answer JSON under /api/, in DEBUG mode too."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support import assert_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_exception_is_a_json_500_without_details(player, settings, monkeypatch, debug):
    settings.DEBUG = debug

    def broken(**kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("games.play.selectors.game_list", broken)

    body = assert_error(player.get("/api/v1/games", HTTP_ACCEPT_LANGUAGE="en"), 500, "server_error")
    assert "secret" not in body["detail"]


def test_pages_outside_the_api_keep_djangos_html_errors(client):
    response = client.get("/no-such-page-anywhere")

    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_an_unsafe_request_to_a_path_that_names_nothing_is_a_json_404_not_a_csrf_page(method):
    """Found by schemathesis: ``POST /api/v1/games/<not a uuid>/undo`` got Django's HTML CSRF 403."""
    client = APIClient(enforce_csrf_checks=True)
    client.cookies["sessionid"] = "whatever"

    response = getattr(client, method)("/api/v1/games/not-a-game/undo", {"seq": 1}, format="json")

    assert_error(response, 404, "not_found")


def test_a_username_of_any_characters_and_length_costs_no_server_error(guest, settings):
    """Found by schemathesis: the login throttle put the username into its cache key, and a key with
    control characters or over 250 characters made Django's cache warn (an error under test, a
    broken key with memcached)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "names"}}
    for username in ("\x11\x94ur\u00c1\U00099310 \x17d", "*" * 150):
        response = guest.post("/api/v1/auth/login", {"username": username, "password": "guess"}, format="json")
        assert_error(response, 400, "bad_credentials")


@pytest.mark.parametrize("url", ["/api/v1/auth/login", "/api/v1/auth/register"])
def test_a_lone_surrogate_in_the_json_is_a_client_error(guest, url):
    """JSON may escape half a UTF-16 pair ("\\udb12"): no text can hold it, so the request is bad."""
    body = '{"username": "ab\\udb12", "password": "Klondike-1896"}'
    response = guest.generic("POST", url, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]


@pytest.mark.parametrize("page_size", ["false", "", "abc", "1.5"])
def test_a_page_size_that_is_no_number_is_refused_not_ignored(player, page_size):
    """Found by schemathesis: `?page_size=false` was silently ignored, though the schema says integer."""
    game = player.post("/api/v1/games", {"rule": "classic"}).json()
    for url in ("/api/v1/games", f"/api/v1/games/{game['id']}/moves"):
        body = assert_error(player.get(url, {"page_size": page_size}), 400, "bad_request")
        assert "page_size" in body["detail"]


@pytest.mark.parametrize("page_size", ["0", "-3", "100000", " 7 "])
def test_a_numeric_page_size_out_of_range_still_falls_back_or_is_capped(player, page_size):
    assert player.get("/api/v1/games", {"page_size": page_size}).status_code == 200


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("patch", "/api/v1/auth/settings", {"auto_drop": 0}),
        ("patch", "/api/v1/auth/settings", {"auto_drop": "yes"}),
        ("post", "/api/v1/games", {"daily": 0}),
        ("post", "/api/v1/auth/tokens", {"name": 0}),
        ("post", "/api/v1/auth/register", {"username": 1898, "password": "Klondike-1896"}),
        ("post", "/api/v1/auth/login", {"username": "lena", "password": 12345678}),
    ],
)
def test_a_number_is_no_boolean_and_no_text(player, method, url, body):
    """Found by schemathesis's coverage phase: DRF took 0 for false and 0 for "0", though the schema
    says boolean and string."""
    assert_error(getattr(player, method)(url, body, format="json"), 400, "bad_request")
