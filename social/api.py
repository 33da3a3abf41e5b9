"""Following, the friends' board and clubs (docs/social.md): thin views over the services and selectors."""

from __future__ import annotations

import re
from dataclasses import fields
from datetime import date
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.db import from_replica
from common.errors import ApplicationError, ErrorCode, shown
from common.pagination import PagePagination
from common.serializers import error_responses
from common.throttles import limits
from stats.api import DAY_PARAMETER, day_parse, deal_of_day
from stats.selectors import user_by_username

from . import selectors, services
from .models import Club, Membership
from .serializers import (
    ClubChangeSerializer,
    ClubCreateSerializer,
    ClubDaySerializer,
    ClubDetailSerializer,
    ClubJoinSerializer,
    ClubSerializer,
    ClubWeekSerializer,
    FollowedSerializer,
    FollowStateSerializer,
    FriendsBoardSerializer,
    PrivacySerializer,
)


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
        responses={200: FollowedSerializer(many=True), **error_responses(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(selectors.following_list(user=request.user))
        body = [{"username": link.followed.get_username(), "since": link.created_at} for link in page or []]
        return self.get_paginated_response(FollowedSerializer(body, many=True).data)


#: The fields of a board line, in the order of :class:`social.serializers.FriendEntrySerializer`.
_ENTRY_FIELDS = tuple(field.name for field in fields(selectors.FriendEntry))


def _entries_body(entries: list[selectors.FriendEntry]) -> list[dict[str, object]]:
    """A board's lines as the answer carries them. The boards' answers (up to 501 lines) are built
    of plain values the selectors typed, without running the documented serializer over each line:
    ``dataclasses.asdict`` and the serializer took 9 ms each for 500 lines, more than the database
    (bench/social_bench.py); the serializers still describe the answers in the schema, and the
    schema tests check the answers against it."""
    return [{name: getattr(entry, name) for name in _ENTRY_FIELDS} for entry in entries]


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
        body = {"date": board.day, "following": board.following, "entries": _entries_body(board.entries)}
        return Response(body)


# -- clubs ------------------------------------------------------------------------------------------

_WEEK = re.compile(r"(\d{4})-W(\d{2})")


def _week_parse(text: str) -> date:
    match = _WEEK.fullmatch(text)
    if match:
        try:
            return date.fromisocalendar(int(match[1]), int(match[2]), 1)
        except ValueError:
            pass
    raise ApplicationError(ErrorCode.BAD_WEEK, text=shown(text))


def _club_body(club: Club, user: Any) -> dict[str, Any]:
    return {
        "slug": club.slug,
        "name": club.name,
        "owner": club.owner.get_username(),
        "members": getattr(club, "members", None) or Membership.objects.filter(club=club).count(),
        "mine": club.owner_id == user.pk,
    }


def _club_detail(club: Club, user: Any) -> dict[str, Any]:
    owner = club.owner_id == user.pk
    members = selectors.club_members(club=club)
    return {
        **_club_body(club, user),
        "members": len(members),
        "member_list": [{"username": name, "joined_at": joined} for name, joined in members],
        "invite": services.invite_make(club=club) if owner else None,
        "invite_expires_at": timezone.now() + services.INVITE_MAX_AGE if owner else None,
        "removed": [
            {"username": name, "removed_at": when}
            for name, when in (selectors.club_removed(club=club) if owner else [])
        ],
    }


class ClubsApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"POST": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_list",
        summary="The clubs you are a member of, by name",
        responses={200: ClubSerializer(many=True), **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        clubs = selectors.clubs_of(user=request.user)
        return Response(ClubSerializer([_club_body(club, request.user) for club in clubs], many=True).data)

    @extend_schema(
        operation_id="clubs_create",
        summary=f"Make a club (you own at most {services.MAX_CLUBS_OWNED} and join at most "
        f"{services.MAX_CLUBS_JOINED}); the answer has its invite",
        request=ClubCreateSerializer,
        responses={201: ClubDetailSerializer, **error_responses(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = ClubCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(user=request.user, name=serializer.validated_data["name"])
        return Response(ClubDetailSerializer(_club_detail(club, request.user)).data, status=status.HTTP_201_CREATED)


class ClubJoinApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"POST": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_join",
        summary=f"Join a club with its invite (at most {services.MAX_MEMBERS} members a club)",
        request=ClubJoinSerializer,
        responses={200: ClubDetailSerializer, **error_responses(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = ClubJoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_join(user=request.user, invite=serializer.validated_data["invite"])
        return Response(ClubDetailSerializer(_club_detail(club, request.user)).data)


class ClubDetailApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"PATCH": limits("follow", "follow_ip"), "DELETE": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_retrieve",
        summary="A club you are a member of: its members (and for its owner, an invite)",
        responses={200: ClubDetailSerializer, **error_responses(401, 404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        return Response(ClubDetailSerializer(_club_detail(club, request.user)).data)

    @extend_schema(
        operation_id="clubs_partial_update",
        summary="Rename a club or hand it over to a member (its owner)",
        request=ClubChangeSerializer,
        responses={200: ClubDetailSerializer, **error_responses(400, 401, 403, 404, 429)},
    )
    def patch(self, request: Request, slug: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        serializer = ClubChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        club = services.club_change(user=request.user, club=club, name=data.get("name"), owner=data.get("owner"))
        return Response(ClubDetailSerializer(_club_detail(club, request.user)).data)

    @extend_schema(
        operation_id="clubs_destroy",
        summary="Delete a club (its owner): its members and boards go with it",
        responses={204: None, **error_responses(401, 403, 404, 429)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        services.club_delete(user=request.user, club=selectors.club_of_member(user=request.user, slug=slug))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInviteApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"DELETE": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_invite_destroy",
        summary="Revoke every invite of a club given out so far (its owner); the answer has a new one",
        responses={200: ClubDetailSerializer, **error_responses(401, 403, 404, 429)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        club = services.invite_revoke(user=request.user, club=club)
        return Response(ClubDetailSerializer(_club_detail(club, request.user)).data)


class ClubMemberApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"DELETE": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_members_destroy",
        summary="Leave a club (your own name), or remove a member (its owner: they stay out until you let them "
        "in again); an owner who leaves hands the club to its longest member who may own one more",
        responses={204: None, **error_responses(400, 401, 403, 404, 429)},
    )
    def delete(self, request: Request, slug: str, username: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        services.member_remove(user=request.user, club=club, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRemovedApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"DELETE": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="clubs_removed_destroy",
        summary="Let a player you removed join again with an invite (its owner); nothing changes for anyone else",
        responses={204: None, **error_responses(401, 403, 404, 429)},
    )
    def delete(self, request: Request, slug: str, username: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        services.removal_lift(user=request.user, club=club, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubDayApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="clubs_daily",
        summary="A day's board of a club: its members' counted results, ranked within the club",
        parameters=[DAY_PARAMETER],
        responses={200: ClubDaySerializer, **error_responses(400, 401, 404, 503)},
    )
    @from_replica
    def get(self, request: Request, slug: str, day: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        deal = deal_of_day(day_parse(day))
        assert deal.date is not None
        entries = selectors.club_day(club=club, day=deal.date, user=request.user)
        members = getattr(club, "members", 1)
        body = {"club": club.name, "date": deal.date, "members": members, "entries": _entries_body(entries)}
        return Response(body)


class ClubWeekApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="clubs_week",
        summary="A club's standing over an ISO week's daily deals (points for each day's place)",
        parameters=[
            OpenApiParameter(
                name="week",
                type=str,
                location=OpenApiParameter.PATH,
                pattern=r"^\d{4}-W\d{2}$",
                description="An ISO week `YYYY-Www`, e.g. `2026-W49` (400 `bad_week` if there is no such week).",
            )
        ],
        responses={200: ClubWeekSerializer, **error_responses(400, 401, 404)},
    )
    @from_replica
    def get(self, request: Request, slug: str, week: str) -> Response:
        club = selectors.club_of_member(user=request.user, slug=slug)
        monday = _week_parse(week)
        me = request.user.pk  # (once: request.user is a lazy object, dear to ask 500 times)
        entries = [
            {
                "rank": e["rank"],
                "username": e["user__username"],
                "points": e["points"],
                "days": e["days"],
                "time_ms": e["time_ms"],
                "me": e["user_id"] == me,
            }
            for e in selectors.club_week(club=club, monday=monday)
        ]
        iso = monday.isocalendar()
        body = {"club": club.name, "week": f"{iso.year:04d}-W{iso.week:02d}", "starts": monday, "entries": entries}
        return Response(body)


class PrivacyApi(ApiView):
    permission_classes = [IsAuthenticated]
    rate_limits = {"PUT": limits("follow", "follow_ip")}

    @extend_schema(
        operation_id="me_privacy_retrieve",
        summary="Whether your profile shows only to the players you follow",
        responses={200: PrivacySerializer, **error_responses(401)},
    )
    def get(self, request: Request) -> Response:
        return Response({"profile_hidden": selectors.profile_hidden(user=request.user)})

    @extend_schema(
        operation_id="me_privacy_set",
        summary="Show your profile to everyone, or only to the players you follow",
        request=PrivacySerializer,
        responses={200: PrivacySerializer, **error_responses(400, 401, 429)},
    )
    def put(self, request: Request) -> Response:
        serializer = PrivacySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        hidden = services.profile_hidden_set(user=request.user, hidden=serializer.validated_data["profile_hidden"])
        return Response({"profile_hidden": hidden})
