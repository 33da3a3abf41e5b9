"""Input parsing and the documented shapes of the games API (docs/api.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.errors import ApplicationError, ErrorCode, shown
from common.serializers import StrictBooleanField
from games.competition.attempt import AttemptState
from games.engine import CARD_PATTERN, SOURCE_PATTERN, TARGET_PATTERN, BadCode, BadMove, GameCode, Move
from games.models import ReviewChoices, RuleChoices, StatusChoices
from games.play.services import BATCH_MAX, BatchEntry

MAX_SEQ = 2**31 - 1

# The move's texts are the engine's grammar (its patterns), in the schema so that a client (and
# schemathesis) can tell a well-formed request from a malformed one (400) without asking.
CODE_PATTERN = r"^[yY][uU](1-[CRcr]-[A-Za-z]{7}|2-[CRcr]-( ?[A-Za-z]){48})$"
# As the page's field: a version-2 code may be written in groups with spaces.
CODE_MAX_LENGTH = 100


@extend_schema_field({"type": "string", "pattern": SOURCE_PATTERN})
class SourceField(serializers.CharField):
    """Where a move starts: a column or a foundation (checked by the engine, 400 `bad_move`)."""


@extend_schema_field({"type": "string", "pattern": TARGET_PATTERN})
class TargetField(serializers.CharField):
    """Where a move goes: a column, a foundation, or `auto`."""


@extend_schema_field({"type": "string", "pattern": CARD_PATTERN})
class CardField(serializers.CharField):
    """A card such as `7H`."""


@extend_schema_field({"type": "string", "pattern": CODE_PATTERN})
class GameCodeField(serializers.CharField):
    """A game code such as `YU1-C-AAAAAAB` (checked by the view, 400 `bad_code`)."""


class FromFieldMixin:
    """``from`` is a Python keyword: the field is declared as ``from_`` and renamed here."""

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()  # type: ignore[misc]
        return {("from" if name == "from_" else name): field for name, field in fields.items()}


class MoveSerializer(FromFieldMixin, serializers.Serializer):
    """A move: ``{"from": "t3", "card": "7H", "to": "t5"}``."""

    from_ = SourceField(max_length=8, help_text="Source: a column `t1`..`t7` or a foundation `fS` `fH` `fD` `fC`.")
    card = CardField(
        max_length=8,
        required=False,
        allow_null=True,
        help_text="Bottom card of the moved group, e.g. `7H` (rank `A23456789TJQK`, suit `SHDC`). "
        "Without it: the last card of the column.",
    )
    to = TargetField(
        max_length=8, help_text="Target: a column `t1`..`t7`, `f` (the card's foundation) or `auto` (double-tap)."
    )


class SeqSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEQ,
        required=False,
        allow_null=True,
        help_text="The move counter the client last saw; if the game is elsewhere, 409 `stale`.",
    )


class MovePlaySerializer(MoveSerializer, SeqSerializer):
    """A move to play, with the optional move counter the client last saw."""

    def move_json(self) -> dict[str, Any]:
        """The move for ``Move.from_json``; unknown fields stay in, for the engine to refuse."""
        data = self.validated_data
        move = {key: data[key] for key in ("from", "card", "to") if data.get(key) is not None}
        move.update({key: value for key, value in self.initial_data.items() if key not in self.fields})
        return move


class UndoSerializer(SeqSerializer):
    """An undo, with the optional move counter the client last saw."""


class FinishSerializer(SeqSerializer):
    """A finish, with the optional move counter the client last saw."""


class GameStartSerializer(serializers.Serializer):
    """Start a game: a random deal of `rule` (classic if nothing is given), a `code`, or the daily deal."""

    rule = serializers.ChoiceField(choices=RuleChoices.choices, required=False)
    code = GameCodeField(
        max_length=CODE_MAX_LENGTH,
        required=False,
        allow_blank=True,
        help_text="A game code such as `YU1-C-AAAAAAB` or `YU2-C-` and 48 letters (case-insensitive; "
        "a version-2 code may hold spaces).",
    )
    daily = StrictBooleanField(required=False, default=False, help_text="`true`: today's daily deal.")
    replace_untouched = StrictBooleanField(
        required=False,
        default=False,
        help_text="`true`: the caller's unfinished games without a move (never a daily game) are deleted "
        "as this one is dealt, so that dealt games nobody touched do not pile up (the web page sends it).",
    )

    winnable_only = StrictBooleanField(
        required=False,
        default=False,
        help_text="`true`: a deal of `rule` (classic if not given) from the pool of deals the solver has won "
        '(the new game\'s "winnable deals only"); 503 `winnable_not_ready` while the pool is being filled. '
        "Not with `code` or `daily`.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in ("rule", "code") if name in attrs] + (["daily"] if attrs.get("daily") else [])
        if len(given) > 1:
            raise serializers.ValidationError("give one of 'rule', 'code' or 'daily', not several")
        if attrs.get("winnable_only") and ("code" in attrs or attrs.get("daily")):
            raise serializers.ValidationError("'winnable_only' deals a deal of a rule: not with 'code' or 'daily'")
        return attrs


class _MovePlaySchema(OpenApiSerializerExtension):
    """The engine refuses a move with fields it does not know (400 `bad_move`): the schema says so."""

    target_class = MovePlaySerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False}


class _GameStartSchema(OpenApiSerializerExtension):
    """At most one of `rule`, `code` and `daily: true`, and `winnable_only: true` not with a code or the
    daily deal (else 400); other fields are ignored."""

    target_class = GameStartSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        # An empty code is refused too (400 `bad_code`): only the pattern, not the blank alternative
        # that `allow_blank` would document.
        code = schema["properties"]["code"]
        schema["properties"]["code"] = {
            "type": "string",
            "pattern": CODE_PATTERN,
            "maxLength": CODE_MAX_LENGTH,
            "description": code["description"],
        }
        daily = {"properties": {"daily": {"enum": [True]}}}
        winnable = {"properties": {"winnable_only": {"enum": [True]}}}
        both = {**daily["properties"], **winnable["properties"]}
        return {
            **schema,
            "not": {
                "anyOf": [
                    {"required": ["rule", "code"]},
                    {"required": ["rule", "daily"], **daily},
                    {"required": ["code", "daily"], **daily},
                    {"required": ["code", "winnable_only"], **winnable},
                    {"required": ["daily", "winnable_only"], "properties": both},
                ]
            },
        }


class _StrictIntegerField(serializers.IntegerField):
    """A JSON whole number, nothing else (DRF's own takes "12" and 12.0 too, which the schema's
    ``type: integer`` does not)."""

    def to_internal_value(self, data: object) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return int(super().to_internal_value(data))


#: The most milliseconds a device's clock may say (JavaScript's largest exact whole number).
ELAPSED_MAX = 2**53 - 1


def _moves_field(*, min_length: int) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.DictField(),
        min_length=min_length,
        max_length=BATCH_MAX,
        help_text=f"The moves and undos played offline, in order ({min_length} to 1,000): each a move's body as "
        '`POST games/{id}/moves` takes it (no `seq`), or `{"undo": true}`.',
    )


class _BatchFieldsSerializer(serializers.Serializer):
    """What both batch routes take: the entries played offline (``moves``) and the device's clock."""

    elapsed_ms = _StrictIntegerField(
        min_value=0,
        max_value=ELAPSED_MAX,
        help_text="The game's clock on the device after the last entry. The server keeps it, bounded: never "
        "less than its own clock of the game, never more than the time since the game was dealt.",
    )


