"""One table of error codes, one error type for the whole API, and one DRF exception handler.

Every error answer is ``{"error": <code>, "detail": <text in the request's language>}``. Its code
is a member of :class:`ErrorCode`, which gives its HTTP status and its English text; the German
text is in ``locale/de/LC_MESSAGES/django.po`` (``make messages``), and LocaleMiddleware picks the
language (``Accept-Language``). :class:`ApplicationError` takes only members, so no answer can
carry a code without a status and a text (``tests/site/test_texts.py`` holds it).
The rules' refusals (422) are members too, one per reason code of ``games.engine.REASONS``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy
from rest_framework import exceptions
from rest_framework.response import Response


class ErrorCode(StrEnum):
    """An error answer's code (its value), HTTP status and text (``{name}``: a parameter)."""

    status: int
    text: Promise

    def __new__(cls, code: str, status: int, text: Promise) -> ErrorCode:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        member.text = text
        return member

    @classmethod
    def of(cls, code: str) -> ErrorCode:
        """The member whose value is ``code``; ``ValueError`` if there is none."""
        return cls(code)  # type: ignore[call-arg]  # (a look-up by value, not a new member)

    def message(self, **params: object) -> str:
        """The text in the active language, with ``params`` filled in."""
        return str(self.text).format(**params) if params else str(self.text)

    # -- the request ---------------------------------------------------------------------------
    BAD_REQUEST = "bad_request", 400, pgettext_lazy("bad_request", "The request is malformed.")
    BAD_CHARACTER = (
        "bad_character",
        400,
        pgettext_lazy("bad_character", "The request contains a NUL character (U+0000), which no text may contain."),
    )
    BAD_MOVE = (
        "bad_move",
        400,
        pgettext_lazy(
            "bad_move",
            'That is not a valid move: {reason}. Example: {{"from": "t3", "card": "7H", "to": "t5"}}; '
            "columns t1..t7, foundations fS fH fD fC (as a target: f), target auto for the double tap.",
        ),
    )
    BAD_CODE = "bad_code", 400, pgettext_lazy("bad_code", "Invalid game code “{text}”: expected e.g. YU1-C-AAAAAAB.")
    BAD_DATE = (
        "bad_date",
        400,
        pgettext_lazy("bad_date", "Invalid date “{text}”: expected YYYY-MM-DD, e.g. 2026-01-31."),
    )
    BAD_FORMAT = (
        "bad_format",
        400,
        pgettext_lazy("bad_format", "Unknown format “{text}”: allowed are {allowed}."),
    )
    BAD_WEEK = (
        "bad_week",
        400,
        pgettext_lazy("bad_week", "Invalid week “{text}”: expected an ISO week YYYY-Www, e.g. 2026-W49."),
    )
    BAD_IDEMPOTENCY_KEY = (
        "bad_idempotency_key",
        400,
        pgettext_lazy("bad_idempotency_key", "The Idempotency-Key must be 1 to 255 visible ASCII characters."),
    )
    NOT_FOUND = "not_found", 404, pgettext_lazy("not_found", "Not found.")
    METHOD_NOT_ALLOWED = (
        "method_not_allowed",
        405,
        pgettext_lazy(
            "method_not_allowed", "The method {method} is not allowed here (the Allow header lists those that are)."
        ),
    )
    NOT_ACCEPTABLE = (
        "not_acceptable",
        406,
        pgettext_lazy(
            "not_acceptable", "The answer is only available as JSON: the Accept header rules out application/json."
        ),
    )
    STALE = (
        "stale",
        409,
        pgettext_lazy("stale", "The game has changed meanwhile (move {moves}, not {seq}): please reload it."),
    )
    REQUEST_TIMEOUT = (
        "request_timeout",
        408,
        pgettext_lazy("request_timeout", "The request was not sent in time: please try again."),
    )
    PAYLOAD_TOO_LARGE = "payload_too_large", 413, pgettext_lazy("payload_too_large", "The request is too large.")
    UNSUPPORTED_MEDIA_TYPE = (
        "unsupported_media_type",
        415,
        pgettext_lazy(
            "unsupported_media_type", "The body must be JSON (Content-Type: application/json), not {media_type}."
        ),
    )
    IDEMPOTENCY_CONFLICT = (
        "idempotency_conflict",
        422,
        pgettext_lazy("idempotency_conflict", "This Idempotency-Key was already used for a different request."),
    )
    THROTTLED = "throttled", 429, pgettext_lazy("throttled", "Too many requests: please try again in {wait} s.")

    # -- accounts ------------------------------------------------------------------------------
    BAD_CREDENTIALS = "bad_credentials", 400, pgettext_lazy("bad_credentials", "The username or password is wrong.")
    USERNAME_TAKEN = "username_taken", 400, pgettext_lazy("username_taken", "This username is already taken.")
    USERNAME_RESERVED = (
        "username_reserved",
        400,
        pgettext_lazy("username_reserved", "This username is reserved for the site: please choose another."),
    )
    BAD_USERNAME = (
        "bad_username",
        400,
        pgettext_lazy(
            "bad_username",
            "Invalid username: use 1 to 150 characters from the letters A–Z and a–z, the digits 0–9 and _ - .",
        ),
    )
    SIGNUP_LIMIT = (
        "signup_limit",
        429,
        pgettext_lazy(
            "signup_limit",
            "No more accounts can be created from your network address until {until} UTC. {limit}",
        ),
    )
    WRONG_PASSWORD = (
        "wrong_password",
        400,
        pgettext_lazy("wrong_password", "The password is wrong: nothing was changed."),
    )
    WEAK_PASSWORD = "weak_password", 400, pgettext_lazy("weak_password", "The password is too weak: {reason}")
    BAD_EMAIL = "bad_email", 400, pgettext_lazy("bad_email", "That is not an e-mail address, e.g. lena@example.org.")
    EMAIL_TAKEN = (
        "email_taken",
        400,
        pgettext_lazy("email_taken", "This e-mail address already belongs to another account."),
    )
    LINK_INVALID = (
        "link_invalid",
        400,
        pgettext_lazy(
            "link_invalid", "This link is invalid, was used already or has expired: please ask for a new one."
        ),
    )
    NOT_AUTHENTICATED = "not_authenticated", 401, pgettext_lazy("not_authenticated", "Please log in.")
    AUTHENTICATION_FAILED = (
        "authentication_failed",
        401,
        pgettext_lazy(
            "authentication_failed",
            "The authentication is invalid: the token is wrong or revoked, or the account is disabled.",
        ),
    )
    PERMISSION_DENIED = "permission_denied", 403, pgettext_lazy("permission_denied", "You are not allowed to do this.")

    # -- the daily deal, help ------------------------------------------------------------------
    DAILY_NEEDS_ACCOUNT = (
        "daily_needs_account",
        403,
        pgettext_lazy(
            "daily_needs_account",
            "Today's deal is for accounts: log in or sign up. As a guest you can play any earlier daily deal.",
        ),
    )
    DAILY_NOT_READY = (
        "daily_not_ready",
        503,
        pgettext_lazy("daily_not_ready", "Today's deal is being prepared. Please try again in a few seconds."),
    )
    DAILY_ATTEMPT_OPEN = (
        "daily_attempt_open",
        409,
        pgettext_lazy(
            "daily_attempt_open",
            "Your ranked attempt at today's deal is still in progress: play it on. Practice games of this deal "
            "open once it is won or its day is over.",
        ),
    )
    REPLAY_BROKEN = (
        "replay_broken",
        409,
        pgettext_lazy("replay_broken", "This game cannot be replayed from its move log."),
    )
    GAME_PAUSED = (
        "game_paused",
        409,
        pgettext_lazy("game_paused", "The game is paused: resume it first (its clock is stopped, and so is play)."),
    )
    NO_PAUSE_WHEN_RANKED = (
        "no_pause_when_ranked",
        422,
        pgettext_lazy(
            "no_pause_when_ranked",
            "A ranked attempt cannot be paused: its clock runs from the first card until the end, even if you leave.",
        ),
    )
    WINNABLE_NOT_READY = (
        "winnable_not_ready",
        503,
        pgettext_lazy("winnable_not_ready", "Winnable deals are being prepared. Please try again in a few seconds."),
    )
    DAILY_ONLINE_ONLY = (
        "daily_online_only",
        422,
        pgettext_lazy(
            "daily_online_only",
            "Today's deal plays only online: moves played without a connection cannot be sent for a daily game.",
        ),
    )
    BATCH_REFUSED = (
        "batch_refused",
        422,
        pgettext_lazy(
            "batch_refused",
            "Move {number} of those played offline was refused: {rule} The {applied} moves before it were kept.",
        ),
    )
    NO_HELP_FOR_DAILY = (
        "no_help_for_daily",
        422,
        pgettext_lazy("no_help_for_daily", "There is no help for the daily deal while its day lasts: it is ranked."),
    )

    # -- the rules' refusals (games.engine.REASONS): the "interactive rules" explanation -------
    ILLEGAL_MOVE = (
        "illegal_move",
        422,
        pgettext_lazy("illegal_move", "Only the last card of a column can go to a foundation, one card at a time."),
    )
    CARD_NOT_AVAILABLE = (
        "card_not_available",
        422,
        pgettext_lazy("card_not_available", "That card is not face up in that column."),
    )
    DOES_NOT_FIT = (
        "does_not_fit",
        422,
        pgettext_lazy(
            "does_not_fit", "A card fits only on a face-up card of the other colour that is exactly one rank higher."
        ),
    )
    ONLY_KING_ON_EMPTY = (
        "only_king_on_empty",
        422,
        pgettext_lazy("only_king_on_empty", "Only a King, alone or with the cards on it, may go into an empty column."),
    )
    GROUP_TOO_LARGE = "group_too_large", 422, pgettext_lazy("group_too_large", "At most 20 cards can be moved at once.")
    NOT_NEXT_ON_FOUNDATION = (
        "not_next_on_foundation",
        422,
        pgettext_lazy(
            "not_next_on_foundation", "A foundation takes only the next card of its suit, from Ace up to King."
        ),
    )
    EMPTY_SOURCE = "empty_source", 422, pgettext_lazy("empty_source", "There is no card to move here.")
    SAME_COLUMN = "same_column", 422, pgettext_lazy("same_column", "The cards are already in that column.")
    NOTHING_TO_UNDO = (
        "nothing_to_undo",
        422,
        pgettext_lazy("nothing_to_undo", "There is no move left to undo (at most the last 100)."),
    )
    GAME_OVER = "game_over", 422, pgettext_lazy("game_over", "This game is already won.")
    CARDS_FACE_DOWN = (
        "cards_face_down",
        422,
        pgettext_lazy("cards_face_down", "Finish is possible once every card is face up: some still lie face down."),
    )
    FINISH_BLOCKED = (
        "finish_blocked",
        422,
        pgettext_lazy(
            "finish_blocked",
            "The cards cannot go onto the foundations one by one: a card lies on a lower card of its own "
            "suit. Move it first.",
        ),
    )

    # -- friends and clubs (docs/social.md) ------------------------------------------------------
    FOLLOW_SELF = "follow_self", 400, pgettext_lazy("follow_self", "You cannot follow yourself.")
    FOLLOW_LIMIT = (
        "follow_limit",
        400,
        pgettext_lazy("follow_limit", "You already follow {limit} players, the most an account can follow."),
    )
    BAD_CLUB_NAME = (
        "bad_club_name",
        400,
        pgettext_lazy("bad_club_name", "A club's name has 3 to 40 characters, not only spaces."),
    )
    CLUB_NAME_TAKEN = (
        "club_name_taken",
        400,
        pgettext_lazy("club_name_taken", "You are already in a club of that name (in any case)."),
    )
    CLUB_LIMIT = (
        "club_limit",
        400,
        pgettext_lazy("club_limit", "An account owns at most {owned} clubs and is a member of at most {joined}."),
    )
    CLUB_FULL = "club_full", 400, pgettext_lazy("club_full", "This club is full: it has {limit} members.")
    CLUB_OWNER_LIMIT = (
        "club_owner_limit",
        400,
        pgettext_lazy(
            "club_owner_limit", "{name} already owns {limit} clubs, the most an account can own: choose another member."
        ),
    )
    CLUB_NO_HEIR = (
        "club_no_heir",
        400,
        pgettext_lazy(
            "club_no_heir",
            "No other member can take the club over: each already owns {limit} clubs. Delete the club, or leave it "
            "later.",
        ),
    )
    INVITE_EXPIRED = (
        "invite_expired",
        400,
        pgettext_lazy(
            "invite_expired",
            "This invitation is no longer valid (it was revoked, or is older than 7 days): ask the club's owner for a "
            "new link.",
        ),
    )
    PROFILE_HIDDEN = (
        "profile_hidden",
        403,
        pgettext_lazy("profile_hidden", "This player shows their profile only to the players they follow."),
    )
    NOT_CLUB_OWNER = (
        "not_club_owner",
        403,
        pgettext_lazy("not_club_owner", "Only the club's owner can do this."),
    )
    CLUB_REMOVED = (
        "club_removed",
        403,
        pgettext_lazy("club_removed", "The club's owner removed you from this club: only they can let you in again."),
    )

    # -- the server ----------------------------------------------------------------------------
    SERVER_ERROR = "server_error", 500, pgettext_lazy("server_error", "An internal error occurred. Please try again.")
    SERVICE_UNAVAILABLE = (
        "service_unavailable",
        503,
        pgettext_lazy("service_unavailable", "The service is briefly unavailable. Please try again in a few seconds."),
    )


