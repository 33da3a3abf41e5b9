"""API tokens: one per login, revoked by that login's logout; listed, made and revoked on demand.

Found by an outside audit: a session's logout left the API token valid, and every login returned
the same token, so a token once seen stayed good for ever.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.actions import tokens
from accounts.models import ApiToken
from tests import factories
from tests.support import assert_error

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/auth/tokens"


def log_in(client: APIClient, account: Any) -> str:
    response = client.post("/api/v1/auth/login", {"username": account.username, "password": factories.PASSWORD})
    assert response.status_code == 200
    return str(response.json()["token"])


def with_token(key: str) -> APIClient:
    return APIClient(HTTP_AUTHORIZATION=f"Token {key}")


def test_the_sessions_logout_revokes_the_token_its_login_returned(account: Any) -> None:
    browser = APIClient()
    key = log_in(browser, account)
    assert with_token(key).get("/api/v1/auth/me").status_code == 200  # (now in the token cache)

    assert browser.post("/api/v1/auth/logout").status_code == 204

    assert_error(with_token(key).get("/api/v1/auth/me"), 401, "authentication_failed")
    assert with_token(factories.token_key(account)).get("/api/v1/auth/me").status_code == 200  # others stay


def test_a_sessions_next_login_revokes_the_token_of_its_last(account: Any) -> None:
    browser = APIClient()
    first = log_in(browser, account)

    second = log_in(browser, account)

    assert_error(with_token(first).get("/api/v1/auth/me"), 401, "authentication_failed")
    assert with_token(second).get("/api/v1/auth/me").status_code == 200
    assert ApiToken.objects.filter(user=account).count() == 2  # the factory's and the second


def test_every_login_returns_a_new_token_and_a_logout_with_one_revokes_only_that_one(account: Any) -> None:
    first, second = log_in(APIClient(), account), log_in(APIClient(), account)
    assert first != second

    assert with_token(first).post("/api/v1/auth/logout").status_code == 204

    assert_error(with_token(first).get("/api/v1/auth/me"), 401, "authentication_failed")
    assert with_token(second).get("/api/v1/auth/me").status_code == 200


def test_the_list_shows_ones_own_tokens_without_their_keys(account: Any, player: APIClient) -> None:
    key = log_in(APIClient(), account)
    factories.user()  # another account's token is not listed

    body = player.get(TOKENS).json()

    assert [token["name"] for token in body] == ["login", "factory"]
    assert {tuple(sorted(token)) for token in body} == {
        ("created_at", "current", "id", "last_used_at", "name", "prefix")
    }
    login_token, own = body
    assert key.startswith(login_token["prefix"]) and len(login_token["prefix"]) == 8
    assert own["current"] is True and login_token["current"] is False
    assert own["last_used_at"] is not None and login_token["last_used_at"] is None
    assert key not in str(body) and factories.token_key(account) not in str(body)


def test_a_new_token_on_demand_works_and_its_key_is_shown_once(account: Any, player: APIClient) -> None:
    response = player.post(TOKENS, {"name": "my bot"})

    assert response.status_code == 201
    made = response.json()
    assert made["name"] == "my bot" and made["current"] is False and made["token"].startswith(made["prefix"])
    assert with_token(made["token"]).get("/api/v1/auth/me").json()["username"] == account.username
    assert all("token" not in listed for listed in player.get(TOKENS).json())
    assert player.post(TOKENS, {}).json()["name"] == "api"


def test_revoking_a_token_ends_it_at_once(account: Any, player: APIClient) -> None:
    made = player.post(TOKENS, {"name": "bot"}).json()
    bot = with_token(made["token"])
    assert bot.get("/api/v1/auth/me").status_code == 200  # cached

    assert player.delete(f"{TOKENS}/{made['id']}").status_code == 204

    assert_error(bot.get("/api/v1/auth/me"), 401, "authentication_failed")
    assert_error(player.delete(f"{TOKENS}/{made['id']}"), 404, "not_found")


def test_a_token_of_another_account_cannot_be_revoked(player: APIClient) -> None:
    other = factories.user()

    assert_error(player.delete(f"{TOKENS}/{other.token.pk}"), 404, "not_found")
    assert with_token(factories.token_key(other)).get("/api/v1/auth/me").status_code == 200


def test_revoking_the_token_of_the_request_itself_works(account: Any, player: APIClient) -> None:
    assert player.delete(f"{TOKENS}/{account.token.pk}").status_code == 204

    assert_error(player.get(TOKENS), 401, "authentication_failed")


def test_a_session_manages_tokens_with_the_csrf_token(account: Any) -> None:
    browser = APIClient(enforce_csrf_checks=True)
    log_in(browser, account)
    assert [token["current"] for token in browser.get(TOKENS).json()] == [True, False]  # its login's token

    assert_error(browser.post(TOKENS, {}), 403, "permission_denied")
    made = browser.post(TOKENS, {}, HTTP_X_CSRFTOKEN=browser.cookies["csrftoken"].value)
    assert made.status_code == 201


def test_visitors_have_no_tokens(guest: APIClient) -> None:
    assert_error(guest.get(TOKENS), 401, "not_authenticated")
    assert_error(guest.post(TOKENS, {}), 401, "not_authenticated")
    assert_error(guest.delete(f"{TOKENS}/1"), 401, "not_authenticated")


def test_an_account_keeps_at_most_ten_tokens_losing_the_oldest_never_used(account: Any, player: APIClient) -> None:
    player.get("/api/v1/auth/me")  # the factory's token is in use
    keys = [tokens.token_issue(user=account, name=f"t{n}")[1] for n in range(tokens.MAX_TOKENS)]

    assert ApiToken.objects.filter(user=account).count() == tokens.MAX_TOKENS
    assert_error(with_token(keys[0]).get("/api/v1/auth/me"), 401, "authentication_failed")  # made, never used
    assert player.get("/api/v1/auth/me").status_code == 200
    for key in keys[1:]:
        assert with_token(key).get("/api/v1/auth/me").status_code == 200

    # All used now: the next one replaces the one used longest ago (the factory's).
    tokens.token_issue(user=account, name="one more")
    assert_error(player.get("/api/v1/auth/me"), 401, "authentication_failed")


def test_the_database_keeps_no_key(account: Any) -> None:
    key = factories.token_key(account)

    stored = ApiToken.objects.get(user=account)
    assert key not in {stored.digest, stored.name} and stored.prefix == key[:8] and len(stored.digest) == 64


@pytest.mark.parametrize("name", ["x" * 61, "\u0085" + "*" * 60, ["a"], None])  # (61 as sent, 60 once trimmed)
def test_a_bad_token_name_is_refused(player: APIClient, name: Any) -> None:
    assert_error(player.post(TOKENS, {"name": name}, format="json"), 400, "bad_request")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_drf_tokens_working_and_their_keys_leave_the_old_table() -> None:
    before = [("accounts", "0002_username_unique_whatever_its_case")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    created = "timestamp with time zone" if connection.vendor == "postgresql" else "datetime"
    key = "0123456789abcdef0123456789abcdef01234567"
    try:
        User = executor.loader.project_state(before).apps.get_model("auth", "User")
        user = User.objects.create(username="veteran")
        with connection.cursor() as cursor:
            cursor.execute(
                f"CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created {created}, user_id integer)"
            )
            cursor.execute(
                "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
                [key, datetime(2026, 1, 2, 3, 4, tzinfo=UTC), user.pk],
            )

        call_command("migrate", "accounts", verbosity=0)

        assert with_token(key).get("/api/v1/auth/me").json()["username"] == "veteran"
        assert ApiToken.objects.get().created_at == datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM authtoken_token")
            assert cursor.fetchone() == (0,)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS authtoken_token")
        call_command("migrate", "accounts", verbosity=0)


def test_an_accounts_tokens_share_its_rate_limit(account: Any, settings: Any) -> None:
    """Per player, whichever of its tokens it sends: ten tokens do not make ten limits."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "game_start": "2/minute"}}
    _, second = tokens.token_issue(user=account, name="second")
    first_client, second_client = factories.token_client(account), factories.token_client(account)
    second_client.credentials(HTTP_AUTHORIZATION=f"Token {second}")

    assert first_client.post("/api/v1/games", {"rule": "classic"}).status_code == 201
    assert second_client.post("/api/v1/games", {"rule": "classic"}).status_code == 201
    refused = second_client.post("/api/v1/games", {"rule": "classic"})

    assert_error(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 60
    other = factories.token_client(factories.user())
    assert other.post("/api/v1/games", {"rule": "classic"}).status_code == 201
