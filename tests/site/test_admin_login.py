"""The admin's login is rate-limited like the API login: per IP and per username, the same counters.

Found by an outside audit: ``/admin/login/`` took any number of password guesses.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests import factories

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"


@pytest.fixture
def staff(db: Any) -> Any:
    return get_user_model().objects.create_superuser("boss", password=factories.PASSWORD)


def _rates(settings: Any, **rates: str) -> None:
    current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**current, **rates}}


def _attempt(client: Client, username: str, password: str, address: str = "10.1.1.1", **headers: str) -> Any:
    return client.post(
        LOGIN, {"username": username, "password": password, "next": "/admin/"}, REMOTE_ADDR=address, **headers
    )


def _logged_in(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def test_the_right_password_logs_staff_in_under_the_limit(staff: Any) -> None:
    client = Client()

    response = _attempt(client, "boss", factories.PASSWORD)

    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert _logged_in(client)


def test_over_the_per_username_and_address_limit_even_the_right_password_is_refused(staff: Any, settings: Any) -> None:
    _rates(settings, login_username="2/minute")
    for _ in range(2):
        assert _attempt(Client(), "boss", "guess", "10.0.0.1").status_code == 200  # the form's "wrong password"
    client = Client()

    response = _attempt(client, "BOSS", factories.PASSWORD, "10.0.0.1", HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert "Too many requests" in response.content.decode()
    assert 'name="username"' in response.content.decode()  # the login page, with its error
    assert not _logged_in(client)
    assert _attempt(Client(), "boss", factories.PASSWORD, "10.0.0.2").status_code == 302  # the owner, elsewhere


def test_over_the_per_ip_limit_even_the_right_password_is_refused(staff: Any, settings: Any) -> None:
    _rates(settings, auth_ip="2/minute")
    for name in ("someone", "else"):
        _attempt(Client(), name, "guess", "10.0.0.9")
    client = Client()

    response = _attempt(client, "boss", factories.PASSWORD, "10.0.0.9")

    assert response.status_code == 429
    assert "Zu viele Anfragen" in response.content.decode()
    assert not _logged_in(client)
    assert _attempt(Client(), "boss", factories.PASSWORD, "10.0.0.10").status_code == 302  # another address


def test_guesses_at_the_api_login_count_for_the_admin_login_too(staff: Any, settings: Any, guest: Any) -> None:
    _rates(settings, login_username="2/minute")
    for _ in range(2):
        guest.post("/api/v1/auth/login", {"username": "boss", "password": "guess"}, REMOTE_ADDR="10.0.0.1")

    assert _attempt(Client(), "boss", factories.PASSWORD, "10.0.0.1").status_code == 429


def test_looking_at_the_login_page_counts_nothing(staff: Any, settings: Any) -> None:
    _rates(settings, auth_ip="1/minute")
    for _ in range(3):
        assert Client().get(LOGIN, REMOTE_ADDR="10.0.0.5").status_code == 200

    assert _attempt(Client(), "boss", factories.PASSWORD, "10.0.0.5").status_code == 302


@pytest.mark.parametrize("spelling", ["ｂｏｓｓ", "𝐛𝐨𝐬𝐬"])
def test_another_unicode_spelling_of_the_name_counts_in_its_limit(staff: Any, settings: Any, spelling: str) -> None:
    """The admin's form logs ``ｂｏｓｓ`` (full-width) or ``𝐛𝐨𝐬𝐬`` (mathematical bold) in as ``boss``
    (Django's login form NFKC-normalises the name): such a spelling must not open a per-username
    bucket of its own, or each of the many spellings of a name would get its own guesses."""
    _rates(settings, login_username="3/minute")
    assert _attempt(Client(), spelling, factories.PASSWORD, "10.0.0.20").status_code == 302  # it is boss
    for _ in range(2):
        _attempt(Client(), "boss", "guess", "10.0.0.20")
    client = Client()

    response = _attempt(client, spelling, factories.PASSWORD, "10.0.0.20")

    assert response.status_code == 429
    assert not _logged_in(client)


@pytest.mark.parametrize("next_page", ["https://evil.example/", "//evil.example/admin/", ""])
def test_a_login_with_a_foreign_or_no_next_lands_on_the_admin(client: Client, staff: Any, next_page: str) -> None:
    response = client.post(
        LOGIN, {"username": "boss", "password": factories.PASSWORD, "next": next_page}, REMOTE_ADDR="10.1.1.9"
    )
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get(response["Location"]).status_code == 200