class GameBatchSerializer(_BatchFieldsSerializer):
    """Moves played offline in an existing game, to be replayed by the server (docs/api.md, "Played offline")."""

    moves = _moves_field(min_length=1)
    seq = _StrictIntegerField(
        min_value=0,
        max_value=MAX_SEQ,
        help_text="The game's move counter (`moves`) the batch starts from; if the game is elsewhere, 409 "
        "`stale` and nothing changes.",
    )


class GameOfflineSerializer(_BatchFieldsSerializer):
    """A practice game dealt on the device while offline, with its moves (docs/api.md, "Played offline")."""

    code = GameCodeField(max_length=CODE_MAX_LENGTH, help_text="The game code the device dealt, e.g. `YU1-C-AAAAAAB`.")
    moves = _moves_field(min_length=0)  # a game dealt offline may come without a move


def _batch_schema(auto_schema: Any, target: Any, direction: Any) -> dict[str, Any]:
    """A batch's body: its entries each a move (as a move's body, without ``seq``) or an undo."""
    schema = auto_schema._map_serializer(target, direction, bypass_extensions=True)
    move = auto_schema._map_serializer(MoveSerializer(), direction, bypass_extensions=True)
    move = {**move, "additionalProperties": False}
    move.pop("description", None)
    undo = {
        "type": "object",
        "properties": {"undo": {"type": "boolean", "enum": [True], "description": "Take back the last move."}},
        "required": ["undo"],
        "additionalProperties": False,
    }
    moves = schema["properties"]["moves"]
    schema["properties"]["moves"] = {**moves, "items": {"oneOf": [move, undo]}}
    return schema


