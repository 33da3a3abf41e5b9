"""The games API: thin views that parse, call a service or selector, and render."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.errors import BAD_STATUS, ApplicationError, ErrorCode, explain, shown
from common.pagination import LongPagePagination, PagePagination
from common.serializers import error_responses
from common.throttles import limits
from games.competition.links import Origin
from games.engine import BadCode, GameCode, Rule
from games.models import Game, StatusChoices
from games.play import selectors, services
from games.play.idempotency import IDEMPOTENCY_PARAMETER, IDEMPOTENCY_REQUIRED, Answer, answer_once
from games.play.presenters import game_state, game_summary, move_log_entry
from games.play.serializers import (
    BatchRefusedSerializer,
    FinishSerializer,
    GameBatchSerializer,
    GameBatchStateSerializer,
    GameFinishedSerializer,
    GameOfflineSerializer,
    GameStartSerializer,
    GameStateSerializer,
    GameSummarySerializer,
    MoveLogEntrySerializer,
    MovePlaySerializer,
    UndoSerializer,
    batch_input,
    move_play_input,
    offline_code_input,
    seq_input,
)
from games.players import player_of


def state_of(*, game: Game, now: datetime) -> dict[str, Any]:
    """The state answer of ``game`` at ``now``."""
    length = selectors.daily_solution_length(game=game, now=now)
    return game_state(game=game, now=now, solution_length=length, win=selectors.win_records(game=game))


def outcome_state(outcome: services.MoveOutcome) -> dict[str, Any]:
    """The state answer of an accepted move, undo or finish, from what the outcome carries (no
    query, but the win's records when it won the game)."""
    game = outcome.game
    win = selectors.win_records(game=game) if outcome.engine.is_won else None
    return game_state(
        game=game, now=outcome.at, engine=outcome.engine, solution_length=outcome.solution_length, win=win
    )


class GameListCreateApi(ApiView, GenericAPIView):
    pagination_class = PagePagination

    rate_limits = {"POST": limits("game_start", "game_start_ip")}

    @extend_schema(
        operation_id="games_list",
        summary="Your games, newest first",
        description="Unfinished and finished games of the account (or of the guest's session), newest "
        "first. `?status=playing` gives only the unfinished ones: the first is the game to resume.",
        parameters=[
            OpenApiParameter(
                name="status",
                type=str,
                enum=list(StatusChoices.values),
                required=False,
                description="Only games of this status: `playing` (unfinished) or `won`. "
                "Anything else is 400 `bad_request`.",
            )
        ],
        responses={200: GameSummarySerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request) -> Response:
        now = timezone.now()
        status_filter = request.query_params.get("status")
        if status_filter is not None and status_filter not in StatusChoices.values:
            allowed = ", ".join(StatusChoices.values)
            raise ApplicationError(
                ErrorCode.BAD_REQUEST, str(BAD_STATUS).format(text=shown(status_filter), allowed=allowed)
            )
        games = selectors.game_list(player=player_of(request), status=status_filter)
        page = self.paginate_queryset(games)
        return self.get_paginated_response([game_summary(game=game, now=now) for game in page or []])

    @extend_schema(
        operation_id="games_create",
        summary="Start a game",
        request=GameStartSerializer,
        description="With `winnable_only`, a deal from the pool of deals the solver has won; while that pool is "
        "being filled, 503 `winnable_not_ready` with `Retry-After`.",
        responses={201: GameStateSerializer, **error_responses(400, 403, 409, 429, 503)},
    )
    def post(self, request: Request) -> Response:
        serializer = GameStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        code = None
        if "code" in data:
            try:
                code = GameCode.parse(data["code"])
            except BadCode:
                raise ApplicationError(ErrorCode.BAD_CODE, text=shown(data["code"], 80)) from None
        game = services.game_start(
            player=player_of(request, start_session=True),
            rule=Rule(data["rule"]) if "rule" in data else None,
            code=code,
            daily=data["daily"],
            replace_untouched=data["replace_untouched"],
            origin=Origin.of(request) if data["daily"] else None,
            winnable_only=data["winnable_only"],
        )
        return Response(state_of(game=game, now=timezone.now()), status=status.HTTP_201_CREATED)


class GameDetailApi(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game's state",
        responses={200: GameStateSerializer, **error_responses(404)},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = selectors.game_get(game_id=game_id, player=player_of(request))
        return Response(state_of(game=game, now=timezone.now()))


class GameMovesApi(ApiView, GenericAPIView):
    pagination_class = LongPagePagination

    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_moves_list",
        summary="The move log",
        responses={200: MoveLogEntrySerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request: Request, game_id: UUID) -> Response:
        game = selectors.game_get(game_id=game_id, player=player_of(request))
        page = self.paginate_queryset(selectors.move_log_list(game=game))
        return self.get_paginated_response([move_log_entry(entry) for entry in page or []])

    @extend_schema(
        operation_id="games_moves_create",
        summary="Play a move",
        request=MovePlaySerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameStateSerializer, **error_responses(400, 404, 409, 422, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        move, seq = move_play_input(request.data)
        player = player_of(request)
        return answer_once(
            request,
            game_id=game_id,
            player=player,
            make=lambda _: Response(
                outcome_state(services.game_play(game_id=game_id, player=player, move=move, seq=seq))
            ),
        )


class GameUndoApi(ApiView):
    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_undo",
        summary="Undo the last move",
        request=UndoSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameStateSerializer, **error_responses(400, 404, 409, 422, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        seq = seq_input(request.data)
        player = player_of(request)
        return answer_once(
            request,
            game_id=game_id,
            player=player,
            make=lambda _: Response(outcome_state(services.game_undo(game_id=game_id, player=player, seq=seq))),
        )


class GameFinishApi(ApiView):
    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_finish",
        summary="Finish: every card left onto its foundation",
        description="Once every card is face up (`finish_available` in the state), put each card left "
        "on the table onto its foundation, lowest rank first: each an ordinary move (counted, scored, in "
        "the move log), all in one write; the game is then won. The answer is the won game's state and "
        "the moves played (`finish_moves`, in order). Refused (422, nothing changes) with "
        "`cards_face_down`, `finish_blocked` (a card lies on a lower card of its own suit) or `game_over`.",
        request=FinishSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameFinishedSerializer, **error_responses(400, 404, 409, 422, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        seq = seq_input(request.data)
        player = player_of(request)

        def finish(_: Answer) -> Response:
            outcome = services.game_finish(game_id=game_id, player=player, seq=seq)
            moves = [move.to_json() for move in outcome.played]
            return Response({**outcome_state(outcome), "finish_moves": moves})

        return answer_once(request, game_id=game_id, player=player, make=finish)


class GamePauseApi(ApiView):
    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_pause",
        summary="Pause a practice game's clock",
        description='The clock stops and so does play: moves, undos, hints and "still winnable?" are refused '
        "with 409 `game_paused` until `POST games/{id}/resume`. Idempotent: a paused game stays paused. A ranked "
        "attempt's clock never stops (422 `no_pause_when_ranked`); a won game is 422 `game_over`. No body.",
        request=None,
        responses={200: GameStateSerializer, **error_responses(404, 409, 422, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.game_pause(game_id=game_id, player=player_of(request))
        return Response(state_of(game=game, now=timezone.now()))


class GameResumeApi(ApiView):
    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_resume",
        summary="Resume a paused game",
        description="The clock runs again from where it stopped (the pause is not counted). Idempotent: a game "
        "that is not paused stays as it is. No body.",
        request=None,
        responses={200: GameStateSerializer, **error_responses(404, 409, 429)},
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        game = services.game_resume(game_id=game_id, player=player_of(request))
        return Response(state_of(game=game, now=timezone.now()))


# -- played offline (docs/api.md, "Played offline") -----------------------------------------------


def batch_answer(batch: services.BatchOutcome, *, status_ok: int = status.HTTP_200_OK) -> Response:
    """The answer to a batch: the state with ``batch`` if every entry was played, else 422
    ``batch_refused`` saying where it stopped, with the game's state as kept. An answer, not a
    raised error: what was kept stays written (and a retry's key gets this answer again)."""
    state = outcome_state(batch.outcome)
    refused = batch.refused
    if refused is None:
        return Response({**state, "batch": {"applied": batch.applied}}, status=status_ok)
    if refused.reason == ErrorCode.BAD_MOVE:
        rule = ErrorCode.BAD_MOVE.message(reason=refused.text)
    else:
        rule = explain(refused.reason, relaxed=refused.relaxed)
    extra = {"index": refused.index, "applied": batch.applied, "reason": refused.reason, "state": state}
    error = ApplicationError(
        ErrorCode.BATCH_REFUSED, number=refused.index + 1, rule=rule, applied=batch.applied, extra=extra
    )
    return Response(error.payload(), status=error.status)


_BATCH_DESCRIPTION = (
    "The entries are replayed in order, each as `POST games/{id}/moves` or `POST games/{id}/undo` makes it "
    "(the engine decides; score, move log and undo as ever), all in one write. At the first entry refused, "
    "the batch stops: the entries before it are kept and the answer is 422 `batch_refused` with `index` (the "
    "entry refused, 0-based), `applied` (the entries kept), `reason` (as a move's refusal, or `bad_move`) and "
    "`state` (the game as kept). Refused as a whole, nothing changed: a daily game (422 `daily_online_only`), a "
    "won game (422 `game_over`). A paused game is resumed. The game is then `played_offline`: its clock is the "
    "device's `elapsed_ms` (bounded), and its time is no best (docs/statistics.md)."
)


class GameBatchApi(ApiView):
    rate_limits = {"POST": limits("moves", "moves_ip")}

    @extend_schema(
        operation_id="games_batch",
        summary="Moves played offline, replayed by the server",
        description=_BATCH_DESCRIPTION + " `seq` other than the game's move counter: 409 `stale`, nothing changed.",
        request=GameBatchSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={
            200: GameBatchStateSerializer,
            422: BatchRefusedSerializer,
            **error_responses(400, 404, 409, 429),
        },
    )
    def post(self, request: Request, game_id: UUID) -> Response:
        fields, entries = batch_input(request.data, serializer_class=GameBatchSerializer)
        player = player_of(request)

        def replay(_: Answer) -> Response:
            batch = services.game_batch(
                game_id=game_id, player=player, seq=fields["seq"], entries=entries, elapsed_ms=fields["elapsed_ms"]
            )
            return batch_answer(batch)

        return answer_once(request, game_id=game_id, player=player, make=replay)


class GameOfflineApi(ApiView):
    rate_limits = {"POST": limits("game_start", "game_start_ip")}

    @extend_schema(
        operation_id="games_offline",
        summary="A practice game dealt offline, with its moves",
        description="The game of `code` is made for the caller (as `POST games` with a code), dealt `elapsed_ms` "
        "before now (at most 7 days), and its moves replayed as by `POST games/{id}/batch`: 201 with the state and "
        "`batch`, or 422 `batch_refused` with the game kept up to its last legal move. `Idempotency-Key` is "
        "required (the device's name for the game): a retry makes no second game. A code of a daily deal whose "
        "day is not over is 422 `daily_online_only`. " + _BATCH_DESCRIPTION,
        request=GameOfflineSerializer,
        parameters=[IDEMPOTENCY_REQUIRED],
        responses={
            201: GameBatchStateSerializer,
            422: BatchRefusedSerializer,
            **error_responses(400, 429),
        },
    )
    def post(self, request: Request) -> Response:
        fields, entries = batch_input(request.data, serializer_class=GameOfflineSerializer)
        code = offline_code_input(fields["code"])
        player = player_of(request, start_session=True)

        def deal(answer: Answer) -> Response:
            batch = services.game_offline(player=player, code=code, entries=entries, elapsed_ms=fields["elapsed_ms"])
            answer.game_id = batch.outcome.game.id
            return batch_answer(batch, status_ok=status.HTTP_201_CREATED)

        return answer_once(request, game_id=None, player=player, required=True, make=deal)
