"""The OpenAPI schema is valid and describes what the API really answers."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from django.core.management import call_command
from drf_spectacular.generators import SchemaGenerator

from tests import factories

pytestmark = pytest.mark.django_db


def test_the_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))

    assert "/api/v1/games/{game_id}/moves" in (tmp_path / "schema.yaml").read_text()


def test_the_schema_and_the_docs_are_served(player):
    assert player.get("/api/v1/schema/").status_code == 200
    docs = player.get("/api/v1/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


def _strict(node: Any) -> Any:
    """OpenAPI 3.0 -> JSON Schema: ``nullable`` becomes a null alternative; objects are closed."""
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _strict(value) for key, value in node.items()}
    if "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    if node.pop("nullable", False):
        if "enum" in node:
            node["enum"] = [*node["enum"], None]
        return {"anyOf": [node, {"type": "null"}]}
    return node


@pytest.fixture(scope="module")
def components(django_db_blocker):
    with django_db_blocker.unblock():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    return _strict(schema["components"])


def assert_matches(components, name, body):
    jsonschema.validate(body, {"$ref": f"#/components/schemas/{name}", "components": components})


def test_every_answer_matches_its_documented_shape(components, account, player):
    state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    assert_matches(components, "GameState", state)
    url = f"/api/v1/games/{state['id']}"
    played = player.post(f"{url}/moves", {"from": "t7", "card": "TS", "to": "t2", "seq": 0}).json()
    assert_matches(components, "GameState", played)
    assert played["last"] == {"points": 5, "flipped": "8S"}
    assert_matches(components, "GameState", player.post(f"{url}/undo").json())
    assert_matches(components, "GameState", player.get(url).json())
    assert_matches(components, "PaginatedMoveLogEntryList", player.get(f"{url}/moves").json())
    assert_matches(components, "PaginatedGameSummaryList", player.get("/api/v1/games").json())
    assert_matches(components, "Me", player.get("/api/v1/auth/me").json())
    assert_matches(components, "PlayerSettings", player.get("/api/v1/auth/settings").json())
    assert_matches(components, "Error", player.post(f"{url}/undo").json())
    assert_matches(components, "Error", player.post(f"{url}/undo").json())
    won = factories.game(owner=account, engine=factories.one_move_from_winning())
    assert_matches(
        components, "GameState", player.post(f"/api/v1/games/{won.id}/moves", {"from": "t1", "to": "f"}).json()
    )
    credentials = {"username": "newcomer", "password": "Klondike-1896"}
    from rest_framework.test import APIClient

    assert_matches(components, "AuthToken", APIClient().post("/api/v1/auth/register", credentials).json())
    assert_matches(components, "AuthToken", APIClient().post("/api/v1/auth/login", credentials).json())


def test_the_schema_check_catches_an_undocumented_field(components):
    with pytest.raises(jsonschema.ValidationError):
        assert_matches(components, "Error", {"error": "x", "detail": "y", "extra": 1})
