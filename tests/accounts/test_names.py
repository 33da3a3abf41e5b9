"""Logging in takes the name in any case and width; names that pretend to be the site are reserved
(docs/accounts.md, issue 26)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def login(username: str, password: str = factories.PASSWORD) -> Any:
    return APIClient().post("/api/v1/auth/login", {"username": username, "password": password})


@pytest.mark.parametrize("spelling", ["Jonas", "jonas", "JONAS", "jOnAs", "ｊｏｎａｓ", "ＪＯＮＡＳ"])
def test_login_takes_the_name_in_any_case_and_width(spelling: str) -> None:
    factories.user(username="Jonas")

    response = login(spelling)

    assert response.status_code == 200
    assert response.json()["username"] == "Jonas"


def test_a_wrong_password_in_another_case_is_still_refused() -> None:
    factories.user(username="Jonas")

    assert_error(login("jonas", "not-the-password"), 400, "bad_credentials")


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin",
        "ADMINISTRATOR",
        "root",
        "staff",
        "Support",
        "moderator",
        "system",
        "yukon",
        "deleted",
        "ad.min",
        "Sup_Port",
        "ａｄｍｉｎ",
    ],
)
def test_a_reserved_name_is_refused(name: str) -> None:
    response = APIClient().post(
        "/api/v1/auth/register", {"username": name, "password": "Klondike-1896"}, HTTP_ACCEPT_LANGUAGE="en"
    )

    body = assert_error(response, 400, "username_reserved")
    assert "reserved" in body["detail"]
    assert not get_user_model().objects.exists()


def test_the_reserved_names_are_a_setting(settings: Any) -> None:
    settings.RESERVED_USERNAMES = [*settings.RESERVED_USERNAMES, "klondike"]

    assert_error(
        APIClient().post("/api/v1/auth/register", {"username": "Klondike", "password": "Klondike-1896"}),
        400,
        "username_reserved",
    )
    assert (
        APIClient().post("/api/v1/auth/register", {"username": "adminfan", "password": "Klondike-1896"}).status_code
        == 201
    )
