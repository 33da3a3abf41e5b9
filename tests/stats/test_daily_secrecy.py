"""The code of today's daily deal appears in no answer of the API (docs/fair-play.md)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from games.models import DailyDeal
from tests.stats.helpers import deal, result_for, win_as_a_human, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_no_answer_names_the_code_of_todays_deal(player, account, guest, today, django_capture_on_commit_callbacks):
    yesterday = today - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB")
    deal(today, code="YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG")  # the same cards, secret today
    result_for(won_ranked_game(owner=account, day=yesterday, time_ms=1_000))
    answers = []

    def get(client, path):
        response = client.get(path)
        assert response.status_code == 200, (path, response.content[:200])
        answers.append(response)
        return response.json()

    ranked = player.post("/api/v1/games", {"daily": True})
    beside_it = player.post("/api/v1/games", {"daily": True})  # refused while the attempt runs
    guest_game = guest.post("/api/v1/games", {"rule": "classic"})
    answers += [ranked, beside_it, guest.post("/api/v1/games", {"daily": True})]
    game_id = ranked.json()["id"]
    answers.append(player.post(f"/api/v1/games/{game_id}/moves", ranked.json()["legal_moves"][0]))
    answers.append(player.post(f"/api/v1/games/{game_id}/undo", {}))
    with django_capture_on_commit_callbacks(execute=True):
        won = win_as_a_human(player, game_id)
    practice = player.post("/api/v1/games", {"daily": True})  # once won, practice copies of the deal
    answers += [practice, player.post(f"/api/v1/games/{practice.json()['id']}/moves", {"from": "t9", "to": "f"})]
    for path in (
        "/api/v1/daily",
        f"/api/v1/daily/{today.isoformat()}",
        f"/api/v1/daily/{yesterday.isoformat()}",
        f"/api/v1/leaderboards/daily/{today.isoformat()}",
        f"/api/v1/leaderboards/daily/{yesterday.isoformat()}",
        f"/api/v1/games/{game_id}",
        f"/api/v1/games/{game_id}/moves",
        "/api/v1/games",
        "/api/v1/me/stats",
        f"/api/v1/players/{account.username}/stats",
    ):
        get(player, path)
    get(guest, f"/api/v1/games/{guest_game.json()['id']}")
    get(guest, "/api/v1/games")
    get(guest, f"/api/v1/players/{account.username}/stats")

    secret = DailyDeal.objects.get(date=today).game_code
    assert get(player, f"/api/v1/daily/{yesterday.isoformat()}")["code"] == "YU1-C-AAAAAAB"  # the check can see
    texts = [response.content.decode() for response in answers] + [json.dumps(won)]
    assert len(texts) == 22
    for text in texts:
        assert str(secret) not in text and secret.letters not in text, text[:200]
        assert secret.letters[:12] not in text.upper(), text[:200]
