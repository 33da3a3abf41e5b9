"""Assertions shared by the API tests."""

from __future__ import annotations

import re
from typing import Any

from games.engine import Game as EngineGame
from games.models import Game, MoveLog

_CARD = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")


def assert_error(response: Any, status: int, code: str) -> dict[str, str]:
    """The answer is exactly ``{"error": code, "detail": <text>}`` with ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    body = response.json()
    assert set(body) == {"error", "detail"}, body
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


def never_seen_cards(game_id: Any) -> set[str]:
    """The face-down cards of the stored game that no accepted move ever turned up."""
    game = Game.objects.get(pk=game_id)
    engine = EngineGame.from_state(game.state)
    hidden = set()
    for column, down in zip(engine.columns, engine.down, strict=True):
        hidden |= {engine_card_name(card) for card in column[:down]}
    flipped = set(MoveLog.objects.filter(game=game).exclude(flipped="").values_list("flipped", flat=True))
    return hidden - flipped


def engine_card_name(card: int) -> str:
    from games.engine import CARD_NAMES

    return CARD_NAMES[card]


def card_names_in(text: str) -> set[str]:
    return set(_CARD.findall(text))


def play_first_legal(client: Any, state: dict[str, Any]) -> Any:
    """POST the first legal move of ``state``."""
    return client.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])


def older_state(engine: EngineGame, version: int = 2) -> dict[str, Any]:
    """``engine``'s state as versions 1 and 2 wrote it (before the undo history moved to the
    log): the columns as card names, the whole history in the state (1: lists; 2: text)."""
    from games.engine.game import _history_text

    history = [entry[:6] for entry in engine.history]
    last = engine.last
    return {
        "v": version,
        "code": str(engine.code),
        "t": engine.layout(),
        "f": list(engine.foundations),
        "score": engine.score,
        "moves": engine.moves,
        "h": [list(step) for step in history] if version == 1 else "".join(map(_history_text, history)),
        "last": None if last is None else [last.points, last.flipped],
    }
