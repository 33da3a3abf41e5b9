"""Playing with the pointer and the keyboard: every move goes through the API, and the page
shows what the server answered."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from common.errors import explain
from games.engine import Game as EngineGame
from games.engine import GameCode, Move
from games.solver.hint import hint
from tests import factories

from .support import (
    WATCH_DROP,
    answer_edited,
    drag,
    find_deal,
    foundation_move,
    group_move,
    last_card,
    open_deal,
    place_of,
    point_of_card,
    point_of_column,
    point_of_foundation,
    server_state,
    session_key,
    settle,
    wait_for_moves,
)

pytestmark = pytest.mark.browser


#: The suits as the page names them in German.
GERMAN_SUITS = {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"}


def test_a_group_of_cards_dragged_onto_a_column_moves_together(page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(group_move)
    col = game.view()["tableau"][int(move["from"][1]) - 1]
    group = col[col.index(move["card"]) :]
    open_deal(page, code)
    screenshot(page, "play-desktop-de")

    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))

    wait_for_moves(page, 1)
    assert [place_of(page, card) for card in group] == [move["to"]] * len(group)
    state = server_state(page)
    assert state["tableau"][int(move["to"][1]) - 1][-len(group) :] == group
    assert page.locator("#rule-note").is_hidden()


def test_drop_hints_light_up_the_legal_targets_while_dragging(page: Any) -> None:
    code, game, move = find_deal(group_move)
    targets = {m.to_json()["to"] for m in game.legal_moves() if m.to_json().get("card") == move["card"]}
    open_deal(page, code)
    x, y = point_of_card(page, move["card"])
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 30, y + 40, steps=3)
    lit = set(page.eval_on_selector_all(".lane.hint", "els => els.map(e => e.dataset.target)"))
    page.mouse.up()
    assert lit == targets
    assert page.locator(".lane.hint").count() == 0


def test_tapping_the_last_card_puts_it_on_its_foundation(page: Any) -> None:
    code, game, move = find_deal(foundation_move)
    card = last_card(game, move["from"])
    open_deal(page, code)

    page.locator(f"#card-{card}").click()

    wait_for_moves(page, 1)
    assert place_of(page, card) == f"f{card[1]}"
    assert page.locator("#stat-score").text_content() in {"10", "15"}
    assert server_state(page)["foundations"][card[1]] == card


def test_double_tap_sends_the_card_where_the_server_finds_a_place(page: Any) -> None:
    code, game, move = find_deal(group_move)
    expected = copy.deepcopy(game)
    result = expected.play(Move.from_json({**move, "to": "auto"}))
    target = result.move.to_json()["to"]
    open_deal(page, code)

    page.locator(f"#card-{move['card']}").dblclick(position={"x": 20, "y": 8})

    wait_for_moves(page, 1)
    assert place_of(page, move["card"]) == target


def test_undo_takes_the_move_back_with_the_button_and_with_ctrl_z(page: Any) -> None:
    code, game, move = find_deal(group_move)
    open_deal(page, code)
    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))
    wait_for_moves(page, 1)

    page.locator("#undo-button").click()
    wait_for_moves(page, 2)  # an undo counts as a move
    assert place_of(page, move["card"]) == move["from"]
    assert page.locator("#undo-button").is_disabled()

    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))
    wait_for_moves(page, 3)
    page.keyboard.press("Control+z")
    wait_for_moves(page, 4)
    assert place_of(page, move["card"]) == move["from"]
    assert server_state(page)["tableau"] == game.view()["tableau"]


def test_a_hint_lights_up_a_card_and_names_the_move(page: Any, screenshot: Any) -> None:
    open_deal(page, "YU1-C-AAAAAAB")
    move = hint(EngineGame.from_code("YU1-C-AAAAAAB"))  # what the server's solver advises here
    assert move is not None and move.card is not None
    card, target = move.to_json()["card"], move.to_json()["to"]
    page.locator("#hint-button").click()
    page.wait_for_function("() => document.querySelector('#rule-note .rule-text').textContent.startsWith('Tipp:')")
    note = page.locator("#rule-note .rule-text").text_content()
    named = f"{GERMAN_SUITS[card[1]]} {'10' if card[0] == 'T' else card[0]}"
    assert note == f"Tipp: {named} → Spalte {target[1:]}", note
    assert page.locator("#table .card.hinted").count() == 1
    screenshot(page, "hint")
    page.locator("#winnable-button").click()
    page.wait_for_function("() => document.querySelector('#rule-note .rule-text').textContent.includes('gewinnen')")
    assert server_state(page)["moves"] == 0  # asking for help is no move


def test_a_hint_followed_and_asked_again_marks_only_the_new_one(page: Any) -> None:
    # The page is given two hints in a row (it judges neither): the 10 of Spades to column 2, a
    # move it then plays, and the 6 of Diamonds to column 2.
    hints = iter([{"from": "t7", "card": "TS", "to": "t2"}, {"from": "t6", "card": "6D", "to": "t2"}])

    def given(request: Any, body: dict[str, Any]) -> None:
        body.clear()
        body.update(move=next(hints), reason=None)

    answer_edited(page, r"/api/v1/games/[^/]+/hint$", given)
    open_deal(page, "YU1-C-AAAAAAB")
    page.locator("#hint-button").click()
    page.wait_for_function(
        "() => document.querySelector('#rule-note .rule-text').textContent.startsWith('Tipp: Pik 10')"
    )
    drag(page, point_of_card(page, "TS"), point_of_column(page, "t2"))
    wait_for_moves(page, 1)
    page.wait_for_timeout(800)  # the first hint's marks would have lasted 2.5 s from its start
    page.locator("#hint-button").click()
    page.wait_for_function(
        "() => document.querySelector('#rule-note .rule-text').textContent.startsWith('Tipp: Karo 6')"
    )
    page.wait_for_timeout(1800)  # past the first hint's 2.5 s, within the second's
    assert page.locator("#table .card.hinted").evaluate_all("els => els.map((el) => el.dataset.card)") == ["6D"]
    assert page.locator("#table .lane.hint").evaluate_all("els => els.map((el) => el.dataset.target)") == ["t2"]


def test_on_a_phone_the_hint_scrolls_its_card_and_target_into_view(new_page: Any) -> None:
    # A short window (a returning player's: no how-to above the table), the card below its fold.
    page = new_page(viewport={"width": 390, "height": 300}, is_mobile=True, has_touch=True)
    # The page is given a hint (it judges none): the 10 of Spades, 7th card of column 7, to column 2.
    answer_edited(
        page,
        r"/api/v1/games/[^/]+/hint$",
        lambda request, body: (body.clear(), body.update(move={"from": "t7", "card": "TS", "to": "t2"}, reason=None)),
    )
    open_deal(page, "YU1-C-AAAAAAB")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.querySelector('[data-card=TS]').getBoundingClientRect().top") > 300
    page.locator("#hint-button").tap()
    page.wait_for_function("() => document.querySelector('#rule-note .rule-text').textContent.startsWith('Tipp:')")
    assert page.locator("#table .card.hinted").count() == 1
    # The card, and the card it goes on (the last of column 2, the Jack of Hearts), lie in the
    # window and above the note that names the move (fixed at the window's foot).
    page.wait_for_function(
        """() => (() => {
          const note = document.getElementById('rule-note').getBoundingClientRect();
          const foot = note.height ? Math.min(note.top, innerHeight) : innerHeight;
          return ['#table .card.hinted', '[data-card=JH]'].every((s) => {
            const r = document.querySelector(s).getBoundingClientRect();
            return r.top >= 0 && r.bottom <= foot;
          });
        })()"""
    )
    assert page.locator("#slot-t2 ~ .lane.hint, .lane.hint[data-target=t2]").count() == 1


def test_on_a_phone_a_hint_onto_the_end_of_a_32_card_column_shows_both_cards(new_page: Any) -> None:
    """The case from the field: a hint to the 2 of Hearts at the bottom of a 32-card column lay
    off screen. The page is shown such a position and such a hint (it judges neither)."""
    deck = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]
    long = [card for card in deck if card not in ("2H", "AC")][:31] + ["2H"]
    rest = [card for card in deck if card not in long and card != "AC"]
    tableau = [["AC", *rest[:3]], rest[3:7], long, rest[7:10], rest[10:13], rest[13:16], rest[16:19]]

    def position(request: Any, body: dict[str, Any]) -> None:
        if "tableau" in body:
            body.update(tableau=tableau, foundations={}, legal_moves=[])

    def hint(request: Any, body: dict[str, Any]) -> None:
        body.clear()
        body.update(move={"from": "t1", "card": "AC", "to": "t3"}, reason=None)

    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    answer_edited(page, r"/api/v1/games(/[^/]+)?$", position)
    answer_edited(page, r"/api/v1/games/[^/]+/hint$", hint)
    open_deal(page, "YU1-C-AAAAAAB")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.querySelector('[data-card=\"2H\"]').getBoundingClientRect().bottom") > 844
    page.locator("#hint-button").tap()
    note = "document.querySelector('#rule-note .rule-text').textContent"
    page.wait_for_function(f"() => {note} === 'Tipp: Kreuz Ass → Spalte 3'")
    page.wait_for_function(
        """() => (() => {
          const foot = document.getElementById('rule-note').getBoundingClientRect().top;
          return ['AC', '2H'].every((card) => {
            const r = document.querySelector(`[data-card="${card}"]`).getBoundingClientRect();
            return r.top >= 0 && r.bottom <= foot;
          });
        })()"""
    )
    assert page.locator("#table .card.hinted").evaluate_all("els => els.map((el) => el.dataset.card)") == ["AC"]


def test_a_relaxed_game_explains_the_relaxed_rule(new_page: Any) -> None:
    page = new_page(first_visit=True)
    open_deal(page, "YU1-R-QZQHGJD")
    page.locator("#howto").wait_for(state="visible")
    assert "Gegenfarbe" not in page.locator("#howto").inner_text()
    assert "beliebiger Farbe" in page.locator("#howto").inner_text()
    page.locator("details.help summary", has_text="Regeln").click()
    rules = page.locator("details.help", has_text="Regeln").inner_text()
    assert "beliebiger Farbe" in rules and "Gegenfarbe" not in rules
    open_deal(page, "YU1-C-AAAAAAB")  # a classic game: the classic text again
    page.locator("details.help summary", has_text="Regeln").click()
    assert "Gegenfarbe" in page.locator("details.help", has_text="Regeln").inner_text()


def test_on_a_phone_the_texts_follow_the_rule_in_english_too(new_page: Any) -> None:
    page = new_page(
        locale="en-GB", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, first_visit=True
    )
    open_deal(page, "YU1-R-QZQHGJD")
    howto = page.locator("#howto")
    howto.wait_for(state="visible")
    assert "any colour" in howto.inner_text() and "other colour" not in howto.inner_text()
    page.locator("details.help summary", has_text="Rules").tap()
    rules = page.locator("details.help", has_text="Rules")
    assert "any colour" in rules.inner_text() and "other colour" not in rules.inner_text()
    assert page.locator("#rule-badge").text_content() == "Relaxed"
    open_deal(page, "YU1-C-AAAAAAB")  # a classic game on the same page: the classic texts again
    assert "other colour" in page.locator("#howto").inner_text()
    page.locator("details.help summary", has_text="Rules").tap()
    rules = page.locator("details.help", has_text="Rules")
    assert "other colour" in rules.inner_text() and "any colour" not in rules.inner_text()


def refused_drop(game: EngineGame) -> dict[str, str] | None:
    """A face-up card and a non-empty column it does not fit on."""
    legal = {(m.to_json().get("card"), m.to_json()["to"]) for m in game.legal_moves()}
    tableau = game.view()["tableau"]
    for s, col in enumerate(tableau):
        card = col[-1]
        for t, target in enumerate(tableau):
            if t != s and target and (card, f"t{t + 1}") not in legal:
                return {"from": f"t{s + 1}", "card": card, "to": f"t{t + 1}"}
    return None


def test_a_refused_drop_slides_back_and_shows_the_rule(page: Any, screenshot: Any) -> None:
    code, game, move = find_deal(refused_drop)
    open_deal(page, code)
    before = page.locator(f"#card-{move['card']}").bounding_box()

    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))

    note = page.locator("#rule-note")
    note.wait_for(state="visible")
    assert note.locator(".rule-text").text_content() == explain("does_not_fit", "de")
    assert note.get_attribute("data-code") == "does_not_fit"
    page.wait_for_timeout(400)  # the slide back
    after = page.locator(f"#card-{move['card']}").bounding_box()
    assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"]))
    assert page.locator("#stat-moves").text_content() == "0"
    screenshot(page, "play-refused-rule", full_page=False)


def test_a_game_won_by_dragging_shows_the_win_screen(page: Any, screenshot: Any) -> None:
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    near_end = EngineGame.from_layout(
        [["KC"], ["QC"], [], [], [], [], []],
        {"S": "KS", "H": "KH", "D": "KD", "C": "JC"},
        code=GameCode.parse("YU1-C-AAAAAAB"),
    )
    game = factories.game(session_key=session_key(page), engine=near_end)
    page.goto(f"/?game={game.id}")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 10")
    settle(page)

    drag(page, point_of_card(page, "QC"), point_of_foundation(page, "C"))
    wait_for_moves(page, 1)
    drag(page, point_of_card(page, "KC"), point_of_foundation(page, "C"))

    dialog = page.locator("#win-dialog")
    dialog.wait_for(state="visible")
    assert dialog.locator("#win-moves").text_content() == "2"
    assert dialog.locator("#win-score").text_content() == "20"
    assert ":" in dialog.locator("#win-time").text_content()
    assert page.locator("#win-title").text_content() == "Gewonnen!"
    game.refresh_from_db()
    assert game.status == "won"
    screenshot(page, "play-win", full_page=False)


def test_keyboard_play_picks_a_card_and_drops_it_on_a_column(page: Any) -> None:
    code, game, move = find_deal(group_move)
    col = game.view()["tableau"][int(move["from"][1]) - 1]
    ups_above = len(col) - 1 - col.index(move["card"])
    open_deal(page, code)
    page.locator("#table").focus()

    page.keyboard.press(move["from"][1])  # jump to the column: the cursor is on its last card
    for _ in range(ups_above):
        page.keyboard.press("ArrowUp")
    assert move["card"] in page.locator("#table").get_attribute("aria-activedescendant")
    page.keyboard.press("Enter")  # pick up
    page.keyboard.press(move["to"][1])  # choose the target column
    page.keyboard.press("Enter")  # drop

    wait_for_moves(page, 1)
    assert place_of(page, move["card"]) == move["to"]
    assert page.locator("#live").text_content()  # the screen reader hears what happened


def test_a_move_starts_animating_before_the_server_answers(page: Any) -> None:
    code, game, move = find_deal(group_move)
    open_deal(page, code)
    page.evaluate(
        WATCH_DROP,
        move["card"],
    )
    held: list[Any] = []  # the move's request, held back until the card has moved
    page.route("**/api/v1/games/*/moves", lambda route: held.append(route))
    drag(page, point_of_card(page, move["card"]), point_of_column(page, move["to"]))
    page.wait_for_function("() => window.__moved !== null", timeout=10_000)  # it moves with no answer yet
    assert len(held) == 1
    held[0].continue_()
    wait_for_moves(page, 1)


def test_a_foundation_card_dragged_back_onto_a_column(page: Any) -> None:
    page.goto("/")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    position = EngineGame.from_layout(
        [["6S"], ["KD"], [], [], [], [], []], {"S": "5S", "H": "5H"}, code=GameCode.parse("YU1-C-AAAAAAB")
    )
    game = factories.game(session_key=session_key(page), engine=position)
    page.goto(f"/?game={game.id}")
    page.wait_for_function("() => document.getElementById('card-5H') !== null")
    settle(page)
    # A screen reader hears what each column holds (issue 28 item 7: all were "empty").
    assert page.get_by_role("img", name="Spalte 1, 1 Karte").count() == 1
    assert page.locator("#slot-t3").get_attribute("aria-label") == "Spalte 3, leer"

    drag(page, point_of_foundation(page, "H"), point_of_column(page, "t1"))

    wait_for_moves(page, 1)
    assert place_of(page, "5H") == "t1"
    assert page.locator("#slot-t1").get_attribute("aria-label") == "Spalte 1, 2 Karten"
    assert place_of(page, "4H") == "fH"  # the card below is the foundation's top again
    assert server_state(page)["foundations"]["H"] == "4H"
    assert page.locator("#stat-score").text_content() == "0"  # a take-back costs nothing


def test_automatic_drop_chooses_the_column_when_let_go_elsewhere(page: Any) -> None:
    code, game, move = find_deal(group_move)
    expected = copy.deepcopy(game)
    target = expected.play(Move.from_json({**move, "to": "auto"})).move.to_json()["to"]
    # The setting is in place before the page's scripts run: a visit to set it first would deal a
    # game whose request could overlap the next page's (the test server's in-memory SQLite shares
    # one connection between its threads, and CI once saw both answered 400).
    page.add_init_script("localStorage.setItem('yukon.settings', JSON.stringify({auto_drop: true}))")
    open_deal(page, code)

    felt = page.locator("#table").bounding_box()
    drag(page, point_of_card(page, move["card"]), (felt["x"] + 40, felt["y"] + 40))  # beside the foundations

    wait_for_moves(page, 1)
    assert place_of(page, move["card"]) == target
