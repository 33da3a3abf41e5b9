"""Reads of following (docs/social.md): whom a player follows, and the day's board among them.

The friends' board reads the day's results of at most :data:`social.services.MAX_FOLLOWED` + 1
accounts through the results' ``(user, day)`` index, and each one's place on the whole board in
the same query (its stored rank once the day's board is rebuilt; before that the day's time
histogram and one short range count in the result's own 5-second bucket, as
:func:`stats.selectors.daily_rank` counts it): two queries whatever the size
(bench/social_bench.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from itertools import accumulate
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Least

from common.errors import ApplicationError, ErrorCode
from stats.models import DailyBucket, DailyResult
from stats.standing import TIME, TIME_BUCKET_MS, TIME_BUCKETS

from .models import Club, ClubWeekEntry, Follow, Membership

_FIELDS = ("user_id", "user__username", "time_ms", "moves", "score", "finished_at", "verified", "rank", "within")


@dataclass(frozen=True, slots=True)
class FriendEntry:
    rank: int  # among the player and the people they follow (1, 2, 2, 4 as on the board)
    board_rank: int  # on the day's whole board
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
    themselves (time, then moves, then finish time), each with its rank on the whole board."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    entries = day_board(day=day, accounts=Q(user_id=user.pk) | Q(user_id__in=followed), me=user)
    return FriendsBoard(day=day, following=Follow.objects.filter(follower=user).count(), entries=entries)


def day_board(*, day: date, accounts: Q, me: Any) -> list[FriendEntry]:
    """The counted results of ``day`` of the ``accounts`` (a condition on the results' ``user_id``),
    ranked among themselves, each with its place on the whole board: two queries."""
    faster = _buckets_ahead(day)
    # The results of the same day ahead of this one in its own 5-second bucket (the histogram
    # counts the buckets before it): a range of the board's index.
    lower = Least(F("time_ms") / TIME_BUCKET_MS, Value(TIME_BUCKETS - 1)) * TIME_BUCKET_MS
    ahead = (
        DailyResult.objects.filter(
            day=OuterRef("day"), time_ms__gte=OuterRef("bucket_start"), time_ms__lte=OuterRef("time_ms")
        )
        .filter(
            Q(time_ms__lt=OuterRef("time_ms"))
            | Q(time_ms=OuterRef("time_ms"), moves__lt=OuterRef("moves"))
            | Q(time_ms=OuterRef("time_ms"), moves=OuterRef("moves"), finished_at__lt=OuterRef("finished_at"))
        )
        .order_by()
        .values("day")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        DailyResult.objects.filter(accounts, day=day, user__isnull=False)
        .annotate(bucket_start=lower)
        .annotate(within=Coalesce(Subquery(ahead, output_field=IntegerField()), 0))
        .order_by("time_ms", "moves", "finished_at", "pk")
        .values_list(*_FIELDS)
    )
    entries: list[FriendEntry] = []
    previous: tuple[int, int, datetime] | None = None
    for position, row in enumerate(rows, start=1):
        owner_id, username, time_ms, moves, score, finished_at, verified, stored_rank, within = row
        key = (time_ms, moves, finished_at)
        rank = entries[-1].rank if key == previous else position
        previous = key
        bucket = min(time_ms // TIME_BUCKET_MS, TIME_BUCKETS - 1)
        entries.append(
            FriendEntry(
                rank=rank,
                board_rank=stored_rank or 1 + faster[bucket] + within,
                username=username,
                time_ms=time_ms,
                moves=moves,
                score=score,
                verified=verified,
                me=owner_id == me.pk,
            )
        )
    return entries


def _buckets_ahead(day: date) -> list[int]:
    """For each time bucket of ``day``, how many counted results lie in the buckets before it."""
    counts = [0] * TIME_BUCKETS
    for bucket, count in DailyBucket.objects.filter(day=day, kind=TIME).values_list("bucket", "count"):
        if 0 <= bucket < TIME_BUCKETS:
            counts[bucket] = count
    return [0, *accumulate(counts)][:TIME_BUCKETS]


# -- clubs ------------------------------------------------------------------------------------------


def clubs_of(*, user: Any) -> QuerySet[Club]:
    """The clubs ``user`` is a member of, by name, each with ``members`` counted."""
    return (
        Club.objects.filter(memberships__user=user)
        .select_related("owner")
        .annotate(members=Count("memberships", distinct=True))
        .order_by("name_key")
    )


def club_of_member(*, user: Any, slug: str) -> Club:
    """The club ``slug`` if ``user`` is a member; ``not_found`` otherwise (a club's members and
    boards are for its members: nobody else learns more than that the link works)."""
    club = (
        Club.objects.filter(slug=slug, memberships__user=user)
        .select_related("owner")
        .annotate(members=Count("memberships", distinct=True))
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
    members = Membership.objects.filter(club=club).values("user_id")
    return day_board(day=day, accounts=Q(user_id__in=members), me=user)


def club_week(*, club: Club, monday: date) -> list[ClubWeekEntry]:
    """The club's standing of the ISO week from ``monday``, as the tasks last rebuilt it."""
    return list(
        ClubWeekEntry.objects.filter(club=club, week=monday).select_related("user").order_by("rank", "user__username")
    )
