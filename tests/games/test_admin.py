"""Staff review, never edit (docs/fair-play.md, issue 24 item 5): approving or rejecting a held result
needs ``games.review_game``, not "view"; the admin refuses lookups on ``code`` and ``state`` and
shows no code of an open day anywhere; games and move logs cannot be deleted; the review queue
shows held results with their reasons, the linked accounts' attempts of that day and a replay link."""

from __future__ import annotations

import html
import re
from collections import deque
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from games.competition import clock
from games.engine import Game as EngineGame
from games.models import DailyDeal, DailyStartLink, Game, IdempotencyRecord, MoveLog, StatusChoices
from tests import factories

pytestmark = pytest.mark.django_db

TODAY_CODE = "YU2-C-WSOYIGMYLSTMWODBOQDPWOQRYXRJCKQCJZHTTVIBHGHEJAAY"
TOMORROW_CODE = "YU2-C-JIHNPCWMGJOTJURPSIPGXICSOVTXZHTUSKGHFOCJAZPDYZUG"
SPARE_CODE = "YU2-C-ZHMEDIRAFWRLDAFOVSIGBJJLWCJVLOUXWNPDRDURZIQHZZZZ"
YESTERDAY_CODE = "YU1-C-AAAAAAI"
SECRET_CODES = (TODAY_CODE, TOMORROW_CODE, SPARE_CODE)


@dataclass
class Day:
    today: date
    held: Game  # alice's ranked win of today, held: linked to bob, who scouted first
    scout: Game  # bob's unfinished ranked attempt of today: 200 moves 25 ms apart
    practice: Game  # alice's practice copy of today's deal, after her win
    past_held: Game  # carol's held win of yesterday (its day is over)


def _log(game: Game, *, moves: int, gap_ms: int, start: Any) -> None:
    MoveLog.objects.bulk_create(
        MoveLog(
            game=game,
            seq=seq,
            move="t2:9S>t5",
            points=5,
            flipped="QH" if seq % 2 else "",
            created_at=start + timedelta(milliseconds=gap_ms * seq),
        )
        for seq in range(1, moves + 1)
    )


def _legal_line(code: str, length: int) -> list[str]:
    """The first ``length`` moves of a deal, each the first legal one (a log that replays)."""
    engine = EngineGame.from_code(code)
    return [str(engine.play(engine.legal_moves()[0]).move) for _ in range(length)]


@pytest.fixture
def day() -> Day:
    today = clock.today()
    yesterday = today - timedelta(days=1)
    DailyDeal.objects.create(date=today, code=TODAY_CODE, solution_length=90)
    DailyDeal.objects.create(date=today + timedelta(days=1), code=TOMORROW_CODE, solution_length=90)
    DailyDeal.objects.create(date=None, code=SPARE_CODE, solution_length=90)
    DailyDeal.objects.create(date=yesterday, code=YESTERDAY_CODE, solution_length=90)
    alice, bob, carol = (factories.user(username=name) for name in ("alice", "bob", "carol"))
    now = timezone.now()
    start = now - timedelta(minutes=30)

    scout = factories.game(owner=bob, code=TODAY_CODE, daily=today, ranked=True, created_at=start, moves=200)
    _log(scout, moves=200, gap_ms=25, start=start)
    won = {"status": StatusChoices.WON, "ranked": True, "review": "held"}
    held = factories.game(
        owner=alice,
        code=TODAY_CODE,
        daily=today,
        created_at=start + timedelta(minutes=5),
        finished_at=start + timedelta(minutes=6, seconds=2),
        moves=100,
        review_reason="linked: shares a device or network with 1 earlier account(s)",
        **won,
    )
    _log(held, moves=100, gap_ms=600, start=start + timedelta(minutes=5))
    practice = factories.game(owner=alice, code=TODAY_CODE, daily=today, created_at=now, moves=3)
    _log(practice, moves=3, gap_ms=900, start=now)
    for game, at in ((scout, start), (held, start + timedelta(minutes=5))):
        DailyStartLink.objects.create(game=game, user=game.owner, day=today, address="same-network", created_at=at)
    IdempotencyRecord.objects.create(
        key="k1", scope=f"user:{alice.pk}", game=held, fingerprint="f", response_status=200, response_body={}
    )

    past_start = now - timedelta(days=1)
    past_held = factories.played(
        carol,
        YESTERDAY_CODE,
        _legal_line(YESTERDAY_CODE, 12),
        daily=yesterday,
        created_at=past_start,
        finished_at=past_start + timedelta(seconds=50),
        review_reason="won in 50000 ms in all",
        **won,
    )
    return Day(today=today, held=held, scout=scout, practice=practice, past_held=past_held)