def shown(value: object, limit: int = 40) -> str:
    """A client's value as an error text quotes it (``text=``): at most ``limit`` characters, any
    that would not print as a "?". The quotes are the catalogue's (“…” in English, „…“ in German)."""
    return "".join(char if char.isprintable() else "?" for char in str(value)[:limit])


#: The text of a 400 ``bad_request`` for an unknown ``status`` filter of the game list.
BAD_STATUS = pgettext_lazy("bad_status", "Unknown status “{text}”: allowed are {allowed}.")

#: The text of a 403 ``permission_denied`` for a session request without its CSRF token.
CSRF_FAILED = pgettext_lazy(
    "csrf_failed", "CSRF check failed: send the value of the csrftoken cookie as the X-CSRFToken header."
)

#: ``does_not_fit`` under the relaxed rule, where colour does not matter.
DOES_NOT_FIT_RELAXED = pgettext_lazy(
    "does_not_fit relaxed", "A card fits only on a face-up card that is exactly one rank higher."
)


def explain(reason: str, lang: str | None = None, *, relaxed: bool = False) -> str:
    """The rule a refusal's ``reason`` names, in ``lang`` (default: the active language).

    >>> explain("group_too_large", "en")
    'At most 20 cards can be moved at once.'
    """
    text = DOES_NOT_FIT_RELAXED if relaxed and reason == ErrorCode.DOES_NOT_FIT else ErrorCode.of(reason).text
    if lang is None:
        return str(text)
    with translation.override(lang):
        return str(text)


