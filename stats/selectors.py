"""Reads: the daily leaderboard (docs/daily.md) and a player's statistics (docs/statistics.md).

The board is read through the index ``(day, time_ms, moves, finished_at)``: the top N is an
ordered range scan, a rank is a range count of the results ahead. Statistics are per account
(its games through ``(owner, created_at)``, its bests and results): they grow with that
account's games, never with everyone's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import BooleanField, Count, Min, Q, QuerySet, Sum
from django.db.models.expressions import RawSQL
from django.utils import timezone

from common.errors import ApplicationError, ErrorCode
from common.usernames import username_stored
from games.competition import clock
from games.engine.game import CLEAN_WIN_SCORE
from games.help.replay import PUBLIC_TOP
from games.models import DailyDeal, Game, RuleChoices, StatusChoices, played_ms
from games.play.presenters import attempt_standing
from games.play.selectors import BESTS_COUNT, counted_ranked_wins, deal_seen_before
from games.players import Player

from .established import days_to_wait
from .models import DailyBucket, DailyResult, PersonalBest
from .standing import TIME, TIME_BUCKET_MS, bucket_of

BOARD_SIZE = 100
HISTORY_SIZE = 100
#: A game counts as played from its first accepted move (docs/statistics.md): a dealt game nobody
#: touched counts nothing.
PLAYED = Q(moves__gt=0)


@dataclass(frozen=True, slots=True)
class BoardEntry:
    rank: int
    username: str | None  # None: the account was deleted (its result still counts)
    time_ms: int
    moves: int
    score: int
    verified: bool = False  # the server replayed its move log and it reproduced the win
    replay: UUID | None = None  # the game to replay: the top 10 of a day that is over
    public: bool = True  # on the public board; a newcomer's own line is not (``rank``: the place it would have)
    public_in_days: int | None = None  # a newcomer's: more days to play before its results count publicly


@dataclass(frozen=True, slots=True)
class DailyBoard:
    day: date
    players: int  # accounts that started their ranked attempt that day (won or not), newcomers too
    entries: list[BoardEntry]  # the top public won ranked attempts: time, then moves, then finish time
    me: BoardEntry | None  # the caller's own line, also when it is below the top
    par: int | None = None  # the certified solution's length, once the day is over (it tells of the deal)


def daily_deal_get(*, day: date) -> DailyDeal | None:
    return DailyDeal.objects.filter(date=day).first()


def daily_attempt(*, day: date, user: Any, now: datetime) -> dict[str, Any] | None:
    """Where ``user``'s ranked attempt of ``day`` stands (``None`` for a guest or before it starts)."""
    if user is None or not user.is_authenticated:
        return None
    game = (
        Game.objects.filter(owner=user, daily=day, ranked=True)
        .only("id", "daily", "ranked", "status", "closed_at", "review", "hold_reasons", "moves", "time_ms")
        .first()
    )
    if game is None:
        return None
    standing = attempt_standing(game, now)  # (the one rule of how an attempt is shown)
    return {
        "game": game.id,
        "status": "closed" if standing["closed"] else game.status,
        **(standing["attempt"] or {}),
        "review": standing["review"],
        "held_for": standing["held_for"],
        "review_by": standing["review_by"],
        "moves": game.moves,
        "time_ms": game.time_ms,
    }


