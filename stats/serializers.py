"""The documented shapes of the daily, leaderboard and statistics answers (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers

from games.models import ReviewChoices, RuleChoices
from games.play.serializers import AttemptSerializer


class DailyAttemptSerializer(AttemptSerializer):
    """The caller's ranked attempt of the day: its state (`state`, `counts`, `shareable`: as a game's
    `attempt`) and what it is."""

    game = serializers.UUIDField(help_text="The game: resume it with `GET games/{id}`.")
    status = serializers.ChoiceField(
        choices=["playing", "won", "closed"],
        help_text="`closed`: the day ended before it was won (it goes on as practice).",
    )
    review = serializers.ChoiceField(
        choices=[choice for choice in ReviewChoices.values if choice],
        allow_null=True,
        help_text="For a win: `pending`, `verified`, `held` (under review), `approved`, `rejected` or `invalid`.",
    )
    held_for = serializers.ListField(
        child=serializers.ChoiceField(choices=["pace", "accounts", "play", "attempts"]),
        allow_null=True,
        help_text="For a held win: the kinds of check that hold it (as in the game state). Null otherwise.",
    )
    review_by = serializers.DateTimeField(
        allow_null=True, help_text="For a held win: when staff look at it at the latest. Null otherwise."
    )
    moves = serializers.IntegerField(min_value=0)
    time_ms = serializers.IntegerField(allow_null=True, min_value=0, help_text="The time of a won attempt.")


def _number_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        allow_null=True,
        min_value=1,
        help_text="The deal's number, as a shared result names it (`Yukon #12`): days since the first daily "
        "deal, 2026-11-30, which is #1 (docs/daily.md); null for an earlier date.",
    )


class DailyDealSerializer(serializers.Serializer):
    """A daily deal. `code` appears only once its UTC day is over (it reveals the face-down cards)."""

    date = serializers.DateField(help_text="The UTC date of the deal.")
    number = _number_field()
    rule = serializers.ChoiceField(choices=RuleChoices.choices, help_text="Always `classic`.")
    played = serializers.IntegerField(
        min_value=0,
        help_text="How many accounts started their ranked attempt of this deal (won or not); guests and "
        "practice games are not counted. The same number as the leaderboard's `players`.",
    )
    code = serializers.CharField(
        required=False,
        help_text="Only for a day that is over (UTC): the game code of the caller's own arrangement of the "
        "deal (an account's; a guest gets the day's median arrangement); replay it with "
        '`POST games {"code": ...}`. Absent for today.',
    )
    arrangements = serializers.IntegerField(
        min_value=1,
        help_text="How many arrangements of the face-down cards the day's opening has, each certified "
        "winnable and equally hard; every account gets one of them (the same on every device), chosen "
        "by the server. 1 for the days before arrangements.",
    )
    opening = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Only for a day that is over: the seven columns as dealt, face-down cards as "XX" (the '
        "same for every arrangement). Absent for today.",
    )
    par_low = serializers.IntegerField(
        required=False,
        help_text="Only for a day that is over: the shortest certified solution among the arrangements.",
    )
    par_high = serializers.IntegerField(
        required=False,
        help_text="Only for a day that is over: the longest certified solution among the arrangements.",
    )
    closes_at = serializers.DateTimeField(help_text="When the day's competition closes (00:00 UTC after it).")
    closes_in_ms = serializers.IntegerField(min_value=0, help_text="Milliseconds from this answer to `closes_at`.")
    attempt = DailyAttemptSerializer(
        allow_null=True,
        help_text="The caller's ranked attempt of this deal (null for guests, and before it is started).",
    )


class BoardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(min_value=1, help_text="Equal time, moves and finish time share a rank.")
    username = serializers.CharField(
        allow_null=True,
        help_text="The player (their profile: `/players/{username}`); null for an account that was deleted "
        "(its result still counts, shown as a deleted player).",
    )
    time_ms = serializers.IntegerField(min_value=0, help_text="Server time from the start to the win.")
    moves = serializers.IntegerField(min_value=0)
    score = serializers.IntegerField(min_value=0)
    verified = serializers.BooleanField(
        help_text="The server replayed the game's move log and it reproduced the win (false only for "
        "wins from before the replay check)."
    )
    replay = serializers.UUIDField(
        allow_null=True,
        help_text="The game, to watch with `GET games/{id}/replay`: for the top 10 once the day is over, else null.",
    )


class MyBoardEntrySerializer(BoardEntrySerializer):
    """The caller's own line: on the public board, or a newcomer's result that is not (yet)."""

    rank = serializers.IntegerField(
        min_value=1,
        help_text="The place on the public board; for a result not on it (`public` false), the place it would have.",
    )
    public = serializers.BooleanField(
        help_text="On the public board. False for the result of an account not established when the day began "
        '(made that day, or without a ranked attempt played on an earlier day: docs/daily.md, "Who is on the '
        "public board\"): it counts for the player's bests, streak, friends' board and clubs, not here."
    )
    public_in_days = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        help_text="For a result not on the public board: on how many more days after this one the account has to "
        "play before its results count there (0: from the next day it plays on). Null for a public line.",
    )


class DailyBoardSerializer(serializers.Serializer):
    """The daily leaderboard: won ranked attempts by time, then moves, then finish time."""

    date = serializers.DateField()
    number = _number_field()
    players = serializers.IntegerField(
        min_value=0,
        help_text="Accounts that started their ranked attempt that day (won or not), newcomers too: their "
        "results are not on the public board, but they played.",
    )
    par = serializers.IntegerField(
        allow_null=True,
        help_text="The length of the deal's certified solution (the solver's), once the day is over; null before.",
    )
    entries = BoardEntrySerializer(
        many=True, help_text="The top 100 of the public board: the results of accounts established when the day began."
    )
    me = MyBoardEntrySerializer(
        allow_null=True,
        help_text="The caller's own line (also below the top 100, and a newcomer's result that is not on the "
        "public board), or null: no counted ranked win.",
    )


class RuleStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField(
        min_value=0,
        help_text="Games played: with at least one accepted move (a dealt game nobody touched counts nothing).",
    )
    won = serializers.IntegerField(min_value=0)
    win_rate = serializers.FloatField(min_value=0, max_value=1, help_text="won / played, 0..1.")
    best_time_ms = serializers.IntegerField(allow_null=True, help_text="Personal best: the fastest win.")
    fewest_moves = serializers.IntegerField(allow_null=True, help_text="Personal best: the win in fewest moves.")
    clean_wins = serializers.IntegerField(
        min_value=0,
        help_text="Personal best: games won with 625 points (no take-back). The score is no best: each "
        "take-back and return earns 10 again.",
    )
    average_time_ms = serializers.FloatField(allow_null=True, help_text="Average over won games.")
    average_moves = serializers.FloatField(allow_null=True, help_text="Average over won games.")
    average_score = serializers.FloatField(allow_null=True, help_text="Average over won games.")


class RulesStatsSerializer(serializers.Serializer):
    classic = RuleStatsSerializer()
    relaxed = RuleStatsSerializer()


class DailyStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField(min_value=0, help_text="Days on which the account played the daily deal.")
    won = serializers.IntegerField(min_value=0, help_text="Days whose ranked attempt it won, counted on the board.")
    ranked = serializers.IntegerField(min_value=0, help_text="Ranked attempts (first games of a daily deal).")
    ranked_won = serializers.IntegerField(
        min_value=0,
        help_text="Ranked attempts won that count (on the account's boards; a newcomer's first results too).",
    )
    current_streak = serializers.IntegerField(
        min_value=0, help_text="Consecutive days up to today (or yesterday) with the daily deal won."
    )
    longest_streak = serializers.IntegerField(min_value=0)
    best_rank = serializers.IntegerField(
        allow_null=True, help_text="Best rank on a public daily leaderboard (a newcomer's first results have none)."
    )


class HistoryEntrySerializer(serializers.Serializer):
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    rule = serializers.ChoiceField(choices=RuleChoices.choices)
    daily = serializers.DateField(allow_null=True, help_text="The date of a daily deal, else null.")
    ranked = serializers.BooleanField(allow_null=True, help_text="Daily deals: the ranked attempt? Else null.")
    won = serializers.BooleanField()
    time_ms = serializers.IntegerField(allow_null=True, help_text="The final time of a won game, else null.")
    elapsed_ms = serializers.IntegerField(
        min_value=0, help_text="The game's clock: the final time of a won game, else the time since it was dealt."
    )
    moves = serializers.IntegerField(min_value=0)
    score = serializers.IntegerField(min_value=0)


class RecentDailySerializer(serializers.Serializer):
    day = serializers.DateField(help_text="The daily deal's date (its board: `leaderboards/daily/{day}`).")
    rank = serializers.IntegerField(min_value=1, help_text="The rank on that day's board (today's: so far).")
    time_ms = serializers.IntegerField(min_value=0)
    moves = serializers.IntegerField(min_value=0)


class PlayerStatsSerializer(serializers.Serializer):
    """A player's statistics (no game codes)."""

    username = serializers.CharField(help_text="The name as registered (it is looked up in any case).")
    member_since = serializers.DateTimeField(help_text="When the account was made.")
    overall = RuleStatsSerializer(help_text="All rules together.")
    rules = RulesStatsSerializer()
    daily = DailyStatsSerializer()
    history = HistoryEntrySerializer(
        many=True, help_text="The last 100 games played (with a move), oldest first (for a chart)."
    )
    recent_daily = RecentDailySerializer(
        many=True, help_text="The last 10 results on daily leaderboards, newest first, with their ranks."
    )


class MyStatsSerializer(PlayerStatsSerializer):
    """The caller's statistics: an account's, or a guest's (the games of its browser session), in
    the same shape; a guest has no name, no date of joining and no daily results."""

    username = serializers.CharField(allow_null=True, help_text="The account's name; null for a guest.")
    member_since = serializers.DateTimeField(allow_null=True, help_text="When the account was made; null for a guest.")
