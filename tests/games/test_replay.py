"""GET games/{id}/replay: every position as its player saw it (no face-down card before it is
turned up), for one's own games at any time and the top 10 of a day once it is over."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.competition import clock
from games.engine import CARD_NAMES, HIDDEN, Move
from games.engine import Game as EngineGame
from games.help import postmortem
from games.models import MoveLog
from tests import factories
from tests.games.test_postmortem import LOST_CODE, LOST_LOG, WON_CODE
from tests.stats.helpers import deal, winning_line, won_ranked_game
from tests.support import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def dispatched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The post-mortems a replay asks for (only recorded: no solver beside the test)."""
    asked: list[str] = []
    monkeypatch.setattr("games.jobs.game_postmortem", asked.append)
    return asked


def _faces(position: dict[str, Any]) -> set[str]:
    cards = {name for column in position["tableau"] for name in column if name != HIDDEN}
    return cards | {name for name in position["foundations"].values() if name}


def test_no_face_down_card_appears_before_it_is_turned_up(player: Any, account: Any) -> None:
    log = [*LOST_LOG[:9], "undo", *LOST_LOG[8:]]
    game = factories.played(account, LOST_CODE, log)
    body = player.get(f"/api/v1/games/{game.id}/replay").json()
    deal_ = EngineGame.from_code(LOST_CODE)
    face_down = {CARD_NAMES[c] for col, d in zip(deal_.columns, deal_.down, strict=True) for c in col[:d]}
    assert len(face_down) == 21
    seen = _faces(body["start"])
    assert not seen & face_down  # the deal shows its 31 face-up cards only
    assert sum(col.count(HIDDEN) for col in body["start"]["tableau"]) == 21
    assert [step["move"] for step in body["steps"]] == log
    for step in body["steps"]:
        # The move's fields beside its text (issue 35, point 4): the card it took was face up.
        if step["move"] == "undo":
            assert (step["from"], step["card"], step["to"]) == (None, None, None)
        else:
            move = Move.parse(step["move"]).to_json()
            assert (step["from"], step["to"]) == (move["from"], move["to"])
            assert step["card"] in seen and step["card"] == move.get("card", step["card"])
        if step["flipped"]:
            seen.add(step["flipped"])
        # Every card shown was face up at the deal or turned up by a move so far (and stays known
        # after an undo turns it down again, as the player saw it once).
        assert _faces(step) <= seen, step["seq"]
        replayed = EngineGame.replay(LOST_CODE, log[: step["seq"]])
        assert sum(col.count(HIDDEN) for col in step["tableau"]) == sum(replayed.down)
    assert body["own"] is True and body["code"] == LOST_CODE


def test_a_daily_deal_whose_day_is_open_keeps_its_face_down_cards_and_its_code(player: Any, account: Any) -> None:
    today = clock.today()
    secret = "YU1-C-AAAAAAB"
    deal(today, code=secret, solution_length=88)
    game = factories.played(account, secret, [str(m) for m in winning_line(secret)[:12]], daily=today, ranked=True)
    body = player.get(f"/api/v1/games/{game.id}/replay").json()
    assert body["code"] is None and body["par"] is None and body["postmortem"] is None
    assert secret not in str(body)
    start = EngineGame.from_code(secret)
    hidden = {CARD_NAMES[c] for col, d in zip(start.columns, start.down, strict=True) for c in col[:d]}
    flipped: set[str] = set()
    for step in body["steps"]:
        flipped |= {step["flipped"]} if step["flipped"] else set()
        assert not (_faces(step) & hidden) - flipped
    assert body["postmortem_pending"] is False  # none while the day is open


def test_another_players_game_is_not_found_and_a_guest_sees_its_own(player: Any, guest: APIClient) -> None:
    other = factories.played(factories.user(), LOST_CODE, LOST_LOG[:3])
    assert player.get(f"/api/v1/games/{other.id}/replay").status_code == 404
    started = guest.post("/api/v1/games", {"code": LOST_CODE}, format="json").json()
    assert (
        guest.post(f"/api/v1/games/{started['id']}/moves", {"from": "t4", "to": "f"}, format="json").status_code == 200
    )
    body = guest.get(f"/api/v1/games/{started['id']}/replay").json()
    assert body["player"] is None and [s["move"] for s in body["steps"]] == ["t4>f"]
    assert APIClient().get(f"/api/v1/games/{started['id']}/replay").status_code == 404


