"""Sign-ups per network address are limited per UTC day (docs/fair-play.md, issue 24 item 3): five
by default (``THROTTLE_SIGNUP_IP``), counted per client address as the rate limits count it, only
accounts actually made; over it, 429 ``signup_limit`` with ``Retry-After``, and the sign-up page
says the limit in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from common.throttles import RateThrottle
from tests.support import assert_error

pytestmark = pytest.mark.django_db

#: 2027-01-15 08:00:30 UTC: the limits' clock, held (15 h 59 min 30 s before the next UTC day).
NOW = 1_800_000_030.0
TO_MIDNIGHT = 86_400 - int(NOW) % 86_400


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [NOW]
    monkeypatch.setattr(RateThrottle, "timer", lambda self: now[0])
    return now


def sign_up(name: str, address: str = "203.0.113.7", password: str = "Klondike-1896", **extra: str) -> Any:
    # A fresh client each time (no session cookie): nothing but the address ties them together.
    return APIClient().post(
        "/api/v1/auth/register", {"username": name, "password": password}, REMOTE_ADDR=address, **extra
    )


def test_the_sixth_account_of_an_address_in_a_day_is_refused_until_the_next_utc_day() -> None:
    for n in range(5):
        assert sign_up(f"scout{n}").status_code == 201

    refused = sign_up("scout5", HTTP_ACCEPT_LANGUAGE="en")

    assert_error(refused, 429, "signup_limit")
    assert int(refused["Retry-After"]) == TO_MIDNIGHT
    assert refused.json()["detail"] == (
        "No more accounts can be created from your network address until 00:00 UTC. "
        "New accounts from one network address: at most 5 per day."
    )
    assert not get_user_model().objects.filter(username="scout5").exists()


def test_the_refusal_says_so_in_german() -> None:
    for n in range(5):
        sign_up(f"scout{n}")

    refused = sign_up("scout5", HTTP_ACCEPT_LANGUAGE="de")

    assert refused.status_code == 429
    assert "00:00 UTC" in refused.json()["detail"] and "höchstens 5 pro Tag" in refused.json()["detail"]


def test_the_next_utc_day_counts_anew(clock: list[float]) -> None:
    for n in range(5):
        sign_up(f"scout{n}")
    assert sign_up("early").status_code == 429

    clock[0] = NOW + TO_MIDNIGHT  # 00:00:00 UTC of the next day

    assert sign_up("early").status_code == 201


def test_another_address_has_its_own_count() -> None:
    for n in range(5):
        sign_up(f"scout{n}")

    assert sign_up("neighbour", address="198.51.100.7").status_code == 201


def test_failed_sign_ups_do_not_count() -> None:
    get_user_model().objects.create_user("taken", password="Klondike-1896")
    for _ in range(3):
        assert_error(sign_up("taken"), 400, "username_taken")
        assert_error(sign_up("weakling", password="123"), 400, "weak_password")

    assert [sign_up(f"player{n}").status_code for n in range(6)] == [201] * 5 + [429]


def test_a_forged_forwarded_for_does_not_escape_it(settings: Any) -> None:
    # NUM_PROXIES 0 (the shipped default): the header is ignored, the connection's address counts.
    for n in range(5):
        assert sign_up(f"scout{n}", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code == 201

    assert sign_up("scout5", HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_behind_a_trusted_balancer_the_client_address_counts(settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    balancer = "10.0.0.2"
    for n in range(5):
        assert sign_up(f"scout{n}", address=balancer, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 201

    assert sign_up("scout5", address=balancer, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 429
    assert sign_up("other", address=balancer, HTTP_X_FORWARDED_FOR="203.0.113.10").status_code == 201


def test_the_limit_is_a_setting(settings: Any) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "signup_ip": "2/day"}}

    assert [sign_up(f"player{n}").status_code for n in range(3)] == [201, 201, 429]
    page = Client().get("/signup", HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="203.0.113.7").content.decode()
    assert "New accounts from one network address: at most 2 per day." in page


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "New accounts from one network address: at most 5 per day."), ("de", "höchstens 5 pro Tag")],
)
def test_the_sign_up_page_says_the_limit_once_it_applies(language: str, words: str) -> None:
    """Not to every newcomer (issue 49 item 5): once an account was made from the address today."""
    address = "203.0.113.7"
    assert words not in Client().get("/signup", HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address).content.decode()
    assert sign_up("first", address=address).status_code == 201

    page = Client().get("/signup", HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR=address).content.decode()

    assert words in page
    assert (
        words not in Client().get("/signup", HTTP_ACCEPT_LANGUAGE=language, REMOTE_ADDR="198.51.100.1").content.decode()
    )
    assert words not in Client().get("/login", HTTP_ACCEPT_LANGUAGE=language).content.decode()
