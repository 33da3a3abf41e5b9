"""The life of a ranked attempt (docs/fair-play.md), in one place: its states, and one function per
transition. An account's first game of a day's deal is its ranked attempt::

    open ──attempt_win──▶ pending ──attempt_review──▶ verified ──attempt_hold──▶ held
      │                                   ├─────────▶ held(reasons) ──attempts_approve──▶ approved
      │                                   │                         └─attempts_reject───▶ rejected
      │                                   └─────────▶ invalid (the log does not reproduce the game)
      └──attempt_close / attempts_close (the day's end, 00:00 UTC)──▶ closed (practice from then on)
    (and staff may reject a result on the board: verified, approved → rejected)

The state has one reader, :func:`attempt_state`: from the game's row (``ranked``, ``closed_at``,
``review``) and the clock, so an attempt not won by 00:00 UTC is closed at once, before the close
task sets its ``closed_at``. It has one writer, :func:`attempt_change`: every change is a
conditional update from the states :data:`TRANSITIONS` allows, and a refused change raises
(:class:`ChangeRefused`). The API sends the state with whether it counts and may be shared
(:attr:`AttemptState.counts`, :attr:`AttemptState.shareable`); the pages show them. Open until it is
won or its day ends; a win before the day's end waits (``pending``) for its review, which the
task ``games.ranked_win_review`` runs (sent on the win's commit; never the request): the log is
replayed from the deal and must reproduce the stored game, else ``invalid``; it is ``held`` for
every reason that applies (:class:`HoldReason`: won too fast in all, an inhuman median gap, an
account that probes the deal across days (:mod:`.probes`), and for a win that would enter the
day's top ``FAIRPLAY_CLAIRVOYANCE_TOP`` a line that stepped around traps its own attempt had not
shown: :mod:`.clairvoyance`), else ``verified``; a link to another account alone holds nothing
(every account has its own arrangement of the face-down cards). At the day's close
(:func:`day_close`, the beat) the open attempts are closed, the suspects of the day marked for
staff, a verified win of a probing account held after all and the top results not tested yet
tested (``verified → held``). Staff approve or reject held results. Only ``verified`` and ``approved`` are on a board.

Every transition that changes what counts sends one event after the commit,
:data:`games.signals.results_changed`; the bests and boards (stats) listen to it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Sequence
from dataclasses import asdict
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any, Final
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.competition import clairvoyance, clock, probes, suspects
from games.competition.suspects import Pace
from games.engine import BadCode, BadMove, GameCode, IllegalMove, replay
from games.engine import Game as EngineGame
from games.models import COUNTED_REVIEWS, ClairvoyanceReport, DailyDeal, Game, ReviewChoices, StatusChoices
from games.movelog import Played, moves_read
from games.signals import results_changed_send


class AttemptState(StrEnum):
    OPEN = "open"
    CLOSED = "closed"
    PENDING = ReviewChoices.PENDING.value
    VERIFIED = ReviewChoices.VERIFIED.value
    HELD = ReviewChoices.HELD.value
    INVALID = ReviewChoices.INVALID.value
    APPROVED = ReviewChoices.APPROVED.value
    REJECTED = ReviewChoices.REJECTED.value

    @property
    def counts(self) -> bool:
        """Its result counts (on the board): verified, or approved by staff."""
        return self in (AttemptState.VERIFIED, AttemptState.APPROVED)

    @property
    def shareable(self) -> bool:
        """A win that may be shared: being checked, counted or under review; never a rejected or
        invalid one (no result), nor an attempt not won (nothing to share)."""
        return self in (AttemptState.PENDING, AttemptState.VERIFIED, AttemptState.HELD, AttemptState.APPROVED)


#: The transitions there are; every other change of state is refused.
TRANSITIONS: Final[dict[AttemptState, frozenset[AttemptState]]] = {
    AttemptState.OPEN: frozenset({AttemptState.PENDING, AttemptState.CLOSED}),
    AttemptState.PENDING: frozenset({AttemptState.VERIFIED, AttemptState.HELD, AttemptState.INVALID}),
    AttemptState.VERIFIED: frozenset({AttemptState.HELD, AttemptState.REJECTED}),
    AttemptState.HELD: frozenset({AttemptState.APPROVED, AttemptState.REJECTED}),
    AttemptState.APPROVED: frozenset({AttemptState.REJECTED}),
}


class HoldReason(StrEnum):
    """Why a ranked win is held: kept as these values (``Game.hold_reasons``); the review's reason
    text, ``<reason>: <detail>; ...``, is for staff and never read back."""

    TIME = "time"  # won in under RANKED_REVIEW_MIN_TIME_MS in all
    PACE = "pace"  # a median gap between moves under RANKED_REVIEW_MIN_MEDIAN_GAP_MS
    # (``linked`` and ``linked_suspect`` hold no new win since issue 46: every account has its own
    # arrangement, so a link alone tells nothing; wins held for them before keep their reasons.)
    LINKED = "linked"  # shared a device or network with an account that started the deal earlier that day
    LINKED_SUSPECT = "linked_suspect"  # shared one with an account suspect that day (games.competition.suspects)
    CLAIRVOYANT = "clairvoyant"  # its line stepped around traps its attempt had not shown (.clairvoyance)
    PROBE = "probe"  # its account left its ranked attempt after a few moves on several days before (.probes)


REASON_LENGTH: Final = Game._meta.get_field("review_reason").max_length or 120


def attempt_state(game: Game, now: datetime) -> AttemptState | None:
    """Where a ranked attempt stands at ``now``; ``None`` for any other game."""
    return state_of(
        ranked=game.ranked,
        daily=game.daily,
        status=game.status,
        closed_at=game.closed_at,
        review=game.review,
        now=now,
    )


def clock_may_stop(game: Game, now: datetime) -> bool:
    """Whether the game's clock may be paused (docs/scoring.md, "Time"): not a ranked attempt that
    still counts, whose clock runs from the deal to the win, even while its player is away."""
    return attempt_state(game, now) is not AttemptState.OPEN


def state_of(
    *, ranked: bool, daily: date | None, status: str, closed_at: datetime | None, review: str, now: datetime
) -> AttemptState | None:
    """:func:`attempt_state` of a game's fields as a query gives them (``values()``): closed once
    its day is over unless it was won before, whether or not the close task has run yet."""
    if not ranked or daily is None:
        return None
    if closed_at is not None:
        return AttemptState.CLOSED
    if status != StatusChoices.WON and clock.is_over(daily, now):
        return AttemptState.CLOSED
    if review:
        return AttemptState(review)
    return AttemptState.OPEN


def attempt_fields(state: AttemptState | None) -> dict[str, Any] | None:
    """The ``attempt`` of the API's answers: its state, whether it counts, whether it may be shared."""
    if state is None:
        return None
    return {"state": state.value, "counts": state.counts, "shareable": state.shareable}


