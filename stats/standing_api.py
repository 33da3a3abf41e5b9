"""``GET daily/{day}/standing``: where you stand on a day's deal (:mod:`stats.standing`)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.db import from_replica
from common.errors import ApplicationError, ErrorCode
from common.pagination import PagePagination
from common.serializers import error_responses
from games.competition import clock
from games.competition.attempt import attempt_fields
from games.play.serializers import AttemptSerializer

from . import archive, standing
from .api import DAY_PARAMETER, day_parse, deal_of_day


class BarSerializer(serializers.Serializer):
    low = serializers.IntegerField(min_value=0, help_text="The bar's lower bound (inclusive).")
    high = serializers.IntegerField(allow_null=True, help_text="Its upper bound (exclusive); null: open-ended.")
    count = serializers.IntegerField(min_value=0)


class MarkSerializer(serializers.Serializer):
    time_ms = serializers.IntegerField(min_value=0)
    moves = serializers.IntegerField(min_value=0)
    counted = serializers.BooleanField(help_text="On the board; false while the result is under review.")
    attempt = AttemptSerializer(help_text="The won attempt's state (as a game's `attempt`).")
    review = serializers.CharField()
    faster_than_percent = serializers.IntegerField(
        allow_null=True,
        help_text="floor(100 × slower / others): the share of the other counted results with a strictly "
        "longer time (a tie is not beaten); null when there are no others.",
    )
    slower = serializers.IntegerField(min_value=0)
    tied = serializers.IntegerField(min_value=0, help_text="Other counted results with the same time.")
    others = serializers.IntegerField(min_value=0)
    board = serializers.ChoiceField(
        choices=[standing.READY, standing.PENDING],
        help_text="`ready`: the board shows what the review decided (the result on it, or off it); `pending`: "
        "the review or the board's task is still on its way.",
    )
    retry_after_ms = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        help_text="While `pending`: ask again after this many milliseconds. Null when `ready`, and when no answer "
        "is expected soon (a task was lost; the server makes it up within minutes).",
    )
    streak = serializers.IntegerField(
        min_value=0,
        help_text="The daily streak this result continues: consecutive days with a counted ranked win, ending "
        "with this one (0 while it is not counted).",
    )


class StandingSerializer(serializers.Serializer):
    date = serializers.DateField()
    number = serializers.IntegerField(
        allow_null=True, min_value=1, help_text="The deal's number (`Yukon #12`: docs/daily.md); null before day 1."
    )
    over = serializers.BooleanField(help_text="The day is over (00:00 UTC after it).")
    started = serializers.IntegerField(min_value=0, help_text="Accounts that started their ranked attempt.")
    won = serializers.IntegerField(min_value=0, help_text="Counted wins (held results excluded).")
    under_review = serializers.IntegerField(
        min_value=0,
        help_text="Won ranked attempts not on the board yet: being checked (`pending`) or under review "
        "(`held`); not in `won`.",
    )
    visible = serializers.BooleanField(
        help_text="Whether the histograms are given: once the day is over, and before that to an account "
        "whose ranked attempt of the day is won."
    )
    time_histogram = BarSerializer(many=True, allow_null=True, help_text="Bars of 30 s (milliseconds).")
    moves_histogram = BarSerializer(many=True, allow_null=True, help_text="Bars of 10 moves.")
    me = MarkSerializer(allow_null=True, help_text="The caller's won ranked attempt of the day, if any.")


def _bars(kind: str, buckets: list[tuple[int, int]] | None) -> list[dict[str, Any]] | None:
    if buckets is None:
        return None
    width, count, _ = standing.BARS[kind]
    return [{"low": b * width, "high": None if b == count - 1 else (b + 1) * width, "count": n} for b, n in buckets]


class DailyStandingApi(ApiView):
    @extend_schema(
        operation_id="daily_standing",
        summary="Where you stand on a day's deal: histograms of times and moves, your percentile, live counts",
        description="The counts `started` and `won` are for everyone; the histograms once the day is over, "
        "and during the day only to an account whose ranked attempt is won (with its mark in `me`). "
        "Only counted results are in them (held, rejected, closed attempts are not). Nothing names the deal.",
        parameters=[DAY_PARAMETER],
        responses={200: StandingSerializer, **error_responses(400, 404, 503)},
    )
    def get(self, request: Request, day: str) -> Response:
        deal = deal_of_day(day_parse(day))
        assert deal.date is not None
        found = standing.daily_standing(day=deal.date, user=request.user, now=timezone.now())
        if found is None:
            raise ApplicationError(ErrorCode.NOT_FOUND)
        me = found.me
        body = {
            "date": found.day,
            "number": clock.daily_number(found.day),
            "over": found.over,
            "started": found.started,
            "won": found.won,
            "under_review": found.under_review,
            "visible": found.visible,
            "time_histogram": _bars(standing.TIME, found.time_buckets),
            "moves_histogram": _bars(standing.MOVES, found.moves_buckets),
            "me": None
            if me is None
            else {
                "time_ms": me.time_ms,
                "moves": me.moves,
                "counted": me.counted,
                "review": me.review,
                "attempt": attempt_fields(me.state),
                "faster_than_percent": me.faster_than_percent,
                "slower": me.slower,
                "tied": me.tied,
                "others": me.others,
                "board": me.board,
                "retry_after_ms": me.retry_after_ms,
                "streak": me.streak,
            },
        }
        return Response(StandingSerializer(body).data)


class ArchiveMineSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="`playing`, `won`, or `closed` (its day ended before the win).")
    review = serializers.CharField(allow_null=True)
    attempt = AttemptSerializer(help_text="The attempt's state (as a game's `attempt`).")
    time_ms = serializers.IntegerField(allow_null=True)
    moves = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True, help_text="On the day's board (null: not on it).")


class ArchiveDaySerializer(serializers.Serializer):
    date = serializers.DateField()
    code = serializers.CharField(
        help_text="The deal (the day is over): the caller's own arrangement of it (an account's; a guest gets "
        'the day\'s median arrangement); play it with `POST games {"code": ...}`.'
    )
    opening = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text='The seven columns as dealt, face-down cards as "XX": the same for every arrangement.',
    )
    arrangements = serializers.IntegerField(
        min_value=1, help_text="How many arrangements of the face-down cards the day had (1: one deal for everyone)."
    )
    players = serializers.IntegerField(help_text="Accounts that started their ranked attempt.")
    winners = serializers.IntegerField(help_text="Counted wins (held results excluded).")
    winning_time_ms = serializers.IntegerField(allow_null=True)
    par = serializers.IntegerField(
        allow_null=True, help_text="The certified solution's length (of a day with arrangements: their median)."
    )
    par_low = serializers.IntegerField(allow_null=True, help_text="The shortest certified solution among them.")
    par_high = serializers.IntegerField(allow_null=True, help_text="The longest certified solution among them.")
    me = ArchiveMineSerializer(allow_null=True, help_text="The caller's ranked attempt of that day.")


class DailyArchiveApi(ApiView, GenericAPIView):
    pagination_class = PagePagination

    @extend_schema(
        operation_id="daily_archive",
        summary="Past daily deals, newest first: players, winners, winning time, par, your result and rank",
        responses={200: ArchiveDaySerializer(many=True), **error_responses(400, 404)},
    )
    @from_replica
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(archive.archive_deals())
        rows = archive.archive_rows(deals=list(page or []), user=request.user)
        return self.get_paginated_response(ArchiveDaySerializer(rows, many=True).data)
