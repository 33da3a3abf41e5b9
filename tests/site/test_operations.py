"""What an operator relies on: health probes, 503 (never 500) while a dependency is down,
request ids and JSON logs without cards, rate limits, and production security settings."""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pythonjsonlogger.json import JsonFormatter
from rest_framework.test import APIClient

from common.observability import RequestIdFilter
from games.competition import clock
from games.models import DailyDeal, Game
from tests import factories
from tests.support import assert_error, card_names_in, never_seen_cards

ROOT = Path(__file__).resolve().parents[2]
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def dead_redis(settings: Any) -> None:
    settings.REDIS_URL = DEAD_REDIS
    settings.CACHES = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": DEAD_REDIS}}


def test_healthz_answers_without_touching_dependencies(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


DAILY_CODE = "YU2-C-SRPCCPFOWVUCYUNEZFCOBUCFOLZYPIOTXQRWAIZVZOBHCEWX"


def _today_deal(**fields: Any) -> DailyDeal:
    return DailyDeal.objects.create(**{"date": clock.today(), "code": DAILY_CODE, "solution_length": 97, **fields})


@pytest.fixture
def operator(settings: Any) -> dict[str, str]:
    """The headers of the operator's requests (the token /metrics and /readyz's details answer to)."""
    settings.METRICS_TOKEN = "operator-token-for-the-tests"
    return {"HTTP_AUTHORIZATION": "Bearer operator-token-for-the-tests"}


@pytest.mark.django_db
def test_readyz_tells_the_public_only_whether_the_site_is_ready(client: Client, operator: dict[str, str]) -> None:
    _today_deal()
    assert client.get("/readyz").json() == {"status": "ok"}
    assert client.get("/readyz", HTTP_AUTHORIZATION="Bearer a-guess").json() == {"status": "ok"}
    assert set(client.get("/readyz", **operator).json()) == {"status", "checks"}


@pytest.mark.django_db
def test_readyz_is_ok_with_the_database_and_todays_certified_deal(client: Client, operator: dict[str, str]) -> None:
    _today_deal()
    response = client.get("/readyz", **operator)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {
            "database": "ok",
            "redis": "ok" if os.environ.get("REDIS_URL") else "not configured",
            "daily_deal": "ok",
        },
    }
    assert DAILY_CODE.encode() not in response.content


@pytest.mark.django_db
def test_readyz_is_503_without_a_certified_deal_for_today_and_says_only_what_is_missing(
    client: Client, operator: dict[str, str]
) -> None:
    _today_deal(date=clock.today() - timedelta(days=1))  # yesterday's deal is no use today
    _today_deal(date=None, solution_length=None)  # nor a spare the solver did not certify
    response = client.get("/readyz", **operator)
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["checks"]["daily_deal"] == "missing"
    assert body["checks"]["database"] == "ok" and set(body) == {"status", "checks"}
    assert DAILY_CODE.encode() not in response.content


@pytest.mark.django_db
def test_readyz_counts_a_certified_spare_as_ready_and_leaves_it_spare(client: Client, operator: dict[str, str]) -> None:
    spare = _today_deal(date=None)
    response = client.get("/readyz", **operator)
    assert response.status_code == 200 and response.json()["checks"]["daily_deal"] == "ok"
    spare.refresh_from_db()
    assert spare.date is None  # the probe gave no deal a date: the first request of the day does


@pytest.mark.django_db
def test_readyz_does_not_ask_for_the_deal_while_the_database_is_down(
    client: Client, monkeypatch: Any, operator: dict[str, str]
) -> None:
    _today_deal()
    monkeypatch.setattr("common.health._database_ok", lambda: False)
    response = client.get("/readyz", **operator)
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "down" and response.json()["checks"]["daily_deal"] == "unknown"


@pytest.mark.django_db
def test_readyz_is_503_while_redis_is_unreachable(client: Client, dead_redis: None, operator: dict[str, str]) -> None:
    _today_deal()
    response = client.get("/readyz", **operator)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "redis": "down", "daily_deal": "ok"},
    }


@pytest.mark.django_db
def test_a_move_while_redis_is_down_is_503_with_retry_after_and_changes_nothing(player: Any, settings: Any) -> None:
    state = player.post("/api/v1/games", {"rule": "classic"}).json()
    settings.CACHES = {"default": {"BACKEND": "common.cache.RedisCache", "LOCATION": DEAD_REDIS}}
    response = player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])
    assert_error(response, 503, "service_unavailable")
    assert response["Retry-After"] == "5"
    assert Game.objects.get(pk=state["id"]).moves == 0


@pytest.mark.django_db
def test_every_answer_carries_a_request_id_and_a_sane_one_is_kept(player: Any) -> None:
    fresh = player.get("/api/v1/games")
    assert len(fresh["X-Request-ID"]) == 32
    kept = player.get("/api/v1/games", HTTP_X_REQUEST_ID="lb-1234.abc")
    assert kept["X-Request-ID"] == "lb-1234.abc"
    replaced = player.get("/api/v1/games", HTTP_X_REQUEST_ID="bad id\n" + "x" * 100)
    assert replaced["X-Request-ID"] != "bad id"


@pytest.mark.django_db
def test_logs_are_json_lines_with_the_request_id_and_no_card(player: Any) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"))
    handler.addFilter(RequestIdFilter())
    logging.getLogger().addHandler(handler)
    try:
        state = player.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}, HTTP_X_REQUEST_ID="req-one").json()
        player.post(f"/api/v1/games/{state['id']}/moves", {"from": "t7", "card": "AS", "to": "t1"})
        player.post(f"/api/v1/games/{state['id']}/moves", state["legal_moves"][0])
    finally:
        logging.getLogger().removeHandler(handler)
    records = [json.loads(line) for line in lines]
    access = [r for r in records if r.get("message") == "request"]
    assert any(r["request_id"] == "req-one" and r["status"] == 201 for r in access), records
    assert [r["status"] for r in access][-2:] == [422, 200]
    assert not card_names_in("\n".join(lines)) & never_seen_cards(state["id"])


