"""The auth API: register, login, logout, me, and the play settings."""

from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from common.api import ApiView
from common.errors import ApplicationError
from common.serializers import ErrorSerializer
from common.throttles import IpThrottle, PlayerThrottle, UsernameThrottle, throttles

from . import services
from .serializers import AuthTokenSerializer, CredentialsSerializer, MeSerializer, PlayerSettingsSerializer


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


def _sign_in(request: Request, user: object) -> Response:
    """Log the session in and hand the guest's games of this session to the account."""
    guest_session_key = request.session.session_key
    login(request._request, user)
    token = services.user_signed_in(user=user, guest_session_key=guest_session_key)
    return Response({"username": user.get_username(), "token": token})  # type: ignore[attr-defined]


class RegisterApi(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        return throttles("auth", "auth_ip")

    @extend_schema(
        operation_id="auth_register",
        summary="Create an account (a guest keeps the games of this session)",
        request=CredentialsSerializer,
        responses={201: AuthTokenSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = services.user_register(
            **serializer.validated_data,
            settings=services.player_settings_get(user=None, session=request.session),
        )
        response = _sign_in(request, user)
        response.status_code = status.HTTP_201_CREATED
        return response


class LoginApi(ApiView):
    def get_throttles(self) -> list[BaseThrottle]:
        return throttles("auth", "auth_ip", "login_username", by=(PlayerThrottle, IpThrottle, UsernameThrottle))

    @extend_schema(
        operation_id="auth_login",
        summary="Log in (session cookie and API token; a guest keeps the games of this session)",
        request=CredentialsSerializer,
        responses={200: AuthTokenSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request._request, **serializer.validated_data)
        if user is None:
            raise ApplicationError("bad_credentials", 400)
        return _sign_in(request, user)


class LogoutApi(ApiView):
    @extend_schema(
        operation_id="auth_logout",
        summary="Log out: ends the session; with token authentication, revokes the token",
        request=None,
        responses={204: None},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, Token):
            services.user_token_revoke(user=request.user)
        if request.user.is_authenticated:
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_me",
        summary="The logged-in account and its settings",
        responses={200: MeSerializer, **_errors(401)},
    )
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {
                "username": user.get_username(),
                "date_joined": user.date_joined,  # type: ignore[union-attr]
                "settings": services.player_settings_get(user=user, session=request.session),
            }
        )


class SettingsApi(ApiView):
    """Settings of the player: the account's, or a guest's (kept in the session)."""

    def _user(self, request: Request) -> object | None:
        return request.user if request.user.is_authenticated else None

    @extend_schema(
        operation_id="auth_settings_retrieve",
        summary="The play settings (account or guest)",
        responses={200: PlayerSettingsSerializer},
    )
    def get(self, request: Request) -> Response:
        return Response(services.player_settings_get(user=self._user(request), session=request.session))

    @extend_schema(
        operation_id="auth_settings_update",
        summary="Replace the play settings (all four)",
        request=PlayerSettingsSerializer,
        responses={200: PlayerSettingsSerializer, **_errors(400)},
    )
    def put(self, request: Request) -> Response:
        return self._update(request, partial=False)

    @extend_schema(
        operation_id="auth_settings_partial_update",
        summary="Change some play settings",
        request=PlayerSettingsSerializer(partial=True),
        responses={200: PlayerSettingsSerializer, **_errors(400)},
    )
    def patch(self, request: Request) -> Response:
        return self._update(request, partial=True)

    def _update(self, request: Request, *, partial: bool) -> Response:
        serializer = PlayerSettingsSerializer(data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        settings = services.player_settings_update(
            user=self._user(request), session=request.session, changes=serializer.validated_data
        )
        return Response(settings)
