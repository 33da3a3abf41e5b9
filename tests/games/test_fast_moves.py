"""The fast path of moves and undos (games.fast_moves) answers exactly as Django and DRF would.

Each test sends the same requests through the service's WSGI application (``yukon_site.wsgi``:
the fast path in front of Django) and through Django alone, on two games of the same deal, and
compares status, body and headers; and it checks which of the two answered (the fast path hands
everything but the plain case to Django).
"""

from __future__ import annotations

import io
import json
from typing import Any
from uuid import uuid4

import pytest
from django.core import signals
from django.db import OperationalError, close_old_connections

from games import services
from games.engine import GameCode
from games.fast_moves import FastMoves
from games.models import Game, MoveLog
from games.players import Player
from tests import factories
from tests.support import assert_error
from yukon_site.wsgi import application, django_application

pytestmark = pytest.mark.django_db(transaction=False)

CODE = "YU1-C-AAAAAAB"  # t7's TS fits on t2's JH and uncovers 8S
VOLATILE_HEADERS = {"X-Request-ID", "Date", "Content-Length"}  # (elapsed_ms may have more digits)


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes, handler: Any) -> None:
        self.status_code = int(status.split()[0])
        self.headers = dict(headers)
        self.content = body
        self.fast = handler is FastMoves

    def json(self) -> Any:
        return json.loads(self.content)


def send(app: Any, method: str, path: str, body: Any = None, **headers: str) -> Answer:
    data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "REMOTE_ADDR": "127.0.0.1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        **{"HTTP_" + name.upper(): value for name, value in headers.items()},
    }
    started: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        started.update(status=status, headers=response_headers)

    # As Django's test client does: the test's transaction keeps its connection open.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        result = app(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            result.close()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return Answer(started["status"], started["headers"], content, getattr(result, "_handler_class", None))


@pytest.fixture
def token(account: Any) -> str:
    key = factories.token_key(account)
    # The first request of a token reads it from the database (Django's path) and caches it.
    assert send(application, "GET", "/api/v1/games", Authorization=f"Token {key}").status_code == 200
    return key


@pytest.fixture
def twins(account: Any) -> tuple[str, str]:
    """Two games of the same deal: one played through the fast path, one through Django alone."""
    return tuple(str(services.game_start(player=_player(account), code=_code()).id) for _ in range(2))  # type: ignore[return-value]


def _player(account: Any) -> Player:
    return Player(user=account)


def _code() -> GameCode:
    return GameCode.parse(CODE)


def both(token: str, twins: tuple[str, str], action: str, body: Any, **headers: str) -> tuple[Answer, Answer]:
    fast_game, slow_game = twins
    auth = {"Authorization": f"Token {token}", **headers}
    fast = send(application, "POST", f"/api/v1/games/{fast_game}/{action}", body, **auth)
    slow = send(django_application, "POST", f"/api/v1/games/{slow_game}/{action}", body, **auth)
    return fast, slow


def move(token: str, game_id: str) -> Answer:
    """A move from t7 to t2 in ``game_id``, sent through the service's application."""
    path, auth = f"/api/v1/games/{game_id}/moves", f"Token {token}"
    return send(application, "POST", path, {"from": "t7", "to": "t2"}, Authorization=auth)


def assert_alike(fast: Answer, slow: Answer, twins: tuple[str, str]) -> None:
    assert fast.status_code == slow.status_code, (fast.content, slow.content)
    fast_body, slow_body = fast.json(), slow.json()
    if "id" in fast_body:
        assert (fast_body.pop("id"), slow_body.pop("id")) == twins
        fast_body.pop("elapsed_ms"), slow_body.pop("elapsed_ms")
    assert fast_body == slow_body
    assert {k: v for k, v in fast.headers.items() if k not in VOLATILE_HEADERS} == {
        k: v for k, v in slow.headers.items() if k not in VOLATILE_HEADERS
    }
    assert fast.headers["X-Request-ID"] and slow.headers["X-Request-ID"]
    assert int(fast.headers["Content-Length"]) == len(fast.content)


def test_a_move_and_an_undo_are_answered_by_the_fast_path_as_django_answers_them(token, twins):
    fast, slow = both(token, twins, "moves", {"from": "t7", "card": "TS", "to": "t2", "seq": 0})
    assert fast.fast and not slow.fast
    assert fast.status_code == 200 and fast.json()["last"] == {"points": 5, "flipped": "8S"}
    assert_alike(fast, slow, twins)
    assert [(e.seq, e.move) for e in MoveLog.objects.filter(game_id=twins[0])] == [(1, "t7:TS>t2")]

    fast, slow = both(token, twins, "undo", {"seq": 1})
    assert fast.fast and fast.status_code == 200 and fast.json()["moves"] == 2
    assert_alike(fast, slow, twins)
    assert Game.objects.get(pk=twins[0]).moves == 2


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("moves", {"from": "t1", "card": "7H", "to": "t3"}, 422, "does_not_fit"),
        ("moves", {"from": "t7", "card": "TS", "to": "t2", "seq": 5}, 409, "stale"),
        ("moves", {"from": "x9", "to": "t2"}, 400, "bad_move"),
        ("undo", {}, 422, "nothing_to_undo"),
    ],
)
def test_refusals_are_the_same_in_the_request_s_language(token, twins, action, body, status, code, language):
    fast, slow = both(token, twins, action, body, Accept_Language=language)
    assert fast.fast
    assert_error(fast, status, code)
    assert_alike(fast, slow, twins)
    assert fast.headers["Content-Language"] == language
    assert Game.objects.get(pk=twins[0]).moves == 0