def hold_reasons(game: Game) -> list[HoldReason]:
    """The reasons a held game was held for (none if it is not held)."""
    if game.review != ReviewChoices.HELD:
        return []
    return [HoldReason(reason) for reason in game.hold_reasons or ()]


#: What a held win tells its player of why (docs/fair-play.md, "The player sees why"): the kind of
#: check, never its figures or thresholds (they would say how to get past it).
HOLD_KINDS: Final[dict[HoldReason, str]] = {
    HoldReason.TIME: "pace",
    HoldReason.PACE: "pace",
    HoldReason.LINKED: "accounts",
    HoldReason.LINKED_SUSPECT: "accounts",
    HoldReason.CLAIRVOYANT: "play",
    HoldReason.PROBE: "attempts",
}


def held_for(game: Game) -> list[str] | None:
    """The kinds of check that hold ``game``'s win (``pace``, ``accounts``, ``play``, ``attempts``), None
    if it is not held."""
    if game.review != ReviewChoices.HELD:
        return None
    kinds = {HOLD_KINDS[reason] for reason in hold_reasons(game)}
    return sorted(kinds) or ["pace"]


def review_by(game: Game) -> datetime | None:
    """When staff look at a held win at the latest: ``FAIRPLAY_REVIEW_HOURS`` after its day's close."""
    if game.review != ReviewChoices.HELD or game.daily is None:
        return None
    return clock.day_end(game.daily) + timedelta(hours=settings.FAIRPLAY_REVIEW_HOURS)


# -- the one writer: a conditional update from the states the table allows ------------------------


class ChangeRefused(Exception):
    """A change of an attempt's state that was not made: :data:`TRANSITIONS` has no such change
    (``allowed`` false), or a row was not in the state it was changed from (changed meanwhile)."""

    def __init__(self, source: Collection[AttemptState], target: AttemptState, *, allowed: bool) -> None:
        self.source = tuple(source)
        self.target = target
        self.allowed = allowed
        names = "|".join(state.value for state in self.source)
        why = "the row was no longer in that state" if allowed else "no such transition"
        super().__init__(f"attempt change {names} → {target.value} refused: {why}")


