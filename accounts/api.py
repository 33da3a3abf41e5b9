"""The auth API: register, login, logout, me, password change and reset, e-mail, language, API
tokens, signed-in sessions, and the play settings."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY, authenticate, login, logout, update_session_auth_hash
from django.utils.translation import pgettext
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from common.api import ApiView
from common.errors import ApplicationError, ErrorCode
from common.schema import BodyOnDeleteSchema
from common.serializers import ErrorSerializer
from common.throttles import EmailThrottle, IpThrottle, PlayerThrottle, UsernameThrottle, limits

from .actions.deletion import account_delete
from .actions.email import user_email_remove, user_email_set
from .actions.passwords import password_reset_request, user_password_change
from .actions.registration import user_register
from .actions.sessions import (
    SESSION_TOKEN_KEY,
    account_sign_out_elsewhere,
    login_session_end,
    login_session_list,
    user_signed_in,
)
from .actions.settings import player_me, player_settings_get, player_settings_update, user_language, user_language_set
from .actions.tokens import MAX_TOKENS, token_issue, token_list, token_revoke
from .limits import signup_limit_words, signup_quota
from .models import ApiToken
from .serializers import (
    AcceptedSerializer,
    ApiTokenSerializer,
    AuthTokenSerializer,
    CredentialsSerializer,
    EmailChangeSerializer,
    EmailSerializer,
    LanguageSerializer,
    LoginSessionSerializer,
    MeSerializer,
    NewApiTokenSerializer,
    PasswordChangeSerializer,
    PasswordConfirmSerializer,
    PlayerSettingsSerializer,
    RegisterSerializer,
    SessionsEndedSerializer,
    TokenCreateSerializer,
)


def _session_login(request: Request) -> bool:
    """Whether the request comes with a session logged in to its account (not only a token; a
    token client's guest cookie is no login)."""
    session_user = request.session.get(SESSION_KEY)
    return bool(
        request.session.session_key and request.user.is_authenticated and str(session_user) == str(request.user.pk)
    )


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


def _end_session_token(request: Request) -> None:
    """Revoke the token that the session's login returned, if the session is logged in."""
    session_user = request._request.user
    token_id = request.session.get(SESSION_TOKEN_KEY)
    if session_user.is_authenticated and token_id is not None:
        token_revoke(user=session_user, token_id=token_id)


def _sign_in(request: Request, user: Any, *, token_name: str) -> Response:
    """Log the session in, hand the guest's games of this session to the account, and answer a
    new token of this sign-in (revoked by the session's logout, or by its next login)."""
    _end_session_token(request)
    guest_session_key = request.session.session_key
    login(request._request, user)
    token, key, kept = user_signed_in(user=user, guest_session_key=guest_session_key, token_name=token_name)
    request.session[SESSION_TOKEN_KEY] = token.pk
    response = Response({"username": user.get_username(), "token": key, "games_kept": kept})
    if language := user_language(user=user):
        set_language_cookie(response, language)  # the account's language, on every device it logs in on
    return response


def _token_body(token: ApiToken, request: Request) -> dict[str, Any]:
    current = {getattr(request.auth, "pk", None), request.session.get(SESSION_TOKEN_KEY)}
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
        "current": token.pk in current,
    }