def _staff(username: str, *perms: str, superuser: bool = False) -> tuple[Any, Client]:
    User = get_user_model()
    if superuser:
        user = User.objects.create_superuser(username, f"{username}@example.com", factories.PASSWORD)
    else:
        user = User.objects.create_user(username, password=factories.PASSWORD, is_staff=True)
        user.user_permissions.set(Permission.objects.filter(content_type__app_label="games", codename__in=perms))
    client = Client()
    client.force_login(user)
    return user, client


@pytest.fixture
def viewer() -> Client:
    """Staff who may look at games, not decide."""
    return _staff("viewer", "view_game")[1]


@pytest.fixture
def reviewer() -> tuple[Any, Client]:
    return _staff("reviewer", "view_game", "review_game")


@pytest.fixture
def superuser() -> Client:
    return _staff("boss", superuser=True)[1]


def _action(client: Client, url: str, action: str, game: Game) -> Any:
    return client.post(url, {"action": action, "_selected_action": [str(game.pk)], "index": "0"})


# -- approving and rejecting needs its own permission ---------------------------------------------


@pytest.mark.parametrize("action", ["approve_held", "reject_held"])
def test_view_only_staff_are_not_offered_the_decision_and_a_forged_one_is_refused(
    day: Day, viewer: Client, action: str
) -> None:
    for url in ("/admin/games/game/", "/admin/games/heldresult/"):
        page = viewer.get(url)
        assert page.status_code == 200
        assert f'value="{action}"' not in page.content.decode()

        assert _action(viewer, url, action, day.held).status_code == 403

    assert Game.objects.get(pk=day.held.pk).review == "held"


@pytest.mark.parametrize("decision", ["approve", "reject"])
def test_view_only_staff_get_403_on_the_review_queues_decision(day: Day, viewer: Client, decision: str) -> None:
    page = viewer.get(f"/admin/games/heldresult/{day.held.pk}/change/")
    assert page.status_code == 200 and 'name="decision"' not in page.content.decode()

    answer = viewer.post(f"/admin/games/heldresult/{day.held.pk}/decide/", {"decision": decision})

    assert answer.status_code == 403
    held = Game.objects.get(pk=day.held.pk)
    assert held.review == "held" and held.reviewed_by is None


def test_a_reviewer_approves_in_the_queue_and_who_and_when_is_kept(day: Day, reviewer: tuple[Any, Client]) -> None:
    user, client = reviewer
    page = client.get(f"/admin/games/heldresult/{day.held.pk}/change/").content.decode()
    assert 'name="decision" value="approve"' in page and 'name="decision" value="reject"' in page

    answer = client.post(f"/admin/games/heldresult/{day.held.pk}/decide/", {"decision": "approve"}, follow=True)

    assert "1 held result(s) approved" in answer.content.decode()
    held = Game.objects.get(pk=day.held.pk)
    assert held.review == "approved" and held.reviewed_by == user and held.reviewed_at is not None
    assert str(day.held.pk) not in client.get("/admin/games/heldresult/?review__exact=held").content.decode()
    # Still found in the queue among the results that count, where staff may reject it later.
    assert str(day.held.pk) in client.get("/admin/games/heldresult/?review__exact=approved").content.decode()


def test_a_reviewer_rejects_with_the_list_action(day: Day, reviewer: tuple[Any, Client]) -> None:
    _, client = reviewer
    assert 'value="reject_held"' in client.get("/admin/games/game/").content.decode()

    _action(client, "/admin/games/game/", "reject_held", day.held)

    assert Game.objects.get(pk=day.held.pk).review == "rejected"