def transition_check(source: AttemptState | Collection[AttemptState], target: AttemptState) -> list[AttemptState]:
    """The states a change to ``target`` starts from (``source``, or every state the table lets
    reach ``target``); :class:`ChangeRefused` if the table has not each of them."""
    sources = [source] if isinstance(source, AttemptState) else list(source)
    if not sources:
        sources = [state for state, targets in TRANSITIONS.items() if target in targets]
    if not sources or any(target not in TRANSITIONS.get(state, ()) for state in sources):
        raise ChangeRefused(sources, target, allowed=False)
    return sources


def _in_state(state: AttemptState) -> Q:
    if state is AttemptState.OPEN:
        return Q(review="", closed_at__isnull=True, status=StatusChoices.PLAYING)
    if state is AttemptState.CLOSED:
        return Q(closed_at__isnull=False)
    return Q(review=state.value)


def attempt_change(
    games: QuerySet[Game],
    *,
    target: AttemptState,
    source: AttemptState | Collection[AttemptState] = (),
    expected: int | None = None,
    **fields: Any,
) -> int:
    """Change the state of the ranked attempts among ``games`` that are in ``source`` (default:
    every state :data:`TRANSITIONS` lets reach ``target``) to ``target``, with ``fields``, in one
    conditional update; returns how many. Refused (:class:`ChangeRefused`) if the table has no such
    change, or if fewer than ``expected`` rows were in a source state (one changed meanwhile)."""
    sources = transition_check(source, target)
    rows = Q()
    for state in sources:
        rows |= _in_state(state)
    if target is AttemptState.CLOSED:
        assert "closed_at" in fields, "a close says when"
    elif target is not AttemptState.OPEN:
        fields["review"] = target.value
    changed = games.filter(rows, ranked=True).update(**fields)
    if expected is not None and changed < expected:
        raise ChangeRefused(sources, target, allowed=True)
    return changed


def _change_one(game_id: Any, *, source: AttemptState, target: AttemptState, **fields: Any) -> bool:
    """One attempt ``source → target`` (:func:`attempt_change`) and its event after the commit;
    False if the row was not in ``source`` any more (changed meanwhile, or gone): nothing then."""
    try:
        with transaction.atomic():
            attempt_change(Game.objects.filter(pk=game_id), source=source, target=target, expected=1, **fields)
            results_changed_send(game_ids=[str(game_id)])
    except ChangeRefused as refused:
        if not refused.allowed:
            raise
        return False
    return True


# -- open → closed, open → pending: on the move's path, in memory, no query -------------------------
# (the row is written with the move's own versioned update, games.play.store: the table is checked here too)


def attempt_close(game: Game, *, now: datetime) -> list[str]:
    """open → closed, for a move that comes after the day's end before the beat's close did: the
    game is practice from then on, whatever that move does. Returns the fields it set."""
    if not game.ranked or game.daily is None or game.closed_at is not None or game.review:
        return []  # not an open attempt
    if not clock.is_over(game.daily, now):
        return []
    transition_check(AttemptState.OPEN, AttemptState.CLOSED)
    game.closed_at = clock.day_end(game.daily)
    return ["closed_at"]


def attempt_win(game: Game, *, now: datetime) -> list[str]:
    """open → pending: the winning move of an open attempt (its day not over: :func:`attempt_close`
    comes first); the review task checks it before it counts. Returns the fields it set."""
    if attempt_state(game, now) is not AttemptState.OPEN:
        return []
    transition_check(AttemptState.OPEN, AttemptState.PENDING)
    game.review = ReviewChoices.PENDING
    return ["review"]


def attempt_pace(game: Game, *, now: datetime) -> list[str]:
    """The pace of a ranked attempt, kept on the move's own write (no query, no log read): every
    ``FAIRPLAY_SUSPECT_MIN_MOVES`` moves (undos count) a window closes, and a window played in
    less than that many times ``FAIRPLAY_MACHINE_GAP_MS`` is a machine's pace (50 entries in 5 s:
    a held-down Ctrl+Z waits for each answer and stays slower): ``machine_pace_at`` is set (once),
    and its account is suspect that day whether or not it is linked to another
    (:func:`games.competition.suspects.suspects_paced`). Returns the fields it set."""
    window = settings.FAIRPLAY_SUSPECT_MIN_MOVES
    if not game.ranked or game.daily is None or window <= 0 or game.moves % window:
        return []
    if clock.is_over(game.daily, now):
        return []  # practice now: a closed day's deal is public
    began = game.pace_window_at or game.created_at
    game.pace_window_at = now
    fields = ["pace_window_at"]
    fast = (now - began).total_seconds() * 1000 < window * settings.FAIRPLAY_MACHINE_GAP_MS
    if fast and game.machine_pace_at is None:
        game.machine_pace_at = now
        fields.append("machine_pace_at")
    return fields


