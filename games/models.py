"""Games, their move logs and the records that make move requests idempotent.

The engine's full state (face-down cards included) lives in ``Game.state`` and never leaves
the server; what a player sees is built from it by :mod:`games.play.presenters`.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.engine import GameCode


class RuleChoices(models.TextChoices):
    CLASSIC = "classic", "Klassisch"
    RELAXED = "relaxed", "Gelockert"


class StatusChoices(models.TextChoices):
    PLAYING = "playing", "playing"
    WON = "won", "won"


class ReviewChoices(models.TextChoices):
    """Where a won ranked attempt stands (docs/fair-play.md): it counts once verified or approved."""

    NONE = "", "not a ranked win"
    PENDING = "pending", "pending: being replayed and checked"
    VERIFIED = "verified", "verified: the log reproduces the game, in a human's time"
    HELD = "held", "held for review (the reasons are with it)"
    APPROVED = "approved", "approved by staff"
    REJECTED = "rejected", "rejected by staff"
    INVALID = "invalid", "invalid: the move log does not reproduce the game"


class DealVerdictChoices(models.TextChoices):
    """The solver's verdict on a game's deal (games.play.winnable); blank while it is being decided."""

    DECIDING = "", "being decided"
    YES = "yes", "winnable"
    NO = "no", "not winnable"
    UNKNOWN = "unknown", "not decided within the solver's budget"


#: The reviews under which a won ranked attempt is on its day's board.
COUNTED_REVIEWS = (ReviewChoices.VERIFIED, ReviewChoices.APPROVED)
#: The review reason of the ranked wins from before the review (migration 0005): they count, but
#: their log was never replayed.
UNCHECKED_REASON = "won before reviews"


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="games"
    )
    # A guest's game belongs to a browser session until the guest registers or logs in.
    guest_session_key = models.CharField(max_length=40, blank=True, default="")
    code = models.CharField(max_length=64)
    rule = models.CharField(max_length=8, choices=RuleChoices.choices)
    daily = models.DateField(null=True, blank=True)
    # The account's first game of ``daily``'s deal: its ranked attempt (decided at the start).
    ranked = models.BooleanField(default=False)
    # When a ranked attempt was closed unranked because its day ended (00:00 UTC) before the win.
    closed_at = models.DateTimeField(null=True, blank=True)
    # A won ranked attempt's check (replayed from its log, timed against a human's pace).
    review = models.CharField(max_length=8, choices=ReviewChoices.choices, blank=True, default="")
    review_reason = models.CharField(max_length=400, blank=True, default="")
    # A held win's reasons as typed values (games.competition.attempt.HoldReason's); the text above
    # is staff's detail and is never read back. Nullable: a row inserted without it (code of the
    # release before, during a deploy) is valid and has no reasons.
    hold_reasons = models.JSONField(default=list, blank=True, null=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=StatusChoices.choices, default=StatusChoices.PLAYING)
    state = models.JSONField()
    score = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    time_ms = models.PositiveBigIntegerField(null=True, blank=True)  # the final time of a won game
    version = models.PositiveIntegerField(default=0)
    # The pace of a ranked attempt, kept on the move's own write (games.competition.attempt.attempt_pace):
    # when its current window of FAIRPLAY_SUSPECT_MIN_MOVES moves began (null: at the start), and
    # when a whole window was first played at a machine's pace (null: never).
    pace_window_at = models.DateTimeField(null=True, blank=True)
    machine_pace_at = models.DateTimeField(null=True, blank=True)
    # The move counter before the player's finish (games.play.services.game_finish; null: none): the
    # log's entries after it are the finish's, which the pace checks leave out (docs/fair-play.md).
    finish_from = models.PositiveIntegerField(null=True, blank=True)
    # The account was deleted after the day closed: the game and its log stay, without an owner,
    # for as long as its result is on the board (docs/fair-play.md, "Evidence stays").
    owner_deleted_at = models.DateTimeField(null=True, blank=True)
    # The clock of a practice game stops while it is paused (docs/scoring.md, "Time"): since when
    # it is paused (null: it runs), and the milliseconds of its pauses before. A ranked attempt's
    # clock never stops: it is never paused. (Defaults in the database too: a row the release
    # before inserts during a deploy is valid, unpaused and undecided.)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_ms = models.PositiveBigIntegerField(default=0, db_default=0)
    # The solver's verdict on the game's deal, decided by the worker as the game is dealt
    # (games.play.winnable): "" until then, "yes", "no", or "unknown" (its budget ran out first).
    deal_verdict = models.CharField(
        max_length=8, choices=DealVerdictChoices.choices, blank=True, default="", db_default=""
    )
    # Dealt from the pool of deals the solver certified winnable (the new game's "winnable deals only").
    winnable_deal = models.BooleanField(default=False, db_default=False)
    # Moves of it were played on the device without the network and sent as a batch
    # (games.play.services.game_batch): the server replayed them, but its clock was the device's, so
    # its time is no best (docs/statistics.md, "Played offline").
    played_offline = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["-created_at"]
        # Staff decide on held results with this permission, not with "change" (docs/fair-play.md,
        # "Staff review, never edit"; games/admin.py).
        permissions = [("review_game", "Can approve or reject ranked wins held for review")]
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="game_owner_recent"),
            models.Index(fields=["guest_session_key", "-created_at"], name="game_guest_recent"),
            models.Index(fields=["daily", "status"], name="game_daily_status"),
            # The repair task's read: games won in the last minutes.
            models.Index(fields=["finished_at"], condition=Q(status="won"), name="game_won_recent"),
            # Unfinished practice games by age: what games.lifecycle looks through for idle ones.
            models.Index(
                fields=["created_at"], condition=Q(status="playing", daily__isnull=True), name="game_open_practice"
            ),
            # The day's attempts at a machine's pace (games.competition.suspects.suspects_paced).
            models.Index(fields=["daily"], condition=Q(machine_pace_at__isnull=False), name="game_machine_paced"),
            # The clairvoyance test's "would this win enter the day's top 100?": a short range count.
            # Not on ``moves``: a column of an index changes on every move, and then no move's
            # update is HOT (every index of the table gets an entry per move; bench/storage_bench.py).
            models.Index(fields=["daily", "time_ms"], condition=Q(ranked=True, status="won"), name="game_ranked_board"),
            # The day's wins under review (stats.standing's count): a few rows, not the day's million.
            models.Index(
                fields=["daily"],
                condition=Q(ranked=True, status="won", review__in=["pending", "held"]),
                name="game_under_review",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(guest_session_key="") | Q(owner_deleted_at__isnull=False),
                name="game_has_owner_or_guest",
            ),
            # Guests are never ranked; a ranked game is a daily deal's.
            models.CheckConstraint(
                condition=Q(ranked=False)
                | ((Q(owner__isnull=False) | Q(owner_deleted_at__isnull=False)) & Q(daily__isnull=False)),
                name="game_ranked_is_an_accounts_daily",
            ),
            # One ranked attempt per account and day, even when two first attempts start at once.
            models.UniqueConstraint(
                fields=["owner", "daily"], condition=Q(ranked=True), name="game_one_ranked_attempt_per_day"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.id} ({self.rule}, {self.status})"

    def elapsed_ms(self, now: datetime) -> int:
        """The game's clock: the time played, from creation to the win (or to ``now`` while it
        runs), less its pauses (:func:`played_ms`)."""
        return played_ms(
            created_at=self.created_at,
            finished_at=self.finished_at,
            paused_at=self.paused_at,
            paused_ms=self.paused_ms,
            now=now,
        )


def played_ms(
    *, created_at: datetime, finished_at: datetime | None, paused_at: datetime | None, paused_ms: int, now: datetime
) -> int:
    """Milliseconds played (docs/scoring.md, "Time"): from ``created_at`` to ``finished_at`` (or
    ``now``), less the pauses before (``paused_ms``) and the one going on (since ``paused_at``)."""
    end = paused_at or finished_at or now
    return max(0, int((end - created_at).total_seconds() * 1000) - paused_ms)


class HeldResult(Game):
    """The admin's review queue: the won ranked attempts held for review (``games/admin.py``)."""

    class Meta:
        proxy = True
        verbose_name = "held result"
        verbose_name_plural = "held results (the review queue)"


