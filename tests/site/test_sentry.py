"""Errors reported to Sentry when SENTRY_DSN is set, and never a face-down card or a daily code in
an event (common/sentry.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sentry_sdk
from rest_framework.test import APIClient
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from common.sentry import scrub_text, sentry_init
from games.competition import clock
from games.engine import Game as EngineGame
from games.engine import GameCode, Rule
from games.models import DailyDeal, Game
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
FAKE_DSN = "https://public0key@sentry.invalid/1"

PROBE = """
import os, json
os.environ["DJANGO_SETTINGS_MODULE"] = "yukon_site.settings"
import django
django.setup()
import sentry_sdk
client = sentry_sdk.get_client()
options = client.options if client.is_active() else {}
print(json.dumps({
    "initialised": sentry_sdk.is_initialized(),
    "before_send": getattr(options.get("before_send"), "__qualname__", None),
    "local_variables": options.get("include_local_variables"),
    "collected": options.get("data_collection"),
    "bodies": options.get("max_request_body_size"),
    "integrations": sorted(client.integrations) if client.is_active() else [],
}))
"""


def _probe(**env: str) -> dict[str, Any]:
    base = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_sentry_is_not_even_initialised_without_a_dsn() -> None:
    assert _probe() == {
        "initialised": False,
        "before_send": None,
        "local_variables": None,
        "collected": None,
        "bodies": None,
        "integrations": [],
    }


def test_with_a_dsn_sentry_reports_django_and_celery_through_the_scrubber() -> None:
    probe = _probe(SENTRY_DSN=FAKE_DSN)
    assert probe["initialised"] and probe["before_send"] == "scrub_event"
    assert probe["local_variables"] is False and probe["bodies"] == "never"
    assert probe["collected"]["user_info"] is False and probe["collected"]["http_bodies"] == []
    assert probe["collected"]["stack_frame_variables"] is False
    assert {"django", "celery"} <= set(probe["integrations"])


class CaptureTransport(Transport):
    """Keeps the envelopes instead of sending them."""

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)

    def events(self) -> list[dict[str, Any]]:
        found = [envelope.get_event() for envelope in self.envelopes]
        return [event for event in found if event is not None]


@pytest.fixture
def captured() -> Iterator[CaptureTransport]:
    transport = CaptureTransport()
    sentry_init(dsn=FAKE_DSN, environment="test", transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.get_global_scope().set_client(None)


@pytest.mark.django_db
def test_an_error_inside_a_move_of_todays_deal_is_reported_without_its_code_or_face_down_cards(
    captured: CaptureTransport, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = str(GameCode.random_ordering(Rule.CLASSIC))
    DailyDeal.objects.create(date=clock.today(), code=code, solution_length=90)
    session = APIClient()  # a logged-in browser's session
    session.force_login(factories.user())
    started = session.post("/api/v1/games", {"daily": True}, format="json")
    assert started.status_code == 201, started.content[:300]
    state = started.json()

    seen: dict[str, Any] = {}

    def broken_save(*, game: Game, **kwargs: Any) -> bool:
        # The worst a bug could do: put the whole state and the code into its message.
        seen["state"] = game.state
        raise RuntimeError(f"lost the write of {game.state!r} (deal {game.code}, columns {game.state['t']})")

    monkeypatch.setattr("games.play.store.game_change_save", broken_save)
    response = session.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0], format="json")
    sentry_sdk.flush()

    assert response.status_code == 500 and response.json()["error"] == "server_error"
    events = captured.events()
    assert events, "the error was not reported"
    text = json.dumps(events)
    assert "RuntimeError" in text and "lost the write of" in text  # it is reported, and says what happened
    assert code not in text and code.split("-")[-1] not in text
    assert seen["state"]["t"] not in text  # the stored columns, one character a card
    columns = EngineGame.from_state(seen["state"]).layout()  # the state the move made (face down in lower case)
    hidden = {column[i : i + 2] for column in columns for i in range(0, len(column), 2) if column[i : i + 2].islower()}
    assert len(hidden) >= 20  # 0 + 1 + ... + 6 at the deal, less at most one flip
    for column in columns:
        if len(column) > 2:
            assert column not in text, column
    # No face-down card as a word of its own either ("as", the ace of spades face down, is English too).
    leaked = hidden & set(_words(text)) - {"as"}
    assert not leaked, leaked
    for event in events:
        assert "data" not in event.get("request", {})  # no request body
        for entry in event.get("exception", {}).get("values", []):
            for frame in entry.get("stacktrace", {}).get("frames", []):
                assert "vars" not in frame  # no local variables


def _words(text: str) -> list[str]:
    import re

    return [word.lower() for word in re.findall(r"[A-Za-z0-9]+", text)]


def test_the_text_scrubber_takes_out_a_stored_states_columns() -> None:
    columns = EngineGame.from_code("YU1-C-AAAAAAB").to_state()["t"]
    assert scrub_text(f"state {{'t': '{columns}', 'u': 0}}") == "state {'t': '[cards]', 'u': 0}"


def test_the_text_scrubber_leaves_ids_and_single_cards_alone() -> None:
    text = "move 7H to t5 in game 4c5d3d2c-0000-4000-8000-000000000001 of YU1-C-AAAAAAB: ['KD', '8h9DTS']"
    assert scrub_text(text) == "move 7H to t5 in game 4c5d3d2c-0000-4000-8000-000000000001 of [code]: ['KD', '[cards]']"


def test_an_error_report_names_a_secret_links_page_without_its_token() -> None:
    from common.sentry import scrub_event

    event = {"request": {"url": "https://yukon.example.com/clubs/join/eyJjIjoxLCJnIjowfQ:1vRxyz:Sig", "method": "GET"}}

    scrubbed = scrub_event(event, {})  # type: ignore[arg-type]

    assert scrubbed["request"]["url"] == "https://yukon.example.com/clubs/join/[token]"
