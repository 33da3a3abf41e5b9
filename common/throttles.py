"""Request rate limits (DRF throttles) by player and by IP address.

What counting in one round trip saves against DRF's own ``SimpleRateThrottle`` is what
``bench/path_bench.py`` prints (``make bench``; the last figures, with their date, in the README's
"Tests and benchmarks").

Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from the environment). Each
limited operation gets both: one per player (account, or guest session) and one per IP, so one
client cannot flood the service by switching accounts, nor one account from many addresses.

Counting is a fixed window with one atomic ``incr`` in the cache per request and throttle; all
the throttles of a request count in one round trip to Redis (:func:`throttle_waits`, called by
``ApiView.check_throttles``). DRF's own throttle keeps the time of every request of the window
as a list that it reads, unpickles, extends, pickles and writes back each time: at thousands of
moves a minute from one address that list alone cost more than the move.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from .authentication import request_token, session_user_id, token_digest


class _Throttle(SimpleRateThrottle):
    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()

    def key(self, ident: object) -> str:
        """The cache key of ``ident`` (hashed: it may be any text a client sent, of any length, and
        cache keys must stay short and free of control characters)."""
        digest = hashlib.sha256(str(ident).encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def get_rate(self) -> str | None:
        # Read at request time (DRF binds its class attribute at import), so settings changes apply.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view: APIView) -> bool:
        # This limit alone (ApiView counts all of a request's limits at once instead).
        counted, _ = _count_limits([self], request, view)
        return not over_limit(counted)

    def counter(self, request: Request, view: APIView) -> tuple[str, int] | None:
        """The counter of this request's window and its lifetime, or None when not limited."""
        self.rate = self.get_rate()
        if self.rate is None:
            return None
        self.num_requests, self.duration = self.parse_rate(self.rate)
        key = self.get_cache_key(request, view)
        if key is None:
            return None
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_end = (window + 1) * self.duration
        return f"{key}:{window}", int(self.duration) + 1

    def wait(self) -> float | None:
        return max(0.0, self.window_end - self.now)


class PlayerThrottle(_Throttle):
    """Per account, or per guest session (per IP for a request with neither).

    A token client counts by its token: so the counter is known before the token is looked up, and
    both go to Redis in one round trip (``ApiView.initial``). An account holds at most
    ``accounts.services.MAX_TOKENS`` tokens, and the per-IP limit counts all of them together.
    """

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        token = request_token(request)
        if token is not None:
            ident = f"token:{token_digest(token)}"
        elif (user_id := session_user_id(request)) is not None:  # known before the account is read
            ident = f"user:{user_id}"
        elif request.user and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        elif getattr(request, "session", None) is not None and request.session.session_key:
            ident = f"session:{request.session.session_key}"
        else:
            ident = f"ip:{self.get_ident(request)}"
        return self.key(ident)


class IpThrottle(_Throttle):
    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.key(self.get_ident(request))


class AddressQuota:
    """How many things (accounts: scope ``signup_ip``) one client address may make per window of
    the scope's rate (``5/day``: per UTC day, the windows start at 00:00 UTC). Unlike a throttle it
    counts only what was made: :meth:`take` counts one ahead, atomically (simultaneous requests
    cannot all slip under the limit), and :meth:`give_back` returns it when nothing was made."""

    def __init__(self, scope: str) -> None:
        self._limit = IpThrottle(scope)
        self._taken: str | None = None

    def rate(self) -> tuple[int, int] | None:
        """The limit and its window in seconds, or None when the scope has no rate."""
        rate = self._limit.get_rate()
        if rate is None:
            return None
        num, duration = self._limit.parse_rate(rate)
        return (int(num), int(duration)) if num is not None and duration is not None else None

    def take(self, request: Any) -> float | None:
        """Count one more for the request's address; None if within the limit, else the seconds
        to the end of the window (nothing is taken then)."""
        counter = self._limit.counter(request, None)  # type: ignore[arg-type]
        if counter is None:
            return None
        (count,), _ = _count([counter])
        if count > self._limit.num_requests:
            return self._limit.wait()
        self._taken = counter[0]
        return None

    def window_end(self) -> float:
        """When the window of the last :meth:`take` ends (seconds since the epoch)."""
        return float(self._limit.window_end)

    def give_back(self) -> None:
        """Undo the last :meth:`take` (nothing was made)."""
        if self._taken is None:
            return
        try:
            caches[DEFAULT_CACHE_ALIAS].decr(self._taken)
        except ValueError:  # expired meanwhile: nothing to give back
            pass
        self._taken = None


class UsernameThrottle(_Throttle):
    """Per username named in the body *and* address: slows guessing one account's password from
    one address, and never locks the owner out from another (docs/accounts.md): a stranger's tries
    count only in the stranger's buckets. Guessing from many addresses meets the per-IP limit of
    each."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        return self.username_key(data.get("username"), self.get_ident(request))

    def username_key(self, username: object, address: str | None) -> str | None:
        # NFKC first, as Django's login form does before it looks the name up: the admin logs
        # "ｂｏｓｓ" (full-width) or "𝐛𝐨𝐬𝐬" (mathematical bold) in as "boss", so each such spelling
        # must count in the one bucket of the name, not open a fresh one. Case-folded: one bucket
        # whatever the case (login takes a name in any case).
        if not isinstance(username, str) or not username:
            return None
        name = unicodedata.normalize("NFKC", username).strip().casefold()[:150]
        return self.key(f"{address}\n{name}")


class EmailThrottle(_Throttle):
    """Per e-mail address named in the body (case-folded): the password-reset mails to one address,
    whoever asks. It counts the same for an address with an account and one without, so its 429
    tells nobody which is which."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        data = request.data if isinstance(request.data, dict) else {}
        email = data.get("email")
        if not isinstance(email, str) or not email.strip():
            return None
        return self.key(unicodedata.normalize("NFKC", email).strip().casefold()[:254])


