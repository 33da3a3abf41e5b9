"""Writes of the stats app: recorded from won games by the Celery tasks, never in a request.

Each function takes a game id (or a day), reads the game row and writes what follows from it:
running it twice, or after a crash halfway, leaves the same rows. Per game it does a fixed
number of indexed point reads and upserts, however many games and results there are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import (
    BooleanField,
    Count,
    Exists,
    ExpressionWrapper,
    OuterRef,
    PositiveBigIntegerField,
    PositiveIntegerField,
    Q,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce, Least
from django.utils import timezone

from games.competition import clock
from games.engine.game import CLEAN_WIN_SCORE
from games.models import COUNTED_REVIEWS, DailyDeal, Game, StatusChoices
from games.play.selectors import counted_ranked_wins, deal_seen_before, replay_verified

from . import standing
from .established import established, established_sql
from .models import DailyResult, PersonalBest
from .signals import daily_result_changed_send


def game_results_record(*, game_id: UUID | str) -> None:
    """What a won game counts for (:data:`games.signals.results_changed`), in one transaction: its
    owner's personal bests of its rule, and for a ranked attempt its result on its day's board
    (on, or off if it does not count) and the two histogram buckets it falls in. Idempotent."""
    with transaction.atomic():
        personal_best_record(game_id=game_id)
        daily_result_record(game_id=game_id)
        standing.standing_record(game_id=game_id)


def personal_best_record(*, game_id: UUID | str) -> None:
    """Fold a won game of an account into its bests of that rule: best time and fewest moves
    (``LEAST``), and the count of clean wins (625 points), recounted from the account's games of
    that rule, so that a second run counts nothing twice."""
    game: Mapping[str, Any] | None = (
        Game.objects.filter(pk=game_id, status=StatusChoices.WON, owner__isnull=False, time_ms__isnull=False)
        .annotate(seen=deal_seen_before())
        .values("owner_id", "rule", "time_ms", "moves", "seen", "played_offline")
        .first()
    )
    if game is None:  # not won, a guest's, or gone: nothing to record
        return
    if game["seen"] or game["played_offline"]:
        # a deal its player had played before, or a game played offline (the device's clock): no
        # best (docs/statistics.md, "Bests"), but a clean win counts
        _clean_wins_recount(user_id=game["owner_id"], rule=game["rule"])
        return
    user_id, rule = game["owner_id"], game["rule"]
    time_ms, moves = game["time_ms"], game["moves"]
    now = timezone.now()
    clean = Game.objects.filter(owner_id=user_id, rule=rule, status=StatusChoices.WON, score=CLEAN_WIN_SCORE)
    with transaction.atomic():
        if not _game_still_there(game_id):  # its account was deleted meanwhile
            return
        # INSERT ... ON CONFLICT DO NOTHING: the first won game of the rule is the best so far.
        first = PersonalBest(user_id=user_id, rule=rule, best_time_ms=time_ms, fewest_moves=moves, updated_at=now)
        PersonalBest.objects.bulk_create([first], ignore_conflicts=True)
        # One conditional UPDATE with LEAST and a recount: a game that changes nothing writes nothing.
        clean_wins = Subquery(clean.order_by().values("owner_id").annotate(n=Count("pk")).values("n")[:1])
        PersonalBest.objects.filter(user_id=user_id, rule=rule).filter(
            Q(best_time_ms__gt=time_ms) | Q(fewest_moves__gt=moves) | ~Q(clean_wins=Coalesce(clean_wins, 0))
        ).update(
            best_time_ms=Least("best_time_ms", Value(time_ms), output_field=PositiveBigIntegerField()),
            fewest_moves=Least("fewest_moves", Value(moves), output_field=PositiveIntegerField()),
            clean_wins=Coalesce(clean_wins, 0),
            updated_at=now,
        )


def _clean_wins_recount(*, user_id: int, rule: str) -> None:
    """Count a win again among the clean ones without touching the bests (a deal seen before)."""
    clean = Game.objects.filter(owner_id=user_id, rule=rule, status=StatusChoices.WON, score=CLEAN_WIN_SCORE)
    PersonalBest.objects.filter(user_id=user_id, rule=rule).update(clean_wins=clean.count())


def personal_bests_repair(*, since: datetime) -> int:
    """Record again every game won since ``since`` (idempotent): the safety net for a win whose
    task was lost, e.g. because the broker was down at that moment. Returns how many games."""
    game_ids = list(
        Game.objects.filter(status=StatusChoices.WON, finished_at__gte=since, owner__isnull=False)
        .order_by()
        .values_list("id", flat=True)
    )
    for game_id in game_ids:
        personal_best_record(game_id=game_id)
    return len(game_ids)


def daily_result_record(*, game_id: UUID | str) -> bool:
    """Put a won ranked attempt on its day's board once it is checked (an upsert keyed by day and
    account), or take it off if it does not count (pending, held, rejected, invalid); returns
    whether it is on the board. (The review is games': ``games.competition.attempt``.)"""
    game: Mapping[str, Any] | None = (
        counted_ranked_wins()
        .filter(pk=game_id)
        .annotate(verified=ExpressionWrapper(replay_verified(), output_field=BooleanField()))
        .values("id", "owner_id", "daily", "time_ms", "moves", "score", "finished_at", "verified")
        .first()
    )
    if game is None:
        removed, _ = DailyResult.objects.filter(game_id=game_id).delete()
        if removed:
            daily_result_changed_send(game_ids=[str(game_id)])
        return False
    with transaction.atomic():
        if not _game_still_there(game_id):  # its account was deleted meanwhile
            return False
        # Read again under the lock: the account may have been deleted since, its game kept.
        owner_id = Game.objects.filter(pk=game_id).values_list("owner_id", flat=True).first()
        if owner_id is None:  # a deleted account's kept game: its result stays as it is
            return DailyResult.objects.filter(game_id=game_id).exists()
        # Whether it is on the public board is decided once, as it is first written (the rule reads
        # only what was so when its day began: stats.established).
        public = established(user_id=owner_id, day=game["daily"])
        # INSERT ... ON CONFLICT (day, user_id) DO UPDATE: the values come from the game row alone.
        DailyResult.objects.bulk_create(
            [
                DailyResult(
                    day=game["daily"],
                    user_id=owner_id,
                    game_id=game["id"],
                    time_ms=game["time_ms"],
                    moves=game["moves"],
                    score=game["score"],
                    finished_at=game["finished_at"],
                    verified=game["verified"],
                    public=public,
                )
            ],
            update_conflicts=True,
            unique_fields=["day", "user"],
            update_fields=["game", "time_ms", "moves", "score", "finished_at", "verified"],
        )
        daily_result_changed_send(game_ids=[str(game_id)])
    return True


def _game_still_there(game_id: UUID | str) -> bool:
    """In a task's transaction, before it writes what it read from a game: lock the game row.
    Deleting an account locks its games first (``accounts.actions.deletion.account_delete``), so a
    task that got here first commits before the deletion collects the account's rows, and one that
    comes later finds no game and writes nothing (no row of a deleted account comes back)."""
    return Game.objects.select_for_update().filter(pk=game_id).exists()


def daily_results_detach(*, user_id: int, today: date) -> list[date]:
    """Before an account is deleted: its results of days that are over stay on their boards
    without the account ("deleted player"; their games stay too, without an owner, so staff can
    still replay and reject them), so that no other player's rank changes; its result of a day not
    over yet is taken off the board. Returns the days of both."""
    results = DailyResult.objects.filter(user_id=user_id)
    days = sorted(set(results.values_list("day", flat=True)))
    results.filter(day__gte=today).delete()
    results.update(user=None)
    return days


@dataclass(frozen=True, slots=True)
class BoardRebuild:
    day: date
    upserted: int
    removed: int
    ranked: int
    players: int | None


def daily_board_rebuild(*, day: date, now: datetime | None = None) -> BoardRebuild:
    """Recompute ``day``'s board from the games (the safety net behind the per-game tasks).

    Adds or corrects the results of won ranked attempts, removes results without one, recounts
    the players, and once the day is over stores every result's rank. Rows that are already
    right are not written.
    """
    result = DailyResult._meta.db_table
    games = Game._meta.db_table
    users = get_user_model()._meta.db_table
    day_param = connection.ops.adapt_datefield_value(day)
    public, public_params = established_sql(day=day, game_alias="g", user_alias="u")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                INSERT INTO {result} (day, user_id, game_id, time_ms, moves, score, finished_at, rank, public)
                SELECT g.daily, g.owner_id, g.id, g.time_ms, g.moves, g.score, g.finished_at, NULL, {public}
                FROM {games} g JOIN {users} u ON u.id = g.owner_id
                WHERE g.daily = %s AND g.ranked AND g.status = %s AND g.time_ms IS NOT NULL
                    AND g.owner_id IS NOT NULL AND g.closed_at IS NULL AND g.finished_at < %s AND g.review IN (%s, %s)
                ON CONFLICT (day, user_id) DO UPDATE SET
                    game_id = excluded.game_id, time_ms = excluded.time_ms, moves = excluded.moves,
                    score = excluded.score, finished_at = excluded.finished_at
                WHERE {result}.game_id <> excluded.game_id OR {result}.time_ms <> excluded.time_ms
                    OR {result}.moves <> excluded.moves OR {result}.score <> excluded.score
                    OR {result}.finished_at <> excluded.finished_at
                """,
                [
                    *public_params,
                    day_param,
                    StatusChoices.WON.value,
                    connection.ops.adapt_datetimefield_value(clock.day_end(day)),
                    *[review.value for review in COUNTED_REVIEWS],
                ],
            )
            upserted = max(cursor.rowcount, 0)
        # (a deleted account's results stay as they are: without a game from before its evidence
        # was kept, or with its game kept without an owner: docs/fair-play.md, "Evidence stays")
        # An anti-join (NOT EXISTS): NOT IN over a day's million counted wins would not fit in
        # memory and be read again for every result (bench/leaderboard_bench.py --players 1000000).
        counted = counted_ranked_wins().filter(daily=day, finished_at__lt=clock.day_end(day))
        removed, _ = (
            DailyResult.objects.filter(day=day, game__isnull=False)
            .exclude(Exists(counted.filter(pk=OuterRef("game_id"))))
            .delete()
        )
        # Whether each result was replayed: set where it is wrong (written by the upsert above or before).
        day_results = DailyResult.objects.filter(day=day, game__isnull=False)
        day_results.filter(replay_verified("game__"), verified=False).update(verified=True)
        day_results.filter(verified=True).exclude(replay_verified("game__")).update(verified=False)
        ranked = 0
        if clock.is_over(day, now):
            # The place among the public results: 1 + the public results strictly ahead, the same
            # as a rank among them for a public result, and for a newcomer's the place it would have
            # (the public results up to its own key, less those tied with it).
            with connection.cursor() as cursor:
                cursor.execute(
                    f"""
                    UPDATE {result} SET rank = ordered.position
                    FROM (
                        SELECT id, 1
                            + SUM(CASE WHEN public THEN 1 ELSE 0 END) OVER (ORDER BY time_ms, moves, finished_at)
                            - SUM(CASE WHEN public THEN 1 ELSE 0 END) OVER (PARTITION BY time_ms, moves, finished_at)
                            AS position
                        FROM {result} WHERE day = %s
                    ) AS ordered
                    WHERE {result}.id = ordered.id AND ({result}.rank IS NULL OR {result}.rank <> ordered.position)
                    """,
                    [day_param],
                )
                ranked = max(cursor.rowcount, 0)
    players = daily_players_recount(day=day)
    return BoardRebuild(day=day, upserted=upserted, removed=removed, ranked=ranked, players=players)


def daily_players_recount(*, day: date) -> int | None:
    """Set the deal's ``players`` to the number of ranked attempts of ``day``, and the results of
    deleted accounts (their games are gone, their results count); ``None`` without a deal.

    The deal row is locked first: every start that counted itself has committed by then, and
    later ones wait, so the count read next is exact.
    """
    with transaction.atomic():
        deal = DailyDeal.objects.select_for_update().filter(date=day).only("pk", "players").first()
        if deal is None:
            return None
        players = Game.objects.filter(daily=day, ranked=True).count()
        players += DailyResult.objects.filter(day=day, game__isnull=True).count()
        if players != deal.players:
            DailyDeal.objects.filter(pk=deal.pk).update(players=players)
    return players
