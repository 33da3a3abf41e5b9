"""Game codes and the frozen deal of docs/codes.md."""

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
    return " | ".join(" ".join(text[i : i + 2] for i in range(0, len(text), 2)) for text in game.layout())


@pytest.mark.parametrize("code", sorted(VECTORS))
def test_deal_matches_the_spec_test_vectors_card_for_card(code: str) -> None:
    assert layout_text(Game.from_code(code)) == VECTORS[code]


def test_the_same_letters_give_the_same_deal_under_both_rules() -> None:
    classic = Game.from_code("YU1-C-QWERTYU")
    relaxed = Game.from_code("YU1-R-QWERTYU")
    assert classic.layout() == relaxed.layout()
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


# -- format version 2 (docs/codes.md): any ordering of the 52 cards ------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from games.engine.codes import ORDERINGS, lehmer_rank, lehmer_unrank, random_order  # noqa: E402

V2_VECTORS = {
    "YU2-C-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA": "AS | 2s 3S 4S 5S 6S 7S | 8s 9s TS JS QS KS AH | "
    "2h 3h 4h 5H 6H 7H 8H 9H | th jh qh kh AD 2D 3D 4D 5D | 6d 7d 8d 9d td JD QD KD AC 2C | "
    "3c 4c 5c 6c 7c 8c 9C TC JC QC KC",
    "YU2-C-WSOYIGMYLSTMWODBOQDPWOQRYXRJCKQCJZHTTVIBHGHEJAAY": VECTORS["YU1-C-AAAAAAA"],
    "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG": VECTORS["YU1-C-AAAAAAB"],
}
LAST_V2 = "YU2-C-ZHMEDIRAFWRLDAFOVSIGBJJLWCJVLOUXWNPDRDURZIQHZZZZ"

orderings = st.permutations(list(range(52)))


@pytest.mark.parametrize("code", sorted(V2_VECTORS))
def test_version_2_deals_match_the_spec_test_vectors(code: str) -> None:
    assert layout_text(Game.from_code(code)) == V2_VECTORS[code]
    assert str(GameCode.parse(code)) == code


def test_the_last_version_2_code_is_the_reversed_deck_at_rank_52_factorial_minus_1() -> None:
    code = GameCode.parse(LAST_V2)
    assert code.number == ORDERINGS - 1 and code.version == 2
    assert code.order == list(range(51, -1, -1))
    assert str(GameCode.from_order(range(51, -1, -1))) == LAST_V2


def test_version_2_codes_are_case_insensitive_and_may_hold_spaces() -> None:
    spaced = "  yu2-c-jihnp cwmgj otjur psipg xicso vtxzh tuskg hfocj azpdy zug "
    assert str(GameCode.parse(spaced)) == "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG"


@pytest.mark.parametrize(
    "text",
    [
        "YU2-C-ZHMEDIRAFWRLDAFOVSIGBJJLWCJVLOUXWNPDRDURZIQIAAAA",  # 52!: one past the last ordering
        "YU2-C-ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "YU2-C-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # 47 letters
        "YU2-C-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # 49 letters
        "YU2-X-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "YU3-C-AAAAAAA",
        "YU2-C-AAAAAAA",
        "YU1-C-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "YU1-C-AAAA AAB",  # spaces only in version 2
        "yu1-c-aaaaaﬀ",  # the ligature upper-cases to FF: only ASCII letters count
        "YU2-C-" + "A" * 46 + "ﬀ",  # 46 + FF would be the 48 letters of version 2
        "ＹＵ１-C-AAAAAAB",
    ],
)
def test_codes_outside_both_formats_are_bad_codes(text: str) -> None:
    with pytest.raises(BadCode):
        GameCode.parse(text)


@given(orderings)
def test_rank_to_letters_to_rank_is_the_identity(order: list[int]) -> None:
    code = GameCode.from_order(order)
    assert 0 <= code.number < ORDERINGS
    assert lehmer_rank(lehmer_unrank(code.number)) == code.number
    again = GameCode.parse(str(code))
    assert again == code and again.order == order and len(code.letters) == 48


@given(st.integers(min_value=0, max_value=MAX_NUMBER))
def test_every_version_1_deal_has_a_version_2_code_that_deals_the_same_cards(number: int) -> None:
    v1 = GameCode(Rule.RELAXED, number)
    v2 = GameCode.parse(str(v1.to_version2()))
    assert v2.version == 2 and v2.rule is Rule.RELAXED
    assert Game.new(v2).layout() == Game.new(v1).layout()


@given(orderings)
def test_a_version_2_deal_is_its_ordering_dealt_column_by_column(order: list[int]) -> None:
    game = Game.new(GameCode.from_order(order))
    assert [card for column in game.columns for card in column] == order
    assert game.down == [0, 1, 2, 3, 4, 5, 6]


def test_a_random_ordering_uses_only_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import random
    import secrets

    calls: list[int] = []
    real = secrets.randbelow

    def counting(bound: int) -> int:
        calls.append(bound)
        return real(bound)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the daily deal must not use the random module")

    monkeypatch.setattr(secrets, "randbelow", counting)
    for name in ("random", "randrange", "randint", "shuffle", "sample", "choice", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    code = GameCode.random_ordering()
    assert calls == list(range(52, 1, -1))  # Fisher–Yates: randbelow(i + 1) for i = 51 .. 1
    assert code.version == 2 and sorted(code.order) == list(range(52))


def test_random_orderings_put_every_card_at_every_position_evenly() -> None:
    """A chi-square test over 5,200 draws: each of the 52 x 52 (card, position) cells expects 100.

    For a uniform shuffle each position's counts follow a chi-square law with 51 degrees of
    freedom (mean 51, sd 10.1). An honest shuffle puts the worst of the 52 positions above 140
    with a chance of about 2e-8 (Wilson–Hilferty), while a classic biased one (``randbelow(52)``
    at every step) reaches about 35,000.
    """
    draws = 5200
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(draws):
        for position, card in enumerate(random_order()):
            counts[position][card] += 1
    expected = draws / 52
    worst = max(sum((c - expected) ** 2 / expected for c in row) for row in counts)
    assert all(all(c > 0 for c in row) for row in counts)
    assert worst < 140, worst
