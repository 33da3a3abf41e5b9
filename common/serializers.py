"""Serializers shared by the API apps (they document the schema and parse input)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every error answer: a machine-readable code and a text in the request's language."""

    error = serializers.CharField(help_text="Machine-readable code, e.g. `does_not_fit`, `stale`, `not_found`.")
    detail = serializers.CharField(help_text="What went wrong, in German (default) or English.")


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """An operation's error answers for ``@extend_schema(responses=...)``: each an :class:`ErrorSerializer`."""
    return {status: OpenApiResponse(ErrorSerializer) for status in statuses}


class StrictBooleanField(serializers.BooleanField):
    """A JSON ``true`` or ``false``, nothing else: DRF's own also takes 0, 1, "yes", "on"..., which
    the schema (``type: boolean``) does not allow (schemathesis found ``"auto_drop": 0`` accepted)."""

    def to_internal_value(self, data: object) -> bool:
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)
        raise AssertionError("unreachable")


class StrictCharField(serializers.CharField):
    """A JSON string, nothing else: DRF's own turns numbers into text, which the schema
    (``type: string``) does not allow (schemathesis found ``{"name": 0}`` accepted). Its
    ``max_length`` holds for the string as sent: DRF measures it after trimming the spaces
    around it, and accepted 61 characters of which the first was a space of Unicode's (U+0085),
    against the schema's ``maxLength`` (schemathesis again)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return str(super().to_internal_value(data))
