"""Changing the password (``POST auth/password``): the current session or token stays, every other
session and token of the account ends (docs/accounts.md, issue 26 item 5)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.actions.tokens import token_issue
from accounts.models import ApiToken, LoginSession
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

NEW = "Chilkoot-Pass-1897"
CHANGE = {"old_password": factories.PASSWORD, "new_password": NEW}


def _browser(username: str, password: str = factories.PASSWORD, agent: str = "Mozilla/5.0 Firefox/133.0") -> APIClient:
    client = APIClient(HTTP_USER_AGENT=agent)
    response = client.post("/api/v1/auth/login", {"username": username, "password": password})
    assert response.status_code == 200, response.content
    client.login_token = response.json()["token"]
    return client


def _with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _me(client: APIClient) -> dict:
    return client.get("/api/v1/auth/me").json()


def test_a_new_password_keeps_this_session_and_ends_the_others_and_their_tokens(account):
    here = _browser(account.username)
    there = _browser(account.username, agent="Mozilla/5.0 (iPhone) Safari/605.1")
    bot = factories.token_client(account)

    response = here.post("/api/v1/auth/password", {"old_password": factories.PASSWORD, "new_password": NEW})

    assert response.status_code == 204
    assert _me(here)["authenticated"] is True
    assert _me(there)["authenticated"] is False
    assert bot.get("/api/v1/auth/me").status_code == 401
    assert _with_token(there.login_token).get("/api/v1/auth/me").status_code == 401
    assert _with_token(here.login_token).get("/api/v1/auth/me").status_code == 200  # this session's own
    assert list(ApiToken.objects.filter(user=account).values_list("name", flat=True)) == ["login"]
    assert [row["current"] for row in here.get("/api/v1/auth/sessions").json()] == [True]
    old_login = {"username": account.username, "password": factories.PASSWORD}
    assert_error(APIClient().post("/api/v1/auth/login", old_login), 400, "bad_credentials")
    assert APIClient().post("/api/v1/auth/login", {"username": account.username, "password": NEW}).status_code == 200


def test_a_session_logged_in_before_the_list_existed_ends_too(account):
    """A session without a row (logged in before the list existed) ends by Django's session hash."""
    here = _browser(account.username)
    there = _browser(account.username)
    LoginSession.objects.filter(user=account).delete()

    assert here.post("/api/v1/auth/password", CHANGE).status_code == 204

    assert _me(here)["authenticated"] is True
    assert _me(there)["authenticated"] is False


def test_a_token_client_keeps_its_token_and_ends_every_session(account):
    browser = _browser(account.username)
    bot = factories.token_client(account)
    other = _with_token(token_issue(user=account, name="other")[1])

    assert bot.post("/api/v1/auth/password", CHANGE).status_code == 204

    assert bot.get("/api/v1/auth/me").status_code == 200
    assert other.get("/api/v1/auth/me").status_code == 401
    assert _me(browser)["authenticated"] is False


def test_a_wrong_old_password_changes_nothing(account):
    here = _browser(account.username)
    there = _browser(account.username)

    wrong = {"old_password": "not-it-at-all", "new_password": NEW}
    body = assert_error(here.post("/api/v1/auth/password", wrong), 400, "wrong_password")

    assert "stimmt nicht" in body["detail"]
    account.refresh_from_db()
    assert account.check_password(factories.PASSWORD)
    assert _me(there)["authenticated"] is True


@pytest.mark.parametrize("new_password", ["short", "12345678901", "password123"])
def test_a_weak_new_password_is_refused_with_django_s_reasons(account, new_password):
    here = _browser(account.username)

    body = assert_error(
        here.post(
            "/api/v1/auth/password",
            {"old_password": factories.PASSWORD, "new_password": new_password},
            HTTP_ACCEPT_LANGUAGE="en",
        ),
        400,
        "weak_password",
    )

    assert body["detail"].startswith("The password is too weak")
    account.refresh_from_db()
    assert account.check_password(factories.PASSWORD)


def test_a_guest_cannot_change_a_password(guest):
    response = guest.post("/api/v1/auth/password", {"old_password": "x", "new_password": NEW})

    assert response.status_code in (401, 403)


def test_log_out_everywhere_else_ends_the_other_sessions_and_their_login_tokens(account):
    here = _browser(account.username)
    there = _browser(account.username, agent="Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile")
    bot = factories.token_client(account)
    listed = here.get("/api/v1/auth/sessions").json()
    assert sorted((row["user_agent"], row["current"]) for row in listed) == [
        ("Chrome, Android", False),
        ("Firefox", True),
    ]

    response = here.delete("/api/v1/auth/sessions")

    assert response.status_code == 200 and response.json() == {"ended": 1}
    assert _me(here)["authenticated"] is True
    assert _me(there)["authenticated"] is False
    assert _with_token(there.login_token).get("/api/v1/auth/me").status_code == 401
    assert bot.get("/api/v1/auth/me").status_code == 200  # an API token is not a session
    assert [row["current"] for row in here.get("/api/v1/auth/sessions").json()] == [True]