def test_the_top_10_of_a_day_that_is_over_are_public() -> None:
    yesterday = clock.today() - timedelta(days=1)
    deal(yesterday, code=WON_CODE, solution_length=80)
    games = [won_ranked_game(owner=factories.user(), day=yesterday, time_ms=60_000 + i * 1000) for i in range(11)]
    held = won_ranked_game(owner=factories.user(), day=yesterday, time_ms=1_000, review="held")
    stranger = APIClient()
    first = stranger.get(f"/api/v1/games/{games[0].id}/replay")
    assert first.status_code == 200
    body = first.json()
    assert body["own"] is False and body["player"] == games[0].owner.username
    assert body["code"] == WON_CODE and body["par"] == 80
    assert stranger.get(f"/api/v1/games/{games[9].id}/replay").status_code == 200  # the 10th
    assert stranger.get(f"/api/v1/games/{games[10].id}/replay").status_code == 404  # the 11th
    assert stranger.get(f"/api/v1/games/{held.id}/replay").status_code == 404  # not on the board


def test_todays_top_game_is_not_public_until_the_day_is_over() -> None:
    today = clock.today()
    deal(today, code=WON_CODE)
    best = won_ranked_game(owner=factories.user(), day=today, time_ms=90_000)
    assert APIClient().get(f"/api/v1/games/{best.id}/replay").status_code == 404
    assert factories.token_client(best.owner).get(f"/api/v1/games/{best.id}/replay").status_code == 200


def test_the_replay_shows_the_post_mortem_and_the_par_or_asks_for_them(
    player: Any, account: Any, dispatched: list[str]
) -> None:
    line = [str(m) for m in winning_line(WON_CODE)]
    game = factories.played(account, WON_CODE, line)
    first = player.get(f"/api/v1/games/{game.id}/replay").json()
    assert first["postmortem"] is None and first["postmortem_pending"] is True
    assert dispatched == [str(game.id)]
    player.get(f"/api/v1/games/{game.id}/replay")
    assert dispatched == [str(game.id)]  # asked once, not at every look
    postmortem.postmortem_record(game_id=game.id)  # what the task does
    body = player.get(f"/api/v1/games/{game.id}/replay").json()
    assert body["postmortem"]["verdict"] == "winnable" and body["postmortem"]["final"] == "won"
    assert body["par"] is not None and body["par"] > 52
    assert body["postmortem_pending"] is False


def test_a_log_that_does_not_replay_is_a_clear_error(player: Any, account: Any) -> None:
    game = factories.game(owner=account, code=WON_CODE, moves=1)
    MoveLog.objects.create(game=game, seq=1, move="t1:AS>t2", points=0)
    response = player.get(f"/api/v1/games/{game.id}/replay")
    assert response.status_code == 409 and response.json()["error"] == "replay_broken"


def test_the_answer_matches_its_documented_shape(player: Any, account: Any) -> None:
    from drf_spectacular.generators import SchemaGenerator

    from tests.site.test_schema import _strict, assert_matches

    components = _strict(SchemaGenerator().get_schema(request=None, public=True)["components"])
    game = factories.played(account, WON_CODE, [str(m) for m in winning_line(WON_CODE)])
    postmortem.postmortem_record(game_id=game.id)
    body = player.get(f"/api/v1/games/{game.id}/replay").json()
    assert body["postmortem"]["verdict"] == "winnable"
    assert_matches(components, "Replay", body)


def test_the_replay_page_is_there_for_the_games_guest_and_a_404_page_for_another_browser(guest: Any) -> None:
    started = guest.post("/api/v1/games", {"code": LOST_CODE}, format="json")
    assert started.status_code == 201, started.content
    page = f"/replay/{started.json()['id']}"

    mine = guest.get(page)
    theirs = APIClient().get(page)

    assert mine.status_code == 200 and b'id="replay"' in mine.content
    assert theirs.status_code == 404 and b'id="replay-error"' in theirs.content
    assert b'id="replay"' not in theirs.content


def test_opening_replays_is_rate_limited_as_hints_are(settings: Any, player: Any, account: Any) -> None:
    """A replay asks for its game's post-mortem (the solver, in the worker): one who opens replays
    by the hundred is refused, as one who asks hints is."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "help": "2/minute"}}
    game = factories.played(account, LOST_CODE, LOST_LOG)
    for _ in range(2):
        assert player.get(f"/api/v1/games/{game.id}/replay").status_code == 200
    assert_error(player.get(f"/api/v1/games/{game.id}/replay"), 429, "throttled")
