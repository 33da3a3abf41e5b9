"""The daily deal, leaderboard and statistics API: thin views over the selectors."""

from __future__ import annotations

import re
from dataclasses import asdict
from datetime import date
from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.db import from_replica
from common.errors import ApplicationError, ErrorCode, shown
from common.serializers import error_responses
from common.throttles import limits
from games.competition import clock
from games.competition.daily import daily_deal_today, daily_published
from games.models import DailyDeal
from games.players import Player, player_of

from . import selectors
from .serializers import DailyBoardSerializer, DailyDealSerializer, MyStatsSerializer, PlayerStatsSerializer
from .signals import profile_visible

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

DAY_PARAMETER = OpenApiParameter(
    name="day",
    type=OpenApiTypes.DATE,
    location=OpenApiParameter.PATH,
    description="A UTC date `YYYY-MM-DD` (400 `bad_date` if malformed; 404 `not_found` without a deal).",
)


def day_parse(text: str) -> date:
    if _DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise ApplicationError(ErrorCode.BAD_DATE, text=shown(text))


def deal_of_day(day: date) -> DailyDeal:
    """The deal of a day up to today (today's: ``daily_not_ready`` while it is being prepared);
    ``not_found`` otherwise."""
    if clock.is_future(day):
        raise ApplicationError(ErrorCode.NOT_FOUND)
    deal = daily_deal_today() if clock.is_today(day) else selectors.daily_deal_get(day=day)
    if deal is None:
        raise ApplicationError(ErrorCode.NOT_FOUND)
    return deal


def _deal_body(deal: DailyDeal, request: Request) -> dict[str, Any]:
    assert deal.date is not None  # a spare is never shown
    now = timezone.now()
    closes = clock.day_end(deal.date)
    body: dict[str, Any] = {
        "date": deal.date,
        "number": clock.daily_number(deal.date),
        "rule": deal.rule,
        "played": deal.players,
        "closes_at": closes,
        "closes_in_ms": max(0, int((closes - now).total_seconds() * 1000)),
        "attempt": selectors.daily_attempt(day=deal.date, user=request.user, now=now),
        "arrangements": max(1, deal.arrangements),
    }
    if clock.code_public(deal.date, now):  # the day is over: the opening and the codes are published
        body.update(daily_published(deal=deal, user=request.user))
    return body


class DailyTodayApi(ApiView):
    @extend_schema(
        operation_id="daily_today",
        summary="Today's daily deal (UTC): date, rule, how many have played, when it closes, your attempt; "
        "never its code",
        responses={200: DailyDealSerializer, **error_responses(503)},
    )
    def get(self, request: Request) -> Response:
        return Response(DailyDealSerializer(_deal_body(deal_of_day(clock.today()), request)).data)


class DailyDayApi(ApiView):
    @extend_schema(
        operation_id="daily_retrieve",
        summary="The daily deal of a date; its code once that day is over",
        parameters=[DAY_PARAMETER],
        responses={200: DailyDealSerializer, **error_responses(400, 404, 503)},
    )
    def get(self, request: Request, day: str) -> Response:
        return Response(DailyDealSerializer(_deal_body(deal_of_day(day_parse(day)), request)).data)


class DailyLeaderboardApi(ApiView):
    @extend_schema(
        operation_id="leaderboards_daily",
        summary="The daily leaderboard of a date: top 100 by time, then moves, then finish time",
        parameters=[DAY_PARAMETER],
        responses={200: DailyBoardSerializer, **error_responses(400, 404, 503)},
    )
    @from_replica
    def get(self, request: Request, day: str) -> Response:
        parsed = day_parse(day)
        deal_of_day(parsed)  # a board only for a day with a deal up to today
        board = selectors.daily_board(day=parsed, user=request.user)
        if board is None:
            raise ApplicationError(ErrorCode.NOT_FOUND)
        body = {
            "date": board.day,
            "number": clock.daily_number(board.day),
            "players": board.players,
            "par": board.par,
            "entries": [asdict(entry) for entry in board.entries],
            "me": asdict(board.me) if board.me else None,
        }
        return Response(DailyBoardSerializer(body).data)


class MyStatsApi(ApiView):
    @extend_schema(
        operation_id="me_stats",
        summary="Your statistics: totals, personal bests, daily streaks and rank, history; a guest's are "
        "those of the games of its browser session",
        responses={200: MyStatsSerializer, **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        stats = selectors.player_stats(player=player_of(request), now=timezone.now())
        return Response(MyStatsSerializer(stats).data)


class PlayerStatsApi(ApiView):
    rate_limits = {"GET": limits("lookup", "lookup_ip")}

    @extend_schema(
        operation_id="players_stats",
        summary="A player's public statistics",
        responses={200: PlayerStatsSerializer, **error_responses(403, 404, 429)},
    )
    @from_replica
    def get(self, request: Request, username: str) -> Response:
        user = selectors.user_by_username(username=username)
        if not profile_visible(owner=user, viewer=request.user):
            raise ApplicationError(ErrorCode.PROFILE_HIDDEN)
        stats = selectors.player_stats(player=Player(user=user), now=timezone.now())
        return Response(PlayerStatsSerializer(stats).data)
