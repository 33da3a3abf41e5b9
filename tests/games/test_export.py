"""GET games/export: one's own games as NDJSON or CSV, streamed; today's daily code never in it."""

from __future__ import annotations

import csv
import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.http import StreamingHttpResponse

from games.competition import clock
from games.models import MoveLog
from tests import factories

pytestmark = pytest.mark.django_db

URL = "/api/v1/games/export"


def _body(response: Any) -> str:
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response.streaming_content).decode()


def _ndjson(client: Any) -> list[dict[str, Any]]:
    response = client.get(URL, {"format": "ndjson"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in _body(response).splitlines()]


def _played(owner: Any, **fields: Any) -> Any:
    game = factories.game(owner=owner, **fields)
    MoveLog.objects.create(game=game, seq=1, move="t7:TS>t2", points=5, flipped="8S")
    MoveLog.objects.create(game=game, seq=2, move="undo", points=-5)
    return game


def test_ndjson_gives_each_own_game_with_its_log(player: Any, account: Any) -> None:
    game = _played(account, code="YU1-C-AAAAAAB")
    factories.game(owner=account, code="YU1-R-AAAAAAC")
    rows = _ndjson(player)
    assert [row["id"] for row in rows][0] == str(game.id)
    first = rows[0]
    assert first["code"] == "YU1-C-AAAAAAB" and first["rule"] == "classic"
    assert first["log"] == ["t7:TS>t2/8S", "undo"]
    assert first["started_at"].endswith("Z") and first["status"] == "playing"
    assert {"moves", "score", "time_ms", "finished_at", "daily", "ranked"} <= first.keys()
    assert len(rows) == 2 and rows[1]["log"] == []


def test_csv_has_a_header_and_the_log_in_one_field(player: Any, account: Any) -> None:
    _played(account, code="YU1-C-AAAAAAB")
    response = player.get(URL, {"format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(_body(response))))
    assert len(rows) == 1
    assert rows[0]["code"] == "YU1-C-AAAAAAB" and rows[0]["log"] == "t7:TS>t2/8S undo"
    assert rows[0]["ranked"] == "false" and rows[0]["time_ms"] == ""


def test_todays_daily_code_is_left_empty_and_a_past_days_is_given(player: Any, account: Any) -> None:
    today = clock.today()
    secret = "YU1-C-AAAAAAI"
    factories.game(owner=account, code=secret, daily=today, ranked=True)
    factories.game(owner=account, code="YU1-C-AAAAAAJ", daily=today - timedelta(days=1), ranked=True)
    rows = {row["daily"]: row for row in _ndjson(player)}
    assert rows[today.isoformat()]["code"] == ""
    assert rows[(today - timedelta(days=1)).isoformat()]["code"] == "YU1-C-AAAAAAJ"
    for fmt in ("ndjson", "csv"):
        assert secret not in _body(player.get(URL, {"format": fmt}))


def test_another_players_games_are_not_in_it(player: Any, account: Any) -> None:
    other = factories.user()
    mine = factories.game(owner=account)
    factories.game(owner=other, code="YU1-C-AAAAAAZ")
    factories.game(session_key="someone-elses-session", code="YU1-C-AAAAAAY")
    assert [row["id"] for row in _ndjson(player)] == [str(mine.id)]


def test_a_guest_gets_the_games_of_its_session(guest: Any) -> None:
    assert _ndjson(guest) == []  # no session yet: nothing
    started = guest.post("/api/v1/games", {"rule": "classic"}, format="json")
    assert started.status_code == 201
    factories.game(session_key="another-guest")
    assert [row["id"] for row in _ndjson(guest)] == [started.json()["id"]]


def test_default_format_is_ndjson_and_a_bad_one_is_a_clear_error(player: Any, account: Any) -> None:
    factories.game(owner=account)
    response = player.get(URL)
    assert response.streaming and response["Content-Type"].startswith("application/x-ndjson")
    bad = player.get(URL, {"format": "xml"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_format"


def test_the_answer_is_streamed(player: Any, account: Any) -> None:
    for _ in range(3):
        factories.game(owner=account)
    response = player.get(URL, {"format": "csv"})
    assert isinstance(response, StreamingHttpResponse) and response.streaming
    chunks = list(response.streaming_content)
    assert len(chunks) == 4  # the header, then one line per game as it is read


def test_the_schema_documents_it(player: Any) -> None:
    schema = player.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/games/export"]["get"]
    assert operation["operationId"] == "games_export"
    assert {"application/x-ndjson", "text/csv"} <= operation["responses"]["200"]["content"].keys()
