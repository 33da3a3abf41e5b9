"""Register, login, logout, me and the play settings (docs/rules.md and docs/api.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import ApiToken, Profile
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "double_click": True,
    "drop_hints": True,
    "interactive_rules": True,
    "auto_drop": False,
    "four_color": False,
}


def test_register_creates_an_account_with_a_working_token(guest):
    response = guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"username", "token", "games_kept"} and body["username"] == "lena" and body["games_kept"] == 0
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get("/api/v1/auth/me").json()["username"] == "lena"
    assert Profile.objects.get(user__username="lena").settings() == DEFAULTS


def test_register_logs_the_session_in(guest):
    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    assert guest.get("/api/v1/auth/me").status_code == 200


def test_a_taken_username_is_refused_whatever_its_case(guest, account):
    assert_error(
        guest.post("/api/v1/auth/register", {"username": account.username.upper(), "password": "Klondike-1896"}),
        400,
        "username_taken",
    )


@pytest.mark.parametrize("password", ["short", "12345678901", "password123"])
def test_a_weak_password_is_refused_with_the_reason(guest, password):
    body = assert_error(
        guest.post("/api/v1/auth/register", {"username": "lena", "password": password}), 400, "weak_password"
    )

    assert body["detail"].startswith("Das Passwort ist zu schwach")
    assert not get_user_model().objects.filter(username="lena").exists()


@pytest.mark.parametrize("username", ["has space", "semi;colon", "", "x" * 151])
def test_a_bad_username_is_refused(guest, username):
    response = guest.post("/api/v1/auth/register", {"username": username, "password": "Klondike-1896"})

    assert response.status_code == 400
    assert response.json()["error"] in {"bad_username", "bad_request"}


@pytest.mark.parametrize("body", [{}, {"username": "lena"}, {"password": "x"}, {"username": ["a"], "password": 1}])
def test_register_without_credentials_is_a_bad_request(guest, body):
    assert_error(guest.post("/api/v1/auth/register", body), 400, "bad_request")


def test_login_answers_the_username_and_the_token(guest, account):
    response = guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"username", "token", "games_kept"} and body["username"] == account.username
    assert body["token"] != factories.token_key(account)  # a new token for every login
    assert APIClient(HTTP_AUTHORIZATION=f"Token {body['token']}").get("/api/v1/auth/me").status_code == 200
    assert guest.get("/api/v1/auth/me").status_code == 200


@pytest.mark.parametrize("password", ["wrong-password", ""])
def test_login_with_bad_credentials_is_400(guest, account, password):
    body = assert_error(
        guest.post(
            "/api/v1/auth/login", {"username": account.username, "password": password}, HTTP_ACCEPT_LANGUAGE="en"
        ),
        400,
        "bad_credentials" if password else "bad_request",
    )
    assert guest.get("/api/v1/auth/me").json()["authenticated"] is False
    if password:
        assert body["detail"] == "The username or password is wrong."


def test_login_of_an_unknown_user_is_the_same_400(guest):
    assert_error(guest.post("/api/v1/auth/login", {"username": "nobody", "password": "x"}), 400, "bad_credentials")


def test_logout_ends_the_session(guest, account):
    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})

    assert guest.post("/api/v1/auth/logout").status_code == 204
    assert guest.get("/api/v1/auth/me").json()["authenticated"] is False


def test_logout_with_a_token_revokes_it(account, player):
    assert player.post("/api/v1/auth/logout").status_code == 204

    assert_error(player.get("/api/v1/auth/me"), 401, "authentication_failed")
    assert not ApiToken.objects.filter(user=account).exists()
    relogin = APIClient().post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})
    assert relogin.status_code == 200 and ApiToken.objects.filter(user=account).count() == 1


def test_a_token_deleted_elsewhere_stops_working_at_once(account, player):
    assert player.get("/api/v1/auth/me").status_code == 200  # the token's account is now cached

    ApiToken.objects.filter(user=account).delete()  # as the admin, or a logout on another web process

    assert_error(player.get("/api/v1/auth/me"), 401, "authentication_failed")


def test_a_deactivated_account_is_refused_at_once(account, player):
    assert player.get("/api/v1/auth/me").status_code == 200

    account.is_active = False
    account.save()

    assert_error(player.get("/api/v1/auth/me"), 401, "authentication_failed")


@pytest.mark.parametrize("change", ["deactivated", "new password", "deleted"])
def test_a_change_of_the_account_ends_its_browser_sessions_at_once(guest, account, change):
    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})
    assert guest.get("/api/v1/auth/me").json()["username"] == account.username  # the account is now cached

    if change == "deactivated":
        account.is_active = False
        account.save()
    elif change == "new password":
        account.set_password("Another-Yukon-1899")
        account.save()
    else:
        account.delete()

    me = guest.get("/api/v1/auth/me")  # the browser is a guest again
    assert me.status_code == 200
    assert me.json()["authenticated"] is False
    assert me.json()["username"] is None


def test_a_renamed_account_shows_its_new_name_to_its_session_at_once(guest, account):
    guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})
    guest.get("/api/v1/auth/me")
    account.username = "renamed"  # (a save drops the cached account)
    account.save()

    assert [guest.get("/api/v1/auth/me").json()["username"] for _ in range(3)] == ["renamed"] * 3


def test_logout_of_a_visitor_is_harmless(guest):
    assert guest.post("/api/v1/auth/logout").status_code == 204


def test_me_answers_a_guest_without_an_error(guest):
    guest.put("/api/v1/auth/settings", {**DEFAULTS, "double_click": False})

    response = guest.get("/api/v1/auth/me")

    assert response.status_code == 200
    assert response.json() == {
        "authenticated": False,
        "username": None,
        "date_joined": None,
        "settings": {**DEFAULTS, "double_click": False},
    }


def test_me_is_still_401_for_a_bad_token_in_its_language():
    bad = APIClient(HTTP_AUTHORIZATION="Token not-a-real-key")
    german = assert_error(bad.get("/api/v1/auth/me"), 401, "authentication_failed")
    english = assert_error(bad.get("/api/v1/auth/me", HTTP_ACCEPT_LANGUAGE="en-US"), 401, "authentication_failed")

    assert german["detail"] != english["detail"]


def test_me_shows_the_account_and_its_settings(account, player):
    body = player.get("/api/v1/auth/me").json()

    assert body["authenticated"] is True
    assert body["username"] == account.username
    assert body["settings"] == DEFAULTS
    assert "date_joined" in body


def test_settings_default_as_the_spec_says_for_guests_and_accounts(guest, player):
    assert guest.get("/api/v1/auth/settings").json() == DEFAULTS
    assert player.get("/api/v1/auth/settings").json() == DEFAULTS


def test_an_account_changes_its_settings_and_they_are_remembered(account, player):
    changed = player.patch("/api/v1/auth/settings", {"auto_drop": True}).json()

    assert changed == {**DEFAULTS, "auto_drop": True}
    assert factories.token_client(account).get("/api/v1/auth/settings").json() == changed
    replaced = {"double_click": False, "drop_hints": False, "interactive_rules": False, "auto_drop": False}
    assert player.put("/api/v1/auth/settings", replaced).json() == {**replaced, "four_color": False}
    assert player.put("/api/v1/auth/settings", {**replaced, "four_color": True}).json()["four_color"] is True
    assert Profile.objects.get(user=account).settings() == {**replaced, "four_color": True}


def test_a_guest_s_four_colour_deck_goes_with_the_account_at_sign_up(guest):
    guest.patch("/api/v1/auth/settings", {"four_color": True})

    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    assert Profile.objects.get(user__username="lena").four_color is True


def test_put_needs_all_four_settings(player):
    assert_error(player.put("/api/v1/auth/settings", {"auto_drop": True}), 400, "bad_request")


def test_settings_must_be_booleans(player):
    assert_error(player.patch("/api/v1/auth/settings", {"auto_drop": "maybe"}), 400, "bad_request")


def test_a_guest_keeps_settings_in_the_session_and_takes_them_into_a_new_account(guest):
    guest.patch("/api/v1/auth/settings", {"double_click": False})
    assert guest.get("/api/v1/auth/settings").json()["double_click"] is False

    guest.post("/api/v1/auth/register", {"username": "lena", "password": "Klondike-1896"})

    assert Profile.objects.get(user__username="lena").double_click is False


def test_an_account_made_elsewhere_gets_default_settings(db):
    user = get_user_model().objects.create_user(username="admin", password="x")
    client = APIClient()
    client.force_authenticate(user)

    assert client.get("/api/v1/auth/me").json()["settings"] == DEFAULTS


def test_login_attempts_are_throttled(guest, account, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "auth": "3/minute"}}
    for _ in range(3):
        guest.post("/api/v1/auth/login", {"username": account.username, "password": "wrong"})

    assert_error(
        guest.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD}),
        429,
        "throttled",
    )


def test_a_session_user_needs_the_csrf_token_for_unsafe_requests(account):
    client = APIClient(enforce_csrf_checks=True)
    client.login(username=account.username, password=factories.PASSWORD)

    refused = client.post("/api/v1/games", {})

    assert_error(refused, 403, "permission_denied")
    client.get("/api/v1/auth/me")
    token = client.cookies["csrftoken"].value
    assert client.post("/api/v1/games", {}, HTTP_X_CSRFTOKEN=token).status_code == 201


def test_a_guest_with_a_session_needs_the_csrf_token_too(db):
    client = APIClient(enforce_csrf_checks=True)
    created = client.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"})  # no session yet: nothing to forge
    assert created.status_code == 201
    url = f"/api/v1/games/{created.json()['id']}/moves"

    assert_error(client.post(url, {"from": "t7", "card": "TS", "to": "t2"}), 403, "permission_denied")
    token = client.cookies["csrftoken"].value
    assert client.post(url, {"from": "t7", "card": "TS", "to": "t2"}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_token_clients_need_no_csrf_token(account):
    client = factories.token_client(account, enforce_csrf_checks=True)

    assert client.post("/api/v1/games", {}).status_code == 201


@pytest.mark.parametrize(
    "backend", ["django.contrib.auth.backends.ModelBackend", "common.authentication.CachedModelBackend"]
)
def test_a_session_logged_in_with_an_earlier_backend_stays_logged_in(account, backend):
    """Sessions name the backend that logged them in: Django's own (before the account cache) or
    the cached one at its first address (``common``, before authentication moved to accounts)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from common.sessions import SessionStore

    store = SessionStore()
    store.update({SESSION_KEY: str(account.pk), BACKEND_SESSION_KEY: backend})
    store[HASH_SESSION_KEY] = account.get_session_auth_hash()
    store.save()
    browser = APIClient()
    browser.cookies["sessionid"] = store.session_key

    assert browser.get("/api/v1/auth/me").json()["username"] == account.username