class DailyDeal(models.Model):
    """The deal of one UTC date (docs/codes.md, daily.md): classic rule, a secret random ordering of the
    52 cards (a version-2 code), certified winnable by the solver before it is given a date.

    Its code is a secret until the day is over. A deal without a date is a spare, certified ahead
    and waiting for a day. ``players`` counts the accounts that started their ranked attempt (kept
    in the start's transaction, recounted by the periodic rebuild).
    """

    date = models.DateField(unique=True, null=True, blank=True)
    # Its game code; deals made before version 2 keep their version-1 codes.
    code = models.CharField(max_length=64)
    rule = models.CharField(max_length=8, choices=RuleChoices.choices, default=RuleChoices.CLASSIC)
    players = models.PositiveIntegerField(default=0)
    # When its day's close ran to its end (``games.competition.attempt.day_close``): the open
    # attempts closed, the suspects marked, the day's wins checked again. Null: not yet.
    closed_at = models.DateTimeField(null=True, blank=True)
    # Moves of a known solution, from ``games.competition.daily.daily_certify`` (null: not certified); of a deal
    # with arrangements, the median of theirs (its ``code`` is an arrangement with that par).
    solution_length = models.PositiveIntegerField(null=True, blank=True)
    # How many arrangements of the face-down cards it has (docs/daily.md): 0 for the days before
    # arrangements, which keep their one deal; their pars range from par_low to par_high.
    arrangements = models.PositiveIntegerField(default=0, db_default=0)
    par_low = models.PositiveIntegerField(null=True, blank=True)
    par_high = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-date"]
        indexes = [models.Index(fields=["created_at"], condition=Q(date__isnull=True), name="dailydeal_spares")]

    def __str__(self) -> str:
        return f"daily deal {self.date}" if self.date else f"spare deal {self.pk}"

    @property
    def game_code(self) -> GameCode:
        return GameCode.parse(self.code)