class _GameBatchSchema(OpenApiSerializerExtension):
    target_class = GameBatchSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return _batch_schema(auto_schema, self.target, direction)


class _GameOfflineSchema(OpenApiSerializerExtension):
    target_class = GameOfflineSerializer

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        return _batch_schema(auto_schema, self.target, direction)


class FoundationsSerializer(serializers.Serializer):
    S = serializers.CharField(allow_null=True, help_text="Top card of the spades foundation, or null.")
    H = serializers.CharField(allow_null=True)
    D = serializers.CharField(allow_null=True)
    C = serializers.CharField(allow_null=True)


class LastMoveSerializer(serializers.Serializer):
    points = serializers.IntegerField(help_text="Points of the last accepted move (negative for an undo).")
    flipped = serializers.CharField(allow_null=True, help_text="The card that move turned face up, or null.")


class AttemptSerializer(serializers.Serializer):
    """A ranked attempt's state as the server decides it (docs/fair-play.md,
    ``games.competition.attempt.attempt_state``, the clock included): the pages show these fields
    and derive none of them."""

    state = serializers.ChoiceField(
        choices=[state.value for state in AttemptState],
        help_text="`open` (playing, its day not over), `closed` (its day ended before the win, also before "
        "the close task ran: practice from then on), or for a win `pending` (being checked), `verified`, "
        "`held` (under review), `approved`, `rejected` or `invalid`.",
    )
    counts = serializers.BooleanField(help_text="Its result counts: on the board (`verified` or `approved`).")
    shareable = serializers.BooleanField(
        help_text="A win whose result may be shared: `pending`, `verified`, `held` or `approved` (never a "
        "rejected or invalid one, nor an attempt not won)."
    )


class WinBeforeSerializer(serializers.Serializer):
    wins = serializers.IntegerField(min_value=0, help_text="Games of this rule the player had won before.")
    best_time_ms = serializers.IntegerField(
        allow_null=True, min_value=0, help_text="The best time of those wins (null: none)."
    )
    fewest_moves = serializers.IntegerField(
        allow_null=True, min_value=0, help_text="The fewest moves of those wins (null: none)."
    )


class WinSerializer(serializers.Serializer):
    """What a win was for its player: records against the player's own earlier wins of the rule
    (an account's, or a guest's browser's), and its score taken apart (docs/scoring.md)."""

    first_of_rule = serializers.BooleanField(help_text="The player's first won game of this rule.")
    counts_for_bests = serializers.BooleanField(
        help_text="Whether this win counts for the bests: false for a deal the player had played before "
        "(a practice game of a daily deal after its attempt, a replay of a code played), whose cards it knew, "
        "and for a game played offline (`played_offline`: its clock was the device's)."
    )
    best_time = serializers.BooleanField(
        help_text="Faster than every earlier win of this rule of a deal not seen before (a new best time)."
    )
    fewest_moves = serializers.BooleanField(
        help_text="Fewer moves than every earlier win of this rule of a deal not seen before."
    )
    before = WinBeforeSerializer(help_text="The player's figures of this rule before this win.")
    clean = serializers.BooleanField(help_text="Won with exactly `clean_score` points: no card taken back.")
    clean_score = serializers.IntegerField(
        help_text="The score of a clean win: 52 cards × 10 on the foundations and 21 cards turned up × 5 (625)."
    )
    put_up_again = serializers.IntegerField(
        min_value=0,
        help_text="Cards put on a foundation again after a take-back: 10 points each above `clean_score`.",
    )