# -- open → closed at the day's end: the beat ----------------------------------------------------


def attempts_close(*, now: datetime | None = None) -> int:
    """open → closed for every ranked attempt of a day that is over and was not won (it stays
    playable as practice); returns how many. Idempotent: run at 00:00 UTC and again as a safety net."""
    today = clock.today(now)
    open_attempts = Game.objects.filter(
        ranked=True, closed_at__isnull=True, status=StatusChoices.PLAYING, daily__lt=today
    )
    closed = 0
    for day in open_attempts.values_list("daily", flat=True).distinct().order_by():
        assert day is not None  # daily__lt leaves out the games without a day
        closed += attempt_change(
            open_attempts.filter(daily=day),
            source=AttemptState.OPEN,
            target=AttemptState.CLOSED,
            closed_at=clock.day_end(day),
        )
    return closed


# -- pending → verified | held(reasons) | invalid: the review task ------------------------------


def attempt_review(*, game_id: UUID | str) -> str | None:
    """Review a ``pending`` win and store the verdict; returns the game's review (``None`` if it
    is no ranked win). Idempotent: a game already decided is left as it is."""
    game = Game.objects.filter(pk=game_id, ranked=True, status=StatusChoices.WON).first()
    if game is None:
        return None
    if game.review != ReviewChoices.PENDING:
        return game.review
    entries = moves_read([game.pk])[game.pk]
    review, reasons, reason = _verdict(game, entries)
    # (decided meanwhile by another run of the task, or gone: left as it is)
    _change_one(
        game.pk,
        source=AttemptState.PENDING,
        target=AttemptState(review),
        review_reason=reason[:REASON_LENGTH],
        hold_reasons=[held.value for held in reasons],
    )
    # (None if the game went meanwhile: its account was deleted)
    return Game.objects.filter(pk=game.pk).values_list("review", flat=True).first()


def attempts_pending(*, before: datetime) -> list[str]:
    """The wins still ``pending`` that were won before ``before`` (their review task was lost)."""
    pending = Game.objects.filter(
        ranked=True, status=StatusChoices.WON, review=ReviewChoices.PENDING, finished_at__lt=before
    )
    return [str(pk) for pk in pending.order_by().values_list("pk", flat=True)]


def _verdict(game: Game, entries: Sequence[Played]) -> tuple[str, list[HoldReason], str]:
    """The review's verdict, the reasons it holds the win for, and the text staff read."""
    seqs = [seq for seq, _, _ in entries]
    if seqs != list(range(1, len(entries) + 1)) or len(entries) != game.moves:
        return ReviewChoices.INVALID, [], f"the log has {len(entries)} entries for {game.moves} moves"
    try:
        replayed = EngineGame.new(GameCode.parse(game.code))
        for _ in replay(replayed, [move for _, move, _ in entries]):
            pass
        stored = EngineGame.from_state(game.state)
    except (BadCode, BadMove, IllegalMove, ValueError, KeyError) as exc:
        return ReviewChoices.INVALID, [], f"the log does not replay: {exc}"
    if replayed != stored or not replayed.is_won:
        return ReviewChoices.INVALID, [], "the log does not reproduce the stored game"
    # The pace of the moves played one by one: a finish's moves, one request, are left out.
    by_hand = suspects.by_hand(entries, game.finish_from)
    pace = Pace.of([entry.at for entry in by_hand])
    suspects.suspect_mark(game=game, pace=pace)  # a win is an attempt too
    reasons = _hold_reasons(game, pace)
    if clairvoyance_due(game):
        report = clairvoyance_record(game, [move for _, move, _ in entries])
        if report.clairvoyant:
            reasons.append((HoldReason.CLAIRVOYANT, _clairvoyance_detail(report)))
    if reasons:
        text = "; ".join(f"{reason}: {detail}" for reason, detail in reasons)
        return ReviewChoices.HELD, [reason for reason, _ in reasons], text
    finished = f" ({len(entries) - len(by_hand)} of them a finish)" if len(by_hand) < len(entries) else ""
    return (
        ReviewChoices.VERIFIED,
        [],
        f"replayed {len(entries)} moves{finished}; median gap {pace.median_gap_ms:.0f} ms",
    )


