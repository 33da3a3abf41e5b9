"""Where you stand in a day's daily competition: the histograms of its counted results (time and
moves), the caller's mark among them, and the live counts (started, won); docs/daily.md.

Written by the board's tasks (:func:`standing_record` per won ranked attempt,
:func:`standing_rebuild` per day, both idempotent: each bucket is *recounted* from the day's
results with a range count on an index, never incremented) and read in a few index scans
(:func:`daily_standing`): the deal's row, the day's buckets, the caller's attempt, and one range
count of the results in the caller's own time bucket (the buckets above it give the rest).
Held, rejected, invalid and closed attempts have no result, so they are in no histogram and no percentile;
a newcomer's result (not public: :mod:`stats.established`) is in no histogram either, and its mark
compares it with the public results.

**Faster than N % of players**: ``N = floor(100 × slower / others)``, where ``others`` are the
day's counted results other than the caller's and ``slower`` those of them with a strictly longer
time. A tie (the same time to the millisecond) is not beaten: with times 60, 70, 70, 80 s the
player at 70 s is faster than 33 % (1 of 3 others), and so is the other 70 s player. Alone on
the board there is nobody to compare with: ``null``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, IntegerField, Q, Value
from django.db.models.functions import Least

from games.competition import attempt as attempts
from games.competition import clock
from games.models import DailyDeal, Game, ReviewChoices, StatusChoices
from games.play.selectors import counted_ranked_wins

from .models import DailyBucket, DailyResult

TIME = "time"
MOVES = "moves"
#: Bucket widths and the number of buckets (the last one takes everything above).
TIME_BUCKET_MS: Final = 5_000  # 5 s; the last bucket is 60 minutes and more
TIME_BUCKETS: Final = 721
MOVES_BUCKET: Final = 10  # the last bucket is 400 moves and more
MOVES_BUCKETS: Final = 41
_KINDS: Final = {TIME: ("time_ms", TIME_BUCKET_MS, TIME_BUCKETS), MOVES: ("moves", MOVES_BUCKET, MOVES_BUCKETS)}
#: The histograms' bars: (width, number of bars, buckets per bar). A time bar is 30 s (six
#: buckets: a small bucket keeps the percentile's count within it short).
BARS: Final = {TIME: (30_000, 121, 6), MOVES: (MOVES_BUCKET, MOVES_BUCKETS, 1)}


def bucket_of(kind: str, value: int) -> int:
    _, width, count = _KINDS[kind]
    return min(value // width, count - 1)


def _recount(day: date, kind: str, bucket: int) -> None:
    """Set one bucket to the number of the day's results in it (a range count on an index)."""
    field, width, count = _KINDS[kind]
    within = Q(**{f"{field}__gte": bucket * width})
    if bucket < count - 1:
        within &= Q(**{f"{field}__lt": (bucket + 1) * width})
    number = DailyResult.objects.filter(within, day=day, public=True).count()
    DailyBucket.objects.bulk_create(
        [DailyBucket(day=day, kind=kind, bucket=bucket, count=number)],
        update_conflicts=True,
        unique_fields=["day", "kind", "bucket"],
        update_fields=["count"],
    )


def standing_record(*, game_id: UUID | str) -> None:
    """After a ranked attempt's result was put on (or taken off) its board: recount the two
    buckets its time and moves fall in. Idempotent; nothing for other games."""
    game = (
        Game.objects.filter(pk=game_id, ranked=True, status=StatusChoices.WON, time_ms__isnull=False)
        .values("daily", "time_ms", "moves")
        .first()
    )
    if game is None or game["daily"] is None:
        return
    with transaction.atomic():
        _recount(game["daily"], TIME, bucket_of(TIME, game["time_ms"]))
        _recount(game["daily"], MOVES, bucket_of(MOVES, game["moves"]))


def standing_rebuild(*, day: date) -> None:
    """Recompute every bucket of ``day`` from its results (the safety net: one grouped scan per
    histogram); buckets that became empty are dropped."""
    with transaction.atomic():
        fresh: list[DailyBucket] = []
        for kind, (field, width, count) in _KINDS.items():
            rows = (
                DailyResult.objects.filter(day=day, public=True)
                .annotate(b=Least(F(field) / Value(width), Value(count - 1), output_field=IntegerField()))
                .values("b")
                .annotate(n=Count("pk"))
                .order_by()
            )
            fresh.extend(DailyBucket(day=day, kind=kind, bucket=row["b"], count=row["n"]) for row in rows)
        keep = Q(pk__in=[])
        for item in fresh:
            keep |= Q(kind=item.kind, bucket=item.bucket)
        DailyBucket.objects.filter(day=day).exclude(keep).delete()
        if fresh:
            DailyBucket.objects.bulk_create(
                fresh, update_conflicts=True, unique_fields=["day", "kind", "bucket"], update_fields=["count"]
            )