class GameStateSerializer(serializers.Serializer):
    """A game as the player sees it. Face-down cards are `XX`."""

    id = serializers.UUIDField()
    code = serializers.CharField(allow_null=True, help_text="Null for today's daily deal (until the UTC day ends).")
    rule = serializers.ChoiceField(choices=RuleChoices.choices)
    daily = serializers.DateField(allow_null=True, help_text="The UTC date of a daily deal, else null.")
    ranked = serializers.BooleanField(
        allow_null=True,
        help_text="For a daily deal: whether this is the account's ranked attempt (its first game of that "
        "deal) and it still counts: false once it was closed at the end of its day. Null for other games.",
    )
    closed = serializers.BooleanField(
        help_text="The ranked attempt was closed unranked: its day ended (00:00 UTC) before it was won. "
        "It can be played on as practice."
    )
    closes_at = serializers.DateTimeField(
        allow_null=True, help_text="For a ranked attempt that can still count: when its day ends (00:00 UTC)."
    )
    closes_in_ms = serializers.IntegerField(
        allow_null=True, min_value=0, help_text="Milliseconds from this answer to `closes_at` (server time)."
    )
    review = serializers.ChoiceField(
        choices=[choice for choice in ReviewChoices.values if choice],
        allow_null=True,
        help_text="For a won ranked attempt: `pending` (being replayed and checked), `verified` or `approved` "
        "(on the board), `held` (under review: faster than a human; staff decide), `rejected`, or `invalid` "
        "(its move log does not reproduce the game). Null otherwise.",
    )
    held_for = serializers.ListField(
        child=serializers.ChoiceField(choices=["pace", "accounts", "play", "attempts"]),
        allow_null=True,
        help_text="For a held win: the kinds of check that hold it (`pace`: the time it was played in, "
        "`accounts`: another account on the same device or network played the deal (only wins held before "
        "each account had its own arrangement), `play`: the moves against what the game had shown, "
        "`attempts`: the account's ranked attempts of earlier days, left after a few moves). Null otherwise.",
    )
    review_by = serializers.DateTimeField(
        allow_null=True, help_text="For a held win: when staff look at it at the latest. Null otherwise."
    )
    attempt = AttemptSerializer(allow_null=True, help_text="For a ranked attempt: its state. Null for other games.")
    status = serializers.ChoiceField(choices=StatusChoices.choices)
    tableau = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Seven columns, bottom to top; `XX` is a face-down card.",
    )
    foundations = FoundationsSerializer()
    score = serializers.IntegerField(min_value=0)
    moves = serializers.IntegerField(min_value=0, help_text="The move counter (undos count too).")
    elapsed_ms = serializers.IntegerField(
        min_value=0,
        help_text="The game's clock: the time played, from its deal to the win (or now), less the time it was "
        "paused. It does not run while `paused`.",
    )
    paused = serializers.BooleanField(
        help_text="The clock is stopped (`POST games/{id}/pause`): moves, undos and help are refused with 409 "
        "`game_paused` until `POST games/{id}/resume`."
    )
    played_offline = serializers.BooleanField(
        help_text="Moves of it were played without a connection and replayed by the server (`POST "
        "games/{id}/batch`, `POST games/offline`): its clock was the device's, so its time is no best."
    )
    pausable = serializers.BooleanField(
        help_text="The game's clock may be paused: a practice game in play. Never a ranked attempt that still "
        "counts (its clock never stops), nor a won game."
    )
    winnable_deal = serializers.BooleanField(
        help_text="Dealt from the pool of deals the solver has won (`winnable_only`): this deal can be won."
    )
    undo_available = serializers.IntegerField(min_value=0, help_text="How many moves can be undone (at most 100).")
    legal_moves = MoveSerializer(many=True, help_text="Every legal move of the position.")
    finish_available = serializers.BooleanField(
        help_text="Every card is face up and putting them on the foundations one by one wins: "
        "`POST games/{id}/finish` does that (docs/rules.md)."
    )
    last = LastMoveSerializer(allow_null=True, help_text="The last accepted move or undo, or null.")
    solution_length = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        help_text="For a daily deal whose day is over: the length of the solver's winning line "
        "(every daily deal is certified winnable). Null otherwise.",
    )
    win = WinSerializer(allow_null=True, help_text="For a won game: what the win was for its player. Null otherwise.")


