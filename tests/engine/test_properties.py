"""Invariants over random play (hypothesis): the engine never loses or invents a card."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import ACE, AUTO, FOUNDATION, TO_FOUNDATION, Game, GameCode, IllegalMove, Move, Rule, card_of
from games.engine.cards import CARD_NAMES
from tests.support import older_state

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
codes = st.builds(GameCode, st.sampled_from(list(Rule)), st.integers(0, 26**7 - 1))
choices = st.lists(st.integers(0, 10_000), min_size=1, max_size=150)


def random_play(game: Game, picks: list[int], steps: dict[int, tuple[str, int]] | None = None) -> list[str]:
    """Play legal moves picked by ``picks``; a pick divisible by 7 is an undo. Returns the log;
    ``steps`` gets each move's step back and the one below it, by move counter (as the log keeps them)."""
    log = []
    for pick in picks:
        if pick % 7 == 0 and game.undo_available:
            game.undo()
            log.append("undo")
            continue
        moves = game.legal_moves()
        if not moves or game.is_won:
            break
        result = game.play(moves[pick % len(moves)])
        log.append(str(result.move))
        if steps is not None:
            steps[game.moves] = (result.step, result.below)
    return log


def all_cards(game: Game) -> list[int]:
    cards = [c for col in game.columns for c in col]
    cards += [card_of(suit, r) for suit, top in enumerate(game.foundations) for r in range(ACE, top + 1)]
    return sorted(cards)


@SETTINGS
@given(codes, choices)
def test_all_52_cards_are_present_exactly_once_after_any_play(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    assert all_cards(game) == list(range(52))
    for col, down in zip(game.columns, game.down, strict=True):
        assert down == 0 or down < len(col), "the last card of a column is always face up"


@SETTINGS
@given(codes, choices)
def test_undo_gives_back_the_exact_prior_position(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    moves = game.legal_moves()
    if not moves or game.is_won:
        return
    before = game.to_state()
    game.play(moves[picks[0] % len(moves)])
    game.undo()
    after = game.to_state()
    for key in ("t", "f", "score"):
        assert after[key] == before[key]
    assert after["moves"] == before["moves"] + 2
    assert (after["u"], after["top"]) == (before["u"], before["top"])


@SETTINGS
@given(codes, choices)
def test_replaying_the_log_gives_the_live_state(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    log = random_play(game, picks)
    assert Game.replay(code, log) == game


@SETTINGS
@given(codes, choices)
def test_a_copy_is_equal_and_goes_its_own_way(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    before = game.to_state()
    copy = game.copy()
    assert copy == game and copy.last == game.last
    random_play(copy, [1, 2, 3, 7, 5, 14])
    if copy.undo_available:
        copy.undo()
    assert game.to_state() == before


@SETTINGS
@given(codes, choices)
def test_games_stored_in_the_older_state_formats_still_read_and_undo(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    history = list(game.history)
    for older in (older_state(game, 1), older_state(game, 2)):
        live = game.copy()
        restored = Game.from_state(json.loads(json.dumps(older)))
        assert restored.top == (-1 if history else 0) and restored.undo_available == live.undo_available
        assert restored.view() == live.view()
        while live.undo_available:
            live.undo()
            restored.undo()
            assert restored.view() == live.view() and restored.score == live.score


@SETTINGS
@given(codes, choices)
def test_stored_state_round_trips_exactly_through_json(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    steps: dict[int, tuple[str, int]] = {}
    random_play(game, picks, steps)
    restored = Game.from_state(json.loads(json.dumps(game.to_state())))
    assert restored == game
    assert restored.view() == game.view()
    # and both go on identically: each undo with its step loaded from the log, as the service does
    while game.undo_available:
        game.undo()
        with pytest.raises(LookupError):
            restored.copy().undo()  # an undo without its step is a programming error, never a guess
        restored.undo_step_load(*steps[restored.undo_step_needed])
        restored.undo()
        assert restored == game
        restored = Game.from_state(json.loads(json.dumps(restored.to_state())))


@SETTINGS
@given(codes, choices)
def test_score_is_ten_per_card_put_up_plus_five_per_flip(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    live: list[tuple[int, bool]] = []  # (points, flipped) of the moves not undone
    for pick in picks:
        if pick % 7 == 0 and game.undo_available:
            game.undo()
            live.pop()
            continue
        moves = game.legal_moves()
        if not moves or game.is_won:
            break
        move = moves[pick % len(moves)]
        result = game.play(move)
        puts = 1 if result.move is not None and result.move.dst == TO_FOUNDATION else 0
        assert result.points == 10 * puts + (5 if result.flipped else 0)
        live.append((result.points, result.flipped is not None))
        assert game.score == sum(p for p, _ in live) >= 0


@SETTINGS
@given(codes, choices)
def test_legal_moves_are_exactly_the_moves_the_rules_accept(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    listed = {str(m) for m in game.legal_moves()}
    accepted = set()
    candidates = [Move(s, TO_FOUNDATION) for s in range(7)]
    candidates += [Move(s, t, c) for s in range(7) for c in game.columns[s] for t in range(7) if t != s]
    candidates += [Move(FOUNDATION + f, t) for f in range(4) for t in range(7)]
    for move in candidates:
        trial = Game.from_state(game.to_state())
        try:
            trial.play(move)
        except IllegalMove:
            continue
        accepted.add(
            str(
                move
                if move.card is not None or move.src >= FOUNDATION or move.dst == TO_FOUNDATION
                else Move(move.src, move.dst, game.columns[move.src][-1])
            )
        )
    assert listed == accepted


@SETTINGS
@given(codes, choices)
def test_the_players_view_never_shows_a_face_down_card(code: GameCode, picks: list[int]) -> None:
    game = Game.new(code)
    random_play(game, picks)
    hidden = {CARD_NAMES[c] for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]}
    text = json.dumps(game.view())
    assert not any(f'"{name}"' in text for name in hidden)
    assert text.count('"XX"') == sum(game.down)


@SETTINGS
@given(codes, st.integers(0, 10_000))
def test_auto_resolves_to_a_listed_move(code: GameCode, pick: int) -> None:
    game = Game.new(code)
    faces = [(s, c) for s in range(7) for c in game.columns[s][game.down[s] :]]
    s, c = faces[pick % len(faces)]
    try:
        result = game.play(Move(s, AUTO, c))
    except IllegalMove as error:
        assert error.reason in ("does_not_fit", "only_king_on_empty", "group_too_large")
        assert not any(m.src == s and m.card == c and m.dst >= 0 for m in Game.new(code).legal_moves())
        return
    assert result.move is not None and result.move in Game.new(code).legal_moves()
