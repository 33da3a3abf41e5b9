"""``GET games/export``: the caller's games as NDJSON or CSV, streamed (:mod:`games.play.export`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from common.api import ApiView
from common.errors import ApplicationError, ErrorCode, shown
from common.serializers import ErrorSerializer
from games.play.export import FIELDS, FORMATS, export_lines
from games.players import player_of


class _JsonErrorsOnly(BaseContentNegotiation):
    """The answer is a stream the view makes itself; only an error goes through a renderer (JSON).

    (DRF's own negotiation would take ``?format=`` as a renderer's name and answer 404.)
    """

    def select_parser(self, request: Request, parsers: list[Any]) -> Any:
        return parsers[0] if parsers else None

    def select_renderer(self, request: Request, renderers: list[BaseRenderer], format_suffix: str | None = None) -> Any:
        return renderers[0], renderers[0].media_type


_DESCRIPTION = (
    "All your games (the account's, or a guest's session's), oldest first, streamed. Each game: "
    + ", ".join(f"`{f}`" for f in FIELDS)
    + ". `code` is empty for today's daily deal while its day is open (it would reveal the deal). "
    "`started_at`/`finished_at` are ISO 8601 UTC, `time_ms` the final time of a won game. `log` is "
    "the accepted moves in order (`t3:7H>t5`, `undo`), a card turned face up after a `/` "
    "(`t3:7H>t5/QS`); in CSV they are one field, separated by spaces. NDJSON: one JSON object a line."
)


class GameExportApi(ApiView):
    content_negotiation_class = _JsonErrorsOnly

    @extend_schema(
        operation_id="games_export",
        summary="Export your games (NDJSON or CSV, streamed)",
        description=_DESCRIPTION,
        parameters=[
            OpenApiParameter(
                name="format",
                type=str,
                enum=list(FORMATS),
                required=False,
                description="`ndjson` (default) or `csv`; anything else is 400 `bad_format`.",
            )
        ],
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description="One JSON object a line."),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="A header line, then one game a line."),
            400: OpenApiResponse(ErrorSerializer),
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        fmt = request.query_params.get("format", "ndjson")
        if fmt not in FORMATS:
            raise ApplicationError(ErrorCode.BAD_FORMAT, text=shown(fmt), allowed=", ".join(FORMATS))
        response: HttpResponseBase
        if request.method == "HEAD":  # the headers alone: no games are read
            response = HttpResponse(content_type=FORMATS[fmt])
        else:
            lines = export_lines(player=player_of(request), fmt=fmt)
            response = StreamingHttpResponse(lines, content_type=FORMATS[fmt])
        response["Content-Disposition"] = f'attachment; filename="yukon-games.{fmt}"'
        response["Cache-Control"] = "private, no-store"
        return response
