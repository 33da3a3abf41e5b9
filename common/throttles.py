"""Request rate limits: DRF throttles by player, by IP address, by the username or e-mail address
a request names.

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the environment,
:mod:`common.limits`). Each limited operation gets two: one per player (account, or guest session)
and one per IP, so one client cannot flood the service by switching accounts, nor one account from
many addresses.

Counting is a fixed window (a minute from each full minute, a day from 00:00 UTC): one counter per
limit and window in the cache, added to atomically (:mod:`common.counters`). An operation's limits
are one DRF throttle (:class:`RateLimits`, made by :func:`throttles`), so they count in one round
trip to Redis, and the view's ``check_throttles`` is DRF's own. A request over a limit counts too,
so a client that keeps sending stays refused until the window ends; ``Retry-After`` says when.

DRF's own ``SimpleRateThrottle`` keeps the time of every request of the window as a list that it
reads, extends and writes back (not atomically: simultaneous requests all slip under the limit),
which at thousands of moves a minute from one address cost more than the move. What counting
together saves against it is what ``bench/path_bench.py`` prints (``make bench``).
"""

from __future__ import annotations

import hashlib
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from . import counters
from .requests import client_address

#: The windows of DRF's rate syntax ``N/second|minute|hour|day`` (by the first letter).
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_of(scope: str) -> tuple[int, int] | None:
    """The limit of ``scope`` and its window in seconds, or None when the scope has no rate.
    Read at request time, so that a change of the settings applies at once."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    if rate is None:
        return None
    count, period = str(rate).split("/")
    return int(count), _PERIODS[period[0]]


@dataclass(frozen=True)
class Window:
    """One limit's counter for the window a request falls in."""

    counter: str
    limit: int
    seconds: int  # the window's length
    ends_at: float
    wait: float  # seconds from the request to the end of the window

    @property
    def counted(self) -> tuple[str, int]:
        """The counter and how long it is kept (a second beyond its window)."""
        return self.counter, self.seconds + 1


