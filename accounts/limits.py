"""The limit of new accounts per network address (docs/fair-play.md, "One person, one result":
accounts cost nothing, and a second one is a scouting tool): the rate of the scope ``signup_ip``
(``THROTTLE_SIGNUP_IP``, default ``5/day``: per UTC day), counted per client address as the rate
limits count it (``NUM_PROXIES`` applies), and said in words on the sign-up page and in the error."""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

from common.throttles import AddressQuota

SIGNUP_SCOPE = "signup_ip"

#: The windows a rate can have (DRF's ``N/second|minute|hour|day``), as words.
_PERIODS = {
    1: pgettext_lazy("signup.limit.period", "second"),
    60: pgettext_lazy("signup.limit.period", "minute"),
    3600: pgettext_lazy("signup.limit.period", "hour"),
    86400: pgettext_lazy("signup.limit.period", "day"),
}


def signup_quota() -> AddressQuota:
    return AddressQuota(SIGNUP_SCOPE)


def signup_limit_words(request: Any | None = None) -> str:
    """The limit in the active language ("New accounts from one network address: at most 5 per
    day."), or "" when there is none; with ``request``, also "" while its address has made no
    account in this window (the sign-up page names the limit only when it applies: issue 49)."""
    quota = signup_quota()
    if request is not None and quota.used(request) == 0:
        return ""
    rate = quota.rate()
    if rate is None:
        return ""
    count, seconds = rate
    period = _PERIODS.get(seconds)
    if period is None:  # not a rate DRF makes
        return ""
    return pgettext("signup.limit", "New accounts from one network address: at most {count} per {period}.").format(
        count=count, period=period
    )