# -- the code of an open day can be read nowhere ------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/admin/games/game/", "/admin/games/heldresult/"],
)
@pytest.mark.parametrize(
    "lookup",
    ["code__startswith", "code__istartswith", "code__contains", "code", "code__gt", "code__regex"],
)
def test_lookups_on_the_code_are_refused_and_the_count_does_not_change_with_a_prefix(
    day: Day, superuser: Client, path: str, lookup: str
) -> None:
    right, wrong = TODAY_CODE[:8], "YU2-C-ZZ"
    answers = [
        superuser.get(path, {lookup: prefix, "daily__exact": day.today.isoformat()}) for prefix in (right, wrong)
    ]

    assert [answer.status_code for answer in answers] == [400, 400]
    # (the page's language switch carries a CSRF token, masked anew for every answer)
    bodies = [re.sub(rb'name="csrfmiddlewaretoken" value="[^"]+"', b"", answer.content) for answer in answers]
    assert bodies[0] == bodies[1]


@pytest.mark.parametrize(
    ("path", "lookup"),
    [
        ("/admin/games/game/", "state__contains"),
        ("/admin/games/game/", "state__down__0"),
        ("/admin/games/game/", "guest_session_key__startswith"),
        ("/admin/games/idempotencyrecord/", "game__code__startswith"),
        ("/admin/games/idempotencyrecord/", "response_body__contains"),
        ("/admin/auth/user/", "games__code__startswith"),
        ("/admin/accounts/profile/", "user__games__code__startswith"),
    ],
)
def test_lookups_reaching_a_code_or_a_state_are_refused(day: Day, superuser: Client, path: str, lookup: str) -> None:
    assert superuser.get(path, {lookup: "YU2"}).status_code == 400


def test_the_lists_own_filters_still_work(day: Day, superuser: Client) -> None:
    page = superuser.get("/admin/games/game/", {"daily__exact": day.today.isoformat(), "review__exact": "held"})

    assert page.status_code == 200 and str(day.held.pk) in page.content.decode()


_HREF = re.compile(r'href="([^"#]*)"')
_SKIP = ("/admin/logout/", "/admin/password_change/", "/admin/r/", "/admin/jsi18n/", "/delete/")


def _scan(client: Client, starts: list[str], limit: int = 600) -> dict[str, str]:
    """Every admin page reachable from ``starts`` by its links (lists, their filters and sorts,
    change forms, histories): each page's address and text."""
    seen: dict[str, str] = {}
    queue = deque(starts)
    while queue and len(seen) < limit:
        url = queue.popleft()
        if url in seen:
            continue
        answer = client.get(url)
        assert answer.status_code in (200, 302), (url, answer.status_code)
        text = answer.content.decode() if answer.status_code == 200 else answer.get("Location", "")
        seen[url] = text
        for href in _HREF.findall(text):
            target = urljoin(url, html.unescape(href))
            parts = urlsplit(target)
            if parts.netloc or not parts.path.startswith("/admin/") or any(skip in parts.path for skip in _SKIP):
                continue
            query = parse_qs(parts.query)
            # Each filter (a date range is one), sort and search alone: not every combination, nor
            # sorts by several columns; a form's link back to its filtered list is the same form.
            fields = {key.split("__")[0] for key in query}
            if len(fields) > 1 or "_changelist_filters" in query or "." in query.get("o", [""])[0]:
                continue
            if target not in seen:
                queue.append(target)
    assert len(seen) < limit, "the scan did not finish"
    print(f"scanned {len(seen)} admin pages")
    return seen


def test_no_admin_page_shows_the_code_of_an_open_day(day: Day, superuser: Client) -> None:
    changelists = [f"/admin/{model._meta.app_label}/{model._meta.model_name}/" for model in admin.site._registry]
    searches = [f"{url}?q={term}" for url in changelists for term in ("alice", "bob", TODAY_CODE[:10])]
    pages = _scan(superuser, ["/admin/", *changelists, *searches])

    for url, text in pages.items():
        for code in SECRET_CODES:
            letters = code.split("-")[-1]
            assert letters not in text.upper(), (url, code)
    # The scan did see the games, their forms, the queue and the codes that are no secret.
    scanned = set(pages)
    for game in (day.held, day.scout, day.practice, day.past_held):
        assert f"/admin/games/game/{game.pk}/change/" in scanned
    assert f"/admin/games/heldresult/{day.held.pk}/change/" in scanned
    assert any(YESTERDAY_CODE in text for text in pages.values())
    assert any("daily__gte" in url for url in scanned)  # a filter