def test_a_game_of_someone_else_or_none_at_all_is_not_found(token, twins):
    other = str(services.game_start(player=_player(factories.user()), code=_code()).id)
    for game_id in (other, str(uuid4())):
        answer = move(token, game_id)
        assert answer.fast
        assert_error(answer, 404, "not_found")
    assert Game.objects.get(pk=other).moves == 0


@pytest.mark.parametrize(
    "body",
    [b"{not json", {"from": "t7", "card": "TS", "to": "t2", "seq": "zero"}, {"from": "t7", "to": ["t2"]}, ["t7"]],
)
def test_a_malformed_body_is_answered_by_django_and_counts_once(token, twins, body, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "moves": "4/minute"}}
    auth = {"Authorization": f"Token {token}"}
    slow = send(django_application, "POST", f"/api/v1/games/{twins[1]}/moves", body, **auth)  # counts 1
    assert_error(slow, 400, "bad_request")
    for _ in range(3):  # counts 2, 3, 4; counted twice, the second would be over the limit
        fast = send(application, "POST", f"/api/v1/games/{twins[0]}/moves", body, **auth)
        assert not fast.fast
        assert fast.json() == slow.json()
    over = move(token, twins[0])
    assert not over.fast
    assert_error(over, 429, "throttled")
    assert int(over.headers["Retry-After"]) > 0
    assert Game.objects.get(pk=twins[0]).moves == 0


def test_a_revoked_token_is_refused_at_once(account, token, twins):
    account.token.delete()  # a logout, or a revocation on another web process
    answer = move(token, twins[0])
    assert not answer.fast
    assert answer.status_code == 401 and answer.json()["error"] == "authentication_failed"
    assert Game.objects.get(pk=twins[0]).moves == 0


def test_an_inactive_account_is_refused(account, token, twins):
    account.is_active = False
    account.save()
    answer = move(token, twins[0])
    assert not answer.fast
    assert answer.status_code == 401
    assert Game.objects.get(pk=twins[0]).moves == 0


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Idempotency_Key": "abc-1"}, 200),  # stored answers: Django's path
        ({"Host": "evil.example"}, 400),  # a host Django refuses
        ({"Accept": "text/html"}, 406),  # DRF's content negotiation
    ],
)
def test_other_requests_go_to_django(token, twins, headers, status):
    move, auth = {"from": "t7", "card": "TS", "to": "t2"}, {"Authorization": f"Token {token}", **headers}
    fast = send(application, "POST", f"/api/v1/games/{twins[0]}/moves", move, **auth)
    assert not fast.fast
    assert fast.status_code == status
    if "Idempotency_Key" in headers:  # the stored answer
        again = send(application, "POST", f"/api/v1/games/{twins[0]}/moves", move, **auth)
        assert again.headers["Idempotent-Replayed"] == "true" and again.json() == fast.json()


def test_a_token_not_yet_cached_is_read_by_django_then_the_fast_path_takes_over(account, twins):
    auth = {"Authorization": f"Token {factories.token_key(account)}"}
    first = send(
        application, "POST", f"/api/v1/games/{twins[0]}/moves", {"from": "t7", "card": "TS", "to": "t2"}, **auth
    )
    second = send(application, "POST", f"/api/v1/games/{twins[0]}/undo", {"seq": 1}, **auth)
    assert (first.fast, second.fast) == (False, True)
    assert (first.status_code, second.status_code) == (200, 200)


def test_a_database_outage_is_a_503_with_retry_after(token, twins, monkeypatch):
    def down(**kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(services, "game_play", down)
    answer = move(token, twins[0])
    assert answer.fast
    assert_error(answer, 503, "service_unavailable")
    assert answer.headers["Retry-After"] == "5"


def test_a_request_without_a_token_is_answered_by_django(twins):
    answer = send(application, "POST", f"/api/v1/games/{twins[0]}/moves", {"from": "t7", "card": "TS", "to": "t2"})
    assert not answer.fast
    assert_error(answer, 404, "not_found")  # a guest without a session owns no game
    assert Game.objects.get(pk=twins[0]).moves == 0
