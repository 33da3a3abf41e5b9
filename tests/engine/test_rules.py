"""Every rule of docs/rules.md and docs/scoring.md and every refusal reason, under both rules."""

from __future__ import annotations

import pytest

from games.engine import Game, IllegalMove, Move, Rule

BOTH = pytest.mark.parametrize("rule", [Rule.CLASSIC, Rule.RELAXED])
EMPTY: list[str] = []


def layout(*columns: list[str], rule: Rule = Rule.CLASSIC, foundations: dict[str, str] | None = None) -> Game:
    cols = list(columns) + [EMPTY] * (7 - len(columns))
    return Game.from_layout(cols, foundations, rule=rule)


def play(game: Game, text: str) -> None:
    game.play(Move.parse(text))


def refusal(game: Game, text: str) -> str:
    before = game.to_state()
    with pytest.raises(IllegalMove) as caught:
        game.play(Move.parse(text))
    assert game.to_state() == before, "a refused move changes nothing"
    return caught.value.reason


def tableau(game: Game) -> list[list[str]]:
    return game.view()["tableau"]


@BOTH
def test_a_group_moves_on_a_card_of_the_other_colour_one_rank_higher_even_unordered(rule: Rule) -> None:
    game = layout(["9H"], ["4C", "8S", "3D", "KC"], rule=rule)
    play(game, "t2:8S>t1")
    assert tableau(game)[:2] == [["9H", "8S", "3D", "KC"], ["4C"]]
    assert (game.score, game.moves) == (0, 1)


def test_classic_refuses_a_card_of_the_same_colour() -> None:
    game = layout(["9S"], ["8C"])
    assert refusal(game, "t2:8C>t1") == "does_not_fit"


def test_relaxed_takes_any_colour_one_rank_higher() -> None:
    game = layout(["9S"], ["8C"], rule=Rule.RELAXED)
    play(game, "t2:8C>t1")
    assert tableau(game)[0] == ["9S", "8C"]


@BOTH
@pytest.mark.parametrize("target", ["TH", "7H", "8H", "8D"])
def test_a_card_must_be_exactly_one_rank_lower(rule: Rule, target: str) -> None:
    game = layout([target], ["8C"], rule=rule)
    assert refusal(game, "t2:8C>t1") == "does_not_fit"


@BOTH
def test_only_a_king_enters_an_empty_column(rule: Rule) -> None:
    game = layout(["QH", "JS"], ["KD", "4S", "2H"], ["9C"], rule=rule)
    assert refusal(game, "t1:QH>t5") == "only_king_on_empty"
    play(game, "t2:KD>t5")
    assert tableau(game)[4] == ["KD", "4S", "2H"]
    assert tableau(game)[1] == []


@BOTH
def test_foundations_build_from_ace_to_king_one_suit_each(rule: Rule) -> None:
    game = layout(["3S", "AS"], ["2H"], ["2S"], rule=rule)
    assert refusal(game, "t2>f") == "not_next_on_foundation"
    play(game, "t1>f")
    assert game.view()["foundations"]["S"] == "AS"
    assert refusal(game, "t1>f") == "not_next_on_foundation"
    play(game, "t3>f")
    assert game.view()["foundations"] == {"S": "2S", "H": None, "D": None, "C": None}
    assert game.score == 20


@BOTH
def test_only_the_last_card_goes_to_a_foundation(rule: Rule) -> None:
    game = layout(["AS", "9H"], rule=rule)
    assert refusal(game, "t1:AS>f") == "illegal_move"


@BOTH
def test_a_named_foundation_means_the_cards_own_foundation(rule: Rule) -> None:
    game = layout(["AH"], rule=rule)
    game.play(Move.from_json({"from": "t1", "to": "fS"}))
    assert game.view()["foundations"]["H"] == "AH"


@BOTH
def test_take_back_costs_nothing_and_putting_it_up_again_scores_again(rule: Rule) -> None:
    game = layout(["6C"], ["2D"], rule=rule, foundations={"H": "5H"})
    result = game.play(Move.parse("fH>t1"))
    assert (result.points, game.score) == (0, 0)
    assert tableau(game)[0] == ["6C", "5H"]
    assert game.view()["foundations"]["H"] == "4H"
    result = game.play(Move.parse("t1>f"))
    assert (result.points, game.score) == (10, 10)


