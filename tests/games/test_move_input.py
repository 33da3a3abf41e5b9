"""The move path hands a body to the engine as it came: the answer must be the serializer's on every body.

The reference is the documented shape (the DRF serializer) with the engine reading what it cleaned:
what the engine takes at once, the serializer must take unchanged, and the same move must result.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from common.errors import ApplicationError
from games.engine import BadMove, Move
from games.play.serializers import MovePlaySerializer, UndoSerializer, move_play_input, seq_input


def _by_serializer(data: Any) -> tuple[Move, int | None] | str:
    serializer = MovePlaySerializer(data=data)
    if not serializer.is_valid():
        return "invalid"
    try:
        return Move.from_json(serializer.move_json()), serializer.validated_data.get("seq")
    except BadMove as exc:
        return f"bad move: {exc}"


def _by_shortcut(data: Any) -> tuple[Move, int | None] | str:
    try:
        return move_play_input(data)
    except ValidationError:
        return "invalid"
    except ApplicationError as exc:
        return f"bad move: {exc.params['reason']}"


def _seq_by_serializer(data: Any) -> int | None | str:
    serializer = UndoSerializer(data=data)
    return serializer.validated_data.get("seq") if serializer.is_valid() else "invalid"


def _seq_by_shortcut(data: Any) -> int | None | str:
    try:
        return seq_input(data)
    except ValidationError:
        return "invalid"


BODIES = [
    {"from": "t3", "card": "7H", "to": "t5", "seq": 4},
    {"from": "t3", "to": "f"},
    {"from": "t3", "card": None, "to": "auto", "seq": None},
    {"from": " t3", "to": "t5"},
    {"from": "t3\x00", "to": "t5"},
    {"from": "", "to": "t5"},
    {"from": "t3", "to": "t5", "seq": -1},
    {"from": "t3", "to": "t5", "seq": 2**31},
    {"from": "t3", "to": "t5", "seq": True},
    {"from": "t3", "to": "t5", "seq": "4"},
    {"from": "t3", "to": "t5", "seq": 4.0},
    {"from": 3, "to": "t5"},
    {"from": "t3", "to": "t5", "extra": 1},
    {"from": "t3xxxxxxx", "to": "t5"},
    {"from": "  t3      ", "to": "t5"},
    {"from": "t3", "card": "       7h", "to": "t5"},
    {"from": "t3", "card": 7, "to": "t5"},
    {"from": "t3", "card": "", "to": "t5"},
    {"from": "t0", "to": "t5", "seq": "1"},
    {"to": "t5"},
    {},
    [],
    "t3>t5",
    None,
]


@pytest.mark.parametrize("body", BODIES)
def test_the_engine_reads_a_body_as_the_serializer_would(body):
    assert _by_shortcut(body) == _by_serializer(body)


_texts = st.sampled_from(["t3", " T3 ", "t1" + " " * 8, "fH", "f", "auto", "7H", " 10h", "TS", "1H", "0"])
_values = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 2**32), st.floats(allow_nan=False), st.text(max_size=10), _texts
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["from", "card", "to", "seq", "other"]), _values))
def test_the_move_path_answers_any_body_as_the_serializers_would(body):
    assert _by_shortcut(body) == _by_serializer(body)
    assert _seq_by_shortcut(body) == _seq_by_serializer(body)
