"""The finish (docs/rules.md): once every card is face up, the player's one act that puts every card
left onto its foundation, each an ordinary move; offered only when those moves complete the game."""

from __future__ import annotations

import random

import pytest

from games.engine import Game, GameCode, IllegalMove, Move, Rule
from games.engine.cards import CARD_NAMES
from games.solver import solve

EMPTY: list[str] = []
REST_UP = {"D": "KD", "C": "KC"}


def layout(*columns: list[str], foundations: dict[str, str] | None = None, rule: Rule = Rule.CLASSIC) -> Game:
    return Game.from_layout(list(columns) + [EMPTY] * (7 - len(columns)), foundations, rule=rule)


def all_but_spades_and_hearts_up(*columns: list[str]) -> Game:
    """Diamonds and clubs on their foundations, spades and hearts (all 26) in ``columns``."""
    return layout(*columns, foundations=dict(REST_UP))


def test_the_finish_puts_the_lowest_card_up_first_and_wins():
    game = all_but_spades_and_hearts_up(
        ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S", "AS"],
        ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"],
    )

    moves = game.finish_moves()

    # Rank by rank across the suits (a cascade), the lower column first on a tie.
    assert [str(move) for move in moves[:4]] == ["t1:AS>f", "t2:AH>f", "t1:2S>f", "t2:2H>f"]
    assert len(moves) == 26
    results = game.finish()
    assert game.is_won and game.moves == 26 and game.score == 260
    assert all(result.points == 10 for result in results)
    assert [result.move for result in results] == moves


def test_each_finish_move_is_a_move_the_rules_allow_one_by_one():
    game = layout(
        ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S"],
        ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"],
        ["3S", "2H"],
        ["2S", "AH"],
        foundations={"S": "AS", **REST_UP},
    )
    one_by_one = game.copy()

    for move in game.finish_moves():
        one_by_one.play(move)

    game.finish()
    assert one_by_one.is_won and one_by_one.to_state() == game.to_state()


def test_no_finish_while_a_card_lies_face_down_even_if_the_cards_would_go_up_in_order():
    """Offering it would tell the player that the face-down cards lie in order."""
    game = all_but_spades_and_hearts_up(
        ["ks", "qs", "js", "ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s", "AS"],
        ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH"],
    )
    before = game.to_state()

    with pytest.raises(IllegalMove) as refused:
        game.finish()

    assert refused.value.reason == "cards_face_down"
    assert not game.can_finish and game.view()["finish_available"] is False
    assert game.to_state() == before


def test_no_finish_when_a_card_lies_on_a_lower_card_of_its_own_suit():
    """All face up is not always won by foundation moves alone: the 2 of hearts lies on the ace."""
    game = all_but_spades_and_hearts_up(
        ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"],
        ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "AH", "2H"],
        ["AS"],
        ["2S"],
    )
    before = game.to_state()

    with pytest.raises(IllegalMove) as refused:
        game.finish()

    assert refused.value.reason == "finish_blocked"
    assert game.view()["finish_available"] is False and game.to_state() == before
    # The player moves the 2 away (onto the 3 of spades), and then the finish is there.
    game.play(Move.parse("t2:2H>t1"))
    assert game.view()["finish_available"] is True
    game.finish()
    assert game.is_won


def test_a_won_game_has_no_finish():
    game = layout(["KS"], foundations={"S": "QS", "H": "KH", **REST_UP})
    game.play(Move.parse("t1>f"))

    with pytest.raises(IllegalMove) as refused:
        game.finish_moves()

    assert refused.value.reason == "game_over" and game.view()["finish_available"] is False


def test_a_finish_scores_as_its_moves_would_and_each_can_be_counted_in_the_replay():
    """A real deal along the solver's line: from the first position with a finish, the finish ends
    the game with the score and counter the replay of its log gives (625: no take-back)."""
    code = GameCode.parse("YU1-C-AAAAAAB")
    line = solve(Game.new(code), max_seconds=30, max_nodes=None).moves
    game = Game.new(code)
    log = []
    for move in line:
        if game.can_finish:
            break
        log.append(str(game.play(move).move))
    finished = [str(result.move) for result in game.finish()]

    assert game.is_won and game.score == 625
    replayed = Game.replay(code, log + finished)
    assert replayed.to_state() == game.to_state() and replayed.moves == len(log) + len(finished)


def test_the_finish_is_offered_exactly_when_foundation_moves_alone_can_win():
    """Against a search of every order of foundation moves, on random all-face-up positions: cards
    taken down from the foundations onto random columns (such a position always finishes), half of
    them with two cards swapped afterwards (which may block it)."""
    rng = random.Random(41)
    offered = 0
    for _ in range(200):
        tops = [13, 13, 13, 13]
        columns: list[list[int]] = [[] for _ in range(7)]
        for _ in range(rng.randint(8, 24)):
            suit = rng.choice([s for s in range(4) if tops[s]])
            columns[rng.randrange(7)].append(suit * 13 + tops[suit] - 1)
            tops[suit] -= 1
        if rng.random() < 0.5:
            places = [(c, i) for c, col in enumerate(columns) for i in range(len(col))]
            (c1, i1), (c2, i2) = rng.sample(places, 2)
            columns[c1][i1], columns[c2][i2] = columns[c2][i2], columns[c1][i1]
        foundations = {"SHDC"[s]: CARD_NAMES[s * 13 + top - 1] for s, top in enumerate(tops) if top}
        game = layout(*[[CARD_NAMES[c] for c in col] for col in columns], foundations=foundations)

        assert game.can_finish == _foundation_moves_can_win(game), game.layout()
        offered += game.can_finish
    assert 50 < offered < 200  # both answers were put to the test


def _foundation_moves_can_win(game: Game) -> bool:
    """Depth-first over every foundation move (any order), memoised on the position."""
    seen: set[str] = set()

    def search(position: Game) -> bool:
        if position.is_won:
            return True
        key = ",".join(position.layout())
        if key in seen:
            return False
        seen.add(key)
        for move in position.legal_moves():
            if move.dst < 0 and move.src < 7:
                after = position.copy()
                after.play(move)
                if search(after):
                    return True
        return False

    return search(game.copy())