@BOTH
def test_take_back_follows_the_fitting_rule(rule: Rule) -> None:
    game = layout(["7C"], rule=rule, foundations={"H": "5H"})
    assert refusal(game, "fH>t1") == "does_not_fit"
    assert refusal(game, "fH>t2") == "only_king_on_empty"
    assert refusal(game, "fS>t1") == "empty_source"
    assert refusal(game, "fH>f") == "illegal_move"
    assert refusal(game, "fH:4H>t1") == "card_not_available"


@BOTH
def test_a_king_taken_back_goes_onto_an_empty_column(rule: Rule) -> None:
    game = layout(["2C"], rule=rule, foundations={"D": "KD"})
    play(game, "fD:KD>t3")
    assert tableau(game)[2] == ["KD"]


@BOTH
def test_an_uncovered_card_flips_at_once_for_five_points(rule: Rule) -> None:
    game = layout(["9H"], ["qc", "kd", "8S", "3D"], rule=rule)
    result = game.play(Move.parse("t2:8S>t1"))
    assert (result.points, result.flipped) == (5, "KD")
    assert tableau(game)[1] == ["XX", "KD"]
    assert game.score == 5


@BOTH
def test_a_flip_under_a_foundation_move_adds_to_its_ten(rule: Rule) -> None:
    game = layout(["qc", "AD"], rule=rule)
    result = game.play(Move.parse("t1>f"))
    assert (result.points, result.flipped, game.score) == (15, "QC", 15)


@BOTH
def test_groups_of_more_than_twenty_cards_are_refused(rule: Rule) -> None:
    big = [
        "KS",
        "QH",
        "JS",
        "TH",
        "9S",
        "8H",
        "7S",
        "6H",
        "5S",
        "4H",
        "3S",
        "2H",
        "KD",
        "QC",
        "JD",
        "TC",
        "9D",
        "8C",
        "7D",
        "6C",
        "5D",
    ]  # 21 cards
    game = layout(big, ["KC"], rule=rule)
    assert refusal(game, "t1:KS>t3") == "group_too_large"
    play(game, "t1:QH>t2")  # the 20 cards above the King are allowed
    assert len(tableau(game)[1]) == 21


@BOTH
def test_a_face_down_card_and_an_absent_card_get_the_same_answer(rule: Rule) -> None:
    game = layout(["9H"], ["qc", "kd", "8S"], ["2C"], rule=rule)
    answers = []
    for card in ("QC", "KD", "2C", "AH"):  # two face down in t2, one elsewhere, one on no column
        with pytest.raises(IllegalMove) as caught:
            game.play(Move.parse(f"t2:{card}>t1"))
        answers.append((caught.value.reason, caught.value.relaxed, str(caught.value)))
    assert len(set(answers)) == 1
    assert answers[0][0] == "card_not_available"


@BOTH
def test_moving_from_an_empty_column_or_onto_its_own_column_is_refused(rule: Rule) -> None:
    game = layout(["9H", "8S"], rule=rule)
    assert refusal(game, "t4>t1") == "empty_source"
    assert refusal(game, "t1:8S>t1") == "same_column"
    assert refusal(game, "t4>f") == "empty_source"


@BOTH
def test_refused_moves_do_not_count(rule: Rule) -> None:
    game = layout(["9S"], ["8H", "QS"], rule=rule)
    refusal(game, "t2:QS>t1")
    assert game.moves == 0
    play(game, "t2:8H>t1")
    assert game.moves == 1


def winning_layout(rule: Rule = Rule.CLASSIC) -> Game:
    """Each suit in one column, King at the bottom, Ace on top; 21 cards face down."""
    columns = []
    for suit, hidden in zip("SHDC", (6, 6, 6, 3), strict=True):
        names = [rank + suit for rank in reversed("A23456789TJQK")]
        columns.append([n.lower() if i < hidden else n for i, n in enumerate(names)])
    return layout(*columns, rule=rule)


@BOTH
def test_a_win_without_take_backs_scores_exactly_625(rule: Rule) -> None:
    game = winning_layout(rule)
    for _ in range(13):
        for column in (1, 2, 3, 4):
            play(game, f"t{column}>f")
    assert game.is_won and game.status == "won"
    assert (game.score, game.moves) == (625, 52)
    assert game.view()["legal_moves"] == []


@BOTH
def test_a_won_game_takes_no_more_moves_or_undos(rule: Rule) -> None:
    game = winning_layout(rule)
    for _ in range(13):
        for column in (1, 2, 3, 4):
            play(game, f"t{column}>f")
    assert refusal(game, "fS>t1") == "game_over"
    with pytest.raises(IllegalMove, match="game_over"):
        game.undo()
    assert game.undo_available == 0


