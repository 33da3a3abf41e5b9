"""What a request says about its client, in one place: the client's address.

Everything that counts or records a client by its address (the per-IP rate limits, the sign-up
quota, the daily deal's fair-play links) asks here, so they agree on which address that is.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import BaseThrottle


def client_address(request: Any) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``NUM_PROXIES`` proxies the address the
    nearest of them saw in ``X-Forwarded-For`` (DRF's rule, ``REST_FRAMEWORK["NUM_PROXIES"]``)."""
    return str(BaseThrottle().get_ident(request) or "")
