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

    monkeypatch.setattr("games.selectors.game_list", broken)

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