class DailyArrangements(models.Model):
    """The arrangements of a deal's face-down cards (docs/daily.md; games/competition/arrangements.py):
    the day's secret key, the draws the solver certified and kept (uint32 each, little-endian), and
    their pars (uint16). Apart from ``DailyDeal`` so that the deal's row, read by every request of
    the day, stays small; read only to deal a game or to name a par. A secret until the day is over."""

    deal = models.OneToOneField(DailyDeal, primary_key=True, on_delete=models.CASCADE, related_name="arrangement_set")
    key = models.BinaryField(max_length=32)
    draws = models.BinaryField()
    pars = models.BinaryField()
    # The grade of the kept ones, for the operator (docs/daily.md, "Equally hard"): draws tried,
    # how many the solver won, and the CPU seconds that certifying the day took.
    tried = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    class Meta:
        verbose_name_plural = "daily arrangements"

    def __str__(self) -> str:
        return f"arrangements of {self.deal}"


class DailyStartLink(models.Model):
    """Where a start of a day's deal came from (docs/fair-play.md, "One person, one result"): a
    SHA-256 of the device id cookie ("" for an API client) and the day's salted hash of the
    network (IPv4 /24, IPv6 /64). Kept ``FAIRPLAY_RETENTION_DAYS`` days (``games.competition.links``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    device = models.CharField(max_length=64, blank=True, default="")
    address = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["day", "device"], name="startlink_day_device"),
            models.Index(fields=["day", "address"], name="startlink_day_address"),
            models.Index(fields=["day", "user"], name="startlink_day_user"),
            models.Index(fields=["created_at"], name="startlink_created"),
        ]

    def __str__(self) -> str:
        return f"start of {self.day} by {self.user_id}"


class DailySuspect(models.Model):
    """An account that played a day's deal at an inhuman pace (docs/fair-play.md): an attempt, won
    or not, of at least ``FAIRPLAY_SUSPECT_MIN_MOVES`` moves with a median gap between them under
    ``RANKED_REVIEW_MIN_MEDIAN_GAP_MS``: evidence for staff (since issue 46 it holds no linked win).
    Kept ``FAIRPLAY_RETENTION_DAYS`` days (``games.competition.suspects``)."""

    day = models.DateField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")  # the attempt that marked it
    moves = models.PositiveIntegerField()  # its log entries before the day's end
    median_gap_ms = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "user"], name="suspect_one_per_account_and_day")]
        indexes = [models.Index(fields=["created_at"], name="suspect_created")]

    def __str__(self) -> str:
        return f"suspect {self.user_id} on {self.day}"


class ClairvoyanceReport(models.Model):
    """The clairvoyance test of a ranked win (``games.competition.clairvoyance``): the decisions it
    looked at, those where the move played was not the hint's best (``decisions``: seq, played,
    best, samples won by each, p, informed), how many were informed, and the z-score."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="clairvoyance")
    looked_at = models.PositiveIntegerField()
    informed = models.PositiveIntegerField()
    z = models.FloatField()
    clairvoyant = models.BooleanField()
    decisions = models.JSONField(default=list)
    seconds = models.FloatField(default=0.0)  # CPU time of the test
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"clairvoyance of {self.game_id}: {self.informed} of {self.looked_at}, z = {self.z:.1f}"