def _hold_reasons(game: Game, pace: Pace) -> list[tuple[HoldReason, str]]:
    reasons = []
    time_ms = game.time_ms or 0
    if time_ms < settings.RANKED_REVIEW_MIN_TIME_MS:
        reasons.append((HoldReason.TIME, f"won in {time_ms} ms in all"))
    if pace.median_gap_ms < settings.RANKED_REVIEW_MIN_MEDIAN_GAP_MS:
        reasons.append((HoldReason.PACE, f"median gap between moves {pace.median_gap_ms:.0f} ms"))
    if game.daily is not None and game.owner_id is not None:
        probed = probes.probe_days(user_id=game.owner_id, day=game.daily)
        if probed:
            reasons.append((HoldReason.PROBE, probes.probe_detail(probed)))
    # A link to another account (a device or network shared that day, a suspect among them) holds
    # nothing any more: every account has its own arrangement of the face-down cards, so a second
    # account learns nothing of the first's (issue 46). Links stay as evidence for staff.
    return reasons


# -- the clairvoyance test: in the review of a top result, at the close, or when staff ask ------


def clairvoyance_due(game: Game) -> bool:
    """Whether ``game``'s win would enter its day's top ``FAIRPLAY_CLAIRVOYANCE_TOP`` (the results
    that count, by time then moves): those are tested. A count of at most that many rows of the
    board's partial index."""
    top = settings.FAIRPLAY_CLAIRVOYANCE_TOP
    if top <= 0 or game.daily is None or game.time_ms is None:
        return False
    ahead = (
        Game.objects.filter(daily=game.daily, ranked=True, status=StatusChoices.WON, review__in=COUNTED_REVIEWS)
        .filter(Q(time_ms__lt=game.time_ms) | Q(time_ms=game.time_ms, moves__lt=game.moves))
        .exclude(pk=game.pk)
    )
    return ahead.values("pk")[:top].count() < top


def clairvoyance_record(game: Game, moves: list[str]) -> ClairvoyanceReport:
    """Run the clairvoyance test on ``game``'s log (``moves``) and keep its report (one per game:
    a second run replaces it). A log that does not win is no test (``ValueError``)."""
    begin = time.process_time()
    finding = clairvoyance.check(game.code, moves)
    z = finding.z if math.isfinite(finding.z) else 99.0
    report, _ = ClairvoyanceReport.objects.update_or_create(
        game=game,
        defaults={
            "looked_at": finding.looked_at,
            "informed": finding.k,
            "z": round(z, 2),
            "clairvoyant": finding.clairvoyant,
            "decisions": [asdict(decision) for decision in finding.decisions],
            "seconds": round(time.process_time() - begin, 3),
        },
    )
    return report


def _clairvoyance_detail(report: ClairvoyanceReport) -> str:
    z = "inf" if report.z >= 99 else f"{report.z:.1f}"
    return f"{report.informed} of {report.looked_at} decisions, z = {z}"


def attempt_clairvoyance(*, game_id: UUID | str) -> ClairvoyanceReport | None:
    """The clairvoyance test of a ranked win on request (staff ask, or the close's top results not
    tested yet): its report, and ``verified → held`` if it is clairvoyant. None: no such win."""
    game = Game.objects.filter(pk=game_id, ranked=True, status=StatusChoices.WON).first()
    if game is None:
        return None
    moves = [entry.move for entry in moves_read([game.pk])[game.pk]]
    try:
        report = clairvoyance_record(game, moves)
    except (BadCode, BadMove, IllegalMove, ValueError):
        return None  # the review finds such a log invalid
    if report.clairvoyant:
        attempt_hold(game_id=game.pk, reason=HoldReason.CLAIRVOYANT, detail=_clairvoyance_detail(report))
    return report


def clairvoyance_pending(*, day: Any) -> list[str]:
    """The day's counted results within its top ``FAIRPLAY_CLAIRVOYANCE_TOP`` not tested yet (they
    entered it after their review, as results ahead of them went)."""
    top = settings.FAIRPLAY_CLAIRVOYANCE_TOP
    if top <= 0:
        return []
    board = Game.objects.filter(daily=day, ranked=True, status=StatusChoices.WON, review__in=COUNTED_REVIEWS).order_by(
        "time_ms", "moves", "finished_at"
    )
    tested = set(ClairvoyanceReport.objects.filter(game__daily=day).values_list("game_id", flat=True))
    return [str(pk) for pk in board.values_list("pk", flat=True)[:top] if pk not in tested]