@dataclass(frozen=True, slots=True)
class Mark:
    time_ms: int
    moves: int
    counted: bool  # on the board (verified or approved); a held result is marked but not counted
    review: str
    state: attempts.AttemptState | None  # the attempt's state (attempts.attempt_state), from the review
    slower: int
    tied: int
    others: int
    board: str  # READY or PENDING (:func:`board_wait`)
    retry_after_ms: int | None  # when to ask again while PENDING; None: do not wait for it
    streak: int = 0  # consecutive days with a counted ranked win, ending with this one (0: not counted)

    @property
    def faster_than_percent(self) -> int | None:
        return None if self.others == 0 else (100 * self.slower) // self.others


@dataclass(frozen=True, slots=True)
class Standing:
    day: date
    over: bool
    started: int
    won: int
    under_review: int  # won ranked attempts of the day not on the board yet: pending or held
    visible: bool  # the histograms are shown: the day is over, or the caller's ranked attempt is won
    time_buckets: list[tuple[int, int]] | None  # (bar, count), contiguous from the first to the last
    moves_buckets: list[tuple[int, int]] | None
    me: Mark | None


def _bars(kind: str, buckets: dict[int, int]) -> list[tuple[int, int]]:
    """The buckets gathered into the histogram's bars, from the first bar with a result to the last."""
    per_bar = BARS[kind][2]
    counts: dict[int, int] = {}
    for bucket, count in buckets.items():
        counts[bucket // per_bar] = counts.get(bucket // per_bar, 0) + count
    if not counts:
        return []
    return [(b, counts.get(b, 0)) for b in range(min(counts), max(counts) + 1)]


def daily_standing(*, day: date, user: Any | None, now: datetime) -> Standing | None:
    """Where ``user`` stands on ``day`` (``None`` if the day has no deal). The histograms are
    given once the day is over, and before that only to an account whose ranked attempt of the
    day is won (with its mark); the live counts to everyone. Nothing here names the deal."""
    deal = DailyDeal.objects.filter(date=day).values("players").first()
    if deal is None:
        return None
    over = clock.is_over(day, now)
    buckets: dict[str, dict[int, int]] = {TIME: {}, MOVES: {}}
    for kind, bucket, count in DailyBucket.objects.filter(day=day, count__gt=0).values_list("kind", "bucket", "count"):
        buckets[kind][bucket] = count
    won = sum(buckets[TIME].values())
    under_review = Game.objects.filter(
        daily=day,
        status=StatusChoices.WON,
        ranked=True,
        closed_at__isnull=True,
        review__in=[ReviewChoices.PENDING, ReviewChoices.HELD],
    ).count()
    attempt = None
    if user is not None and user.is_authenticated:
        attempt = (
            Game.objects.filter(owner=user, daily=day, ranked=True, status=StatusChoices.WON, closed_at__isnull=True)
            .values("id", "time_ms", "moves", "review", "finished_at")
            .first()
        )
    me = (
        _mark(day, attempt, results=won, time_buckets=buckets[TIME], now=now, user=user)
        if attempt is not None and attempt["time_ms"] is not None
        else None
    )
    visible = over or me is not None
    return Standing(
        day=day,
        over=over,
        started=deal["players"],
        won=won,
        under_review=under_review,
        visible=visible,
        time_buckets=_bars(TIME, buckets[TIME]) if visible else None,
        moves_buckets=_bars(MOVES, buckets[MOVES]) if visible else None,
        me=me,
    )


#: :attr:`Mark.board`: the caller's result is where its review puts it (on the board, or off it).
READY: Final = "ready"
#: A task is still on its way: the review (``pending``), or stats' task after the verdict.
PENDING: Final = "pending"
#: While :data:`PENDING`, ask again after half the time since the win, within these bounds.
RETRY_AFTER_MS: Final = (1_000, 15_000)


def board_wait(
    *, state: attempts.AttemptState | None, counted: bool, won_at: datetime | None, now: datetime
) -> tuple[str, int | None]:
    """Whether a won ranked attempt's place on its board is settled, and if not when to ask again,
    so that a page waits as long as the server says instead of a count of its own. Pending while
    its review has not decided or the board does not show the verdict yet (one task after the win
    and one after the review, :mod:`games.signals`); the wait is half the time since the win, 1 to
    15 s, and none (``None``) once ``RANKED_REVIEW_LOST_AFTER_SECONDS`` have passed since the win:
    a task was lost, the beats make it up, and the page stops asking."""
    if state is not attempts.AttemptState.PENDING and counted == (state is not None and state.counts):
        return READY, None
    since_ms = 0 if won_at is None else max(0, int((now - won_at).total_seconds() * 1000))
    if since_ms >= settings.RANKED_REVIEW_LOST_AFTER_SECONDS * 1000:
        return PENDING, None
    low, high = RETRY_AFTER_MS
    return PENDING, min(max(low, since_ms // 2), high)


def streak_through(*, user: Any, day: date) -> int:
    """The daily streak a shared result of ``day`` names: the run of consecutive days with a counted
    ranked win (on its board: docs/statistics.md) that ends with ``day``; 0 if ``day``'s is not
    counted (yet). One index range of the account's ranked games, newest first, read until a gap."""
    streak = 0
    expected = day
    days = (
        counted_ranked_wins()
        .filter(owner=user, daily__lte=day)
        .order_by("-daily")
        .values_list("daily", flat=True)
        .iterator(chunk_size=64)
    )
    for won in days:
        if won != expected:
            break
        streak += 1
        expected = won - timedelta(days=1)
    return streak


def _mark(
    day: date, attempt: dict[str, Any], *, results: int, time_buckets: dict[int, int], now: datetime, user: Any
) -> Mark:
    """The caller's mark: the results in the time buckets above the caller's come from the
    buckets; within its own bucket (5 s) one short range count on the board's index, over the
    part below or above the caller's time, whichever is the shorter, tells the slower from the
    tied."""
    time_ms = attempt["time_ms"]
    result = DailyResult.objects.filter(game_id=attempt["id"]).values_list("public", flat=True).first()
    counted = result is not None
    public = bool(result)  # in the histograms (a newcomer's counted result is not: stats.established)
    bucket = bucket_of(TIME, time_ms)
    above = sum(n for b, n in time_buckets.items() if b > bucket)
    low = bucket * TIME_BUCKET_MS
    high = (bucket + 1) * TIME_BUCKET_MS if bucket < TIME_BUCKETS - 1 else None
    results_of_day = DailyResult.objects.filter(day=day, public=True)
    # Counting a column of the index (not the id): an index-only scan.
    if high is not None and time_ms - low < high - time_ms:
        part = results_of_day.filter(time_ms__gte=low, time_ms__lte=time_ms).aggregate(
            upto=Count("time_ms"), tied=Count("time_ms", filter=Q(time_ms=time_ms))
        )
        slower_within = max(0, time_buckets.get(bucket, 0) - part["upto"])
        equal = part["tied"]
    else:
        within = results_of_day.filter(time_ms__gte=time_ms)
        if high is not None:
            within = within.filter(time_ms__lt=high)
        part = within.aggregate(total=Count("time_ms"), tied=Count("time_ms", filter=Q(time_ms=time_ms)))
        slower_within = part["total"] - part["tied"]
        equal = part["tied"]
    mine = 1 if public else 0
    slower = above + slower_within
    state = attempts.state_of(
        ranked=True, daily=day, status=StatusChoices.WON, closed_at=None, review=attempt["review"], now=now
    )
    board, retry_after_ms = board_wait(state=state, counted=counted, won_at=attempt["finished_at"], now=now)
    tied = max(0, equal - mine)
    # ``results`` is the histograms' sum; a result recorded between the reads cannot make the
    # share exceed 100 %.
    return Mark(
        time_ms=time_ms,
        moves=attempt["moves"],
        counted=counted,
        review=attempt["review"],
        state=state,
        slower=slower,
        tied=tied,
        others=max(results - mine, slower + tied),
        board=board,
        retry_after_ms=retry_after_ms,
        streak=streak_through(user=user, day=day) if counted else 0,
    )
