"""Suspects (docs/fair-play.md, "One person, one result"): an attempt of a day's deal, won or not,
of at least ``FAIRPLAY_SUSPECT_MIN_MOVES`` moves with a median gap between them under
``RANKED_REVIEW_MIN_MEDIAN_GAP_MS`` marks its account suspect for that day (a ``DailySuspect``
row), evidence for staff: since every account has its own arrangement of the face-down cards
(issue 46), a ranked win linked to a suspect is no longer held for it (``linked_suspect``).

A ranked attempt at a machine's pace (a window of ``FAIRPLAY_SUSPECT_MIN_MOVES`` moves faster
than ``FAIRPLAY_MACHINE_GAP_MS`` each on average) is marked on its own row by the move that
closes the window (``Game.machine_pace_at``, no query), and makes its account suspect whether or
not it is linked (:func:`suspects_paced`, at the review and the close).

Where the logs are looked at, never on a move's path: the review of a win (its own log), and the
day's close (the attempts at a machine's pace, and those of every account linked to another one
that day). Only the moves made before the day's end count.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final, Protocol, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q

from games.competition import clock
from games.models import DailyStartLink, DailySuspect, Game
from games.movelog import moves_read


class _Logged(Protocol):
    @property
    def seq(self) -> int: ...


Logged = TypeVar("Logged", bound=_Logged)


def by_hand(entries: Iterable[Logged], finish_from: int | None) -> list[Logged]:
    """The entries of a log that its player made one by one: all but a finish's (the moves after
    ``Game.finish_from``, played by one request: docs/fair-play.md). Every pace check reads these."""
    if finish_from is None:
        return list(entries)
    return [entry for entry in entries if entry.seq <= finish_from]


@dataclass(frozen=True, slots=True)
class Pace:
    """How a log was played: its entries and the median gap between consecutive ones."""

    moves: int
    median_gap_ms: float

    @classmethod
    def of(cls, times: Sequence[datetime]) -> Pace:
        gaps = [(later - earlier).total_seconds() * 1000 for earlier, later in zip(times, times[1:], strict=False)]
        return cls(moves=len(times), median_gap_ms=statistics.median(gaps) if gaps else 0.0)

    @property
    def inhuman(self) -> bool:
        """Enough moves to judge, made faster than a human plays them."""
        return (
            self.moves >= settings.FAIRPLAY_SUSPECT_MIN_MOVES
            and self.median_gap_ms < settings.RANKED_REVIEW_MIN_MEDIAN_GAP_MS
        )


def suspect_mark(*, game: Game, pace: Pace) -> bool:
    """Mark ``game``'s account suspect on its day if ``pace`` is inhuman (idempotent: one row per
    account and day, the first attempt that marked it); returns whether it is inhuman."""
    if not pace.inhuman or game.daily is None or game.owner_id is None:
        return False
    DailySuspect.objects.bulk_create(
        [
            DailySuspect(
                day=game.daily,
                user_id=game.owner_id,
                game_id=game.pk,
                moves=pace.moves,
                median_gap_ms=round(pace.median_gap_ms),
            )
        ],
        ignore_conflicts=True,
    )
    return True


def suspects_paced(*, day: date, user_ids: Iterable[Any] | None = None) -> set[Any]:
    """Mark suspect on ``day`` every account (of ``user_ids``, or all) whose ranked attempt of that
    day's deal reached a machine's pace on the move's own write (``Game.machine_pace_at``:
    :func:`games.competition.attempt.attempt_pace`), linked or not; returns those accounts. One
    read of a small partial index; the log's times only of a game not marked yet (its pace)."""
    paced = Game.objects.filter(daily=day, machine_pace_at__isnull=False, owner_id__isnull=False)
    if user_ids is not None:
        paced = paced.filter(owner_id__in=list(user_ids))
    found = {
        pk: (owner_id, finish_from) for pk, owner_id, finish_from in paced.values_list("pk", "owner_id", "finish_from")
    }
    owners = {owner_id for owner_id, _ in found.values()}
    marked = set(DailySuspect.objects.filter(day=day, user_id__in=owners).values_list("user_id", flat=True))
    end = clock.day_end(day)
    for game_id, (owner_id, finish_from) in found.items():
        if owner_id in marked:
            continue
        times = [entry.at for entry in by_hand(moves_read([game_id])[game_id], finish_from) if entry.at < end]
        pace = Pace.of(times)
        DailySuspect.objects.bulk_create(
            [
                DailySuspect(
                    day=day,
                    user_id=owner_id,
                    game_id=game_id,
                    moves=pace.moves,
                    median_gap_ms=round(pace.median_gap_ms),
                )
            ],
            ignore_conflicts=True,
        )
    return owners