# -- verified → held: the day's close -----------------------------------------------------------


def attempt_hold(*, game_id: UUID | str, reason: HoldReason, detail: str) -> bool:
    """verified → held, for a reason found after the review (at the close: a probing account, a
    clairvoyant line; or when staff ask); returns whether it was held now. Only a verified win is."""
    # (not verified: held already, pending, rejected...: left as it is)
    return _change_one(
        game_id,
        source=AttemptState.VERIFIED,
        target=AttemptState.HELD,
        review_reason=f"{reason}: {detail}"[:REASON_LENGTH],
        hold_reasons=[reason.value],
    )


def day_close(*, now: datetime | None = None) -> tuple[int, int]:
    """The close of the days that are over (the beat, at 00:00 UTC and every few minutes after):
    their open attempts closed (:func:`attempts_close`), and once per day its suspects marked (for
    staff), its verified wins of probing accounts held and its top results not tested yet tested
    (:func:`attempt_hold`). Returns (closed, held).
    Idempotent; a day is looked at again only until its close ran to its end (``DailyDeal.closed_at``),
    and only within ``FAIRPLAY_RETENTION_DAYS`` (older days have no links left)."""
    now = now or timezone.now()
    closed = attempts_close(now=now)
    today = clock.today(now)
    days = (
        DailyDeal.objects.filter(
            date__lt=today,
            date__gte=today - timedelta(days=settings.FAIRPLAY_RETENTION_DAYS),
            closed_at__isnull=True,
        )
        .order_by("date")
        .values_list("date", flat=True)
    )
    held = 0
    for day in list(days):
        assert day is not None  # date__lt leaves out the spares
        # The day's suspects are marked for staff (the admin's suspects list): evidence, no hold.
        suspects.suspects_paced(day=day)
        suspects.suspects_scan(day=day, user_ids=suspects.linked_accounts(day=day))
        # A win reviewed before its account's probes were found (the review looks at the same days).
        wins = Game.objects.filter(daily=day, ranked=True, review=ReviewChoices.VERIFIED, owner_id__isnull=False)
        probing = probes.probers(user_ids=wins.values("owner_id"), day=day)
        for game_id, owner_id in wins.filter(owner_id__in=list(probing)).values_list("pk", "owner_id"):
            detail = probes.probe_detail(probing[owner_id])
            held += attempt_hold(game_id=game_id, reason=HoldReason.PROBE, detail=detail)
        for pending in clairvoyance_pending(day=day):
            report = attempt_clairvoyance(game_id=pending)
            held += bool(report and report.clairvoyant)
        DailyDeal.objects.filter(date=day).update(closed_at=now)
    return closed, held


# -- held → approved | rejected: staff ---------------------------------------------------------


def attempts_approve(*, game_ids: list[Any], by: Any, now: datetime | None = None) -> list[str]:
    """held → approved: staff's decision that held results count. Returns the ids of the games
    approved; only held games are, and who and when is recorded."""
    return _decide(game_ids, ReviewChoices.APPROVED, by=by, now=now)


def attempts_reject(*, game_ids: list[Any], by: Any, now: datetime | None = None) -> list[str]:
    """held, verified or approved → rejected: staff's decision that a result never counts, held or
    already on the board (who and when is recorded)."""
    return _decide(game_ids, ReviewChoices.REJECTED, by=by, now=now)


def sources(target: AttemptState) -> list[str]:
    """The states :data:`TRANSITIONS` lets an attempt leave for ``target`` (as review values): a
    change is written only from one of them (a conditional update), so the table decides."""
    return [state.value for state in transition_check((), target)]


def _decide(game_ids: list[Any], decision: str, *, by: Any, now: datetime | None) -> list[str]:
    now = now or timezone.now()
    target = AttemptState(decision)
    with transaction.atomic():
        held = list(
            Game.objects.select_for_update()
            .filter(pk__in=game_ids, ranked=True, review__in=sources(target))
            .values_list("pk", flat=True)
        )
        attempt_change(
            Game.objects.filter(pk__in=held), target=target, expected=len(held), reviewed_by=by, reviewed_at=now
        )
        decided = [str(pk) for pk in held]
        if decided:
            results_changed_send(game_ids=decided)
    return decided
