"""The moves and undos of token clients, answered without Django's middleware stack and DRF.

A move is the service's hottest request, and most of its time went to the framework around it:
in one process, a move took 1.6 ms of CPU through the eleven middlewares and DRF's request,
negotiation, authentication and response, against 0.8 ms for the move itself (the rate limits,
the read, the engine, the write). This WSGI layer in front of Django (``yukon_site.wsgi``) answers
the plain case of ``POST /api/v1/games/<id>/moves`` and ``.../undo`` itself, with the same
functions the full path uses:

* the rate limits and the token's cached account: one round trip to Redis
  (:func:`common.throttles.count_with_entry`, :func:`common.authentication.cached_account`);
* the body read by the API's own parser and :func:`games.api.play_input` / ``seq_input``;
* :mod:`games.services` to play, :class:`common.errors.ApplicationError` answers in the request's
  language, and any other error answered by :class:`common.middleware.ApiErrorMiddleware` (503
  when a dependency is down);
* the request id and access line (:mod:`common.observability`), and the headers of Django's own
  security, locale, common and clickjacking middleware, applied to the answer by those middlewares.

Everything else goes to Django as it came: another method or path, a query string (which Django
checks for NUL characters: ``common.middleware.RefuseNulMiddleware``), a session cookie instead of a
token, an ``Idempotency-Key``, a host Django would refuse, plain HTTP where HTTPS is required, a
body the shortcut does not take, a token that is not in the cache, revoked or of an inactive
account, a rate limit reached. The limits counted by then are handed over with the request
(:data:`common.throttles.HANDED_OVER`), so nothing counts twice. ``tests/games/test_fast_moves.py``
checks that both paths give the same answers and headers.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from django.core import signals
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from common.authentication import cached_account, request_token, token_cache_key
from common.dependencies import is_dependency_error
from common.errors import ApplicationError
from common.middleware import ApiErrorMiddleware
from common.observability import log_access, request_id_of, request_id_var
from common.parsers import SafeJSONParser
from common.throttles import HANDED_OVER, count_with_entry, over_limit, throttles

from . import api, services
from .players import Player
from .serializers import seq_input

__all__ = ["FastMoves"]

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# Django's own uuid path converter, lower case only.
_PATH = re.compile(
    r"/api/v1/games/(?P<game_id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/(?P<action>moves|undo)"
)
_MAX_BODY = 4096  # a move is about 60 bytes; anything longer is left to Django's own limits


def _no_response(request: HttpRequest) -> HttpResponse:  # the middlewares below only process
    raise AssertionError("not called")


class FastMoves:
    """WSGI: answers the plain moves and undos of token clients; hands all else to ``django``."""

    def __init__(self, django: WSGIApp) -> None:
        self.django = django
        self._security = SecurityMiddleware(_no_response)
        self._common = CommonMiddleware(_no_response)
        self._locale = LocaleMiddleware(_no_response)
        self._frame = XFrameOptionsMiddleware(_no_response)
        self._errors = ApiErrorMiddleware(_no_response)
        self._renderer = JSONRenderer()
        self._allow = {"moves": _allowed(api.GameMovesApi), "undo": _allowed(api.GameUndoApi)}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        match = _candidate(environ)
        if match is None:
            return self.django(environ, start_response)
        body = _read_body(environ)
        if body is None:
            return self.django(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        request = WSGIRequest(environ)
        taken = self._take(request, body, match["action"])
        if taken is None:
            environ["wsgi.input"] = io.BytesIO(body)
            return self.django(environ, start_response)
        signals.request_started.send(sender=self.__class__, environ=environ)
        request_id = request_id_of(request)
        context = request_id_var.set(request_id)
        started = time.perf_counter()
        try:
            user, answer = taken
            response = self._answer(request, match["action"], UUID(match["game_id"]), user, answer)
            for middleware in (self._frame, self._common, self._locale, self._security):  # Django's order
                response = middleware.process_response(request, response)
            response["X-Request-ID"] = request_id
            log_access(request, response, started=started, user=user)
        finally:
            request_id_var.reset(context)
        response._handler_class = self.__class__  # close() then sends request_finished, as Django's
        status = f"{response.status_code} {response.reason_phrase}"
        headers = [*response.items(), *(("Set-Cookie", c.output(header="")) for c in response.cookies.values())]
        start_response(status, headers)
        return response

    def _take(self, request: WSGIRequest, body: bytes, action: str) -> tuple[Any, Any] | None:
        """``(account, input)`` when this path answers the request (its limits counted), else None;
        ``input`` is the move and ``seq``, ``seq`` alone, or the ApplicationError to answer."""
        try:
            request.get_host()
        except DisallowedHost:
            return None
        if self._security.process_request(request) or self._common.process_request(request):
            return None  # a redirect (HTTPS, www) or a refused user agent: Django answers
        drf_request = Request(request)
        token = request_token(drf_request)
        if token is None:
            return None
        try:
            counted, entry = count_with_entry(throttles("moves", "moves_ip"), drf_request, read=token_cache_key(token))
        except Exception as exc:
            if is_dependency_error(exc):  # Redis down: Django meets it again and answers 503
                return None
            raise
        user = cached_account(entry)
        if over_limit(counted) or user is None or not user.is_active:
            request.META[HANDED_OVER] = (counted, entry)
            return None
        try:
            data = SafeJSONParser().parse(io.BytesIO(body), "application/json", {"encoding": "utf-8"})
            answer: Any = api.play_input(data) if action == "moves" else seq_input(data)
        except ApplicationError as exc:  # bad_move: answered in the request's language, below
            answer = exc
        except APIException:  # a malformed body: Django's answer lists what is wrong
            request.META[HANDED_OVER] = (counted, entry)
            return None
        self._locale.process_request(request)  # the request's language, as LocaleMiddleware sets it
        return user, answer

    def _answer(self, request: HttpRequest, action: str, game_id: UUID, user: Any, answer: Any) -> HttpResponse:
        player = Player(user=user)
        try:
            if isinstance(answer, ApplicationError):
                raise answer
            if action == "moves":
                move, seq = answer
                outcome = services.game_play(game_id=game_id, player=player, move=move, seq=seq)
            else:
                outcome = services.game_undo(game_id=game_id, player=player, seq=answer)
            response = self._json(api.outcome_state(outcome), 200)
        except ApplicationError as exc:
            response = self._json(exc.payload(), exc.status)
        except Exception as exc:
            return self._errors.process_exception(request, exc)  # 503 for a dependency down, else 500
        response["Allow"] = self._allow[action]
        return response

    def _json(self, data: Any, status: int) -> HttpResponse:
        return HttpResponse(self._renderer.render(data), status=status, content_type="application/json")


def _candidate(environ: dict[str, Any]) -> re.Match[str] | None:
    """The path's match if the request looks like a plain move or undo of a token client."""
    if environ.get("REQUEST_METHOD") != "POST" or "HTTP_IDEMPOTENCY_KEY" in environ or environ.get("QUERY_STRING"):
        return None
    if not environ.get("HTTP_AUTHORIZATION", "").startswith("Token "):
        return None
    if environ.get("CONTENT_TYPE") != "application/json":
        return None
    if environ.get("HTTP_ACCEPT", "*/*") not in ("*/*", "application/json"):
        return None
    return _PATH.fullmatch(environ.get("PATH_INFO", ""))


def _read_body(environ: dict[str, Any]) -> bytes | None:
    """The body, if it says how long it is and that is short (else None, and nothing is read)."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or "")
    except ValueError:
        return None
    if not 0 < length <= _MAX_BODY:
        return None
    return bytes(environ["wsgi.input"].read(length))  # (a short body fails to parse: Django answers)


def _allowed(view_class: type[Any]) -> str:
    """The ``Allow`` header DRF sends with the view's answers."""
    view = view_class()
    view.setup(HttpRequest())
    return ", ".join(view.allowed_methods)
