"""``GET games/{id}/replay``: a game's replay with its post-mortem (:mod:`games.help.replay`)."""

from __future__ import annotations

from uuid import UUID

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.serializers import ErrorSerializer
from common.throttles import limits
from games.help.replay import replay_body, replay_game
from games.play.serializers import FromFieldMixin
from games.players import player_of


class SeenPositionSerializer(serializers.Serializer):
    tableau = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Seven columns, bottom to top; a face-down card is `XX` (as the player saw it).",
    )
    foundations = serializers.DictField(child=serializers.CharField(allow_null=True))
    score = serializers.IntegerField()


class ReplayStepSerializer(FromFieldMixin, SeenPositionSerializer):
    """One logged move or undo, with the move's fields, and the position after it."""

    seq = serializers.IntegerField(min_value=1, help_text="The move counter after this entry.")
    move = serializers.CharField(help_text="As logged: `t3:7H>t5`, `t2>f`, `fS>t4` or `undo`.")
    from_ = serializers.CharField(
        allow_null=True, help_text="The move's `from` (`t1`..`t7`, `fS`..`fC`); null for an undo."
    )
    card = serializers.CharField(
        allow_null=True,
        help_text="The card the move took (the bottom card of its group: always face up); null for an undo.",
    )
    to = serializers.CharField(allow_null=True, help_text="The move's `to` (`t1`..`t7` or `f`); null for an undo.")
    points = serializers.IntegerField()
    flipped = serializers.CharField(allow_null=True, help_text="The card this move turned face up.")
    at = serializers.DateTimeField()


class PostMortemSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(
        choices=["winnable", "lost", "unknown"],
        help_text="`winnable`: it could be won after every move; `lost`: not after move `lost_at`; "
        "`unknown`: the solver's budget ran out where it mattered (winnable until `winnable_until` at least).",
    )
    lost_at = serializers.IntegerField(allow_null=True, help_text="0: the deal itself cannot be won.")
    winnable_until = serializers.IntegerField(allow_null=True)
    rescued_at = serializers.IntegerField(allow_null=True, help_text="The undo that made it winnable again.")
    final = serializers.ChoiceField(choices=["won", "winnable", "lost", "unknown"], help_text="The last position.")
    moves = serializers.IntegerField(help_text="The log entries analysed.")
    solved = serializers.IntegerField(help_text="Positions the solver was asked about.")
    unknown = serializers.IntegerField(help_text="Of them, how many it could not decide within its budget.")


class ReplaySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    player = serializers.CharField(allow_null=True, help_text="The account's name (null: a guest's game).")
    own = serializers.BooleanField()
    code = serializers.CharField(allow_null=True, help_text="Null for a daily deal whose day is not over.")
    rule = serializers.CharField()
    daily = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField()
    status = serializers.CharField()
    moves = serializers.IntegerField()
    score = serializers.IntegerField()
    time_ms = serializers.IntegerField(allow_null=True)
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    start = SeenPositionSerializer(help_text="The deal as dealt.")
    steps = ReplayStepSerializer(many=True)
    par = serializers.IntegerField(
        allow_null=True,
        help_text="A daily deal's certified solution length (once its day is over); for a practice "
        "game the length of the solver's line from the deal.",
    )
    postmortem = PostMortemSerializer(allow_null=True, help_text="Null until the task has analysed the game.")
    postmortem_pending = serializers.BooleanField(help_text="A post-mortem is being made: ask again later.")


class GameReplayApi(ApiView):
    # Opening a replay asks for its game's post-mortem (the solver, in the worker): limited as hints are.
    rate_limits = {"GET": limits("help", "help_ip")}

    @extend_schema(
        operation_id="games_replay",
        summary="A game's replay: the deal, every position as the player saw it, the post-mortem and the par",
        description="Your own games at any time; anyone's among the top 10 counted ranked games of a day "
        "once that day is over; staff's (`games.view_game`) any daily game once its day is over (else 404). "
        "Face-down cards stay `XX` until they are turned up.",
        responses={200: ReplaySerializer, **{code: OpenApiResponse(ErrorSerializer) for code in (404, 409, 429)}},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        now = timezone.now()
        game, own = replay_game(game_id=game_id, player=player_of(request), now=now)
        return Response(ReplaySerializer(replay_body(game=game, own=own, now=now)).data)
