"""Which address the per-IP limits count: X-Forwarded-For only from proxies the settings trust.

Found by an outside audit: ``docker-compose.yml`` published the web port directly while
``.env.example`` set ``NUM_PROXIES=1``, so a client's own ``X-Forwarded-For`` chose its bucket. Now
the compose file publishes only the edge (Caddy, which writes the client's address into that
header whatever the client sent: tests/faults/test_edge.py) and trusts exactly it; a web process
that clients reach directly trusts nothing (the settings' default).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.support import assert_error

ROOT = Path(__file__).resolve().parents[2]


def _env_example() -> dict[str, str]:
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "=" in line:
            name, value = line.split("=", 1)
            values[name.strip()] = value.strip()
    return values


def _compose_default(value: str) -> str:
    """What ``${NAME:-default}`` in the compose file gives when ``.env`` does not set NAME."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def _limit_registrations(settings: Any, num_proxies: int) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "NUM_PROXIES": num_proxies,
        "DEFAULT_THROTTLE_RATES": {**rates, "auth": "1000/minute", "auth_ip": "3/minute"},
    }


def _register(n: int, **headers: str) -> Any:
    # A fresh client each time (no session cookie): nothing but the address ties them together.
    return APIClient().post("/api/v1/auth/register", {"username": f"rotor{n}", "password": "Klondike-1896"}, **headers)


def test_the_shipped_configuration_trusts_the_edge_alone() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())

    # Only the edge is published; the web process is reachable from it alone, and trusts it.
    published = {name for name, service in compose["services"].items() if service.get("ports")}
    assert published == {"caddy"}
    assert _env_example()["NUM_PROXIES"] == "1"
    for service in ("web", "worker", "beat", "migrate"):
        assert _compose_default(str(compose["services"][service]["environment"]["NUM_PROXIES"])) == "1"


@pytest.mark.django_db
def test_rotating_forwarded_for_does_not_escape_the_registration_throttle(settings: Any) -> None:
    # The code's default: a web process that clients reach directly trusts no X-Forwarded-For.
    num_proxies = settings.REST_FRAMEWORK["NUM_PROXIES"]
    assert num_proxies == 0
    _limit_registrations(settings, num_proxies)

    for n in range(3):
        assert _register(n, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code == 201

    assert_error(_register(3, HTTP_X_FORWARDED_FOR="203.0.113.99"), 429, "throttled")


@pytest.mark.django_db
def test_behind_one_trusted_balancer_the_address_it_appends_counts(settings: Any) -> None:
    _limit_registrations(settings, 1)
    # The balancer appends the address it saw: what the client wrote before it changes nothing.
    for n in range(3):
        assert _register(n, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}, 192.0.2.7").status_code == 201
    assert_error(_register(3, HTTP_X_FORWARDED_FOR="198.51.100.9, 192.0.2.7"), 429, "throttled")

    # Another client behind the same balancer has a bucket of its own.
    assert _register(4, HTTP_X_FORWARDED_FOR="192.0.2.8").status_code == 201