class FormUsernameThrottle(UsernameThrottle):
    """Per username and address of a login form (the admin's): the same counter as the API login's."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.username_key(request.POST.get("username"), self.get_ident(request))


def login_form_wait(request: HttpRequest) -> float | None:
    """Count an attempt at a login form outside the API (the admin's) in the API login's limits
    per IP and per username, so that neither door adds guesses to the other; returns how long to
    wait when the attempt is over a limit (None: go on)."""
    limits = throttles("auth_ip", "login_username", by=(IpThrottle, FormUsernameThrottle))
    counted, _ = _count_limits(limits, request, None)  # type: ignore[arg-type]
    waits = [limit.wait() or 0.0 for limit, count in counted if count > limit.num_requests]
    return max(waits) if waits else None


Counted = list[tuple["_Throttle", int]]  # each limit that applies, with its new count
_COUNTED = "_yukon_counted"  # on the Django request: the limits counted ahead, with their counts
NOT_READ = object()


def count_ahead(limits: list[BaseThrottle], request: Request, view: APIView, *, read: str) -> Any:
    """On Redis: count this request in every limit and read the cache entry ``read``, in one round
    trip; returns the entry (None if absent), or ``NOT_READ`` on the in-process cache. The counted
    limits are kept for :func:`throttle_waits`. Only for limits whose counters need no authentication."""
    if not isinstance(caches[DEFAULT_CACHE_ALIAS], RedisCache):
        return NOT_READ
    counted, entry = count_with_entry(limits, request, read=read)
    setattr(request._request, _COUNTED, counted)
    return entry


def count_with_entry(limits: list[BaseThrottle], request: Request, *, read: str) -> tuple[Counted, Any]:
    """Count this request in every limit and read the cache entry ``read`` (None if absent): one
    round trip to Redis (or the in-process cache)."""
    return _count_limits([limit for limit in limits if isinstance(limit, _Throttle)], request, None, read)


def over_limit(counted: Counted) -> bool:
    return any(count > limit.num_requests for limit, count in counted)


def throttle_waits(limits: list[BaseThrottle], request: Request, view: APIView) -> list[float]:
    """Count this request in every limit at once (one round trip to Redis for all of them, unless
    :func:`count_ahead` counted it already); returns how long to wait for each limit it goes over
    (empty: allowed)."""
    waits = [
        limit.wait() or 0.0
        for limit in limits
        if not isinstance(limit, _Throttle) and not limit.allow_request(request, view)
    ]
    counted = getattr(request._request, _COUNTED, None)
    if counted is None:
        counted, _ = _count_limits([limit for limit in limits if isinstance(limit, _Throttle)], request, view)
    return waits + [limit.wait() or 0.0 for limit, count in counted if count > limit.num_requests]


def _count_limits(
    limits: list[_Throttle], request: Request, view: APIView | None, read: str | None = None
) -> tuple[Counted, Any]:
    """Each limit that applies to the request with its new count, and the cache entry ``read``."""
    applying = [(limit, counter) for limit in limits if (counter := limit.counter(request, view)) is not None]
    if not applying and read is None:
        return [], None
    counts, entry = _count([counter for _, counter in applying], read=read)
    return [(limit, count) for (limit, _), count in zip(applying, counts, strict=True)], entry


def _count(counters: list[tuple[str, int]], read: str | None = None) -> tuple[list[int], Any]:
    """Add one to each counter and return the new values (and the cache entry ``read``): one
    round trip to Redis (GET, then INCR and EXPIRE NX of each counter, pipelined), or add() and
    incr() on the in-process cache of the embedded default."""
    backend = caches[DEFAULT_CACHE_ALIAS]  # the backend itself (``cache`` is a proxy of it)
    if isinstance(backend, RedisCache):
        # make_key, not make_and_validate_key: the names are ours (hashed idents), and the
        # memcached-style check walks every character of them on every request.
        client = backend._cache.get_client(write=True)
        pipe = client.pipeline(transaction=False)
        if read is not None:
            pipe.get(backend.make_key(read))
        for counter, ttl in counters:
            name = backend.make_key(counter)
            pipe.incr(name)
            pipe.expire(name, ttl, nx=True)
        replies = pipe.execute()
        entry = None
        if read is not None:
            raw = replies.pop(0)
            entry = None if raw is None else backend._cache._serializer.loads(raw)
        return [int(value) for value in replies[::2]], entry
    entry = None if read is None else backend.get(read)
    return [_count_here(counter, ttl, backend) for counter, ttl in counters], entry


def _count_here(counter: str, ttl: int, backend: Any) -> int:
    backend.add(counter, 0, timeout=ttl)
    try:
        return int(backend.incr(counter))
    except ValueError:  # expired between add() and incr()
        backend.add(counter, 1, timeout=ttl)
        return 1


def throttles(*scopes: str, by: tuple[type[_Throttle], ...] = (PlayerThrottle, IpThrottle)) -> list[BaseThrottle]:
    """One throttle of each kind in ``by`` for each scope, in order; scopes pair with kinds."""
    return [kind(scope) for kind, scope in zip(by, scopes, strict=True)]


def client_address(request: Any) -> str:
    """The client's address as the per-IP limits count it (``NUM_PROXIES`` applies)."""
    return str(BaseThrottle().get_ident(request) or "")
