"""Reads of following and clubs (docs/social.md): whom a player follows, the day's board among
them, a club's boards.

A friends' board (or a club's day) reads the ids of the accounts first (at most
:data:`social.services.MAX_FOLLOWED` + 1), then their results of the day through the results'
``(user, day)`` index, and each one's place on the whole board: the stored rank once the day's
board is rebuilt; during the day the caller's own exactly (:func:`stats.selectors.daily_rank`) and
the others' from the day's time histogram. At most six queries whatever the size
(bench/social_bench.py).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Case, Count, F, Q, QuerySet, When, Window
from django.db.models.functions import Rank

from common.errors import ApplicationError, ErrorCode
from stats.models import DailyBucket, DailyResult
from stats.selectors import BOARD_SIZE, daily_rank
from stats.standing import TIME, TIME_BUCKET_MS, TIME_BUCKETS

from .models import Club, ClubRemoval, ClubWeekEntry, Follow, Membership, Privacy


@dataclass(frozen=True, slots=True)
class FriendEntry:
    rank: int  # among the player and the people they follow (1, 2, 2, 4 as on the board)
    board_rank: int  # on the day's whole board
    board_rank_exact: bool  # False: the day is open and this is the place of its 5-second bucket
    username: str
    time_ms: int
    moves: int
    score: int
    verified: bool
    me: bool


@dataclass(frozen=True, slots=True)
class FriendsBoard:
    day: date
    following: int  # how many the player follows (played today or not)
    entries: list[FriendEntry]


def following_list(*, user: Any) -> QuerySet[Follow]:
    """The accounts ``user`` follows, by name."""
    return Follow.objects.filter(follower=user).select_related("followed").order_by("followed__username")


def followers_count(*, user: Any) -> int:
    return Follow.objects.filter(followed=user).count()


def follows(*, user: Any, other: Any) -> bool:
    """Whether ``user`` (an account, or a guest: never) follows ``other``."""
    if user is None or not user.is_authenticated:
        return False
    return Follow.objects.filter(follower=user, followed=other).exists()


def friends_board(*, day: date, user: Any) -> FriendsBoard:
    """``day``'s counted results of ``user`` and of the accounts ``user`` follows, ranked among
    themselves (time, then moves, then finish time), each with its place on the whole board.

    A followed player who hid their profile is on it only if they follow ``user`` back (as their
    profile shows only to them), or where the whole board shows the line anyway: a place in the
    top :data:`stats.selectors.BOARD_SIZE` of a day whose board is stored. Anything else would
    show to anyone who follows them what the hidden profile keeps from them (issue 50)."""
    following = Follow.objects.filter(follower=user)
    hidden = Privacy.objects.filter(profile_hidden=True).values("user_id")
    follow_back = Follow.objects.filter(followed=user).values("follower_id")
    withheld = following.filter(followed_id__in=hidden).exclude(followed_id__in=follow_back)
    shown = following.exclude(pk__in=withheld.values("pk")).values("followed_id")
    me = get_user_model().objects.filter(pk=user.pk).values("pk")
    on_the_whole_board = Q(user_id__in=withheld.values("followed_id"), rank__lte=BOARD_SIZE)
    entries = day_board(day=day, accounts=shown.union(me, all=True), me=user, also=on_the_whole_board)
    return FriendsBoard(day=day, following=following.count(), entries=entries)


def day_board(*, day: date, accounts: QuerySet[Any], me: Any, also: Q | None = None) -> list[FriendEntry]:
    """The counted results of ``day`` of the ``accounts`` (a query of account ids; ``also``: the
    results a condition adds to theirs), ranked among
    themselves, each with its place on the whole board: exact where the day's rebuild stored it
    and for ``me``; for the others of a day still open, the place their 5-second bucket of the
    day's time histogram puts them at (:func:`_place_estimate`). At most four queries.

    The ids stay a subquery, so the database walks them into the results' ``(user, day)`` index
    and the accounts' key (a nested loop over a few hundred rows); a list of ids in the query cost
    more to build and to send than the database took to answer (bench/social_bench.py)."""
    me_id = me.pk  # (once: the request's user is a lazy object, dear to ask 500 times)
    mine = Case(When(user_id=me_id, then=F("finished_at")), default=None)  # the one instant parsed
    whose = Q(user_id__in=accounts) if also is None else Q(user_id__in=accounts) | also
    rows = list(
        DailyResult.objects.filter(whose, day=day)
        .order_by("time_ms", "moves", "finished_at", "pk")
        .values_list(
            "user_id",
            "time_ms",
            "moves",
            "score",
            "verified",
            "rank",
            "user__username",
            Window(Rank(), order_by=[F("time_ms"), F("moves"), F("finished_at")]),
            mine,
        )
    )
    before = _faster_than_buckets(day) if any(row[5] is None for row in rows) else None
    entries: list[FriendEntry] = []
    for owner_id, time_ms, moves, score, verified, stored, name, rank, finished_at in rows:
        is_me = owner_id == me_id
        if stored is not None:
            place = stored
        elif is_me:
            place = daily_rank(day=day, time_ms=time_ms, moves=moves, finished_at=finished_at)
        else:
            assert before is not None
            place = _place_estimate(before, time_ms)
        entries.append(
            FriendEntry(
                rank=rank,
                board_rank=place,
                board_rank_exact=stored is not None or is_me,
                username=name,
                time_ms=time_ms,
                moves=moves,
                score=score,
                verified=verified,
                me=is_me,
            )
        )
    return entries


def _faster_than_buckets(day: date) -> list[int]:
    """The day's time histogram as running totals: entry ``b`` counts the counted results in the
    5-second buckets before ``b``; one entry more at the end counts them all."""
    counts = [0] * TIME_BUCKETS
    for bucket, count in DailyBucket.objects.filter(day=day, kind=TIME).values_list("bucket", "count"):
        if 0 <= bucket < TIME_BUCKETS:
            counts[bucket] = count
    return [0, *itertools.accumulate(counts)]


def _place_estimate(before: list[int], time_ms: int) -> int:
    """A place on a day's open board without counting the results around it one by one: those of
    the faster buckets, and of its own bucket the share its time lies into the bucket. Exact to
    within the results of one 5-second bucket (counting them for 500 lines read millions of index
    entries at a million results: bench/social_bench.py). ``before``: :func:`_faster_than_buckets`."""
    bucket = min(time_ms // TIME_BUCKET_MS, TIME_BUCKETS - 1)
    into = min(time_ms - bucket * TIME_BUCKET_MS, TIME_BUCKET_MS) / TIME_BUCKET_MS
    return 1 + before[bucket] + int((before[bucket + 1] - before[bucket]) * into)


# -- clubs ------------------------------------------------------------------------------------------


def clubs_of(*, user: Any) -> QuerySet[Club]:
    """The clubs ``user`` is a member of, by name, each with ``members`` counted."""
    # (membership as a subquery: a filter through the join would count only the user's own row)
    return (
        Club.objects.filter(pk__in=Membership.objects.filter(user=user).values("club_id"))
        .select_related("owner")
        .annotate(members=Count("memberships"))
        .order_by("name_key")
    )


def club_of_member(*, user: Any, slug: str) -> Club:
    """The club ``slug`` if ``user`` is a member; ``not_found`` otherwise (a club's members and
    boards are for its members: nobody else learns more than that the link works)."""
    club = (
        Club.objects.filter(slug=slug, pk__in=Membership.objects.filter(user=user).values("club_id"))
        .select_related("owner")
        .annotate(members=Count("memberships"))
        .first()
        if user.is_authenticated
        else None
    )
    if club is None:
        raise ApplicationError(ErrorCode.NOT_FOUND)
    return club


def club_members(*, club: Club) -> list[tuple[str, datetime]]:
    """The members' names and when they joined, the longest first."""
    return list(
        Membership.objects.filter(club=club).order_by("joined_at", "pk").values_list("user__username", "joined_at")
    )


