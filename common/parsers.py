"""The API's only parser: JSON, bounded in size and depth, strict about NaN/Infinity."""

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
            return _DECODER.decode(raw.decode(encoding))
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
        except (ValueError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