def test_move_logs_have_no_admin_pages(day: Day, superuser: Client) -> None:
    # A log is read through its game (the replay, once the day is over): an open day's log would
    # spell out the deal as its cards are flipped, and a finished game's moves are no rows of
    # their own (docs/capacity.md).
    assert superuser.get("/admin/games/movelog/").status_code == 404
    assert "/admin/games/movelog/" not in superuser.get("/admin/").content.decode()


# -- nothing is deleted or changed ----------------------------------------------------------------


def test_games_move_logs_and_results_cannot_be_deleted(day: Day, superuser: Client) -> None:
    for model, obj in (("game", day.past_held), ("heldresult", day.past_held)):
        changelist = superuser.get(f"/admin/games/{model}/").content.decode()
        assert 'value="delete_selected"' not in changelist, model
        assert superuser.get(f"/admin/games/{model}/{obj.pk}/delete/").status_code == 403, model
        superuser.post(
            f"/admin/games/{model}/",
            {"action": "delete_selected", "_selected_action": [str(obj.pk)], "post": "yes", "index": "0"},
        )
        assert type(obj).objects.filter(pk=obj.pk).exists(), model
    # Results (stats) have no admin pages at all.
    assert not [model for model in admin.site._registry if model._meta.app_label == "stats"]
    assert apps.get_app_config("stats")  # (the app is there: its models are just not in the admin)


def test_a_game_cannot_be_changed_in_the_admin(day: Day, superuser: Client) -> None:
    before = Game.objects.filter(pk=day.past_held.pk).values().get()

    answer = superuser.post(f"/admin/games/game/{day.past_held.pk}/change/", {"time_ms": "1", "review": "approved"})

    assert answer.status_code == 403
    assert Game.objects.filter(pk=day.past_held.pk).values().get() == before


# -- the review queue ------------------------------------------------------------------------------


def test_the_queue_lists_the_held_results_with_their_reasons_and_linked_accounts(day: Day, viewer: Client) -> None:
    page = viewer.get("/admin/games/heldresult/").content.decode()

    assert str(day.held.pk) in page and str(day.past_held.pk) in page
    assert "linked: shares a device or network" in page and "won in 50000 ms in all" in page
    assert "bob" in page  # alice's linked account
    assert str(day.practice.pk) not in page  # not held


def test_the_queue_shows_the_linked_accounts_attempts_of_that_day(day: Day, viewer: Client) -> None:
    page = viewer.get(f"/admin/games/heldresult/{day.held.pk}/change/").content.decode()

    linked = page[page.lower().index("linked accounts&#x27; attempts that day") :]
    row = re.search(r"<tr><td>bob</td>(.*?)</tr>", linked)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(1))
    assert cells[1:5] == ["ranked", "200", "25 ms median gap", "not finished"]
    assert "600 ms median gap" in page  # the held win's own pace
    assert "after 00:00 UTC" in cells[5]  # no replay of an open day


def test_the_queue_links_a_replay_once_the_day_is_over_and_staff_may_watch_it(
    day: Day, viewer: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("games.jobs.game_postmortem", lambda game_id: None)  # no solver beside the test
    page = viewer.get(f"/admin/games/heldresult/{day.past_held.pk}/change/").content.decode()

    assert f'href="/replay/{day.past_held.pk}"' in page
    assert viewer.get(f"/replay/{day.past_held.pk}").status_code == 200
    assert viewer.get(f"/api/v1/games/{day.past_held.pk}/replay").status_code == 200
    # An open day's games stay out of reach: the replay would show the secret deal.
    assert viewer.get(f"/replay/{day.held.pk}").status_code == 404
    assert viewer.get(f"/api/v1/games/{day.held.pk}/replay").status_code == 404
    # And a player who is no staff still cannot watch another's held game.
    stranger = Client()
    stranger.force_login(factories.user(username="stranger"))
    assert stranger.get(f"/replay/{day.past_held.pk}").status_code == 404