def club_day(*, club: Club, day: date, user: Any) -> list[FriendEntry]:
    """``day``'s counted results of the club's members, ranked within the club."""
    return day_board(day=day, accounts=Membership.objects.filter(club=club).values("user_id"), me=user)


def club_removed(*, club: Club) -> list[tuple[str, datetime]]:
    """The players the owner removed from the club (and has not let in again), the latest first."""
    return list(
        ClubRemoval.objects.filter(club=club).order_by("-removed_at", "pk").values_list("user__username", "removed_at")
    )


def club_week(*, club: Club, monday: date) -> list[dict[str, Any]]:
    """The club's standing of the ISO week from ``monday``, as the tasks last rebuilt it."""
    rows = (
        ClubWeekEntry.objects.filter(club=club, week=monday)
        .order_by("rank", "user__username")
        .values("rank", "user_id", "user__username", "points", "days", "time_ms")
    )
    return [dict(row) for row in rows]


def profile_hidden(*, user: Any) -> bool:
    return Privacy.objects.filter(user=user, profile_hidden=True).exists()


def profile_visible(*, owner: Any, viewer: Any) -> bool:
    """Whether ``viewer`` sees ``owner``'s profile: always, unless the owner hid it; then only the
    owner and the players the owner follows ("follow back")."""
    if not profile_hidden(user=owner):
        return True
    if viewer is None or not viewer.is_authenticated:
        return False
    return viewer.pk == owner.pk or Follow.objects.filter(follower=owner, followed=viewer).exists()
