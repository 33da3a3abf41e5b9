"""Serializers shared by the API apps (they document the schema and parse input)."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every error answer: a machine-readable code and a text in the request's language."""

    error = serializers.CharField(help_text="Machine-readable code, e.g. `does_not_fit`, `stale`, `not_found`.")
    detail = serializers.CharField(help_text="What went wrong, in German (default) or English.")