class BatchAppliedSerializer(serializers.Serializer):
    applied = serializers.IntegerField(min_value=0, help_text="How many entries of the batch were played: all of them.")


class GameBatchStateSerializer(GameStateSerializer):
    """The state of a game after a batch played offline, every entry of it accepted."""

    batch = BatchAppliedSerializer()


class BatchRefusedSerializer(serializers.Serializer):
    """A 422 of a batch: an error (`error`, `detail`), and for `batch_refused` where it stopped and
    the game as kept (the entries before the refused one are played)."""

    error = serializers.CharField(help_text="`batch_refused`, or another refusal (nothing changed, no more fields).")
    detail = serializers.CharField(help_text="What went wrong, in the request's language.")
    index = serializers.IntegerField(
        min_value=0, required=False, help_text="`batch_refused`: the entry refused (0-based)."
    )
    applied = serializers.IntegerField(
        min_value=0, required=False, help_text="`batch_refused`: how many entries before it were kept (= `index`)."
    )
    reason = serializers.CharField(
        required=False,
        help_text="`batch_refused`: why, as a move's refusal says it (`does_not_fit`, `nothing_to_undo`, ...), or "
        "`bad_move` for an entry that is no move.",
    )
    state = GameStateSerializer(required=False, help_text="`batch_refused`: the game as kept.")


class GameFinishedSerializer(GameStateSerializer):
    """The state of a game won by a finish, with the moves the finish played."""

    finish_moves = MoveSerializer(many=True, help_text="The finish's moves in the order played (each to `f`).")


class GameSummarySerializer(serializers.Serializer):
    """A game in the list of one's games (no cards)."""

    id = serializers.UUIDField()
    code = serializers.CharField(allow_null=True)
    rule = serializers.ChoiceField(choices=RuleChoices.choices)
    daily = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField(
        allow_null=True, help_text="Daily deals: the ranked attempt, still counting? Else null."
    )
    closed = serializers.BooleanField(help_text="A ranked attempt closed unranked at the end of its day.")
    review = serializers.ChoiceField(
        choices=[choice for choice in ReviewChoices.values if choice],
        allow_null=True,
        help_text="A won ranked attempt's review (see the game state), else null.",
    )
    attempt = AttemptSerializer(allow_null=True, help_text="For a ranked attempt: its state. Null for other games.")
    status = serializers.ChoiceField(choices=StatusChoices.choices)
    score = serializers.IntegerField(min_value=0)
    moves = serializers.IntegerField(min_value=0)
    elapsed_ms = serializers.IntegerField(min_value=0, help_text="The time played (see the game state).")
    paused = serializers.BooleanField(help_text="The game's clock is paused.")
    played_offline = serializers.BooleanField(help_text="Moves of it were played offline (see the game state).")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    removal_at = serializers.DateTimeField(
        allow_null=True,
        help_text="An unfinished practice game left without a move is removed after 90 days: when, "
        "once that is two weeks away or less (a move keeps it). Null otherwise.",
    )


class MoveLogEntrySerializer(FromFieldMixin, serializers.Serializer):
    """One logged move or undo: its text, and the move's fields as in a move's body."""

    seq = serializers.IntegerField(min_value=1, help_text="The move counter after this move.")
    move = serializers.CharField(help_text="The move as text, e.g. `t3:7H>t5`, `t1>f`, `fH>t2`, or `undo`.")
    from_ = serializers.CharField(
        allow_null=True, help_text="The move's `from`, as in a move's body (`t1`..`t7`, `fS`..`fC`); null for an undo."
    )
    card = serializers.CharField(
        allow_null=True, help_text="The move's `card` as played; null: the last card of `from`."
    )
    to = serializers.CharField(allow_null=True, help_text="The move's `to` (`t1`..`t7` or `f`); null for an undo.")
    points = serializers.IntegerField()
    flipped = serializers.CharField(allow_null=True, help_text="The card this move turned face up, or null.")
    at = serializers.DateTimeField(help_text="Server time of the move.")


