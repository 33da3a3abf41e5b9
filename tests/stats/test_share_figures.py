"""What a shared daily result names (issue 41 item 3): the deal's number ("Yukon #12", counted from
the first daily deal, 2026-11-30), the streak the result continues, and the board's par once the
day is over; and a link to a day's board unfurling in a chat (Open Graph tags and a PNG)."""

from __future__ import annotations

import struct
from datetime import date, timedelta
from typing import Any

import pytest
from django.test import Client

from games.competition import clock
from stats import tasks
from tests import factories
from tests.stats.helpers import deal, won_ranked_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _won(day: date, owner: Any, *, seconds: int = 200, review: str = "verified") -> Any:
    game = won_ranked_game(owner=owner, day=day, time_ms=seconds * 1000, review=review)
    tasks.game_results_update(str(game.id))
    return game


def _standing(owner: Any, day: date) -> dict[str, Any]:
    return factories.token_client(owner).get(f"/api/v1/daily/{day.isoformat()}/standing").json()


def test_the_number_counts_days_from_the_first_daily_deal(today: date) -> None:
    assert clock.daily_number(date(2026, 11, 30)) == 1
    assert clock.daily_number(date(2026, 12, 11)) == 12
    assert clock.daily_number(date(2026, 11, 29)) is None  # no daily deal was dealt before day 1
    deal(today)
    guest = Client()
    expected = (today - date(2026, 11, 30)).days + 1
    assert guest.get("/api/v1/daily").json()["number"] == expected
    assert guest.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()["number"] == expected
    assert guest.get(f"/api/v1/daily/{today.isoformat()}/standing").json()["number"] == expected


def test_the_streak_of_a_shared_result_counts_the_counted_days_in_a_row_up_to_it(today: date) -> None:
    player = factories.user()
    days = [today - timedelta(days=n) for n in range(5)]  # today, yesterday, ... four days ago
    for day in days:
        deal(day, code="YU1-C-AAAAAAB")
    _won(days[4], player)  # four days ago: then a day without a win
    _won(days[2], player)
    _won(days[1], player)
    _won(days[0], player)
    assert _standing(player, days[0])["me"]["streak"] == 3  # the day before yesterday, yesterday, today
    assert _standing(player, days[1])["me"]["streak"] == 2  # as it stood that day
    assert _standing(player, days[4])["me"]["streak"] == 1


def test_a_result_not_on_the_board_continues_no_streak(today: date) -> None:
    player = factories.user()
    yesterday = today - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB")
    deal(today, code="YU1-C-AAAAAAB")
    _won(yesterday, player)
    _won(today, player, review="held")  # under review: not counted (yet)
    me = _standing(player, today)["me"]
    assert me["counted"] is False and me["streak"] == 0


def test_the_par_of_a_board_is_told_once_its_day_is_over(today: date) -> None:
    yesterday = today - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB", solution_length=87)
    deal(today, code="YU1-C-AAAAAAC", solution_length=93)
    guest = Client()
    assert guest.get(f"/api/v1/leaderboards/daily/{yesterday.isoformat()}").json()["par"] == 87
    assert guest.get(f"/api/v1/leaderboards/daily/{today.isoformat()}").json()["par"] is None  # it tells of the deal


def _og(html: str) -> dict[str, str]:
    import re

    return dict(re.findall(r'<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)"', html))


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_a_link_to_a_days_board_unfurls_with_its_figures_and_a_picture(today: date, settings: Any) -> None:
    settings.SITE_URL = "https://yukon.example"
    yesterday = today - timedelta(days=1)
    deal(yesterday, code="YU1-C-AAAAAAB", players=3)
    _won(yesterday, factories.user(), seconds=195)
    _won(yesterday, factories.user(), seconds=250)
    number = clock.daily_number(yesterday)

    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/leaderboards?date={yesterday.isoformat()}")
    tags = _og(page.content.decode())
    assert tags["og:title"].startswith(f"Yukon #{number} · ")
    assert tags["og:description"].startswith("3 players, 2 won, best time 3:15.")
    assert tags["og:url"] == f"https://yukon.example/leaderboards?date={yesterday.isoformat()}"
    assert tags["og:image"] == f"https://yukon.example/leaderboards/{yesterday.isoformat()}.png?lang=en"
    assert tags["twitter:card"] == "summary_large_image"

    german = _og(Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/leaderboards?date={yesterday.isoformat()}").content.decode())
    assert german["og:description"].startswith("3 Spieler, 2 gewonnen, Bestzeit 3:15.")

    image = Client().get(f"/leaderboards/{yesterday.isoformat()}.png?lang=en")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert _png_size(image.content) == (1200, 630)  # what chats take for a large picture
    assert "max-age=3600" in image["Cache-Control"]
    # Another result: another picture (the figures are drawn, not a picture kept from before).
    _won(yesterday, factories.user(), seconds=150)
    assert Client().get(f"/leaderboards/{yesterday.isoformat()}.png?lang=en").content != image.content


def test_todays_board_unfurls_with_what_it_shows_anyone_and_never_the_deal(today: date) -> None:
    todays = deal(today, code="YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG", players=1)
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/leaderboards").content.decode()
    tags = _og(html)
    assert tags["og:description"].startswith("So far today: 1 player, 0 won.")
    assert todays.code not in html and todays.code[6:20] not in html
    image = Client().get(f"/leaderboards/{today.isoformat()}.png")
    assert image.status_code == 200 and "max-age=600" in image["Cache-Control"]


@pytest.mark.parametrize(
    "path",
    [
        "/leaderboards/2026-02-30.png",  # no such date
        "/leaderboards/20261201.png",
        "/leaderboards/x.png",
        "/leaderboards/2026-11-01.png",  # no deal that day
        "/leaderboards/2999-01-01.png",  # not begun
        "/leaderboards/{today}.png?lang=fr",
    ],
)
def test_a_picture_of_no_board_is_the_sites_404(today: date, path: str) -> None:
    deal(today)
    response = Client().get(path.format(today=today.isoformat()))
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_board_page_without_a_board_has_the_pages_own_tags(today: date) -> None:
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get("/leaderboards?date=2999-01-01").content.decode()
    tags = _og(html)
    assert tags["og:title"] == "Leaderboards – Yukon Solitaire" and "og:image" not in tags
    assert Client().post(f"/leaderboards/{today.isoformat()}.png").status_code == 405
