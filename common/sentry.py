"""Error reports to Sentry, only when ``SENTRY_DSN`` is set (settings.py calls :func:`sentry_init`;
without it the SDK is never initialised and nothing is sent).

With Sentry's Django and Celery integrations: an unhandled error in a request (which
``common.middleware.ApiErrorMiddleware`` logs before it answers 500) and a failing task are reported,
with their tracebacks. A face-down card or a daily code must never leave the server (docs/fair-play.md), so an
event carries no local variables (``include_local_variables=False``), no request body
(``max_request_body_size="never"``), no cookies or user (``data_collection``), and
:func:`scrub_event` goes over what is left before it is sent:
request bodies, cookies and credentials removed, frames' variables and breadcrumbs' data dropped,
values under a game's keys (``state``, ``code``...) and credentials' keys filtered, and any game code or run of card
names in any text replaced.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from sentry_sdk.scrubber import DEFAULT_DENYLIST, DEFAULT_PII_DENYLIST

from .observability import path_logged

if TYPE_CHECKING:
    from sentry_sdk._types import Event

#: Keys whose values are a game's secrets wherever they appear in an event: a game's state and its
#: columns (``t``) and hidden count (``h``), codes, the engine's columns and face-down counts; and
#: Sentry's own list of passwords, tokens, cookies... (its ``EventScrubber`` is not used with
#: ``data_collection``: :func:`scrub_event` filters them).
GAME_KEYS = ["state", "code", "codes", "game_code", "letters", "c", "t", "h", "columns", "down", "tableau", "cards"]
_DENIED = frozenset(key.lower() for key in [*GAME_KEYS, *DEFAULT_DENYLIST, *DEFAULT_PII_DENYLIST])
_CODE = re.compile(r"YU[12]-[CR]-[A-Za-z]+", re.IGNORECASE)
#: A word of two or more card names (a column of a stored state: "8h9DTS9CJH5C", face-down in lower
#: case). A word of lower-case hex digits is left alone: it is an id ("4c5d" in a UUID), not a column,
#: whose last card is face up, in upper case.
_CARD_RUN = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQKatjqk][SHDCshdc]){2,}(?![A-Za-z0-9])")
_HEX = re.compile(r"[0-9a-f]+")
# The stored state's columns (games.engine.Game.to_state): seven runs of letters, one a card,
# joined by commas.
_STATE_COLUMNS = re.compile(r"(?<![A-Za-z0-9,])[A-Za-z]*(?:,[A-Za-z]*){6}(?![A-Za-z0-9,])")
_CREDENTIAL_HEADERS = {"cookie", "authorization", "x-csrftoken", "proxy-authorization"}
FILTERED = "[Filtered]"


def scrub_text(text: str) -> str:
    """``text`` without a game code, a run of card names or a stored state's columns."""
    text = _CODE.sub("[code]", text)
    text = _STATE_COLUMNS.sub("[cards]", text)
    return _CARD_RUN.sub(lambda match: match[0] if _HEX.fullmatch(match[0]) else "[cards]", text)


def _scrub_strings(value: Any) -> Any:
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {
            key: FILTERED if isinstance(key, str) and key.lower() in _DENIED else _scrub_strings(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [_scrub_strings(item) for item in value]
    return value


def _frames(event: dict[str, Any]) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    for kind in ("exception", "threads"):
        for entry in (event.get(kind) or {}).get("values") or []:
            frames += (entry.get("stacktrace") or {}).get("frames") or []
    return frames


def scrub_event(event: Event, hint: dict[str, Any]) -> Event:
    """Sentry's ``before_send``: the event without anything that could name a card or a code."""
    data = cast(dict[str, Any], event)
    request = data.get("request")
    if isinstance(request, dict):
        request.pop("data", None)  # the body
        request.pop("cookies", None)
        if isinstance(request.get("url"), str):
            request["url"] = path_logged(request["url"])  # (an invite's or a mailed link's token)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {k: v for k, v in headers.items() if k.lower() not in _CREDENTIAL_HEADERS}
    for frame in _frames(data):
        frame.pop("vars", None)
    for crumb in (data.get("breadcrumbs") or {}).get("values") or []:
        crumb.pop("data", None)  # e.g. a query's parameters
    return cast("Event", _scrub_strings(data))


def sentry_init(*, dsn: str, environment: str, transport: Any = None) -> None:
    """Start reporting to ``dsn`` (``transport``: the tests' fake one)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        # What the integrations collect: no user (id, address), cookies, request bodies, query
        # parameters or frames' variables.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_bodies": [],
            "database_query_data": False,
            "stack_frame_variables": False,
        },
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrub_event,
        traces_sample_rate=None,  # errors only: no performance tracing
        transport=transport,
    )
