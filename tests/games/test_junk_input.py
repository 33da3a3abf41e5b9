"""Nothing a client can send makes the server answer 500: malformed input is a 4xx JSON error."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import Game

pytestmark = pytest.mark.django_db

JSON = "application/json"


def assert_json_error(response, *statuses):
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    body = response.json()
    assert set(body) == {"error", "detail"}, body
    return body


@pytest.fixture
def game(player):
    return player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()


RAW_BODIES = [
    b"{",
    b"not json",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"from": NaN, "to": "t1"}',
    b'{"seq": Infinity}',
    b"\xff\xfe\x00garbage",
    b"null",
    b'"a string"',
    b"12",
    b"[]",
    b'{"from": "t1", "to": "f", "seq": 1e400}',
    b'{"from": "t1", "to": "f", "seq": 99999999999999999999999999999}',
    b'{"from": "t1", "to": "f", "seq": -1}',
    b'{"from": "t1", "to": "f", "seq": 1.5}',
    b'{"from": "t1", "to": "f", "seq": true}',
    b'{"from": "t1\\u0000", "to": "f"}',
    b'{"from": "t1", "card": "\\u0000", "to": "f"}',
    b'{"from": "' + b"t" * 100_000 + b'", "to": "f"}',
    b'{"from": "t1", "to": "f", "extra": {"deep": [1, 2, {"x": null}]}}',
    b'{"from": ["t1"], "to": {"t": 2}}',
    b'{"from": "\\ud800", "to": "f"}',
]


@pytest.mark.parametrize("raw", RAW_BODIES, ids=range(len(RAW_BODIES)))
@pytest.mark.parametrize("endpoint", ["moves", "undo", "create"])
def test_malformed_bodies_are_client_errors(player, game, raw, endpoint):
    url = "/api/v1/games" if endpoint == "create" else f"/api/v1/games/{game['id']}/{endpoint}"

    response = player.generic("POST", url, raw, content_type=JSON)

    if response.status_code not in (200, 201):
        assert_json_error(response, 400, 409, 413, 422)
    assert Game.objects.get(pk=game["id"]).moves <= 1


@pytest.mark.parametrize("raw", RAW_BODIES[:12], ids=range(12))
@pytest.mark.parametrize("path", ["/api/v1/auth/register", "/api/v1/auth/login", "/api/v1/auth/settings"])
def test_malformed_bodies_to_the_auth_endpoints_are_client_errors(player, raw, path):
    method = "PUT" if path.endswith("settings") else "POST"

    assert_json_error(APIClient().generic(method, path, raw, content_type=JSON), 400, 413)


@pytest.mark.parametrize("size", [70_000, 3_000_000])  # past the API's 64 KiB; past Django's own 2.5 MB too
def test_a_body_over_64_kib_is_refused(player, game, size):
    raw = json.dumps({"from": "t1", "to": "f", "pad": "x" * size}).encode()

    body = assert_json_error(player.generic("POST", f"/api/v1/games/{game['id']}/moves", raw, content_type=JSON), 413)
    assert body["error"] == "payload_too_large"


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_other_media_types_are_refused(player, game, content_type):
    response = player.generic("POST", f"/api/v1/games/{game['id']}/moves", b"from=t1&to=f", content_type=content_type)

    assert assert_json_error(response, 415)["error"] == "unsupported_media_type"


@pytest.mark.parametrize(
    "header",
    [
        "Token",
        "Token abc",
        "Token a b",
        "Token " + "f" * 40,
        "Token \u00e4\u00f6",
        "Token abc\x00def",
        "Bearer x",
        "Token " + "0" * 5000,
    ],
)
def test_a_bad_token_is_401_not_a_crash(db, header):
    response = APIClient().get("/api/v1/games", HTTP_AUTHORIZATION=header)

    if header.startswith("Bearer"):
        assert response.status_code == 200  # not a token scheme: an anonymous visitor
    else:
        assert assert_json_error(response, 401)["error"] == "authentication_failed"


@pytest.mark.parametrize("cookie", ["x", "abc\x00defghijk", "a" * 5000, "../../etc/passwd", "ÄÖÜäöü12345"])
def test_a_bad_session_cookie_starts_a_fresh_guest(db, cookie):
    client = APIClient()
    client.cookies["sessionid"] = cookie

    assert client.get("/api/v1/games").status_code == 200
    created = client.post("/api/v1/games", {}, HTTP_X_CSRFTOKEN="x")
    assert created.status_code in (201, 403)


@pytest.mark.parametrize("language", ["", "*", "xx-YY;q=abc", "en;q=2", "\x00", "de," * 1000, "zz, en;q=0.1"])
def test_any_accept_language_gets_an_answer(player, game, language):
    response = player.post(
        f"/api/v1/games/{game['id']}/moves", {"from": "t1", "to": "t3"}, HTTP_ACCEPT_LANGUAGE=language
    )

    assert assert_json_error(response, 422)["error"] == "does_not_fit"


@pytest.mark.parametrize(
    "query",
    [
        "page=0",
        "page=-1",
        "page=abc",
        "page=99999999999999999999",
        "page_size=0",
        "page_size=100000",
        "page=%00",
        "page=1e9",
        "page=",
    ],
)
def test_any_page_query_gets_an_answer(player, game, query):
    for url in ("/api/v1/games", f"/api/v1/games/{game['id']}/moves"):
        response = player.get(f"{url}?{query}")
        # (a NUL is refused before the view: tests/site/test_nul_characters.py)
        assert response.status_code in ((400,) if "%00" in query else (200, 404)), (url, query, response.status_code)


def test_an_empty_page_number_is_refused_like_any_other_junk(player, game):
    for url in ("/api/v1/games", f"/api/v1/games/{game['id']}/moves"):
        assert player.get(f"{url}?page=").status_code == 404
        assert player.get(f"{url}?page=abc").status_code == 404
        assert player.get(f"{url}?page=1").status_code == 200


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "from": st.sampled_from(["t1", "t7", "fS", "f", "t0", "auto", ""]) | json_values,
        "card": st.sampled_from(["7H", "TS", "KS", "XX", "10H", None]) | json_values,
        "to": st.sampled_from(["t2", "f", "auto", "fH", "t8"]) | json_values,
        "seq": st.integers() | json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=move_like | json_values)
def test_no_move_body_makes_the_server_fail(player, game, body):
    response = player.post(f"/api/v1/games/{game['id']}/moves", body, format="json")

    if response.status_code != 200:
        assert_json_error(response, 400, 409, 422)