def daily_board(
    *, day: date, user: Any | None = None, limit: int = BOARD_SIZE, now: datetime | None = None
) -> DailyBoard | None:
    """The leaderboard of ``day``'s deal (``None`` if that day has no deal), with ``user``'s line.

    Equal time, moves and finish time share a rank (1, 2, 2, 4). Each line says whether the server
    replayed it (``verified``); once the day is over the top 10 name their game (``replay``). The
    lines are the public results (:mod:`stats.established`); a newcomer's own line says it is not
    among them, the place it would have and after how many more days of play its results count.
    """
    deal = DailyDeal.objects.filter(date=day).values("players", "solution_length").first()
    if deal is None:
        return None
    public = clock.code_public(day, now)
    fields = ("user_id", "user__username", "time_ms", "moves", "score", "finished_at", "game_id", "verified")
    results = DailyResult.objects.filter(day=day)
    rows = list(
        results.filter(public=True).order_by("time_ms", "moves", "finished_at", "pk").values_list(*fields)[:limit]
    )
    entries: list[BoardEntry] = []
    me: BoardEntry | None = None
    user_id = user.pk if user is not None and user.is_authenticated else None
    my_name = user.get_username() if user is not None and user_id is not None else ""
    previous_key: tuple[int, int, datetime] | None = None
    for position, (owner_id, username, time_ms, moves, score, finished_at, game_id, verified) in enumerate(
        rows, start=1
    ):
        key = (time_ms, moves, finished_at)
        rank = entries[-1].rank if key == previous_key else position
        previous_key = key
        # (a deleted player's kept game is for staff, never a public replay)
        replay = game_id if public and rank <= PUBLIC_TOP and owner_id is not None else None
        entries.append(
            BoardEntry(
                rank=rank,
                username=username,
                time_ms=time_ms,
                moves=moves,
                score=score,
                verified=verified,
                replay=replay,
            )
        )
        if user_id is not None and owner_id == user_id:  # (a guest, or a deleted player, is never me)
            me = entries[-1]
    if user_id is not None and me is None:
        mine = (
            results.filter(user_id=user_id)
            .values("time_ms", "moves", "score", "finished_at", "verified", "rank", "public")
            .first()
        )
        if mine is not None:
            waiting = None if mine["public"] else days_to_wait(user_id=user_id, day=day)
            me = BoardEntry(
                rank=mine["rank"]
                or daily_rank(day=day, time_ms=mine["time_ms"], moves=mine["moves"], finished_at=mine["finished_at"]),
                username=my_name,
                time_ms=mine["time_ms"],
                moves=mine["moves"],
                score=mine["score"],
                verified=mine["verified"],
                public=mine["public"],
                public_in_days=waiting,
            )
    par = deal["solution_length"] if public else None
    return DailyBoard(day=day, players=deal["players"], entries=entries, me=me, par=par)


@dataclass(frozen=True, slots=True)
class DaySummary:
    """A day's board in a few figures: what a link to it says in a chat (its Open Graph tags)."""

    day: date
    number: int | None  # "Yukon #12" (clock.daily_number)
    over: bool
    players: int  # accounts that started their ranked attempt
    winners: int  # counted wins
    best_time_ms: int | None


def daily_summary(*, day: date, now: datetime | None = None) -> DaySummary | None:
    """``day``'s players, winners and best time, as its board shows them to anyone (``None`` for a
    day without a deal, or one not begun). Three index reads: the deal, the day's time histogram,
    the first line of its board."""
    if clock.is_future(day, now):
        return None
    deal = DailyDeal.objects.filter(date=day).values("players").first()
    if deal is None:
        return None
    winners = DailyBucket.objects.filter(day=day, kind=TIME).aggregate(n=Sum("count"))["n"] or 0
    best = (
        DailyResult.objects.filter(day=day, public=True)
        .order_by("time_ms", "moves", "finished_at")
        .values_list("time_ms")[:1]
    )
    return DaySummary(
        day=day,
        number=clock.daily_number(day),
        over=clock.is_over(day, now),
        players=deal["players"],
        winners=winners,
        best_time_ms=next((row[0] for row in best), None),
    )


def daily_rank(*, day: date, time_ms: int, moves: int, finished_at: datetime) -> int:
    """1 + the public results of ``day`` strictly ahead (a closed day's board stores its ranks: read
    them there first); for a newcomer's result, the place it would have on the public board. Those
    of the faster time buckets come from the day's time histogram (:mod:`stats.standing`, kept by
    the same tasks as the results, public results only), those of the caller's own
    bucket (5 s) from one short range count on the board's index: a few thousand entries at a
    million results, where counting everyone ahead read half a million (bench/leaderboard_bench.py)."""
    bucket = bucket_of(TIME, time_ms)
    faster = DailyBucket.objects.filter(day=day, kind=TIME, bucket__lt=bucket).aggregate(n=Sum("count"))["n"]
    ahead = RawSQL(
        "(time_ms, moves, finished_at) < (%s, %s, %s)",
        [time_ms, moves, connection.ops.adapt_datetimefield_value(finished_at)],
        output_field=BooleanField(),
    )
    # (the bounds on time_ms alone make the range of the index: the row comparison only filters it)
    own_bucket = DailyResult.objects.filter(
        day=day, public=True, time_ms__gte=bucket * TIME_BUCKET_MS, time_ms__lte=time_ms
    )
    within = own_bucket.filter(ahead).count()
    return 1 + (faster or 0) + within


