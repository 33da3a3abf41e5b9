"""The public profile's answer (``GET players/{username}/stats``): the name in any case, member
since, and the last daily results with their ranks; a deleted account has none."""

from __future__ import annotations

from datetime import timedelta

import pytest
from drf_spectacular.generators import SchemaGenerator

from accounts.actions.deletion import account_delete
from games.competition import clock
from stats import services
from tests import factories
from tests.site.test_schema import _strict, assert_matches
from tests.stats.helpers import deal, won_ranked_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(db):
    """Three past days; on each "Leaving" is first, "Mara" second; and "Jonas" third on the last."""
    today = clock.today()
    days = [today - timedelta(days=n) for n in (3, 2, 1)]
    mara, jonas, leaving = (factories.user(username=name) for name in ("Mara", "Jonas", "Leaving"))
    for day in days:
        deal(day, code="YU1-C-AAAAAAB")
        won_ranked_game(owner=leaving, day=day, time_ms=100_000)
        won_ranked_game(owner=mara, day=day, time_ms=150_000)
        services.daily_board_rebuild(day=day)
    won_ranked_game(owner=jonas, day=days[-1], time_ms=200_000, moves=111)
    services.daily_board_rebuild(day=days[-1])
    return {"days": days, "mara": mara, "jonas": jonas, "leaving": leaving}


def test_the_profile_takes_the_name_in_any_case_and_lists_recent_ranks(guest, board):
    body = guest.get("/api/v1/players/JONAS/stats").json()

    assert body["username"] == "Jonas"
    assert body["member_since"].startswith(board["jonas"].date_joined.date().isoformat())
    assert body["recent_daily"] == [{"day": board["days"][-1].isoformat(), "rank": 3, "time_ms": 200_000, "moves": 111}]
    assert [r["rank"] for r in guest.get("/api/v1/players/mara/stats").json()["recent_daily"]] == [2, 2, 2]


def test_ranks_on_the_profile_stay_when_a_player_ahead_deletes_the_account(guest, board):
    account_delete(user=board["leaving"], password=factories.PASSWORD)
    for day in board["days"]:
        services.daily_board_rebuild(day=day)

    mara = guest.get("/api/v1/players/Mara/stats").json()
    assert [r["rank"] for r in mara["recent_daily"]] == [2, 2, 2]
    assert mara["daily"]["best_rank"] == 2
    assert guest.get("/api/v1/players/Leaving/stats").status_code == 404
    assert guest.get("/api/v1/players/leaving/stats").json()["error"] == "not_found"


def test_the_profile_answer_is_documented(guest, board):
    components = _strict(SchemaGenerator().get_schema(request=None, public=True)["components"])

    assert_matches(components, "PlayerStats", guest.get("/api/v1/players/jonas/stats").json())


def test_looking_players_up_is_rate_limited_per_address(settings, client) -> None:
    """300 guesses at names from one address in 3 s answered without a 429 (issue 40): the
    profile page and its statistics count in one limit per address, with Retry-After."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "lookup": "1000/minute", "lookup_ip": "3/minute"},
    }
    factories.user(username="ada")
    assert client.get("/players/ada").status_code == 200
    assert client.get("/api/v1/players/ada/stats").status_code == 200
    assert client.get("/players/nobody-by-that-name").status_code == 404
    page = client.get("/players/ada")
    assert page.status_code == 429 and int(page["Retry-After"]) >= 1
    assert "Too many requests" in page.content.decode() or "Zu viele Anfragen" in page.content.decode()
    api = client.get("/api/v1/players/ada/stats")
    assert api.status_code == 429 and api.json()["error"] == "throttled" and "Retry-After" in api