# -- the move path's input ---------------------------------------------------------------------


def _plain_seq(value: Any) -> bool:
    """What ``seq``'s IntegerField takes unchanged: no ``seq``, null, or a whole number in range."""
    return value is None or (type(value) is int and 0 <= value <= MAX_SEQ)


def move_play_input(data: Any) -> tuple[Move, int | None]:
    """The move and ``seq`` of a move request's body; DRF's ``ValidationError`` (400
    ``bad_request``) for a body of the wrong shape, 400 ``bad_move`` for one the engine cannot read.

    The move is read by the engine alone (``Move.from_json``, the one grammar of a move); ``seq``
    is the API's and never reaches it. Building a DRF serializer deep-copies its fields, which
    costs more than playing the move: so a body is first handed to the engine as it is, and only
    one that it refuses, or whose ``seq`` is not a plain number, goes through
    :class:`MovePlaySerializer`. That checks the JSON's shape (strings of at most 8 characters, a
    whole number) in DRF's words, and the engine reads what it cleaned (trimmed strings). Whatever
    the engine takes as it is, the serializer takes unchanged (``tests/games/test_move_input.py``).
    """
    if type(data) is dict and _plain_seq(seq := data.get("seq")):
        try:
            return Move.from_json({key: value for key, value in data.items() if key != "seq"}), seq
        except BadMove:
            pass  # the serializer says what is malformed, or the engine does on the cleaned body
    serializer = MovePlaySerializer(data=data)
    serializer.is_valid(raise_exception=True)
    try:
        return Move.from_json(serializer.move_json()), serializer.validated_data.get("seq")
    except BadMove as exc:
        raise ApplicationError(ErrorCode.BAD_MOVE, reason=str(exc)) from None


def seq_input(data: Any) -> int | None:
    """``seq`` of an undo request (plain, or through :class:`UndoSerializer`, as in :func:`move_play_input`)."""
    if type(data) is dict and data.keys() <= {"seq"} and _plain_seq(data.get("seq")):
        return data.get("seq")
    serializer = UndoSerializer(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data.get("seq")


# -- a batch played offline ---------------------------------------------------------------------


def batch_input(
    data: Any, *, serializer_class: type[_BatchFieldsSerializer]
) -> tuple[dict[str, Any], list[BatchEntry]]:
    """A batch's fields and its entries: DRF's ``ValidationError`` (400 ``bad_request``) for a body of
    the wrong shape (an entry that is no JSON object among them). Each entry is read as the move
    route reads a move (:func:`move_play_input`) or is an undo, ``{"undo": true}``; an entry that is
    neither is kept as the engine's ``BadMove``, for the batch to stop at (``bad_move``), so that
    the entries before it are played."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    fields = dict(serializer.validated_data)
    return fields, [_batch_entry(entry) for entry in fields.pop("moves")]


def _batch_entry(entry: dict[str, Any]) -> BatchEntry:
    if "undo" in entry:
        if entry.keys() == {"undo"} and entry["undo"] is True:
            return None
        return BadMove('an undo is {"undo": true} and nothing else')
    if "seq" in entry:
        return BadMove("a batch's entry carries no 'seq' (the batch's own says where it starts)")
    try:
        move, _ = move_play_input(entry)
    except ApplicationError as error:
        return BadMove(str(error.params.get("reason", error.detail)))
    except serializers.ValidationError as error:
        return BadMove(_validation_text(error.detail))
    return move


def _validation_text(detail: Any) -> str:
    if isinstance(detail, dict):
        return "; ".join(f"{name}: {_validation_text(value)}" for name, value in detail.items())
    if isinstance(detail, list):
        return ", ".join(_validation_text(value) for value in detail)
    return str(detail)


def offline_code_input(text: str) -> GameCode:
    """The game code of a game dealt offline; 400 ``bad_code`` if it is none."""
    try:
        return GameCode.parse(text)
    except BadCode:
        raise ApplicationError(ErrorCode.BAD_CODE, text=shown(text, 80)) from None