def user_by_username(*, username: str) -> Any:
    """The active account called ``username`` in any case (and NFKC form, as at login);
    ``not_found`` (404) otherwise."""
    user = get_user_model().objects.filter(username=username_stored(username), is_active=True).first()
    if user is None:
        raise ApplicationError(ErrorCode.NOT_FOUND)
    return user


# -- statistics ----------------------------------------------------------------------------------


def player_stats(*, player: Player, now: datetime | None = None, history: int = HISTORY_SIZE) -> dict[str, Any]:
    """Everything the statistics page shows of a player, an account's or a guest's (the games of
    its browser session): totals and bests (overall and per rule), daily deals (streaks, best
    rank) and the last ``history`` games played, oldest first. Only games with a move count as
    played. The shape is the same for both; a guest has no name, no date of joining and no
    leaderboard results (guests never play a ranked attempt: docs/fair-play.md).

    An account's bests are its personal-best rows, which the tasks keep (docs/statistics.md); a guest
    has none (they are keyed by account), so a guest's come from its games, in the one query of
    the totals: a browser's games, through the index ``(guest_session_key, created_at)``.

    Nothing here names a deal: no game codes, so today's daily deal stays secret.
    """
    now = now or timezone.now()
    user = player.user
    games = Game.objects.filter(player.owns())
    rules = {rule: _RuleFigures() for rule in RuleChoices.values}
    won = Q(status=StatusChoices.WON)
    figures_of: dict[str, Any] = {
        "played": Count("pk", filter=PLAYED),
        "won": Count("pk", filter=won),
        "sum_time": Sum("time_ms", filter=won),
        "sum_moves": Sum("moves", filter=won),
        "sum_score": Sum("score", filter=won),
    }
    if user is None:  # a guest's bests: of the deals it had not seen before (docs/statistics.md)
        games = games.annotate(seen=deal_seen_before())
        figures_of |= {
            "best_time_ms": Min("time_ms", filter=won & BESTS_COUNT),
            "fewest_moves": Min("moves", filter=won & BESTS_COUNT),
            "clean_wins": Count("pk", filter=won & Q(score=CLEAN_WIN_SCORE)),
        }
    rows: Iterable[Mapping[str, Any]] = games.values("rule").annotate(**figures_of).order_by()
    for row in rows:
        figures = rules[row["rule"]]
        figures.played, figures.won = row["played"], row["won"]
        figures.sum_time = row["sum_time"] or 0
        figures.sum_moves = row["sum_moves"] or 0
        figures.sum_score = row["sum_score"] or 0
        if user is None:
            figures.best_time_ms, figures.fewest_moves = row["best_time_ms"], row["fewest_moves"]
            figures.clean_wins = row["clean_wins"]
    if user is not None:
        for best in PersonalBest.objects.filter(user=user):
            figures = rules[best.rule]
            figures.best_time_ms, figures.fewest_moves, figures.clean_wins = (
                best.best_time_ms,
                best.fewest_moves,
                best.clean_wins,
            )
    overall = _RuleFigures.combine(list(rules.values()))
    return {
        "username": user.get_username() if user is not None else None,
        "member_since": user.date_joined if user is not None else None,
        "overall": overall.as_dict(),
        "rules": {rule: figures.as_dict() for rule, figures in rules.items()},
        "daily": _daily_figures(player=player, games=games, now=now),
        "history": _history(games=games, size=history, now=now),
        "recent_daily": _recent_daily(user=user, now=now) if user is not None else [],
    }


#: Daily results a profile lists, newest first.
RECENT_DAILY = 10


def _recent_daily(*, user: Any, now: datetime) -> list[dict[str, Any]]:
    """The account's last daily results with their ranks (stored once the day is over, else
    counted now): a few indexed reads through ``(user, day)``."""
    rows = (
        DailyResult.objects.filter(user=user).order_by("-day").values("day", "time_ms", "moves", "finished_at", "rank")
    )
    return [
        {
            "day": row["day"],
            "rank": row["rank"]
            if row["rank"] is not None and clock.is_over(row["day"], now)
            else daily_rank(day=row["day"], time_ms=row["time_ms"], moves=row["moves"], finished_at=row["finished_at"]),
            "time_ms": row["time_ms"],
            "moves": row["moves"],
        }
        for row in rows[:RECENT_DAILY]
    ]


