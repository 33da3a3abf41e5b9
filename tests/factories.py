"""Factories for the models: plain functions with keyword arguments and sensible defaults."""

from __future__ import annotations

import itertools
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.actions.tokens import token_issue
from accounts.models import Profile
from games.engine import Game as EngineGame
from games.engine import GameCode, Move, Rule
from games.models import Game, MoveLog, StatusChoices

PASSWORD = "Yukon-Gold-1898"
_numbers = itertools.count(1)


def user(*, username: str | None = None, password: str = PASSWORD, **profile: bool) -> Any:
    account = get_user_model().objects.create_user(username=username or f"player{next(_numbers)}", password=password)
    Profile.objects.create(user=account, **profile)
    account.token, account.token_key = token_issue(user=account, name="factory")
    return account


def token_key(account: Any) -> str:
    """The key of the API token the factory gave the account (on this instance of it)."""
    return str(account.token_key)


def token_client(account: Any, **defaults: str) -> APIClient:
    # Each account from an address of its own (a /24 of its own): accounts from one address are
    # linked by the daily's fair play (docs/fair-play.md), which only its own tests want.
    defaults.setdefault("REMOTE_ADDR", f"10.{(account.pk >> 8) & 255}.{account.pk & 255}.7")
    client = APIClient(**defaults)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_key(account)}")
    return client


def game(
    *,
    owner: Any | None = None,
    session_key: str = "",
    code: str = "YU1-C-AAAAAAB",
    engine: EngineGame | None = None,
    **fields: Any,
) -> Game:
    """A stored game of ``code`` (or of the position ``engine``), an account's or a session's."""
    engine = engine or EngineGame.new(GameCode.parse(code))
    if owner is None and not session_key:
        session_key = f"guestsession{next(_numbers):020d}"
    values: dict[str, Any] = {
        "owner": owner,
        "guest_session_key": "" if owner is not None else session_key,
        "code": str(engine.code),
        "rule": engine.code.rule.value,
        "state": engine.to_state(),
        "score": engine.score,
        "moves": engine.moves,
        "status": StatusChoices.WON if engine.is_won else StatusChoices.PLAYING,
        **fields,
    }
    if values["status"] == StatusChoices.WON:
        values.setdefault("created_at", timezone.now())
        values.setdefault("finished_at", values["created_at"])
        values.setdefault("time_ms", int((values["finished_at"] - values["created_at"]).total_seconds() * 1000))
    return Game.objects.create(**values)


def played(owner: Any, code: str, log: list[str], **fields: Any) -> Game:
    """A stored game of ``code`` after the moves ``log`` (``"undo"`` among them), its move log as
    the server writes it (points, the cards turned up)."""
    engine = EngineGame.from_code(code)
    entries = []
    for seq, text in enumerate(log, start=1):
        result = engine.undo() if text == "undo" else engine.play(Move.parse(text))
        entries.append(
            MoveLog(
                seq=seq,
                move=text if text == "undo" else str(result.move),
                points=result.points,
                flipped=result.flipped or "",
                step=result.step,
                below=result.below,
            )
        )
    stored = game(owner=owner, code=code, engine=engine, **fields)
    for entry in entries:
        entry.game = stored
    MoveLog.objects.bulk_create(entries)
    return stored


def fresh_code(rule: str = "C") -> str:
    """A deal no other game of the test has: a win of a deal played before counts for no best
    (docs/statistics.md), so games that stand for different wins get codes of their own."""
    return str(GameCode(Rule.from_letter(rule), 1_000_000 + next(_numbers)))


def one_move_from_winning(code: str | None = None) -> EngineGame:
    """Every card on its foundation but the King of spades, which lies alone in column 1 (of a
    deal of its own unless ``code`` says which)."""
    return EngineGame.from_layout(
        [["KS"], [], [], [], [], [], []],
        {"S": "QS", "H": "KH", "D": "KD", "C": "KC"},
        code=GameCode.parse(code or fresh_code()),
    )
