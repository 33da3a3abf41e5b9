"""The API's only parser: JSON, bounded in size and depth, strict about NaN/Infinity, and refusing
text with a NUL character (PostgreSQL can hold none: a query with one raised ``DataError``)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_BODY_BYTES = 64 * 1024


class PayloadTooLarge(APIException):
    status_code = 413
    default_detail = "Request body too large."
    default_code = "payload_too_large"


class NulCharacter(APIException):
    status_code = 400
    default_detail = "NUL character in the request."
    default_code = "bad_character"  # (its text: common.errors.ErrorCode)


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)  # (json.loads would make one per call)


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read(MAX_BODY_BYTES + 1)
        if len(raw) > MAX_BODY_BYTES:
            raise PayloadTooLarge()
        try:
            text = raw.decode(encoding)
            data = _DECODER.decode(text)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except (ValueError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        # A JSON text can spell NUL only as the escape \u0000 (a raw control character is invalid
        # JSON): where that escape appears, look at the decoded strings (an escaped backslash
        # before "u0000" is no NUL).
        if "\\u0000" in text and _holds_nul(data):
            raise NulCharacter()
        return data


def _holds_nul(value: Any) -> bool:
    """Whether a string in ``value`` (a key or a value, at any depth) contains NUL."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False