class RegisterApi(ApiView):
    # and, when an address is given, its confirmation mail in the per-recipient mail limit
    rate_limits = {"POST": limits("auth", "auth_ip", "mail", by=(PlayerThrottle, IpThrottle, EmailThrottle))}

    @extend_schema(
        operation_id="auth_register",
        summary="Create an account (a guest keeps the games of this session)",
        description="With `email`, a confirmation link goes to that address (the account works without it). "
        "At most a few accounts per network address and UTC day (`THROTTLE_SIGNUP_IP`, default "
        "`5/day`; failed sign-ups do not count): over it, 429 `signup_limit` with `Retry-After` (the seconds "
        "to the next UTC day).",
        request=RegisterSerializer,
        examples=[
            OpenApiExample(
                "A new account",
                value={"username": "lena", "password": "Klondike-1896", "email": "lena@example.org"},
                request_only=True,
            )
        ],
        responses={201: AuthTokenSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = RegisterSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        quota = signup_quota()
        wait = quota.take(request)
        if wait is not None:
            until = datetime.fromtimestamp(quota.window_end(), UTC).strftime("%H:%M")
            raise ApplicationError(
                ErrorCode.SIGNUP_LIMIT,
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
                until=until,
                limit=signup_limit_words(),
            )
        try:
            user = user_register(
                **serializer.validated_data,
                settings=player_settings_get(user=None, session=request.session),
            )
        except ApplicationError:  # no account made: it does not count
            quota.give_back()
            raise
        response = _sign_in(request, user, token_name="register")
        response.status_code = status.HTTP_201_CREATED
        return response


class LoginApi(ApiView):
    rate_limits = {
        "POST": limits("auth", "auth_ip", "login_username", by=(PlayerThrottle, IpThrottle, UsernameThrottle))
    }

    @extend_schema(
        operation_id="auth_login",
        summary="Log in: the session cookie and a new API token (a guest keeps the games of this session)",
        request=CredentialsSerializer,
        responses={200: AuthTokenSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = authenticate(request._request, **serializer.validated_data)
        if user is None:
            raise ApplicationError(ErrorCode.BAD_CREDENTIALS)
        return _sign_in(request, user, token_name="login")


class LogoutApi(ApiView):
    @extend_schema(
        operation_id="auth_logout",
        summary="Log out: with a token, revokes that token; with the session, ends it and revokes the "
        "token its login returned",
        request=None,
        responses={204: None},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, ApiToken):
            token_revoke(user=request.user, token_id=request.auth.pk)
        if request._request.user.is_authenticated:
            _end_session_token(request)
            login_session_end(session_key=request.session.session_key)
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokensApi(ApiView):
    permission_classes = [IsAuthenticated]

    rate_limits = {"POST": limits("auth", "auth_ip")}

    @extend_schema(
        operation_id="auth_tokens_list",
        summary="Your API tokens, newest first (never their keys: a prefix tells them apart)",
        responses={200: ApiTokenSerializer(many=True), **_errors(401)},
    )
    def get(self, request: Request) -> Response:
        tokens = token_list(user=request.user)
        return Response(ApiTokenSerializer([_token_body(token, request) for token in tokens], many=True).data)

    @extend_schema(
        operation_id="auth_tokens_create",
        summary=f"A new API token; its key is in this answer only (at most {MAX_TOKENS} per account: "
        "the oldest never used goes, else the one used longest ago)",
        request=TokenCreateSerializer,
        responses={201: NewApiTokenSerializer, **_errors(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = TokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = token_issue(user=request.user, name=serializer.validated_data["name"] or "api")
        body = {**_token_body(token, request), "token": key}
        return Response(NewApiTokenSerializer(body).data, status=status.HTTP_201_CREATED)


class TokenApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_tokens_destroy",
        summary="Revoke one of your API tokens (at once; the one of this request too)",
        responses={204: None, **_errors(401, 404)},
    )
    def delete(self, request: Request, token_id: int) -> Response:
        if not token_revoke(user=request.user, token_id=token_id):
            raise ApplicationError(ErrorCode.NOT_FOUND)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(ApiView):
    """Who is playing. A guest is a normal state, not an error: 200 with ``authenticated: false``
    (and the session's settings), so that a guest's every page does not log a failed request.
    A token that is wrong, revoked or of a deactivated account still gets 401.
    ``DELETE`` deletes the account (its password asked again)."""

    schema = BodyOnDeleteSchema()

    rate_limits = {"DELETE": limits("auth", "auth_ip")}

    @extend_schema(
        operation_id="auth_me_destroy",
        summary="Delete your account (its password asked again)",
        description="The account, its sessions (every one: it is logged out everywhere), API tokens, games "
        "with their move logs, bests, statistics and fair-play records go, in one transaction. Its daily "
        "board results stay counted, shown without a name (`username` null on the board), so no other "
        "player's rank changes. A wrong or missing password: 400 `wrong_password` / `bad_request`, and "
        "nothing changes.",
        request=PasswordConfirmSerializer,
        responses={204: None, **_errors(400, 401, 429)},
    )
    def delete(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise ApplicationError(ErrorCode.NOT_AUTHENTICATED)
        serializer = PasswordConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        account_delete(user=request.user, password=serializer.validated_data["password"])
        if request._request.user.is_authenticated:  # the session's login: it ends here too
            logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="auth_me",
        summary="Who is playing: the logged-in account and its settings, or a guest",
        description="A guest (no login, no token) gets 200 with `authenticated: false`, `username` and "
        "`date_joined` null, and the settings kept in the session. A bad token is 401.",
        responses={200: MeSerializer, **_errors(401)},
    )
    def get(self, request: Request) -> Response:
        return Response(player_me(user=request.user, session=request.session))


class PasswordApi(ApiView):
    permission_classes = [IsAuthenticated]

    rate_limits = {"POST": limits("auth", "auth_ip")}

    @extend_schema(
        operation_id="auth_password_change",
        summary="Change your password: every other session and every API token of the account end, this one stays",
        description="`old_password` must be the present one (400 `wrong_password`); `new_password` must "
        "pass the password rules (400 `weak_password`, with the reasons). A session stays logged in; "
        "a token client keeps the token of this request.",
        request=PasswordChangeSerializer,
        responses={204: None, **_errors(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_password_change(user_id=request.user.pk, **serializer.validated_data)
        keep_tokens = [request.auth.pk] if isinstance(request.auth, ApiToken) else []
        keep_session = None
        if _session_login(request):
            update_session_auth_hash(request._request, user)
            keep_session = request.session.session_key
            if isinstance(request.session.get(SESSION_TOKEN_KEY), int):
                keep_tokens.append(request.session[SESSION_TOKEN_KEY])
        account_sign_out_elsewhere(user=user, keep_session_key=keep_session, keep_token_ids=keep_tokens)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetApi(ApiView):
    rate_limits = {"POST": limits("mail_ip", "mail", by=(IpThrottle, EmailThrottle))}

    @extend_schema(
        operation_id="auth_password_reset",
        summary="Mail a link that sets a new password to the account with this confirmed address",
        description="The answer is the same whether an account has this address or not (nobody learns "
        "who has an account). The link works once, for a day (`PASSWORD_RESET_TIMEOUT`), and not after "
        "the password changed. Limited per address and per IP (429).",
        request=EmailSerializer,
        responses={202: AcceptedSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        serializer = EmailSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        password_reset_request(email=serializer.validated_data["email"])
        detail = pgettext(
            "auth.reset.sent",
            "If an account has this confirmed address, a link to set a new password is on its way to it. "
            "It works for one day.",
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class EmailApi(ApiView):
    permission_classes = [IsAuthenticated]

    # per account, per IP, and per recipient (with the reset mails: a few an hour to one address,
    # whoever asks)
    # Removing it asks the password too: limited as the other password checks are.
    rate_limits = {
        "PUT": limits("mail", "mail_ip", "mail", by=(PlayerThrottle, IpThrottle, EmailThrottle)),
        "DELETE": limits("auth", "auth_ip"),
    }
    schema = BodyOnDeleteSchema()

    @extend_schema(
        operation_id="auth_email_set",
        summary="Set a new e-mail address: a confirmation link goes to it (the confirmed one stays until then)",
        description="`password` is the account's, asked again (400 `wrong_password`; missing: `bad_request`): a "
        "session alone must not take the account through a reset mail to a new address. Once the new "
        "address is confirmed, the one before is told, with a link that undoes the change for a week.",
        request=EmailChangeSerializer,
        responses={202: AcceptedSerializer, **_errors(400, 401, 429)},
    )
    def put(self, request: Request) -> Response:
        serializer = EmailChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sent = user_email_set(
            user=request.user,
            email=serializer.validated_data["email"],
            password=serializer.validated_data["password"],
        )
        detail = (
            pgettext(
                "auth.email.sent", "A confirmation link is on its way to the new address. It works for three days."
            )
            if sent
            else pgettext("auth.email.same", "This is your confirmed address already.")
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="auth_email_remove",
        summary="Remove the e-mail address (confirmed and waiting): a forgotten password can then not be reset",
        description="`password` is the account's, asked again (400 `wrong_password` / `bad_request`). The "
        "confirmed address is told, with a link that puts it back for a week.",
        request=PasswordConfirmSerializer,
        responses={204: None, **_errors(400, 401, 429)},
    )
    def delete(self, request: Request) -> Response:
        serializer = PasswordConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user_email_remove(user=request.user, password=serializer.validated_data["password"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class LanguageApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_language_set",
        summary="The language of your pages and mails (empty: the browser's)",
        description="Also sets the language cookie of this browser.",
        request=LanguageSerializer,
        responses={200: LanguageSerializer, **_errors(400, 401)},
    )
    def put(self, request: Request) -> Response:
        serializer = LanguageSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        language = user_language_set(user=request.user, language=serializer.validated_data["language"])
        response = Response({"language": language})
        set_language_cookie(response, language)
        return response


def set_language_cookie(response: Any, language: str) -> None:
    """Django's language cookie (read by LocaleMiddleware before Accept-Language), or none."""
    if language:
        response.set_cookie(
            django_settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=django_settings.SESSION_COOKIE_SECURE,
        )
    else:
        response.delete_cookie(django_settings.LANGUAGE_COOKIE_NAME, samesite="Lax")


class SessionsApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_sessions_list",
        summary="Your signed-in browser sessions, last seen first",
        responses={200: LoginSessionSerializer(many=True), **_errors(401)},
    )
    def get(self, request: Request) -> Response:
        current = request.session.session_key if _session_login(request) else None
        rows = [
            {
                "id": row.pk,
                "user_agent": row.user_agent,
                "created_at": row.created_at,
                "last_seen_at": row.last_seen_at,
                "current": row.session_key == current,
            }
            for row in login_session_list(user=request.user)
        ]
        return Response(LoginSessionSerializer(rows, many=True).data)

    @extend_schema(
        operation_id="auth_sessions_end_others",
        summary="Log out everywhere else: every other session ends, with the token its login returned",
        responses={200: SessionsEndedSerializer, **_errors(401)},
    )
    def delete(self, request: Request) -> Response:
        keep = request.session.session_key if _session_login(request) else None
        keep_tokens = [request.auth.pk] if isinstance(request.auth, ApiToken) else []
        ended = account_sign_out_elsewhere(
            user=request.user, keep_session_key=keep, keep_token_ids=keep_tokens, all_tokens=False
        )
        return Response({"ended": ended})


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
        return Response(player_settings_get(user=self._user(request), session=request.session))

    @extend_schema(
        operation_id="auth_settings_update",
        summary="Replace the play settings (all four; `four_color` may be left out)",
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
        settings = player_settings_update(
            user=self._user(request), session=request.session, changes=serializer.validated_data
        )
        return Response(settings)
