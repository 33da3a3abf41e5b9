"""Following and the friends' board (docs/social.md): thin views over the services and selectors."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.db import from_replica
from common.pagination import PagePagination
from common.serializers import error_responses
from common.throttles import limits
from stats.api import DAY_PARAMETER, day_parse, deal_of_day
from stats.selectors import user_by_username

from . import selectors, services
from .serializers import FollowedSerializer, FollowStateSerializer, FriendsBoardSerializer


def _follow_state(request: Request, target: Any) -> dict[str, Any]:
    return {
        "username": target.get_username(),
        "following": selectors.follows(user=request.user, other=target),
        "followers": selectors.followers_count(user=target),
    }


class FollowApi(ApiView):
    rate_limits = {
        "GET": limits("lookup", "lookup_ip"),
        "POST": limits("follow", "follow_ip"),
        "DELETE": limits("follow", "follow_ip"),
    }

    def get_permissions(self) -> list[Any]:
        return [] if self.request.method in ("GET", "HEAD") else [IsAuthenticated()]

    @extend_schema(
        operation_id="players_follow_retrieve",
        summary="Whether you follow a player, and how many do",
        responses={200: FollowStateSerializer, **error_responses(404, 429)},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(FollowStateSerializer(_follow_state(request, user_by_username(username=username))).data)

    @extend_schema(
        operation_id="players_follow_create",
        summary=f"Follow a player (at most {services.MAX_FOLLOWED}); they are told nothing but a count",
        request=None,
        responses={200: FollowStateSerializer, 201: FollowStateSerializer, **error_responses(400, 401, 404, 429)},
    )
    def post(self, request: Request, username: str) -> Response:
        target, added = services.follow_add(user=request.user, username=username)
        code = status.HTTP_201_CREATED if added else status.HTTP_200_OK
        return Response(FollowStateSerializer(_follow_state(request, target)).data, status=code)

    @extend_schema(
        operation_id="players_follow_destroy",
        summary="Stop following a player",
        responses={200: FollowStateSerializer, **error_responses(401, 404, 429)},
    )
    def delete(self, request: Request, username: str) -> Response:
        target = services.follow_remove(user=request.user, username=username)
        return Response(FollowStateSerializer(_follow_state(request, target)).data)


class FollowingApi(ApiView, GenericAPIView):
    permission_classes = [IsAuthenticated]
    pagination_class = PagePagination

    @extend_schema(
        operation_id="me_following",
        summary="The players you follow, by name",
        responses={200: FollowedSerializer(many=True), **error_responses(401, 404)},
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.following_list(user=request.user))
        body = [{"username": link.followed.get_username(), "since": link.created_at} for link in page or []]
        return self.get_paginated_response(FollowedSerializer(body, many=True).data)


class FriendsBoardApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="daily_friends",
        summary="The day's board among you and the players you follow, with each one's place on the whole board",
        parameters=[DAY_PARAMETER],
        responses={200: FriendsBoardSerializer, **error_responses(400, 401, 404, 503)},
    )
    @from_replica
    def get(self, request: Request, day: str) -> Response:
        deal = deal_of_day(day_parse(day))
        assert deal.date is not None
        board = selectors.friends_board(day=deal.date, user=request.user)
        body = {"date": board.day, "following": board.following, "entries": [asdict(e) for e in board.entries]}
        return Response(FriendsBoardSerializer(body).data)