@pytest.mark.django_db
def test_moves_are_rate_limited_per_player(player: Any, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "moves": "3/minute"},
    }
    state = player.post("/api/v1/games", {"rule": "classic"}).json()
    for _ in range(3):
        assert_error(player.post(f"/api/v1/games/{state['id']}/undo", {}), 422, "nothing_to_undo")
    response = player.post(f"/api/v1/games/{state['id']}/undo", {})
    assert_error(response, 429, "throttled")
    assert "Retry-After" in response


@pytest.mark.django_db
def test_wrong_passwords_are_limited_per_name_and_address_and_never_lock_the_owner_out(
    guest: Any, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "login_username": "2/minute"},
    }
    factories.user(username="Victim")
    for _ in range(2):
        response = guest.post("/api/v1/auth/login", {"username": "Victim", "password": "guess"}, REMOTE_ADDR="10.0.0.1")
        assert_error(response, 400, "bad_credentials")
    stranger = guest.post("/api/v1/auth/login", {"username": "victim", "password": "x"}, REMOTE_ADDR="10.0.0.1")
    assert_error(stranger, 429, "throttled")

    owner = APIClient().post(
        "/api/v1/auth/login", {"username": "Victim", "password": factories.PASSWORD}, REMOTE_ADDR="10.0.0.2"
    )

    assert owner.status_code == 200


@pytest.mark.django_db
def test_wrong_passwords_for_many_names_meet_the_limit_per_address(guest: Any, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth_ip": "3/minute"},
    }
    for name in ("anna", "bert", "carl"):
        guest.post("/api/v1/auth/login", {"username": name, "password": "guess"}, REMOTE_ADDR="10.0.0.7")
    response = APIClient().post("/api/v1/auth/login", {"username": "dora", "password": "x"}, REMOTE_ADDR="10.0.0.7")

    assert_error(response, 429, "throttled")


def test_production_settings_pass_djangos_deployment_checks() -> None:
    # A fresh production process: nothing inherited from the test run (e.g. the browser tests'
    # DJANGO_ALLOW_ASYNC_UNSAFE, which the deployment check rightly flags).
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "REDIS_URL": "redis://127.0.0.1:6379/0",  # (not connected to: a check needs none)
        "SECURE_HSTS_PRELOAD": "1",
        "ALLOWED_HOSTS": "yukon.example",
        "SITE_URL": "https://yukon.example",
    }
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'yukon_site.settings'); django.setup(); from django.conf import settings as s; "
            "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.stdout.split() == ["31536000", "True", "True", "True"], probe.stderr


def test_production_refuses_to_start_without_redis() -> None:
    """Found by an outside audit: with DEBUG=0 and no REDIS_URL the service started with a cache
    of each process's own (rate limits per process, revoked tokens alive elsewhere)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'yukon_site.settings'; django.setup()",
        ],
        cwd=ROOT,
        env={**env, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    assert "ImproperlyConfigured" in out.stderr and "set REDIS_URL" in out.stderr, out.stderr[-2000:]


def test_production_refuses_to_start_with_the_public_development_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    out = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**env, "DEBUG": "0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "SECRET_KEY" in out.stderr


@pytest.mark.django_db
def test_the_admin_is_for_staff_only(player: Any, account: Any) -> None:
    client = Client()
    client.force_login(account)
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_a_forged_forwarded_for_header_does_not_dodge_the_per_ip_limit(guest, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "auth_ip": "2/minute"}}
    for n in range(2):
        response = guest.post(
            "/api/v1/auth/login", {"username": f"u{n}", "password": "x"}, HTTP_X_FORWARDED_FOR=f"10.9.9.{n}"
        )
        assert_error(response, 400, "bad_credentials")
    response = guest.post("/api/v1/auth/login", {"username": "u9", "password": "x"}, HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert_error(response, 429, "throttled")


@pytest.mark.django_db
def test_the_access_log_keeps_no_token_of_an_invite_or_a_mailed_link(caplog: pytest.LogCaptureFixture) -> None:
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from accounts.links import email_confirmation_token, email_undo_token
    from social import services as social

    owner = factories.user(username="Olga")
    invite = social.invite_make(club=social.club_create(user=owner, name="Stammtisch"))
    uid = urlsafe_base64_encode(force_bytes(owner.pk))
    secrets_sent = {
        f"/clubs/join/{invite}": invite,
        f"/account/email/{email_confirmation_token(user_id=owner.pk, email='new@example.com')}": "",
        f"/account/email-undo/{email_undo_token(user_id=owner.pk, previous='olga@example.com')}": "",
        f"/account/reset/{uid}/{default_token_generator.make_token(owner)}": "",
    }
    browser = Client()
    browser.force_login(owner)
    with caplog.at_level(logging.INFO, logger="yukon.access"):
        for path in secrets_sent:
            browser.get(path)
    logged = [record.path for record in caplog.records if record.name == "yukon.access"]

    assert logged == [
        "/clubs/join/[token]",
        "/account/email/[token]",
        "/account/email-undo/[token]",
        "/account/reset/[token]",
    ]
    tokens = [path.rsplit("/", 1)[1] for path in secrets_sent]
    assert not [token for token in tokens if any(token in line for line in caplog.text.splitlines())]
