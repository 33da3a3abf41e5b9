"""One error type for the whole API and one DRF exception handler (extending DRF's own).

Every error answer is ``{"error": <code>, "detail": <text in the request's language>}``, its code
one of :data:`common.messages.MESSAGES` (DRF's own codes too: ``throttled``, ``method_not_allowed``...).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .messages import MESSAGES, current_language, message

Detail = str | Callable[[str], str]


class ApplicationError(Exception):
    """An answer the API gives on purpose: a machine-readable ``code``, an HTTP ``status``, a text.

    ``detail`` may be a string, a function of the language (``"de"``/``"en"``), or omitted: then
    the text of ``code`` in :mod:`common.messages` is used, filled with ``params``. The text is
    made when the answer is rendered, in the language of the request.
    """

    def __init__(
        self,
        code: str,
        status: int = 400,
        detail: Detail | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.status = status
        self._detail = detail
        self.headers = dict(headers or {})
        self.params = params
        super().__init__(code)

    @property
    def detail(self) -> str:
        if isinstance(self._detail, str):
            return self._detail
        lang = current_language()
        if self._detail is not None:
            return self._detail(lang)
        return message(self.code, lang, **self.params)

    def payload(self) -> dict[str, str]:
        return {"error": self.code, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.status} {self.code}"


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    """The texts of a DRF error detail (str, list or nested dict) as ``field: text`` lines."""
    if isinstance(detail, Mapping):
        lines: list[str] = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "detail") else f"{prefix}{key}"
            lines.extend(_flatten(value, f"{name}." if name else ""))
        return lines
    if isinstance(detail, list | tuple):
        return [line for item in detail for line in _flatten(item, prefix)]
    text = str(detail)
    return [f"{prefix[:-1]}: {text}" if prefix else text]


def error_body(code: str, detail: str) -> dict[str, str]:
    return {"error": code, "detail": detail}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render ``ApplicationError`` and every DRF/Django client error as ``{"error", "detail"}``."""
    if isinstance(exc, ApplicationError):
        return Response(exc.payload(), status=exc.status, headers=exc.headers or None)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not a client error: ApiErrorMiddleware answers a JSON 500
    code = exc.default_code
    if isinstance(exc, exceptions.ValidationError | exceptions.ParseError):
        code = "bad_request"  # malformed input of any kind
        detail = message("bad_request") + " " + "; ".join(_flatten(exc.detail))
    elif isinstance(exc, exceptions.PermissionDenied) and str(exc.detail) != str(exc.default_detail):
        detail = str(exc.detail)  # a refusal that says why (``csrf_failed``'s text)
    elif code in MESSAGES:
        detail = message(code, **_params(exc, context))
    else:  # a code of DRF's that this API never answers (tests/site/test_every_route.py looks)
        detail = "; ".join(_flatten(exc.detail))
    response.data = error_body(code, detail.strip())
    return response


def _params(exc: exceptions.APIException, context: dict[str, Any]) -> dict[str, object]:
    """What the text of a DRF error names: the method, the media type, the wait."""
    request = context.get("request")
    if isinstance(exc, exceptions.MethodNotAllowed):
        return {"method": str(getattr(request, "method", "") or "")[:20]}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return {"media_type": repr(str(getattr(request, "content_type", "") or "")[:60])}
    if isinstance(exc, exceptions.Throttled):
        return {"wait": max(1, math.ceil(exc.wait or 0))}
    return {}
