"""The account page /account and what it reads: the language of an account, its sessions
(docs/accounts.md, issue 26 item 6)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.test import APIClient

from accounts.actions.sessions import login_sessions_prune
from accounts.models import LoginSession
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db


def _browser(account, **headers: str) -> APIClient:
    client = APIClient(**headers)
    login = {"username": account.username, "password": factories.PASSWORD}
    assert client.post("/api/v1/auth/login", login).status_code == 200
    return client


def test_a_guest_is_sent_to_log_in_and_back():
    response = Client().get("/account")

    assert response.status_code == 302 and response["Location"] == "/login?next=/account"


def test_the_page_shows_the_account_and_links_export_and_deletion(account):
    browser = _browser(account)

    page = browser.get("/account", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert account.username in page
    for part in ('id="email-form"', 'id="password-form"', 'id="sessions-list"', 'id="tokens-list"'):
        assert part in page
    assert 'href="/api/v1/games/export?format=csv"' in page
    assert 'href="/account/delete"' in page


def test_the_account_s_language_follows_it_to_another_browser(account):
    here = _browser(account)

    answer = here.put("/api/v1/auth/language", {"language": "en"})

    assert answer.status_code == 200 and answer.json() == {"language": "en"}
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    there = _browser(account, HTTP_ACCEPT_LANGUAGE="de")
    assert there.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en"' in there.get("/account").content.decode()
    assert there.get("/api/v1/auth/me").json()["language"] == "en"


def test_an_unknown_language_is_refused(player):
    assert_error(player.put("/api/v1/auth/language", {"language": "fr"}), 400, "bad_request")


def test_a_session_is_noted_at_most_once_a_minute(account):
    browser = _browser(account, HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17.0 Safari/604.1")
    row = LoginSession.objects.get(user=account)
    seen = row.last_seen_at

    for _ in range(3):
        browser.get("/api/v1/auth/me")

    row.refresh_from_db()
    assert row.last_seen_at == seen
    assert row.user_agent == "Safari, iPhone"
    [listed] = browser.get("/api/v1/auth/sessions").json()
    assert listed["current"] is True and listed["user_agent"] == "Safari, iPhone"


def test_a_logged_out_session_is_not_listed(account):
    gone = _browser(account)
    here = _browser(account)
    gone.post("/api/v1/auth/logout")

    assert [row["current"] for row in here.get("/api/v1/auth/sessions").json()] == [True]


def test_a_token_client_sees_the_sessions_but_none_is_its_own(account, player):
    _browser(account)

    assert [row["current"] for row in player.get("/api/v1/auth/sessions").json()] == [False]


def test_the_rows_of_ended_sessions_go(account):
    here = _browser(account)
    gone = _browser(account)
    gone_key = gone.session.session_key
    gone.post("/api/v1/auth/logout")  # a logout takes its row along
    expired = _browser(account)
    Session.objects.filter(session_key=expired.session.session_key).delete()  # as clearsessions does

    login_sessions_prune()

    assert list(LoginSession.objects.values_list("session_key", flat=True)) == [here.session.session_key]
    assert gone_key != here.session.session_key
