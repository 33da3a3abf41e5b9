"""What the pages' modules take from the server (config.js reads ``#page-config``): the play
settings' defaults, the same a new player's settings answer gives, and the clean-win score."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

CONFIG = re.compile(r'<script id="page-config" type="application/json">(.*?)</script>', re.S)


@pytest.mark.parametrize("path", ["/", "/stats", "/account/password-reset", "/leaderboards"])
def test_every_page_carries_the_servers_settings_defaults_and_clean_win_score(path: str) -> None:
    client = Client()
    match = CONFIG.search(client.get(path).content.decode())
    assert match, f"no #page-config on {path}"
    config = json.loads(match.group(1))

    assert config["settings"] == client.get("/api/v1/auth/settings").json()  # a new guest's
    assert config["clean_win_score"] == 625
    assert config["bar_widths"] == {"time": 30_000, "moves": 10}  # a bar of 30 s, of 10 moves
