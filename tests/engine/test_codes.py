"""Game codes and the frozen deal of SPEC section 4."""

import pytest

from games.engine import BadCode, Game, GameCode, Rule
from games.engine.codes import MAX_NUMBER, SplitMix64, shuffled_deck

VECTORS = {
    "YU1-C-AAAAAAA": "8C | jd 9S 2C 2H QH 6C | ts 3h AS JS 7S 9D 8S | qc kd 5d 2S 3D 5S AD 6S | "
    "4c th 5h 8d 8H AH QD TC QS | jh 3c 4h 2d 9h 3S KH AC 7C 9C | 7h jc 6d kc 4s 7d 5C 6H 4D KS TD",
    "YU1-C-AAAAAAB": "7H | 9s 4H 8D 8H 5C JH | 6h 9c JS 5H KH 3S 2H | jd 5d 7d 4D 2S AH 6C KS | "
    "kd td tc jc TH 8C QS 4C 6S | 7s ac 5s ad kc 6D QC QD QH 9H | 3h 3c as 4s 2d 8s TS 3D 2C 9D 7C",
}


def layout_text(game: Game) -> str:
    return " | ".join(" ".join(text[i : i + 2] for i in range(0, len(text), 2)) for text in game.to_state()["t"])


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_deal_matches_the_spec_test_vectors_card_for_card(code: str) -> None:
    assert layout_text(Game.from_code(code)) == VECTORS[code]


def test_the_same_letters_give_the_same_deal_under_both_rules() -> None:
    classic = Game.from_code("YU1-C-QWERTYU")
    relaxed = Game.from_code("YU1-R-QWERTYU")
    assert classic.to_state()["t"] == relaxed.to_state()["t"]
    assert relaxed.rule is Rule.RELAXED


def test_splitmix64_first_draw_of_seed_zero() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_every_deal_holds_each_card_once_with_21_face_down() -> None:
    for number in (0, 1, 12345, MAX_NUMBER):
        game = Game.new(GameCode(Rule.CLASSIC, number))
        assert sorted(shuffled_deck(number)) == list(range(52))
        assert [len(c) for c in game.columns] == [1, 6, 7, 8, 9, 10, 11]
        assert game.down == [0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("text", "number", "rule"),
    [
        ("YU1-C-AAAAAAB", 1, Rule.CLASSIC),
        ("yu1-r-aaaaaba", 26, Rule.RELAXED),
        ("  YU1-C-ZZZZZZZ ", 8_031_810_175, Rule.CLASSIC),
    ],
)
def test_codes_parse_case_insensitively_and_print_in_upper_case(text: str, number: int, rule: Rule) -> None:
    code = GameCode.parse(text)
    assert (code.number, code.rule) == (number, rule)
    assert str(code) == text.strip().upper()


@pytest.mark.parametrize(
    "text", ["", "YU1-C-AAAAAA", "YU1-X-AAAAAAA", "YU2-C-AAAAAAA", "YU1-C-AAAAAA1", "YU1C AAAAAAA", "YU1-C-AAAAAAAA"]
)
def test_a_bad_code_is_refused_with_the_input_quoted(text: str) -> None:
    with pytest.raises(BadCode, match=repr(text).replace("(", r"\(")):
        GameCode.parse(text)


def test_non_text_is_a_bad_code() -> None:
    with pytest.raises(BadCode):
        GameCode.parse(123)  # type: ignore[arg-type]


def test_random_codes_are_drawn_over_the_whole_range() -> None:
    numbers = {GameCode.random(Rule.CLASSIC).number for _ in range(200)}
    assert len(numbers) == 200
    assert all(0 <= n <= MAX_NUMBER for n in numbers)
    assert max(numbers) > MAX_NUMBER // 2
