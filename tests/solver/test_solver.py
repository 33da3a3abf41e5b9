"""The solver, the hint and "still winnable?": answers the engine confirms, proofs that are proofs."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import FOUNDATION, Game, Move, Rule
from games.solver import SolveResult, Verdict, advise, hint, position_key, solve, still_winnable
from games.solver.compiled import is_deadlocked
from games.solver.measure import wilson

from .positions import small_position

ROOT = Path(__file__).resolve().parents[2]
CLASSIC_WINS = ["YU1-C-AAAAAAB", "YU1-C-AAAAAAA", "YU1-C-PUBNLKN", "YU1-C-KQCMDNG", "YU1-C-JBOCVFV"]
RELAXED_WINS = ["YU1-R-AAAAAAB", "YU1-R-DOFIBPC", "YU1-R-LQDCDFE", "YU1-R-NYGMCSK", "YU1-R-OGRVOGN"]


def replay(code: str, moves: tuple[Move, ...]) -> Game:
    game = Game.from_code(code)
    for move in moves:
        game.play(move)
    return game


@pytest.mark.parametrize("code", CLASSIC_WINS + RELAXED_WINS)
def test_every_solution_replays_to_a_win_with_625_points(code: str) -> None:
    result = solve(Game.from_code(code), max_seconds=None, max_nodes=200_000)
    assert result.verdict is Verdict.WINNABLE and result.moves is not None
    game = replay(code, result.moves)
    assert game.is_won
    if not any(move.src >= FOUNDATION for move in result.moves):
        assert game.score == 625
    positions = [Game.from_code(code)]  # no loops: the line never comes back to a position
    for move in result.moves:
        positions.append(positions[-1].copy())
        positions[-1].play(move)
    assert len({str(p.layout()) for p in positions}) == len(positions)


def test_solving_leaves_the_game_as_it_was() -> None:
    game = Game.from_code("YU1-C-AAAAAAB")
    game.play(Move.parse("t7:TS>t2"))
    before = game.to_state()
    result = solve(game, max_seconds=None)
    assert result.verdict is Verdict.WINNABLE and result.moves is not None
    assert game.to_state() == before
    for move in result.moves:  # the line starts from the position, not from the deal
        game.play(move)
    assert game.is_won


# Every card not in the layout is on a foundation. Spades 3..K are left in the first two, plus
# hearts and diamonds 5..K and (in the second) clubs 3..K, laid out face up in the other columns.
def rest(*suits: str, low: int) -> list[list[str]]:
    cards = [r + s for s in suits for r in "23456789TJQK"[low - 2 :]]
    return [cards[i::5] for i in range(5)]


def test_a_card_on_its_own_foundation_predecessor_and_both_targets_is_not_winnable() -> None:
    # 4S lies on the face-down 3S, and both red 5s (its only targets) lie under it too:
    # 4S can never leave, so 3S never turns up.
    layout = [["5h", "5d", "3s", "4S"], ["KS"]] + [
        [c for c in col if c not in ("5H", "5D", "3S", "4S", "KS")] for col in rest("S", "H", "D", low=5)
    ]
    game = Game.from_layout(layout, {"S": "2S", "H": "4H", "D": "4D", "C": "KC"})
    assert is_deadlocked(game)
    assert solve(game, max_seconds=None).verdict is Verdict.NOT_WINNABLE


def test_two_columns_that_block_each_other_are_not_winnable() -> None:
    # 4S (on 3S) needs 5H (under it) or 5D, which lies under 4C; 4C (on 3C) needs 5D (under it)
    # or 5H, which lies under 4S. Neither can move first.
    taken = {"5H", "3S", "4S", "3C", "5D", "4C"}
    cards = [r + s for s in "SHDC" for r in "3456789TJQK" if r + s not in taken and not (s in "HD" and r in "34")]
    layout = [["5h", "3s", "4S"], ["3c", "5d", "4C"]] + [cards[i::5] for i in range(5)]
    game = Game.from_layout(layout, {"S": "2S", "H": "4H", "D": "4D", "C": "2C"})
    assert is_deadlocked(game)
    assert solve(game, max_seconds=None).verdict is Verdict.NOT_WINNABLE


def test_a_position_without_any_move_is_not_winnable() -> None:
    # Only spades are left, 2S face down under 3S; every column is taken and the hearts,
    # diamonds and clubs foundations end in Kings, which could only come back to an empty column.
    layout = [["2s", "3S"], ["4S"], ["5S", "6S"], ["7S", "8S"], ["9S", "TS"], ["JS", "QS"], ["KS"]]
    game = Game.from_layout(layout, {"S": "AS", "H": "KH", "D": "KD", "C": "KC"})
    assert game.legal_moves() == []
    assert solve(game, max_seconds=None).verdict is Verdict.NOT_WINNABLE


def test_a_near_end_position_that_needs_take_backs_is_solved() -> None:
    # 3S must leave the face-down 2S, and its only targets (the red 4s) are deep in their
    # foundations: the hearts and diamonds come back down onto the clubs and empty columns first.
    layout = [["2s", "3S"], ["4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"], [], [], [], [], []]
    game = Game.from_layout(layout, {"S": "AS", "H": "KH", "D": "KD", "C": "KC"})
    result = solve(game, max_seconds=None, max_nodes=500_000)
    assert result.verdict is Verdict.WINNABLE and result.moves is not None
    assert any(move.src >= FOUNDATION for move in result.moves)
    for move in result.moves:
        game.play(move)
    assert game.is_won


def test_a_winnable_end_position_is_solved_in_order() -> None:
    layout = [["KH", "QS"], ["qh", "KS"], [], [], [], [], []]
    game = Game.from_layout(layout, {"S": "JS", "H": "JH", "D": "KD", "C": "KC"})
    result = solve(game, max_seconds=None)
    assert result.verdict is Verdict.WINNABLE and result.moves is not None
    for move in result.moves:
        game.play(move)
    assert game.is_won and game.score == 10 * 4 + 5


def test_a_tiny_budget_answers_unknown() -> None:
    result = solve(Game.from_code("YU1-C-AAAAAAB"), max_nodes=5, max_seconds=None)
    assert result == SolveResult(Verdict.UNKNOWN, None, result.nodes, result.seconds)
    assert not result.decided and result.nodes <= 5


# -- against a brute force that uses nothing but the engine's own moves ---------------------
def brute_force_winnable_without_take_backs(game: Game) -> bool:
    """Every position reachable without a take-back (take-backs would reach the whole game)."""
    start = game.to_state()
    seen = {(tuple(start["t"]), tuple(start["f"]))}
    todo = [start]
    while todo:
        state = todo.pop()
        for move in Game.from_state(state).legal_moves():
            if move.src >= FOUNDATION:
                continue
            child = Game.from_state(state)
            child.play(move)
            if child.is_won:
                return True
            after = child.to_state()
            key = (tuple(after["t"]), tuple(after["f"]))
            if key not in seen:
                seen.add(key)
                todo.append(after)
    return False


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_the_solver_agrees_with_a_brute_force_on_small_positions(rule: Rule) -> None:
    """Every win the brute force finds (it leaves out take-backs, which would let it wander
    over the whole game), the solver finds too, and every line of the solver wins."""
    rng = random.Random(7)
    for _ in range(40):
        game = small_position(rng, rule, rng.randrange(6, 11))
        result = solve(game, max_seconds=None, max_nodes=None)
        assert result.decided
        if brute_force_winnable_without_take_backs(game):
            assert result.verdict is Verdict.WINNABLE, game.to_state()
        if result.moves is not None:
            for move in result.moves:
                game.play(move)
            assert game.is_won


# -- the hint and "still winnable?" ------------------------------------------------------------
def with_face_down_cards_swapped(game: Game, rng: random.Random) -> Game:
    """The same view with the face-down cards dealt differently among the same places."""
    hidden = [c for col, d in zip(game.columns, game.down, strict=True) for c in col[:d]]
    rng.shuffle(hidden)
    columns = []
    for col, d in zip(game.columns, game.down, strict=True):
        columns.append(hidden[:d] + col[d:])
        del hidden[:d]
    return Game(game.code, columns, list(game.down), list(game.foundations))


@pytest.mark.parametrize("code", ["YU1-C-AAAAAAB", "YU1-C-DOFIBPC", "YU1-R-QZQHGJD", "YU1-C-XYIEXXM"])
def test_the_hint_never_depends_on_a_face_down_card(code: str) -> None:
    rng = random.Random(code)
    game = Game.from_code(code)
    for _ in range(2):  # at the start and a few moves in
        other = with_face_down_cards_swapped(game, rng)
        seen, seen_other = game.view(), other.view()
        for part in ("tableau", "foundations", "legal_moves"):
            assert seen_other[part] == seen[part]
        assert other.layout() != game.layout()
        first = hint(game, max_nodes=3_000)
        assert first is not None and first in game.legal_moves()
        assert hint(other, max_nodes=3_000) == first
        for _ in range(3):
            game.play(rng.choice(game.legal_moves()))


def test_without_a_solved_sample_the_hint_uncovers_a_card() -> None:
    game = Game.from_code("YU1-C-AAAAAAB")
    move = hint(game, max_nodes=1)  # no sample can be solved in one node
    assert move is not None and move in game.legal_moves()
    assert game.play(move).flipped is not None


def test_the_hint_is_none_without_a_legal_move() -> None:
    layout = [["2s", "3S"], ["4S"], ["5S", "6S"], ["7S", "8S"], ["9S", "TS"], ["JS", "QS"], ["KS"]]
    game = Game.from_layout(layout, {"S": "AS", "H": "KH", "D": "KD", "C": "KC"})
    assert game.legal_moves() == []
    assert hint(game) is None


def follow_the_hints(game: Game, limit: int = 400) -> list[str]:
    """Play the hint from here until it has none (or ``limit`` moves): the positions passed."""
    seen = [position_key(game)]
    while not game.is_won and len(seen) <= limit:
        advice = advise(game, seen)
        if advice.move is None:
            break
        game.play(advice.move)
        seen.append(position_key(game))
    return seen


@pytest.mark.parametrize("code", ["YU1-C-EHEHGFC", "YU1-C-CHEKBOF", "YU1-C-NHYZFYV", "YU1-R-QZQHGJD"])
def test_following_the_hints_never_comes_back_to_a_position(code: str) -> None:
    """Issue 27: these classic deals went round in a loop within 20 to 43 hints."""
    seen = follow_the_hints(Game.from_code(code))
    assert len(set(seen)) == len(seen) > 5


def test_following_the_hints_wins_a_known_deal() -> None:
    """The first winnable classic deal of ``bench/hint_bench.py`` (seed 27): won by hints alone."""
    game = Game.from_code("YU1-C-JTNYMTM")
    follow_the_hints(game)
    assert game.is_won


def test_the_hint_never_leads_back_to_a_position_the_game_had() -> None:
    game = Game.from_code("YU1-C-AAAAAAB")
    first = hint(game)
    assert first is not None
    after = game.copy()
    after.play(first)
    other = hint(game, [position_key(after)])  # as if the game had been there (and undone)
    assert other is not None and other != first


def test_with_no_move_that_helps_the_hint_says_so() -> None:
    # The Queen of Hearts between the black Kings, a King into an empty column, a card back from
    # a foundation: nothing turns a card up, puts one up, or wins in any sample.
    game = Game.from_layout([["KS", "QH"], ["KC"], [], [], [], [], []], {"S": "QS", "H": "TH", "C": "JC", "D": "KD"})
    assert game.legal_moves()
    assert advise(game).reason == "no_progress" and hint(game) is None
    # and when the only move that helps would return to a position the game had
    game = Game.from_layout([["KS", "QH"], ["KC"], [], [], [], [], []], {"S": "QS", "H": "JH", "C": "JC", "D": "KD"})
    up = advise(game)
    assert up.move is not None and str(up.move) == "t1>f"
    after = game.copy()
    after.play(up.move)
    assert advise(game, [position_key(after)]).reason == "no_progress"


def test_still_winnable_answers_about_the_real_deal() -> None:
    assert still_winnable(Game.from_code("YU1-C-AAAAAAB")) == "yes"
    assert still_winnable(Game.from_code("YU1-C-DOFIBPC")) == "no"  # a deadlock in the deal
    assert still_winnable(Game.from_code("YU1-C-YNBCJWF"), max_nodes=1_000) == "unknown"


def test_wilson_interval_brackets_the_share() -> None:
    low, high = wilson(0, 50)
    assert low == 0.0 and 0.05 < high < 0.08
    low, high = wilson(50, 50)
    assert high == 1.0 and 0.92 < low < 0.95


def test_cli_prints_the_verdict_and_the_moves() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "games.solver", "YU1-C-AAAAAAB"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("YU1-C-AAAAAAB: winnable")
    assert "t7:TS>t2" in out.stdout


def test_cli_sample_prints_shares_with_intervals() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "games.solver", "--sample", "3", "--rule", "R", "--budget-seconds", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "relaxed: 3 random deals" in out.stdout and "95 % CI" in out.stdout and "median" in out.stdout