class MoveLog(models.Model):
    """One accepted move or undo. ``seq`` is the move counter after it (1, 2, ...)."""

    # Its key is the game and the move counter: the one index of the table, which serves every
    # lookup by game (an id of its own was a second index and 8 bytes a row, 74 bytes of WAL a
    # move: docs/capacity.md). No foreign key constraint in the database either: its
    # check locks the game's row on every insert, a WAL record of its own (55 bytes a move,
    # bench/storage_bench.py); the game's row was just written by the same statement
    # (games.play.store), and a game's deletion takes its log with it (Django's cascade).
    pk = models.CompositePrimaryKey("game", "seq")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log", db_index=False, db_constraint=False)
    seq = models.PositiveIntegerField()
    move = models.CharField(max_length=24)  # str(Move), e.g. "t3:7H>t5", or "undo"
    points = models.IntegerField()
    flipped = models.CharField(max_length=2, blank=True, default="")  # the card turned face up
    # A move's step back and the move counter of the step below it on the undo stack (0: none):
    # what the game's next undo of it needs (games.engine.MoveResult; the state keeps no history).
    # Blank for an undo, and for the moves of games from before (their states held the history).
    step = models.CharField(max_length=6, blank=True, default="")
    below = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.move}"


class PackedLog(models.Model):
    """A won game's move log, packed (:mod:`games.movelog`): its move texts and times, compressed,
    in place of its :class:`MoveLog` rows, one row a game (its key the one index)."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="packed_log")
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"{self.game_id} packed log"


class WinnableDeal(models.Model):
    """A deal of the pool that "winnable deals only" deals from (games.play.winnable): a random game code
    the solver won, dealt again and again (each time to a player who has not had it, while there
    is one). The worker grows the pool to ``WINNABLE_POOL_SIZE`` of each rule."""

    code = models.CharField(max_length=64, unique=True)
    rule = models.CharField(max_length=8, choices=RuleChoices.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["rule", "created_at"], name="winnabledeal_rule_age")]

    def __str__(self) -> str:
        return f"winnable deal {self.code}"


class IdempotencyRecord(models.Model):
    """The first answer to a request that carried an ``Idempotency-Key``: retries get it again."""

    key = models.CharField(max_length=255)
    scope = models.CharField(max_length=80)  # "user:<id>" or "session:<key>"
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="idempotency_scope_key_unique")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


class GamePostMortem(models.Model):
    """A solver's post-mortem of a finished game (``games.help.postmortem``), for its first ``moves``
    log entries. Seqs are move counters: position ``n`` is the one after the ``n``-th entry."""

    class Verdicts(models.TextChoices):
        WINNABLE = "winnable", "stayed winnable throughout"
        LOST = "lost", "could no longer be won after move lost_at"
        UNKNOWN = "unknown", "the solver's budget ran out where it mattered"

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="postmortem")
    moves = models.PositiveIntegerField()
    verdict = models.CharField(max_length=8, choices=Verdicts.choices)
    lost_at = models.PositiveIntegerField(null=True, blank=True)
    winnable_until = models.PositiveIntegerField(null=True, blank=True)
    rescued_at = models.PositiveIntegerField(null=True, blank=True)  # the undo that made it winnable again
    final = models.CharField(max_length=8)  # won, winnable, lost, unknown: the last position
    par = models.PositiveIntegerField(null=True, blank=True)
    solved = models.PositiveIntegerField(default=0)  # positions the solver was asked about
    unknown = models.PositiveIntegerField(default=0)  # of them, undecided within the budget
    seconds = models.FloatField(default=0.0)  # CPU time of the analysis
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"post-mortem of {self.game_id}: {self.verdict}"