class RateThrottle(BaseThrottle):
    """The rate of ``scope`` per :meth:`ident` of a request (None: not limited by it); it counts
    only inside :class:`RateLimits`, with the other limits of its operation."""

    timer = staticmethod(time.time)  # (held still by the tests, as DRF's SimpleRateThrottle.timer)

    def __init__(self, scope: str) -> None:
        self.scope = scope

    def ident(self, request: Any) -> str | None:
        raise NotImplementedError

    def window(self, request: Any) -> Window | None:
        """This request's window of the limit, or None when it does not apply."""
        rate = rate_of(self.scope)
        if rate is None:
            return None
        ident = self.ident(request)
        if ident is None:
            return None
        limit, seconds = rate
        now = self.timer()
        number = int(now // seconds)
        # Hashed: the ident may be any text a client sent, of any length, and cache keys must stay
        # short and free of control characters.
        digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        ends_at = float((number + 1) * seconds)
        return Window(f"throttle:{self.scope}:{digest}:{number}", limit, seconds, ends_at, max(0.0, ends_at - now))


class RateLimits(BaseThrottle):
    """Several limits as one DRF throttle: all count at once, in one round trip; a request over any
    of them is refused, and told to wait until each limit it is over starts a new window."""

    def __init__(self, *limits: RateThrottle) -> None:
        self.limits = limits
        self._wait: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        windows = [window for limit in self.limits if (window := limit.window(request)) is not None]
        counts = counters.add_one([window.counted for window in windows])
        waits = [window.wait for window, count in zip(windows, counts, strict=True) if count > window.limit]
        self._wait = max(waits) if waits else None
        return not waits

    def wait(self) -> float | None:
        return self._wait


class PlayerThrottle(RateThrottle):
    """Per account (whichever way it authenticated: session or any of its tokens), else per guest
    session, else per IP."""

    def ident(self, request: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"user:{user.pk}"
        session = getattr(request, "session", None)
        if session is not None and session.session_key:
            return f"session:{session.session_key}"
        return f"ip:{client_address(request)}"


class IpThrottle(RateThrottle):
    def ident(self, request: Any) -> str | None:
        return str(client_address(request))


class UsernameThrottle(RateThrottle):
    """Per username named in the body *and* address: slows guessing one account's password from
    one address, and never locks the owner out from another (docs/accounts.md): a stranger's tries
    count only in the stranger's buckets. Guessing from many addresses meets the per-IP limit of
    each."""

    def ident(self, request: Any) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        return self.username_ident(data.get("username"), client_address(request))

    @staticmethod
    def username_ident(username: object, address: str | None) -> str | None:
        # NFKC first, as Django's login form does before it looks the name up: the admin logs
        # "ｂｏｓｓ" (full-width) or "𝐛𝐨𝐬𝐬" (mathematical bold) in as "boss", so each such spelling
        # must count in the one bucket of the name, not open a fresh one. Case-folded: one bucket
        # whatever the case (login takes a name in any case).
        if not isinstance(username, str) or not username:
            return None
        name = unicodedata.normalize("NFKC", username).strip().casefold()[:150]
        return f"{address}\n{name}"


class FormUsernameThrottle(UsernameThrottle):
    """Per username and address of a login form (the admin's): the same counter as the API login's."""

    def ident(self, request: Any) -> str | None:
        return self.username_ident(request.POST.get("username"), client_address(request))


class EmailThrottle(RateThrottle):
    """Per e-mail address named in the body (case-folded): the password-reset mails to one address,
    whoever asks. It counts the same for an address with an account and one without, so its 429
    tells nobody which is which."""

    def ident(self, request: Any) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        email = data.get("email")
        if not isinstance(email, str) or not email.strip():
            return None
        return unicodedata.normalize("NFKC", email).strip().casefold()[:254]


def throttles(*scopes: str, by: tuple[type[RateThrottle], ...] = (PlayerThrottle, IpThrottle)) -> list[BaseThrottle]:
    """One limit of each kind in ``by`` for each scope, in order (scopes pair with kinds), counted
    together: what :class:`Limits` gives a request."""
    return [RateLimits(*(kind(scope) for kind, scope in zip(by, scopes, strict=True)))]


@dataclass(frozen=True, slots=True)
class Limits:
    """An operation's rate limits, as a view declares them (``rate_limits`` of
    :class:`common.api.ApiView`): the scopes, and the kind that counts each (per player, per IP,
    per name or address given)."""

    scopes: tuple[str, ...]
    by: tuple[type[RateThrottle], ...]

    def throttles(self) -> list[BaseThrottle]:
        return throttles(*self.scopes, by=self.by)


def limits(*scopes: str, by: tuple[type[RateThrottle], ...] = (PlayerThrottle, IpThrottle)) -> Limits:
    """The declaration of an operation's limits: ``limits("moves", "moves_ip")`` counts per player
    and per IP."""
    if len(scopes) != len(by):
        raise ValueError("one kind of limit for each scope")
    return Limits(scopes, by)


class AddressQuota:
    """How many things (accounts: scope ``signup_ip``) one client address may make per window of
    the scope's rate (``5/day``: per UTC day, the windows start at 00:00 UTC). Unlike a throttle it
    counts only what was made: :meth:`take` counts one ahead, atomically (simultaneous requests
    cannot all slip under the limit), and :meth:`give_back` returns it when nothing was made."""

    def __init__(self, scope: str) -> None:
        self._limit = IpThrottle(scope)
        self._taken: Window | None = None
        self._window: Window | None = None

    def rate(self) -> tuple[int, int] | None:
        """The limit and its window in seconds, or None when the scope has no rate."""
        return rate_of(self._limit.scope)

    def used(self, request: Any) -> int:
        """How many the request's address has made in the current window (nothing counted)."""
        window = self._limit.window(request)
        return 0 if window is None else counters.count(window.counter)

    def take(self, request: Any) -> float | None:
        """Count one more for the request's address; None if within the limit, else the seconds
        to the end of the window (nothing is taken then)."""
        window = self._window = self._limit.window(request)
        if window is None:
            return None
        (count,) = counters.add_one([window.counted])
        if count > window.limit:
            return window.wait
        self._taken = window
        return None

    def window_end(self) -> float:
        """When the window of the last :meth:`take` ends (seconds since the epoch)."""
        return self._window.ends_at if self._window is not None else 0.0

    def give_back(self) -> None:
        """Undo the last :meth:`take` (nothing was made)."""
        if self._taken is not None:
            counters.take_one(self._taken.counter)
            self._taken = None


def page_wait(request: Any, *scopes: str) -> float | None:
    """Count a page view outside the API in the limits of ``scopes`` (per player, then per IP, as
    :func:`limits` pairs them); how long to wait when it is over one (None: go on)."""
    counted = RateLimits(*(kind(scope) for kind, scope in zip((PlayerThrottle, IpThrottle), scopes, strict=True)))
    return None if counted.allow_request(request, None) else counted.wait() or 0.0


def login_form_wait(request: Any) -> float | None:
    """Count an attempt at a login form outside the API (the admin's) in the API login's limits
    per IP and per username, so that neither door adds guesses to the other; returns how long to
    wait when the attempt is over a limit (None: go on)."""
    limits = RateLimits(IpThrottle("auth_ip"), FormUsernameThrottle("login_username"))
    return None if limits.allow_request(request, None) else limits.wait() or 0.0
