"""The solver, the hint and "still winnable?": answers the engine confirms, proofs that are proofs."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import FOUNDATION, Game, Move, Rule
from games.engine.codes import GameCode
from games.solver import compiled
from games.solver import search as solve_module
from games.solver.hint import hint, still_winnable
from games.solver.search import SolveResult, Verdict, is_deadlocked, solve, wilson

from .deadlock_reference import deadlocked as deadlocked_in_python

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


def small_position(rng: random.Random, rule: Rule, left: int) -> Game:
    while True:
        tops = [13, 13, 13, 13]
        for _ in range(left):
            tops[rng.randrange(4)] -= 1
        if min(tops) >= 0:
            break
    cards = [s * 13 + r - 1 for s in range(4) for r in range(tops[s] + 1, 14)]
    rng.shuffle(cards)
    names = ["A23456789TJQK"[c % 13] + "SHDC"[c // 13] for c in cards]
    columns: list[list[str]] = [[] for _ in range(7)]
    for name in names:
        columns[rng.randrange(7)].append(name)
    layout = []
    for col in columns:
        hidden = rng.randrange(len(col)) if col else 0
        layout.append([n.lower() if i < hidden else n for i, n in enumerate(col)])
    foundations = {s: ("A23456789TJQK"[t - 1] + s if t else None) for s, t in zip("SHDC", tops, strict=True)}
    return Game.from_layout(layout, foundations, rule=rule)


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
        assert other.to_state()["t"] != game.to_state()["t"]
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
        [sys.executable, "-m", "games.solver.search", "YU1-C-AAAAAAB"],
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
        [sys.executable, "-m", "games.solver.search", "--sample", "3", "--rule", "R", "--budget-seconds", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "relaxed: 3 random deals" in out.stdout and "95 % CI" in out.stdout and "median" in out.stdout


# -- the reductions never turn a winnable position into a lost one ----------------------------
def verdict_of_one_plain_search(game: Game) -> Verdict:
    """One depth-first search, no restarts: nothing proven lost is carried from one search to the next."""
    line = solve_module._Search(game).run(None, None)
    return Verdict.NOT_WINNABLE if line is None else Verdict.WINNABLE


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_remembered_lost_positions_and_the_group_rule_change_no_verdict(
    rule: Rule, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many tiny restarts, so that the positions one search proves lost are used by the next: the
    verdicts are those of one plain search, and those of a search that moves a group twice."""
    rng = random.Random(11)
    positions = [small_position(rng, rule, rng.randrange(25, 36)) for _ in range(60)]
    with_group_rule = [verdict_of_one_plain_search(game) for game in positions]
    original_moves = solve_module._Search.moves
    monkeypatch.setattr(solve_module._Search, "moves", lambda self, group=-1: original_moves(self))
    without_group_rule = [verdict_of_one_plain_search(game) for game in positions]
    monkeypatch.undo()
    assert with_group_rule == without_group_rule
    assert Verdict.WINNABLE in with_group_rule
    assert rule is Rule.RELAXED or Verdict.NOT_WINNABLE in with_group_rule
    monkeypatch.setattr(solve_module, "_FIRST_NODES", 20)
    monkeypatch.setattr(solve_module, "_RESTART_NODES", 5)
    for game, expected in zip(positions, with_group_rule, strict=True):
        result = solve(game, max_seconds=None, max_nodes=None)
        assert result.verdict is expected, game.to_state()


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_the_compiled_deadlock_check_answers_as_the_python_one(rule: Rule, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position the search looks at, on deals and on random positions with cards up (take-backs,
    cards far from home): the compiled check gives the pure-Python check's answer."""
    compiled = solve_module._deadlock_check()
    looked_at: list[tuple[bytes, list[int], bool, bool]] = []

    def recording(key: bytes, foundations: list[int], relaxed: bool) -> bool:
        answer = compiled(key, foundations, relaxed)
        looked_at.append((key, list(foundations), relaxed, answer))
        return answer

    monkeypatch.setattr(solve_module, "_deadlock_check", lambda: recording)
    rng = random.Random(3)
    # Deals that are lost in classic (long searches), and random positions.
    games = [Game.from_code(f"YU1-{rule.value[0].upper()}-{deal}") for deal in ("QCKXOYH", "UFALKGR")]
    games += [small_position(rng, rule, rng.randrange(20, 40)) for _ in range(20)]
    for game in games:
        try:
            solve_module._Search(game).run(20_000, None)  # the Python search: it asks the check
        except solve_module._OutOfBudget:
            pass
    assert len(looked_at) > (3_000 if rule is Rule.CLASSIC else 500)
    # A search in relaxed hardly ever makes a dead position; this one is (4S can never leave 3S).
    cards = [r + s for s in "SHDC" for r in "6789TJQK"]
    layout = [["5h", "5d", "5c", "5s", "3s", "4S"]] + [cards[i::6] for i in range(6)]
    stuck = solve_module._Search(Game.from_layout(layout, {"S": "2S", "H": "4H", "D": "4D", "C": "4C"}, rule=rule))
    recording(stuck.key(), stuck.fnd, stuck.relaxed)
    dead = 0
    for key, foundations, relaxed, answer in looked_at:
        columns, down = columns_of_key(key)
        assert deadlocked_in_python(columns, down, foundations, relaxed) is answer, (columns, down, foundations)
        dead += answer
    assert 0 < dead < len(looked_at)


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_the_compiled_plain_search_is_the_python_one(rule: Rule) -> None:
    """Same verdict after the same number of nodes, on random positions (many lost in classic) and
    on deals; every line it finds wins when the engine plays it."""
    rng = random.Random(5)
    games = [small_position(rng, rule, rng.randrange(28, 42)) for _ in range(60)]
    games += [Game.from_code(f"YU1-{rule.value[0].upper()}-{deal}") for deal in ("QCKXOYH", "AAAAAAB", "FJSSONA")]
    outcomes = []
    for game in games:
        search = solve_module._Search(game)
        try:
            line = search.run(200_000, None)
        except solve_module._OutOfBudget:
            continue
        status, nodes, compiled_line = compiled.plain_search(game, 200_000, None)
        assert (status, nodes) == (compiled.LOST if line is None else compiled.WON, search.nodes), game.to_state()
        if compiled_line:
            solve_module._replay(game, compiled_line)  # raises unless the engine wins with it
        outcomes.append(status)
    assert len(outcomes) >= 50 and compiled.WON in outcomes
    assert rule is Rule.RELAXED or outcomes.count(compiled.LOST) >= 5


def columns_of_key(key: bytes) -> tuple[list[list[int]], list[int]]:
    """The columns and face-down counts of a search's position key (``100 + face-down``, then the cards)."""
    columns: list[list[int]] = []
    down: list[int] = []
    for byte in key:
        if byte >= 100:
            columns.append([])
            down.append(byte - 100)
        else:
            columns[-1].append(byte)
    while len(columns) < 7:
        columns.append([])
        down.append(0)
    return columns, down


def test_deals_keep_their_verdicts_without_the_remembered_lost_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random deals, solved with and without the searches of one solve sharing what they learn."""
    codes = [GameCode(Rule.CLASSIC, number) for number in random.Random(5).sample(range(10**9), 12)]
    codes += [GameCode.parse(code) for code in ("YU1-C-QCKXOYH", "YU1-C-FJSSONA")]  # lost ones
    shared = [solve(Game.new(code), max_seconds=None, max_nodes=300_000).verdict for code in codes]
    monkeypatch.setattr(compiled.Searches, "share", False)
    alone = [solve(Game.new(code), max_seconds=None, max_nodes=300_000).verdict for code in codes]
    for a, b in zip(shared, alone, strict=True):
        assert Verdict.UNKNOWN in (a, b) or a is b
    assert Verdict.NOT_WINNABLE in shared and Verdict.WINNABLE in shared


# -- the canonical search (classic): families of positions linked by swaps ---------------------
#: Won positions (found in random play) whose every win starts with a swap and then a move onto
#: the group the swap moved: a first version of the canonical search missed that move, and called
#: them lost.
WON_ONLY_THROUGH_THE_SWAPPED_GROUP = [
    (["KH7H6S", "8hQD4S3S6H2H", "9c5dQSKS9HQCJH", "jdth8sKD2C", "tc5hQH", "7sjc3dts6d5C6C4H9D8C7CTD9S8D",
      "jskcah3cad2s4D4C3H5S7D2D"], [1, 0, 0, 1]),
    (["4C3H2SAH", "QD", "7ckd4S", "jd9c6D5C8D", "5d8s9d7sTS9H8CKC7D", "kh4htd5s6sTCAC2C3S2DAS6H3C9S8H2H",
      "qsksjc4d3dqcQHJSTHJH5H7H6C"], [0, 0, 1, 0]),
    (["7D6S5D4S3D2SAH", "ks2DAS3HAC2CAD", "9dJHTS", "3sjd9s5C8D7S6HKCQHJSTDJC7H6C5H4C3CTH", "qd8c4hQC",
      "6d9ckh2h8H7C", "9hqs8s4dtckd5S"], [0, 0, 0, 0]),
    (["4C3D", "jd7S8S7DKC", "9cadQCJH", "ah6c2h6H6D3H7C", "tdts3sth6S5H4S4D9SKSQHJC2D3C", "8hkh2s5dKDQS",
      "8dtcjsqd5S4H5C9D9H8C7H"], [1, 0, 0, 2]),
]  # fmt: skip


def position(columns: list[str], foundations: list[int]) -> Game:
    state = {"v": 2, "code": "YU1-C-AAAAAAA", "t": columns, "f": foundations, "score": 0, "moves": 0}
    return Game.from_state({**state, "h": "", "last": None})


@pytest.mark.parametrize(("columns", "foundations"), WON_ONLY_THROUGH_THE_SWAPPED_GROUP)
def test_the_canonical_search_finds_wins_that_need_a_family_member(columns: list[str], foundations: list[int]) -> None:
    game = position(columns, foundations)
    status, _, line = compiled.Searches(game).run(None, None, canon=True)
    assert status == compiled.WON
    solve_module._replay(game, line)  # raises unless the engine wins with it


def played_into(rng: random.Random, moves: int) -> Game:
    """A classic deal after random legal moves (take-backs included)."""
    game = Game.new(GameCode(Rule.CLASSIC, rng.randrange(10**9)))
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_won:
            break
        game.play(rng.choice(legal))
    return game


def test_the_canonical_search_keeps_the_plain_verdicts() -> None:
    """Random positions and deals played into at random: the canonical search (fewer nodes) gives
    the plain search's verdict, and every line it finds wins when the engine plays it."""
    rng = random.Random(4)
    games = [small_position(rng, Rule.CLASSIC, rng.randrange(20, 45)) for _ in range(45)]
    games += [played_into(rng, rng.randrange(0, 40)) for _ in range(30)]
    games += [Game.from_code(f"YU1-C-{deal}") for deal in ("QCKXOYH", "FJSSONA", "MKBRALU")]  # lost deals
    verdicts = []
    plain_nodes = canonical_nodes = 0
    for game in games:
        plain = compiled.Searches(game).run(1_000_000, None)
        canonical = compiled.Searches(game).run(1_000_000, None, canon=True)
        if plain[0] < 0 or canonical[0] < 0:
            continue
        assert canonical[0] == plain[0], game.to_state()
        if canonical[0] == compiled.WON:
            solve_module._replay(game, canonical[2])
        verdicts.append(plain[0])
        if plain[0] == compiled.LOST:  # a proof searches everything: where the families count
            plain_nodes += plain[1]
            canonical_nodes += canonical[1]
    assert len(verdicts) >= 70 and verdicts.count(compiled.LOST) >= 15 and verdicts.count(compiled.WON) >= 30
    assert canonical_nodes < plain_nodes / 2