class ApplicationError(Exception):
    """An answer the API gives on purpose: an :class:`ErrorCode` (its status and text).

    The text is made when the answer is rendered, in the language of the request: the code's own,
    filled with ``params``, unless ``detail`` (a text, lazy or not) replaces it.
    """

    def __init__(
        self,
        code: ErrorCode,
        detail: str | Promise | None = None,
        *,
        headers: Mapping[str, str] | None = None,
        extra: Mapping[str, Any] | None = None,
        **params: object,
    ) -> None:
        if not isinstance(code, ErrorCode):
            raise TypeError(f"an error code must be an ErrorCode member, not {code!r}")
        if extra and not extra.keys().isdisjoint({"error", "detail"}):
            raise ValueError("an error's extra fields come beside its code and text, never instead")
        self.code = code
        self.status = code.status
        self._detail = detail
        self.headers = dict(headers or {})
        self.extra = dict(extra or {})
        self.params = params
        super().__init__(code.value)

    @classmethod
    def refusal(cls, reason: str, *, relaxed: bool = False) -> ApplicationError:
        """422: the rules refuse a move or undo (``games.engine.IllegalMove``'s reason)."""
        code = ErrorCode.of(reason)
        return cls(code, DOES_NOT_FIT_RELAXED if relaxed and code is ErrorCode.DOES_NOT_FIT else None)

    @property
    def detail(self) -> str:
        if self._detail is not None:
            return str(self._detail)
        return self.code.message(**self.params)

    def payload(self) -> dict[str, Any]:
        """The answer's body: the code and the text, and the few fields some codes carry beside them
        (``batch_refused``: where the batch stopped and the game as kept; docs/api.md)."""
        return {**error_body(self.code, self.detail), **self.extra}

    def __str__(self) -> str:
        return f"{self.status} {self.code.value}"


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    """The texts of a DRF error detail (str, list or nested dict) as ``field: text`` lines."""
    if isinstance(detail, Mapping):
        lines: list[str] = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "detail") else f"{prefix}{key}"
            lines.extend(_flatten(value, f"{name}." if name else ""))
        return lines
    if isinstance(detail, list | tuple):
        return [line for item in detail for line in _flatten(item, prefix)]
    text = str(detail)
    return [f"{prefix[:-1]}: {text}" if prefix else text]


