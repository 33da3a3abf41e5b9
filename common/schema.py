"""drf-spectacular postprocessing hooks: what every operation can answer, and links between operations.

Both run after ``drf_spectacular.hooks.postprocess_schema_enums`` (see ``SPECTACULAR_SETTINGS``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

ERROR_REF = {"$ref": "#/components/schemas/Error"}
UNSAFE_METHODS = ("post", "put", "patch", "delete")

# Answers that do not depend on the operation: authentication, content negotiation, the request
# body's transport, the service's dependencies. An operation's own errors are in its @extend_schema.
ANY_OPERATION = {
    "401": "`not_authenticated` / `authentication_failed`: a wrong, malformed or revoked token "
    "(`Authorization: Token <key>`), or no account where one is needed.",
    "406": "`not_acceptable`: the `Accept` header allows no JSON.",
    "503": "`service_unavailable`: the database or Redis is unreachable; retry after `Retry-After` seconds.",
}
UNSAFE_OPERATION = {
    "403": "`permission_denied`: a request with the session cookie but without the `X-CSRFToken` header "
    "that matches the `csrftoken` cookie.",
}
WITH_BODY = {
    "400": "`bad_request`: the body is no JSON, or not the documented shape.",
    "413": "`payload_too_large`: the body is longer than 64 KiB.",
    "415": "`unsupported_media_type`: the body is not `application/json`.",
}

# OpenAPI links: how the answer of one operation leads to the next (a client, or a stateful test
# tool such as schemathesis, follows them to play a game: start, move, move, undo, ...).
_GAME_ID = {"game_id": "$response.body#/id"}
_FOLLOW_GAME = {
    "GetGame": {
        "operationId": "games_retrieve",
        "parameters": _GAME_ID,
        "description": "The game's state.",
    },
    "PlayMove": {
        "operationId": "games_moves_create",
        "parameters": _GAME_ID,
        "description": "Play a move in this game.",
    },
    # Each legal move of the position is a valid request body as it is; the first two give the
    # sequences some variety. (`x-schemathesis.merge_body: false`: the body is the move alone.)
    **{
        f"PlayLegalMove{index}": {
            "operationId": "games_moves_create",
            "parameters": _GAME_ID,
            "requestBody": f"$response.body#/legal_moves/{index}",
            "description": f"Play legal move number {index} of the position.",
            "x-schemathesis": {"merge_body": False},
        }
        for index in (0, 1)
    },
    "ListMoves": {
        "operationId": "games_moves_list",
        "parameters": _GAME_ID,
        "description": "The game's move log.",
    },
    "Undo": {
        "operationId": "games_undo",
        "parameters": _GAME_ID,
        "description": "Undo the last move of this game.",
    },
}
LINKS = {
    ("auth_tokens_create", "201"): {
        "RevokeToken": {
            "operationId": "auth_tokens_destroy",
            "parameters": {"token_id": "$response.body#/id"},
            "description": "Revoke the token just made.",
        },
    },
    ("games_create", "201"): _FOLLOW_GAME,
    ("games_retrieve", "200"): _FOLLOW_GAME,
    ("games_moves_create", "200"): _FOLLOW_GAME,
    ("games_undo", "200"): _FOLLOW_GAME,
}


# Examples of request bodies (by component) and of parameters (by name): the docs show them, and
# schemathesis's examples phase sends them (tests/site/test_schemathesis.py).
BODY_EXAMPLES: dict[str, Any] = {
    "Credentials": {"username": "lena", "password": "Klondike-1896"},
    "GameStart": {"code": "YU1-C-AAAAAAB"},
    "MovePlay": {"from": "t7", "card": "TS", "to": "t2", "seq": 0},
    "Undo": {"seq": 1},
    "GameBatch": {"seq": 0, "moves": [{"from": "t7", "card": "TS", "to": "t2"}, {"undo": True}], "elapsed_ms": 8000},
    "GameOffline": {"code": "YU1-C-AAAAAAB", "moves": [{"from": "t7", "card": "TS", "to": "t2"}], "elapsed_ms": 8000},
    "PlayerSettings": {"double_click": True, "drop_hints": True, "interactive_rules": True, "auto_drop": False},
    "PatchedPlayerSettings": {"auto_drop": True},
    "TokenCreate": {"name": "my bot"},
    "PasswordConfirm": {"password": "Klondike-1896"},
}
PARAMETER_EXAMPLES: dict[str, Any] = {
    "day": "2026-11-30",
    "username": "lena",
    "game_id": "0b7e4c8e-1f0a-4d56-9a3e-5c2d8f1e6b74",
    "token_id": 1,
    "page": 1,
    "page_size": 20,
    "Idempotency-Key": "move-0b7e4c8e-7",
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


def _operations(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (method, operation)
        for item in result.get("paths", {}).values()
        for method, operation in item.items()
        if isinstance(operation, dict) and "responses" in operation
    ]


def add_common_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Document the error answers any operation can give (an operation's own keep their text)."""
    for method, operation in _operations(result):
        errors = dict(ANY_OPERATION)
        if method in UNSAFE_METHODS:
            errors.update(UNSAFE_OPERATION)
            if "requestBody" in operation:
                errors.update(WITH_BODY)
        responses = operation["responses"]
        for status, description in errors.items():
            if status not in responses:
                responses[status] = _error(description)
            elif not responses[status].get("description"):
                responses[status]["description"] = description
        operation["responses"] = dict(sorted(responses.items()))
    return result


def add_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Add the OpenAPI ``links`` of :data:`LINKS` to the answers they start from."""
    by_id = {operation.get("operationId"): operation for _, operation in _operations(result)}
    for (operation_id, status), links in LINKS.items():
        operation = by_id.get(operation_id)
        if operation is None:
            continue  # not in this schema (e.g. a schema generated for part of the API)
        operation["responses"][status]["links"] = links
    return result


def add_examples(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Add :data:`BODY_EXAMPLES` to the request bodies' components and :data:`PARAMETER_EXAMPLES` to
    the parameters (where none is given)."""
    components = result.get("components", {}).get("schemas", {})
    for name, example in BODY_EXAMPLES.items():
        if name in components:
            components[name].setdefault("example", example)
    for _, operation in _operations(result):
        for parameter in operation.get("parameters", []):
            if parameter.get("name") in PARAMETER_EXAMPLES:
                parameter.setdefault("example", PARAMETER_EXAMPLES[parameter["name"]])
    return result


class BodyOnDeleteSchema(AutoSchema):
    """drf-spectacular documents a request body for POST, PUT and PATCH only; ``DELETE auth/me``
    takes one (the password asked again), so its view documents it with this schema class."""

    def _get_request_body(self, direction: str = "request") -> Any:
        if self.method != "DELETE":
            return super()._get_request_body(direction)
        self.method = "POST"  # (the method is all that check reads)
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
