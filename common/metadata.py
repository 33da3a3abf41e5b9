"""What an API view answers to OPTIONS (DRF's ``DEFAULT_METADATA_CLASS``).

DRF's own answer adds, for a generic view, the fields of ``serializer_class`` for each of POST
and PUT; our views name their serializers in ``@extend_schema`` instead, so DRF asserted and
OPTIONS answered 500. The OpenAPI schema documents every body, so OPTIONS points there: the
``Allow`` header (set by DRF) lists the methods, the body names the view, its media types and
the schema.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse
from rest_framework.metadata import BaseMetadata

if TYPE_CHECKING:  # (DRF imports this module while it defines APIView)
    from rest_framework.request import Request
    from rest_framework.views import APIView


class ApiMetadata(BaseMetadata):
    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
            "schema": reverse("schema"),
        }