def error_body(code: ErrorCode, detail: str | None = None) -> dict[str, str]:
    """An error answer's body; ``detail`` defaults to the code's text in the active language."""
    return {"error": code.value, "detail": code.message() if detail is None else detail}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render ``ApplicationError`` and every DRF/Django client error as ``{"error", "detail"}``."""
    # (not at import time: rest_framework.views reads the API settings, which name
    # accounts.authentication, which imports this module)
    from rest_framework.views import exception_handler as drf_exception_handler

    if isinstance(exc, ApplicationError):
        return Response(exc.payload(), status=exc.status, headers=exc.headers or None)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not a client error: ApiErrorMiddleware answers a JSON 500
    if isinstance(exc, exceptions.ValidationError | exceptions.ParseError):
        code = ErrorCode.BAD_REQUEST  # malformed input of any kind
        detail = code.message() + " " + "; ".join(_flatten(exc.detail))
    else:
        # DRF's own codes (throttled, method_not_allowed...) are members; a code of DRF's that
        # this API never answers is a server error (tests/site/test_every_route.py looks).
        code = ErrorCode.of(str(exc.default_code))
        if isinstance(exc, exceptions.PermissionDenied) and str(exc.detail) != str(exc.default_detail):
            detail = str(exc.detail)  # a refusal that says why (``csrf_failed``'s text)
        else:
            detail = code.message(**_params(exc, context))
    response.data = error_body(code, detail.strip())
    return response


def _params(exc: exceptions.APIException, context: dict[str, Any]) -> dict[str, object]:
    """What the text of a DRF error names: the method, the media type, the wait."""
    request = context.get("request")
    if isinstance(exc, exceptions.MethodNotAllowed):
        return {"method": str(getattr(request, "method", "") or "")[:20]}
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return {"media_type": repr(str(getattr(request, "content_type", "") or "")[:60])}
    if isinstance(exc, exceptions.Throttled):
        return {"wait": max(1, math.ceil(exc.wait or 0))}
    return {}
