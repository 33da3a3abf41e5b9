"""What the Celery tasks keep up to date as games are won: personal bests and daily results.

Both are derived from ``games.Game`` rows and can be recomputed from them at any time; a task
that runs twice writes the same values (upserts keyed by ``(user, rule)`` and ``(day, user)``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game, RuleChoices


class PersonalBest(models.Model):
    """An account's bests of won games under one rule; each figure may come from another game.

    ``clean_wins`` counts the won games with 625 points (no take-back: each take-back and return
    earns 10 again, so the score is no best; docs/statistics.md). It is recounted from the games, never
    incremented, so a task that runs twice counts nothing twice.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_bests")
    rule = models.CharField(max_length=8, choices=RuleChoices.choices)
    best_time_ms = models.PositiveBigIntegerField()
    fewest_moves = models.PositiveIntegerField()
    clean_wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "rule"], name="personalbest_user_rule_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.rule}: {self.best_time_ms} ms, {self.fewest_moves} moves, {self.clean_wins} clean"


class DailyResult(models.Model):
    """A won ranked attempt: one line of the day's leaderboard (by time, then moves, then finish).

    ``rank`` is stored by the periodic rebuild once the day is over (then ranks hardly change);
    until then a rank is counted from the index when asked for. It is the place among the day's
    public results; a newcomer's (``public`` false) is the place it would have there.

    A deleted account's results stay, without ``user`` and ``game`` ("deleted player" on the
    board): taking them off would change the other players' ranks. Only the rows with a game are
    rebuilt from the games (``stats.services.daily_board_rebuild``).
    """

    day = models.DateField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="daily_results",
        help_text="Null: the account was deleted (the result still counts).",
    )
    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="daily_result")
    time_ms = models.PositiveBigIntegerField()
    moves = models.PositiveIntegerField()
    score = models.PositiveIntegerField()
    finished_at = models.DateTimeField()
    rank = models.PositiveIntegerField(null=True, blank=True)
    # The server replayed the game's log and it reproduced the win (games.play.selectors.replay_verified),
    # kept here by the board's tasks so that the board reads it without the game row.
    verified = models.BooleanField(default=False, db_default=False)
    # On the public board (docs/daily.md, "Who is on the public board"): the account was established
    # when the day began (``stats.established``). A newcomer's result is kept (its bests, streak,
    # friends' board and clubs count it) but is on no public board, histogram or rank of others.
    # Fixed when the result is written: nothing after the day began changes it.
    public = models.BooleanField(default=True, db_default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "user"], name="dailyresult_day_user_unique")]
        indexes = [
            # The board: top N of a day in order, and "how many are ahead of me" as a range count.
            models.Index(fields=["day", "time_ms", "moves", "finished_at"], name="dailyresult_board"),
            models.Index(fields=["user", "day"], name="dailyresult_user_day"),
            # Where you stand: a bucket of the moves histogram recounted as a range count.
            models.Index(fields=["day", "moves"], name="dailyresult_day_moves"),
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.user_id}: {self.time_ms} ms, {self.moves} moves"


class DailyBucket(models.Model):
    """One bucket of a day's histograms of counted results (``stats.standing``): ``kind`` ``time``
    (buckets of ``TIME_BUCKET_MS``, six to a bar) or ``moves`` (of ``MOVES_BUCKET``), the last
    bucket open-ended.

    ``count`` is recounted from the day's results (a range count), never incremented: a task that
    runs twice writes the same number.
    """

    day = models.DateField()
    kind = models.CharField(max_length=5)
    bucket = models.PositiveSmallIntegerField()
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "kind", "bucket"], name="dailybucket_day_kind_bucket_unique")
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.kind}[{self.bucket}] = {self.count}"
