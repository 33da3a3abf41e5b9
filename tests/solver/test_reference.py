"""The product's compiled search and deadlock check held to the readable reference (reference.py)
by verdicts and by winning lines the engine plays to the end; the canonical search held to the
plain one."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, GameCode, Rule
from games.solver import Verdict, solve
from games.solver import search as search_module
from games.solver.compiled import Searches, Status, is_deadlocked

from . import reference
from .positions import played_into, position, small_position, wins


def reference_verdict(
    game: Game,
    max_nodes: int | None = None,
    *,
    group_rule: bool = True,
    deadlocked: reference.Deadlocked = reference.deadlocked,
) -> Verdict:
    search = reference.ReferenceSearch(game, group_rule=group_rule, deadlocked=deadlocked)
    try:
        line = search.run(max_nodes)
    except reference.OutOfBudget:
        return Verdict.UNKNOWN
    if line is None:
        return Verdict.NOT_WINNABLE
    assert wins(game, line)
    return Verdict.WINNABLE


def compiled_verdict(game: Game, max_nodes: int | None = None, *, canon: bool = False) -> Verdict:
    """One compiled search alone: nothing learnt by another search of the same solve."""
    run = Searches(game).run(max_nodes, None, canon=canon)
    if run.status is Status.WON:
        assert wins(game, run.line)
        return Verdict.WINNABLE
    return Verdict.NOT_WINNABLE if run.status is Status.LOST else Verdict.UNKNOWN


def agree(a: Verdict, b: Verdict) -> bool:
    return Verdict.UNKNOWN in (a, b) or a is b


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_the_compiled_search_gives_the_reference_verdicts(rule: Rule) -> None:
    """Random positions (many lost in classic) and deals: where both decide, the same verdict,
    and every line either finds wins when the engine plays it."""
    rng = random.Random(5)
    games = [small_position(rng, rule, rng.randrange(28, 42)) for _ in range(60)]
    games += [Game.from_code(f"YU1-{rule.value[0].upper()}-{deal}") for deal in ("QCKXOYH", "AAAAAAB", "FJSSONA")]
    decided = []
    for game in games:
        expected = reference_verdict(game, 20_000)
        got = compiled_verdict(game, 200_000)
        assert agree(expected, got), game.to_state()
        if expected is not Verdict.UNKNOWN:
            decided.append(got)
    assert len(decided) >= 50 and Verdict.WINNABLE in decided
    assert rule is Rule.RELAXED or decided.count(Verdict.NOT_WINNABLE) >= 4


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_remembered_lost_positions_and_the_group_rule_change_no_verdict(
    rule: Rule, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reference with and without the group rule, and solve() with many tiny restarts (so that
    the positions one search proves lost are used by the next): the same verdicts."""
    rng = random.Random(11)
    positions = [small_position(rng, rule, rng.randrange(25, 36)) for _ in range(60)]
    with_group_rule = [reference_verdict(game) for game in positions]
    without_group_rule = [reference_verdict(game, group_rule=False) for game in positions]
    assert with_group_rule == without_group_rule
    assert Verdict.WINNABLE in with_group_rule
    assert rule is Rule.RELAXED or Verdict.NOT_WINNABLE in with_group_rule
    monkeypatch.setattr(search_module, "_FIRST_NODES", 20)
    monkeypatch.setattr(search_module, "_RESTART_NODES", 5)
    for game, expected in zip(positions, with_group_rule, strict=True):
        result = solve(game, max_seconds=None, max_nodes=None)
        assert result.verdict is expected, game.to_state()
        assert expected is not Verdict.WINNABLE or wins(game, result.moves)


def test_deals_keep_their_verdicts_without_the_remembered_lost_positions() -> None:
    """Random deals: solve() (its searches share what they learn) against one compiled search alone."""
    codes = [GameCode(Rule.CLASSIC, number) for number in random.Random(5).sample(range(10**9), 12)]
    codes += [GameCode.parse(code) for code in ("YU1-C-QCKXOYH", "YU1-C-FJSSONA")]  # lost ones
    shared = [solve(Game.new(code), max_seconds=None, max_nodes=300_000).verdict for code in codes]
    alone = [compiled_verdict(Game.new(code), 300_000) for code in codes]
    assert all(agree(a, b) for a, b in zip(shared, alone, strict=True))
    assert Verdict.NOT_WINNABLE in shared and Verdict.WINNABLE in shared


@pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
def test_the_compiled_deadlock_check_answers_as_the_reference(rule: Rule) -> None:
    """Every position the reference search looks at, on deals and on random positions with cards
    up (take-backs, cards far from home): the compiled check gives the reference's answer."""
    looked_at: list[tuple[Game, bool]] = []

    def recording(columns: list[list[int]], down: list[int], foundations: list[int], relaxed: bool) -> bool:
        answer = reference.deadlocked(columns, down, foundations, relaxed)
        code = GameCode(Rule.RELAXED if relaxed else Rule.CLASSIC, 0)
        looked_at.append((Game(code, [list(c) for c in columns], list(down), list(foundations)), answer))
        return answer

    rng = random.Random(3)
    # Deals that are lost in classic (long searches), and random positions.
    games = [Game.from_code(f"YU1-{rule.value[0].upper()}-{deal}") for deal in ("QCKXOYH", "UFALKGR")]
    games += [small_position(rng, rule, rng.randrange(20, 40)) for _ in range(20)]
    for game in games:
        reference_verdict(game, 5_000, deadlocked=recording)
    assert len(looked_at) > (2_000 if rule is Rule.CLASSIC else 300)
    # A search in relaxed hardly ever makes a dead position; this one is (4S can never leave 3S).
    cards = [r + s for s in "SHDC" for r in "6789TJQK"]
    layout = [["5h", "5d", "5c", "5s", "3s", "4S"]] + [cards[i::6] for i in range(6)]
    stuck = Game.from_layout(layout, {"S": "2S", "H": "4H", "D": "4D", "C": "4C"}, rule=rule)
    recording(stuck.columns, stuck.down, stuck.foundations, stuck.relaxed)
    for game, answer in looked_at:
        assert is_deadlocked(game) is answer, game.to_state()
    dead = sum(answer for _, answer in looked_at)
    assert 0 < dead < len(looked_at)


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


@pytest.mark.parametrize(("columns", "foundations"), WON_ONLY_THROUGH_THE_SWAPPED_GROUP)
def test_the_canonical_search_finds_wins_that_need_a_family_member(columns: list[str], foundations: list[int]) -> None:
    game = position(columns, foundations)
    assert compiled_verdict(game, canon=True) is Verdict.WINNABLE  # its line wins when the engine plays it


def test_the_canonical_search_keeps_the_plain_verdicts() -> None:
    """Random positions and deals played into at random: the canonical search gives the plain
    search's verdict, every line it finds wins when the engine plays it, and its proofs take
    fewer than half the nodes."""
    rng = random.Random(4)
    games = [small_position(rng, Rule.CLASSIC, rng.randrange(20, 45)) for _ in range(45)]
    games += [played_into(rng, rng.randrange(0, 40)) for _ in range(30)]
    games += [Game.from_code(f"YU1-C-{deal}") for deal in ("QCKXOYH", "FJSSONA", "MKBRALU")]  # lost deals
    verdicts = []
    plain_nodes = canonical_nodes = 0
    for game in games:
        plain = Searches(game).run(1_000_000, None)
        canonical = Searches(game).run(1_000_000, None, canon=True)
        if plain.status < 0 or canonical.status < 0:
            continue
        assert canonical.status == plain.status, game.to_state()
        assert canonical.status is not Status.WON or wins(game, canonical.line)
        verdicts.append(plain.status)
        if plain.status is Status.LOST:  # a proof searches everything: where the families count
            plain_nodes += plain.nodes
            canonical_nodes += canonical.nodes
    assert len(verdicts) >= 70 and verdicts.count(Status.LOST) >= 15 and verdicts.count(Status.WON) >= 30
    assert canonical_nodes < plain_nodes / 2
