"""The board's lines say whether the server replayed them, and name the game to replay for the top
10 of a day that is over (never today's: its games stay private until the day ends)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import UNCHECKED_REASON, Game
from stats import services
from tests import factories
from tests.stats.helpers import deal, result_for, won_ranked_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_postmortem(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay asks for its post-mortem: not here (no solver thread beside the test)."""
    monkeypatch.setattr("games.jobs.game_postmortem", lambda game_id: None)


def _board(client, day):
    response = client.get(f"/api/v1/leaderboards/daily/{day.isoformat()}")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_top_10_of_a_past_day_name_their_game_and_the_rest_do_not(guest, today):
    day = today - timedelta(days=1)
    deal(day, players=12)
    games = [result_for(won_ranked_game(owner=factories.user(), day=day, time_ms=60_000 + i)).game for i in range(12)]

    entries = _board(guest, day)["entries"]

    assert [entry["replay"] for entry in entries] == [str(game.id) for game in games[:10]] + [None, None]
    # What the board names, the replay answers to anyone.
    assert guest.get(f"/api/v1/games/{entries[9]['replay']}/replay").status_code == 200


def test_todays_board_names_no_game(guest, today):
    deal(today, players=1)
    result_for(won_ranked_game(owner=factories.user(), day=today, time_ms=60_000))

    (entry,) = _board(guest, today)["entries"]

    assert entry["replay"] is None
    assert "game" not in entry


def test_a_line_is_verified_when_the_server_replayed_it(guest, today):
    day = today - timedelta(days=1)
    deal(day, players=3)
    replayed = won_ranked_game(owner=factories.user(username="replayed"), day=day, time_ms=60_000)
    approved = won_ranked_game(owner=factories.user(username="approved"), day=day, time_ms=61_000, review="approved")
    legacy = won_ranked_game(owner=factories.user(username="legacy"), day=day, time_ms=62_000)
    Game.objects.filter(pk=legacy.pk).update(review_reason=UNCHECKED_REASON)  # as migration 0005 left it
    for game in (replayed, approved, legacy):
        assert services.daily_result_record(game_id=game.pk)  # the board's task

    verified = {entry["username"]: entry["verified"] for entry in _board(guest, day)["entries"]}

    assert verified == {"replayed": True, "approved": True, "legacy": False}


def test_the_rebuild_corrects_a_wrong_verified_mark(guest, today):
    day = today - timedelta(days=1)
    deal(day, players=2)
    replayed = won_ranked_game(owner=factories.user(username="replayed"), day=day, time_ms=60_000)
    legacy = won_ranked_game(owner=factories.user(username="legacy"), day=day, time_ms=62_000)
    Game.objects.filter(pk=legacy.pk).update(review_reason=UNCHECKED_REASON)
    result_for(replayed, verified=False)
    result_for(legacy, verified=True)

    services.daily_board_rebuild(day=day)
    services.daily_board_rebuild(day=day)  # twice: the same

    verified = {entry["username"]: entry["verified"] for entry in _board(guest, day)["entries"]}
    assert verified == {"replayed": True, "legacy": False}
