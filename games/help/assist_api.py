"""The help endpoints of practice games: ``GET games/{id}/hint`` and ``GET games/{id}/winnable``."""

from __future__ import annotations

from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.serializers import error_responses
from common.throttles import limits
from games.help import assist
from games.play.serializers import MoveSerializer
from games.players import player_of


class HintSerializer(serializers.Serializer):
    move = MoveSerializer(allow_null=True, help_text="A good next move, or null when there is none (see reason).")
    reason = serializers.ChoiceField(
        choices=["move", "none", "no_progress"],
        help_text="move: follow `move`. none: no legal move is left (or the game is won). no_progress: no move "
        "helps (every move goes back to a position the game already had, or only shuffles cards between "
        'columns): the page says "no useful move — consider undo". A hint never leads back to a position '
        "the game has had.",
    )


class WinnableSerializer(serializers.Serializer):
    winnable = serializers.ChoiceField(
        choices=["yes", "no", "unknown", "deciding"],
        help_text="yes, no; unknown: the solver could not decide it within its budget, the request's nor the "
        "worker's. deciding: the request's small budget did not settle it and the worker is deciding it now "
        "(its deal is decided as the game is dealt): ask again in a second or two.",
    )


_ERRORS = error_responses(404, 409, 422, 429)


class GameHintApi(ApiView):
    rate_limits = {"GET": limits("help", "help_ip")}

    @extend_schema(
        operation_id="games_hint",
        summary="A hint for a practice game (from the visible cards only; never for today's daily deal)",
        responses={200: HintSerializer, **_ERRORS},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        return Response(assist.game_hint(game_id=game_id, player=player_of(request)))


class GameWinnableApi(ApiView):
    rate_limits = {"GET": limits("help", "help_ip")}

    @extend_schema(
        operation_id="games_winnable",
        summary="Can this practice game still be won? (never for today's daily deal)",
        responses={200: WinnableSerializer, **_ERRORS},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        return Response({"winnable": assist.game_winnable(game_id=game_id, player=player_of(request))})