def suspects_scan(*, day: date, user_ids: Iterable[Any]) -> set[Any]:
    """The accounts of ``user_ids`` that are suspect on ``day``: marked before, or marked now by
    one of their attempts of that day's deal (started and played before the day's end)."""
    wanted = set(user_ids)
    if not wanted:
        return set()
    suspects = suspects_paced(day=day, user_ids=wanted)
    suspects |= set(DailySuspect.objects.filter(day=day, user_id__in=wanted).values_list("user_id", flat=True))
    end = clock.day_end(day)
    candidates = Game.objects.filter(
        daily=day,
        owner_id__in=wanted - suspects,
        created_at__lt=end,
        moves__gte=settings.FAIRPLAY_SUSPECT_MIN_MOVES,
    ).only("id", "owner_id", "daily", "moves", "finish_from")
    # An attempt already found human-paced at its move count is not read again.
    human = cache.get_many([_human_key(game) for game in candidates])
    attempts = {game.pk: game for game in candidates if _human_key(game) not in human}
    # One read of their logs' times (the log's key (game, seq) gives the order).
    found_human = {}
    for game_id, entries in moves_read(attempts).items():
        game = attempts[game_id]
        if not entries:
            continue
        played = by_hand(entries, game.finish_from)
        if suspect_mark(game=game, pace=Pace.of([entry.at for entry in played if entry.at < end])):
            suspects.add(game.owner_id)
        else:
            found_human[_human_key(game)] = True
    cache.set_many(found_human, timeout=HUMAN_MEMO_SECONDS)
    return suspects


#: How long an attempt found human-paced is remembered at its move count (the cache only saves
#: work: without the entry its log is read again, with the same outcome).
HUMAN_MEMO_SECONDS: Final = 2 * 24 * 3600


def _human_key(game: Game) -> str:
    return f"fairplay:human:{game.pk}:{game.moves}"


def linked_accounts(*, day: date) -> set[Any]:
    """The accounts that share a device or a network with another account on ``day``."""
    shared: set[Any] = set()
    for field in ("device", "address"):
        values = (
            DailyStartLink.objects.filter(day=day)
            .exclude(**{field: ""})
            .values(field)
            .annotate(accounts=Count("user_id", distinct=True))
            .filter(accounts__gt=1)
            .values_list(field, flat=True)
        )
        shared |= set(
            DailyStartLink.objects.filter(day=day, **{f"{field}__in": values}).values_list("user_id", flat=True)
        )
    return shared


def linked_to_suspects(*, day: date, suspects: set[Any]) -> dict[Any, set[Any]]:
    """For each account linked on ``day`` to one of ``suspects`` (another account than itself),
    the suspects it is linked to."""
    if not suspects:
        return {}
    rows = list(
        DailyStartLink.objects.filter(day=day, user_id__in=suspects).values_list("user_id", "device", "address")
    )
    by_device: dict[str, set[Any]] = {}
    by_address: dict[str, set[Any]] = {}
    for user_id, device, address in rows:
        if device:
            by_device.setdefault(device, set()).add(user_id)
        if address:
            by_address.setdefault(address, set()).add(user_id)
    linked: dict[Any, set[Any]] = {}
    others = DailyStartLink.objects.filter(day=day).filter(
        Q(device__in=list(by_device)) | Q(address__in=list(by_address))
    )
    for user_id, device, address in others.values_list("user_id", "device", "address"):
        found = (by_device.get(device, set()) | by_address.get(address, set())) - {user_id}
        if found:
            linked.setdefault(user_id, set()).update(found)
    return linked


def suspects_prune(*, now: datetime) -> int:
    """Delete the marks older than ``FAIRPLAY_RETENTION_DAYS``; returns how many."""
    deleted, _ = DailySuspect.objects.filter(
        created_at__lt=now - timedelta(days=settings.FAIRPLAY_RETENTION_DAYS)
    ).delete()
    return deleted
