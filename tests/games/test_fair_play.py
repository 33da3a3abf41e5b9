"""docs/fair-play.md: face-down cards never leave the server before they are flipped."""

from __future__ import annotations

import random

import pytest

from games.engine import Game as EngineGame
from games.engine import GameCode
from tests import factories
from tests.support import assert_error, card_names_in, never_seen_cards

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("code", ["YU1-C-AAAAAAA", "YU1-C-AAAAAAB", "YU1-R-BCDEFGH", "YU1-C-ZZZZZZZ"])
def test_no_response_of_any_endpoint_names_a_card_that_was_never_face_up(account, player, code):
    rng = random.Random(code)
    all_cards = [rank + suit for rank in "A23456789TJQK" for suit in "SHDC"]
    bodies: list[tuple[str, str]] = []
    state = {}

    def keep(label, response):
        nonlocal state
        assert response.status_code < 500, (label, response.content[:200])
        bodies.append((label, response.content.decode()))
        if response.status_code in (200, 201) and "legal_moves" in response.json():
            state = response.json()

    keep("create", player.post("/api/v1/games", {"code": code}))
    url = f"/api/v1/games/{state['id']}"
    for step in range(60):
        keep("get", player.get(url))
        if step % 9 == 8:
            keep("undo", player.post(f"{url}/undo"))
        # Refusals of every kind, aimed at every column and card name (some are accepted).
        column = f"t{rng.randint(1, 7)}"
        keep("any", player.post(f"{url}/moves", {"from": column, "card": rng.choice(all_cards), "to": "t1"}))
        keep("auto", player.post(f"{url}/moves", {"from": column, "card": rng.choice(all_cards), "to": "auto"}))
        keep("foundation", player.post(f"{url}/moves", {"from": column, "to": "f"}))
        if not state["legal_moves"]:
            break
        keep("move", player.post(f"{url}/moves", rng.choice(state["legal_moves"])))
    keep("stale", player.post(f"{url}/moves", {"from": "t1", "to": "f", "seq": 9999}))
    keep("log", player.get(f"{url}/moves"))
    keep("list", player.get("/api/v1/games"))
    keep("undo-retry", player.post(f"{url}/undo", HTTP_IDEMPOTENCY_KEY="u1"))
    keep("undo-retry", player.post(f"{url}/undo", HTTP_IDEMPOTENCY_KEY="u1"))

    assert state["moves"] > 10, "the game should have gone somewhere"
    secret = never_seen_cards(state["id"])
    assert secret, "the test needs face-down cards left to look for"
    for label, body in bodies:
        assert not card_names_in(body) & secret, (label, card_names_in(body) & secret)


def test_naming_a_face_down_card_answers_exactly_like_naming_a_card_not_in_the_column(player):
    game = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}).json()
    engine = EngineGame.new(GameCode.parse("YU1-C-AAAAAAB"))
    state = engine.layout()[6]  # column 7: six face-down cards (lower case) under five
    face_down = state[:2].upper()
    elsewhere = "7H"  # the single card of column 1
    url = f"/api/v1/games/{game['id']}/moves"

    for lang in ("de", "en"):
        hidden = player.post(url, {"from": "t7", "card": face_down, "to": "t1"}, HTTP_ACCEPT_LANGUAGE=lang)
        absent = player.post(url, {"from": "t7", "card": elsewhere, "to": "t1"}, HTTP_ACCEPT_LANGUAGE=lang)
        assert_error(hidden, 422, "card_not_available")
        assert (hidden.status_code, hidden.content) == (absent.status_code, absent.content)
        assert face_down not in hidden.content.decode()


def test_the_state_shows_face_down_cards_as_xx_only(account, player):
    stored = factories.game(owner=account, code="YU1-C-AAAAAAA")

    state = player.get(f"/api/v1/games/{stored.id}").json()

    assert [column.count("XX") for column in state["tableau"]] == [0, 1, 2, 3, 4, 5, 6]
    assert not card_names_in(str(state)) & never_seen_cards(stored.id)
