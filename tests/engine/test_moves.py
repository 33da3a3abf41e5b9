"""Move values: text and JSON forms, and malformed input."""

from __future__ import annotations

import pytest

from games.engine import AUTO, FOUNDATION, TO_FOUNDATION, BadMove, Move, parse_card


@pytest.mark.parametrize("text", ["t3:7H>t5", "t3>f", "fH>t2", "t3:7H>auto", "t1>t7", "fC:KC>t4"])
def test_text_form_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text
    assert str(Move.from_json(Move.parse(text).to_json())) == text


def test_json_form_matches_the_api() -> None:
    assert Move.from_json({"from": "t3", "card": "7h", "to": "t5"}) == Move(2, 4, parse_card("7H"))
    assert Move.from_json({"from": "T3", "to": "f"}) == Move(2, TO_FOUNDATION)
    assert Move.from_json({"from": "fh", "to": "t2"}) == Move(FOUNDATION + 1, 1)
    assert Move.from_json({"from": "t1", "card": "10S", "to": "AUTO", "seq": 4}) == Move(0, AUTO, parse_card("TS"))
    assert Move.from_json({"from": "t2", "to": "fD"}) == Move(1, TO_FOUNDATION)  # a target foundation is the card's own


def test_a_source_and_a_target_are_different_kinds_of_place() -> None:
    """A foundation as a source is one suit's; as a target, whichever the moved card's is."""
    sources = {Move.parse(f"f{suit}>t1").src for suit in "SHDC"} | {Move.parse(f"t{n}>f").src for n in range(1, 8)}
    targets = {Move.parse(f"t1>{place}").dst for place in ("f", "auto", "t2", "t3", "t4", "t5", "t6", "t7")}
    assert sources == set(range(11)) and FOUNDATION == Move.parse("fS>t1").src
    assert len(targets) == 8 and not sources & {TO_FOUNDATION, AUTO}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "t3>t5",
        {},
        {"from": "t3"},
        {"to": "t3"},
        {"from": "t8", "to": "t1"},
        {"from": "t0", "to": "t1"},
        {"from": "f", "to": "t1"},
        {"from": "auto", "to": "t1"},
        {"from": "t1", "to": "t2", "card": "1H"},
        {"from": "t1", "to": "t2", "card": 7},
        {"from": 3, "to": "t2"},
        {"from": "t1", "to": "t2", "extra": 1},
        {"from": "t1" * 100, "to": "t2"},
    ],
)
def test_malformed_moves_are_refused_as_bad_input(data: object) -> None:
    with pytest.raises(BadMove):
        Move.from_json(data)


@pytest.mark.parametrize("text", ["", "t3", "t3->t5", ">t5", "t3:>t5", "x>y"])
def test_malformed_move_texts_are_refused(text: str) -> None:
    with pytest.raises(BadMove):
        Move.parse(text)
