"""Links between accounts (docs/fair-play.md, "One person, one result"): each start of today's deal
records its device id (cookie) and a salted hash of its network (IPv4 /24, IPv6 /64; the address
the rate limits count, ``common.requests.client_address``). The salt is derived from
``SECRET_KEY`` and the date (HMAC), so it rotates daily and nothing secret is stored; rows are kept
``FAIRPLAY_RETENTION_DAYS`` (30) days. Evidence for staff (the review queue's linked accounts): since
every account has its own arrangement of the face-down cards (issue 46), a link alone holds no win
(``linked`` is no longer given)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q

from common.devices import device_of
from common.requests import client_address
from games.models import DailyStartLink, Game

LINKED = "linked"


@dataclass(frozen=True, slots=True)
class Origin:
    device: str  # the device id cookie, or ""
    address: str  # the client address (never stored), or ""

    @classmethod
    def of(cls, request: Any) -> Origin:
        return cls(device=device_of(request), address=client_address(request))


def network_hash(address: str, day: date) -> str:
    """The day's salted hash of the address's network (IPv4 /24, IPv6 /64); "" if not an address."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    network = ipaddress.ip_network(f"{ip}/{prefix}", strict=False)
    salt = hmac.new(settings.SECRET_KEY.encode(), f"fairplay:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return hmac.new(salt, str(network).encode(), hashlib.sha256).hexdigest()


def device_hash(device: str) -> str:
    return hashlib.sha256(device.encode()).hexdigest() if device else ""


def start_record(*, game: Game, origin: Origin | None) -> None:
    """Record where a start of a day's deal came from (an account's game)."""
    if origin is None or game.daily is None or game.owner_id is None:
        return
    DailyStartLink.objects.create(
        game=game,
        user_id=game.owner_id,
        day=game.daily,
        device=device_hash(origin.device),
        address=network_hash(origin.address, game.daily),
        created_at=game.created_at,
    )


def linked_users(*, game: Game, before_own_start: bool) -> set[Any]:
    """The other accounts that share a device or network with ``game``'s account on its day
    (with ``before_own_start``: only those that started before this account's first start)."""
    if game.daily is None or game.owner_id is None:
        return set()
    own = list(
        DailyStartLink.objects.filter(day=game.daily, user_id=game.owner_id).values("device", "address", "created_at")
    )
    devices = {row["device"] for row in own if row["device"]}
    addresses = {row["address"] for row in own if row["address"]}
    if not own or not (devices or addresses):
        return set()
    others = (
        DailyStartLink.objects.filter(day=game.daily)
        .exclude(user_id=game.owner_id)
        .filter(Q(device__in=devices) | Q(address__in=addresses))
    )
    if before_own_start:
        others = others.filter(created_at__lt=min(row["created_at"] for row in own))
    return set(others.values_list("user_id", flat=True))


def links_prune(*, now: datetime) -> int:
    """Delete the link rows older than ``FAIRPLAY_RETENTION_DAYS``; returns how many."""
    deleted, _ = DailyStartLink.objects.filter(
        created_at__lt=now - timedelta(days=settings.FAIRPLAY_RETENTION_DAYS)
    ).delete()
    return deleted