@dataclass(slots=True)
class _RuleFigures:
    played: int = 0
    won: int = 0
    sum_time: int = 0
    sum_moves: int = 0
    sum_score: int = 0
    best_time_ms: int | None = None
    fewest_moves: int | None = None
    clean_wins: int = 0

    @classmethod
    def combine(cls, parts: list[_RuleFigures]) -> _RuleFigures:
        def pick(values: list[int | None], choose: Any) -> int | None:
            present = [v for v in values if v is not None]
            return choose(present) if present else None

        return cls(
            played=sum(p.played for p in parts),
            won=sum(p.won for p in parts),
            sum_time=sum(p.sum_time for p in parts),
            sum_moves=sum(p.sum_moves for p in parts),
            sum_score=sum(p.sum_score for p in parts),
            best_time_ms=pick([p.best_time_ms for p in parts], min),
            fewest_moves=pick([p.fewest_moves for p in parts], min),
            clean_wins=sum(p.clean_wins for p in parts),
        )

    def as_dict(self) -> dict[str, Any]:
        def average(total: int) -> float | None:
            return round(total / self.won, 1) if self.won else None

        return {
            "played": self.played,
            "won": self.won,
            "win_rate": round(self.won / self.played, 4) if self.played else 0.0,
            "best_time_ms": self.best_time_ms,
            "fewest_moves": self.fewest_moves,
            "clean_wins": self.clean_wins,
            "average_time_ms": average(self.sum_time),
            "average_moves": average(self.sum_moves),
            "average_score": average(self.sum_score),
        }


def _daily_figures(*, player: Player, games: QuerySet[Game], now: datetime) -> dict[str, Any]:
    """A player's daily figures from ``games``, the player's (a guest has no ranked attempt: no
    streak, no rank)."""
    user = player.user
    played_days = games.filter(PLAYED, daily__isnull=False).values("daily").distinct().count()
    results = (
        list(DailyResult.objects.filter(user=user).values("day", "time_ms", "moves", "finished_at", "rank", "public"))
        if user is not None
        else []
    )
    # Streaks count ranked daily wins only, those on their boards (a guest's win claimed at
    # sign-up, a practice game, a held or closed attempt are none).
    won_days = sorted(
        {day for day in counted_ranked_wins().filter(player.owns()).values_list("daily", flat=True) if day}
    )
    current, longest = _streaks(won_days, today=clock.today(now))
    # (a best rank is a place on a public board: a newcomer's first days have none)
    ranks = [
        row["rank"]
        if row["rank"] is not None and clock.is_over(row["day"], now)
        else daily_rank(day=row["day"], time_ms=row["time_ms"], moves=row["moves"], finished_at=row["finished_at"])
        for row in results
        if row["public"]
    ]
    return {
        "played": played_days,
        "won": len(won_days),
        "ranked": games.filter(ranked=True).count(),
        "ranked_won": len(results),
        "current_streak": current,
        "longest_streak": longest,
        "best_rank": min(ranks) if ranks else None,
    }


def _streaks(days: list[date], *, today: date) -> tuple[int, int]:
    """(current, longest) runs of consecutive days; the current run may end today or yesterday."""
    longest = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and today - previous <= timedelta(days=1) else 0
    return current, longest


def _history(*, games: QuerySet[Game], size: int, now: datetime) -> list[dict[str, Any]]:
    rows = (
        games.filter(PLAYED)
        .order_by("-created_at", "-pk")
        .values(
            "created_at",
            "finished_at",
            "paused_at",
            "paused_ms",
            "rule",
            "daily",
            "ranked",
            "status",
            "time_ms",
            "moves",
            "score",
        )[:size]
    )
    return [
        {
            "created_at": row["created_at"],
            "finished_at": row["finished_at"],
            "rule": row["rule"],
            "daily": row["daily"],
            "ranked": row["ranked"] if row["daily"] else None,
            "won": row["status"] == StatusChoices.WON,
            "time_ms": row["time_ms"],
            # The game's clock (docs/scoring.md: the time played, its pauses left out): the final time of a
            # win, the time so far of a game not finished (the chart's grey bars).
            "elapsed_ms": played_ms(
                created_at=row["created_at"],
                finished_at=row["finished_at"],
                paused_at=row["paused_at"],
                paused_ms=row["paused_ms"],
                now=now,
            )
            if row["time_ms"] is None
            else row["time_ms"],
            "moves": row["moves"],
            "score": row["score"],
        }
        for row in reversed(rows)
    ]
