"""Following players and the day's board among them (docs/social.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from social import selectors, services
from social.models import Follow
from stats.models import DailyResult
from tests import factories
from tests.stats.helpers import deal, result_for, won_ranked_game

pytestmark = pytest.mark.django_db


def _follow(client, name):
    return client.post(f"/api/v1/players/{name}/follow")


def test_a_player_follows_and_unfollows_from_a_name_and_the_other_sees_only_a_count():
    lena, tom = factories.user(username="Lena"), factories.user(username="Tom")
    client = factories.token_client(lena)

    first = _follow(client, "tom")  # (any case, as at login)
    again = _follow(client, "Tom")

    assert first.status_code == 201 and again.status_code == 200
    assert again.json() == {"username": "Tom", "following": True, "followers": 1}
    assert Follow.objects.filter(follower=lena, followed=tom).count() == 1
    seen_by_tom = factories.token_client(tom).get("/api/v1/players/Lena/follow").json()
    assert seen_by_tom == {"username": "Lena", "following": False, "followers": 0}
    listed = client.get("/api/v1/me/following").json()
    assert [row["username"] for row in listed["results"]] == ["Tom"]

    gone = client.delete("/api/v1/players/Tom/follow")

    assert gone.status_code == 200 and gone.json() == {"username": "Tom", "following": False, "followers": 0}
    assert client.delete("/api/v1/players/Tom/follow").status_code == 200  # (not following: the same end)
    assert client.get("/api/v1/me/following").json()["results"] == []


def test_following_refuses_oneself_a_missing_name_a_guest_and_more_than_the_limit():
    lena = factories.user(username="Lena")
    client = factories.token_client(lena)

    assert _follow(client, "Lena").json()["error"] == "follow_self"
    assert _follow(client, "Nobody").status_code == 404
    assert _follow(APIClient(), "Lena").status_code in (401, 403)
    others = [factories.user() for _ in range(3)]
    services.MAX_FOLLOWED, saved = 2, services.MAX_FOLLOWED
    try:
        assert _follow(client, others[0].username).status_code == 201
        assert _follow(client, others[1].username).status_code == 201
        refused = _follow(client, others[2].username)
        assert _follow(client, others[1].username).status_code == 200  # (one already followed: fine)
    finally:
        services.MAX_FOLLOWED = saved
    assert refused.status_code == 400 and refused.json()["error"] == "follow_limit"
    assert "2" in refused.json()["detail"]
    assert Follow.objects.filter(follower=lena).count() == 2


def test_a_deleted_account_leaves_every_following_list():
    lena, tom = factories.user(username="Lena"), factories.user(username="Tom")
    services.follow_add(user=lena, username="Tom")
    services.follow_add(user=tom, username="Lena")

    assert factories.token_client(tom).delete("/api/v1/auth/me", {"password": factories.PASSWORD}).status_code == 204

    assert not Follow.objects.exists()


def test_the_friends_board_ranks_me_and_whom_i_follow_among_us_with_our_places_on_the_whole_board(today):
    deal(today)
    me, friend, stranger, fan = (factories.user(username=n) for n in ("Me", "Friend", "Stranger", "Fan"))
    services.follow_add(user=me, username="Friend")
    services.follow_add(user=fan, username="Me")  # (who follows me is not on my board)
    for owner, time_ms in ((stranger, 60_000), (friend, 90_000), (fan, 95_000), (me, 120_000)):
        result_for(won_ranked_game(owner=owner, day=today, time_ms=time_ms))
    # a held win of someone I follow never shows
    other = factories.user(username="Held")
    services.follow_add(user=me, username="Held")
    won_ranked_game(owner=other, day=today, time_ms=30_000, review="held")

    body = factories.token_client(me).get(f"/api/v1/daily/{today.isoformat()}/friends").json()

    assert body["following"] == 2
    assert [(e["username"], e["rank"], e["board_rank"], e["me"]) for e in body["entries"]] == [
        ("Friend", 1, 2, False),  # (alone in its 5-second bucket: the estimate is the place)
        ("Me", 2, 4, True),
    ]


def test_board_places_on_the_friends_board_are_exact_for_me_and_once_stored_and_within_a_bucket_else(today):
    deal(today)
    me = factories.user(username="Me")
    times = [61_000, 64_999, 65_000, 90_000, 123_399, 123_400, 123_400, 123_401, 500_000]
    moves = [100, 100, 100, 100, 130, 119, 121, 90, 100]
    for n, (time_ms, count) in enumerate(zip(times, moves, strict=True)):
        owner = factories.user(username=f"rival{n}")
        services.follow_add(user=me, username=owner.username)
        result_for(won_ranked_game(owner=owner, day=today, time_ms=time_ms, moves=count))
    result_for(won_ranked_game(owner=me, day=today, time_ms=123_400, moves=120))
    everyone = list(DailyResult.objects.filter(day=today))

    def place(result: DailyResult) -> int:
        key = (result.time_ms, result.moves, result.finished_at)
        return 1 + sum((r.time_ms, r.moves, r.finished_at) < key for r in everyone)

    entries = selectors.friends_board(day=today, user=me).entries

    assert [e.rank for e in entries] == list(range(1, 11))
    for entry in entries:
        mine = next(r for r in everyone if r.user.username == entry.username)
        bucket = [r for r in everyone if r.time_ms // 5_000 == mine.time_ms // 5_000]
        faster = sum(r.time_ms // 5_000 < mine.time_ms // 5_000 for r in everyone)
        if entry.me:
            assert entry.board_rank_exact and entry.board_rank == place(mine) == 7  # (5 faster, 1 tie with fewer moves)
        else:
            assert not entry.board_rank_exact
            assert faster + 1 <= entry.board_rank <= faster + len(bucket), entry
    # once the day's board is rebuilt, its stored ranks are read: exact
    for result in everyone:
        DailyResult.objects.filter(pk=result.pk).update(rank=place(result))
    stored = selectors.friends_board(day=today, user=me).entries
    assert all(e.board_rank_exact for e in stored)
    assert [e.board_rank for e in stored] == sorted(place(r) for r in everyone)


def test_the_friends_board_costs_the_same_queries_for_two_friends_or_forty(today):
    deal(today)
    me = factories.user(username="Me")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            selectors.friends_board(day=today, user=me)
        return len(seen)

    for n in range(2):
        owner = factories.user()
        services.follow_add(user=me, username=owner.username)
        result_for(won_ranked_game(owner=owner, day=today, time_ms=60_000 + n * 7_000))
    few = queries()
    for n in range(38):
        owner = factories.user()
        services.follow_add(user=me, username=owner.username)
        result_for(won_ranked_game(owner=owner, day=today, time_ms=70_000 + n * 3_000))

    assert queries() == few <= 6


def test_the_friends_board_needs_an_account_and_a_day_with_a_deal(today):
    deal(today)
    me = factories.user(username="Me")
    client = factories.token_client(me)

    assert APIClient().get(f"/api/v1/daily/{today.isoformat()}/friends").status_code in (401, 403)
    assert client.get("/api/v1/daily/2020-13-01/friends").json()["error"] == "bad_date"
    assert client.get(f"/api/v1/daily/{(today + timedelta(days=1)).isoformat()}/friends").status_code == 404
    assert client.get(f"/api/v1/daily/{today.isoformat()}/friends").json() == {
        "date": today.isoformat(),
        "following": 0,
        "entries": [],
    }


def test_a_hidden_profile_shows_only_to_its_owner_and_the_players_it_follows():
    lena, tom, stranger = (factories.user(username=n) for n in ("Lena", "Tom", "Stranger"))
    services.follow_add(user=lena, username="Tom")
    as_lena = factories.token_client(lena)

    assert as_lena.put("/api/v1/me/privacy", {"profile_hidden": True}, format="json").json() == {"profile_hidden": True}

    assert as_lena.get("/api/v1/players/Lena/stats").status_code == 200
    assert factories.token_client(tom).get("/api/v1/players/Lena/stats").status_code == 200  # (followed back)
    refused = factories.token_client(stranger).get("/api/v1/players/Lena/stats")
    assert refused.status_code == 403 and refused.json()["error"] == "profile_hidden"
    assert APIClient().get("/api/v1/players/Lena/stats").json()["error"] == "profile_hidden"
    # following still works, and tells the hidden player nothing but a count
    assert _follow(factories.token_client(stranger), "Lena").status_code == 201
    as_lena.put("/api/v1/me/privacy", {"profile_hidden": False}, format="json")
    assert APIClient().get("/api/v1/players/Lena/stats").status_code == 200
    assert as_lena.get("/api/v1/me/privacy").json() == {"profile_hidden": False}


def test_a_hidden_player_below_the_top_100_is_on_no_strangers_friends_board_by_following_them(today):
    day = today - timedelta(days=3)
    deal(day)
    stranger, hidden, top, friend = (factories.user(username=n) for n in ("Stranger", "Hidden", "Top", "Friend"))
    for owner, time_ms, stored in ((top, 60_000, 7), (hidden, 300_000, 150), (friend, 90_000, 20)):
        result = result_for(won_ranked_game(owner=owner, day=day, time_ms=time_ms))
        DailyResult.objects.filter(pk=result.pk).update(rank=stored)  # (the day's board rebuilt after the close)
    services.profile_hidden_set(user=hidden, hidden=True)
    services.profile_hidden_set(user=top, hidden=True)
    services.follow_add(user=hidden, username="Friend")  # (the hidden player follows Friend back)
    as_stranger = factories.token_client(stranger)
    assert as_stranger.get("/api/v1/players/Hidden/stats").json()["error"] == "profile_hidden"

    assert _follow(as_stranger, "Hidden").status_code == 201  # (no consent needed: it shows nothing)
    assert _follow(as_stranger, "Top").status_code == 201
    board = as_stranger.get(f"/api/v1/daily/{day.isoformat()}/friends").json()

    # Hidden's 150th place is on no public board: its time, moves and place stay hidden, and
    # nobody's place among the stranger's friends tells it was there; Top's 7th place is public.
    assert board["following"] == 2
    assert [(e["username"], e["rank"], e["board_rank"]) for e in board["entries"]] == [("Top", 1, 7)]
    assert "300000" not in str(board)
    # The player Hidden follows sees the line, as they see the profile.
    services.follow_add(user=friend, username="Hidden")
    seen = factories.token_client(friend).get(f"/api/v1/daily/{day.isoformat()}/friends").json()
    assert [(e["username"], e["rank"], e["board_rank"]) for e in seen["entries"]] == [
        ("Friend", 1, 20),
        ("Hidden", 2, 150),
    ]
