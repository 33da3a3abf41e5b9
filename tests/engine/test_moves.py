"""Move values: text and JSON forms, and malformed input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    AUTO,
    CARD_PATTERN,
    FOUNDATION,
    SOURCE_PATTERN,
    TARGET_PATTERN,
    TO_FOUNDATION,
    BadMove,
    Move,
    parse_card,
)


@pytest.mark.parametrize("text", ["t3:7H>t5", "t3>f", "fH>t2", "t3:7H>auto", "t1>t7", "fC:KC>t4"])
def test_text_form_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text
    assert str(Move.from_json(Move.parse(text).to_json())) == text


def test_json_form_matches_the_api() -> None:
    assert Move.from_json({"from": "t3", "card": "7h", "to": "t5"}) == Move(2, 4, parse_card("7H"))
    assert Move.from_json({"from": "T3", "to": "f"}) == Move(2, TO_FOUNDATION)
    assert Move.from_json({"from": "fh", "to": "t2"}) == Move(FOUNDATION + 1, 1)
    assert Move.from_json({"from": "t1", "card": "10S", "to": "AUTO"}) == Move(0, AUTO, parse_card("TS"))
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
        {"from": "t1", "to": "t2", "seq": 4},  # the API's move counter, not the engine's business
        {"from": "f\u017f", "to": "t1"},  # a long s is no S: ASCII letters only, as in the schema
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


def _reads(data: object) -> bool:
    try:
        Move.from_json(data)
    except BadMove:
        return False
    return True


# Texts near the grammar: its letters in either case, digits, blanks, and a few look-alikes.
_near = st.text(alphabet="tTfFaAuUoO0123456789SHDCshdcJQKjqkX \t\u017f\u212a\u0131", max_size=5)


@given(_near)
def test_the_schema_s_patterns_are_the_grammar_the_engine_reads(text: str) -> None:
    """What the API's schema documents for ``from``, ``to`` and ``card`` is exactly what the engine
    takes (after trimming blanks): a client can tell a well-formed move without asking."""
    trimmed = text.strip()
    assert _reads({"from": text, "to": "t1"}) == bool(re.fullmatch(SOURCE_PATTERN, trimmed))
    assert _reads({"from": "t1", "to": text}) == bool(re.fullmatch(TARGET_PATTERN, trimmed))
    assert _reads({"from": "t1", "card": text, "to": "t2"}) == bool(re.fullmatch(CARD_PATTERN, trimmed))