def test_undo_restores_cards_sides_and_score_but_the_counter_goes_on() -> None:
    game = layout(["9H"], ["qc", "kd", "8S", "3D"])
    before = game.to_state()
    play(game, "t2:8S>t1")
    assert game.score == 5
    result = game.undo()
    assert result.points == -5
    after = game.to_state()
    assert after["t"] == before["t"] and after["f"] == before["f"] and after["score"] == 0
    assert game.moves == 2
    assert tableau(game)[1] == ["XX", "XX", "8S", "3D"]


def test_undo_of_a_foundation_move_and_of_a_take_back() -> None:
    game = layout(["7C", "AD"], rule=Rule.CLASSIC, foundations={"H": "6H"})
    play(game, "t1>f")
    play(game, "fH>t1")
    assert tableau(game)[0] == ["7C", "6H"]
    game.undo()
    assert tableau(game)[0] == ["7C"] and game.view()["foundations"]["H"] == "6H"
    game.undo()
    assert tableau(game)[0] == ["7C", "AD"] and game.view()["foundations"]["D"] is None
    assert (game.score, game.moves) == (0, 4)


def test_only_the_last_hundred_moves_can_be_undone() -> None:
    game = layout(["KS"])
    for i in range(101):
        play(game, "t1:KS>t2" if i % 2 == 0 else "t2:KS>t1")
    assert game.undo_available == 100
    for _ in range(100):
        game.undo()
    with pytest.raises(IllegalMove) as caught:
        game.undo()
    assert caught.value.reason == "nothing_to_undo"
    assert game.moves == 201
    assert tableau(game)[1] == ["KS"]  # the first move stays


def test_nothing_to_undo_at_the_start() -> None:
    game = Game.from_code("YU1-C-AAAAAAB")
    with pytest.raises(IllegalMove) as caught:
        game.undo()
    assert caught.value.reason == "nothing_to_undo"
    assert game.moves == 0


@BOTH
def test_tap_sends_the_last_card_to_its_foundation_or_refuses(rule: Rule) -> None:
    game = layout(["5S", "AC"], ["3H"], rule=rule)
    result = game.play(Move.parse("t1>f"))
    assert str(result.move) == "t1>f" and result.points == 10
    assert refusal(game, "t2>f") == "not_next_on_foundation"


@BOTH
def test_double_tap_takes_the_longest_column_it_fits_lowest_number_on_a_tie(rule: Rule) -> None:
    game = layout(["9D"], ["2C", "3C", "9H"], ["4C", "5C", "9D"], ["8S", "KS"], rule=rule)
    result = game.play(Move.parse("t4:8S>auto"))
    assert str(result.move) == "t4:8S>t2"
    assert tableau(game)[1] == ["2C", "3C", "9H", "8S", "KS"]


def test_double_tap_in_relaxed_may_use_a_same_colour_column() -> None:
    game = layout(["9D"], ["2C", "3C", "4S", "9S"], ["8S"], rule=Rule.RELAXED)
    assert str(game.play(Move.parse("t3:8S>auto")).move) == "t3:8S>t2"


@BOTH
def test_double_tap_puts_a_king_into_the_lowest_empty_column(rule: Rule) -> None:
    game = layout(["5H"], ["qc", "KD", "4S"], rule=rule)
    result = game.play(Move.parse("t2:KD>auto"))
    assert str(result.move) == "t2:KD>t3" and result.flipped == "QC"


@BOTH
def test_double_tap_without_a_place_is_refused(rule: Rule) -> None:
    game = layout(["5H"], ["QC", "4S"], ["2D"], ["3D"], ["4D"], ["6D"], ["7D"], rule=rule)
    assert refusal(game, "t2:QC>auto") in ("does_not_fit", "only_king_on_empty")
    game = layout(["5H"], ["KC", "4S"], ["2D"], ["3D"], ["4D"], ["6D"], ["7D"], rule=rule)
    assert refusal(game, "t2:KC>auto") == "only_king_on_empty"


@BOTH
def test_legal_moves_include_pointless_ones_and_each_tableau_move_once(rule: Rule) -> None:
    game = layout(["KS"], ["9H", "8S"], ["9C"], rule=rule, foundations={"H": "7H"})
    moves = {str(m) for m in game.legal_moves()}
    assert "t1:KS>t4" in moves and "t1:KS>t7" in moves  # a King at the bottom to an empty column
    assert "fH>t2" in moves  # a foundation card back down onto 8S
    assert len(moves) == len(game.legal_moves())
