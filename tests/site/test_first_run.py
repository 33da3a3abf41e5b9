"""The first run and the language (issue 41 items 5 and 6): `make run` serves on `PORT` with the
site's own error pages (DEBUG off; `make dev` for Django's debug pages), and the footer's language
switch (``POST /language``) keeps a guest's choice in a cookie and an account's in its setting."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import Profile
from tests import factories

ROOT = Path(settings.BASE_DIR)


def _recipe(target: str, **variables: str) -> list[str]:
    """The commands `make <target>` runs (make -n; the install step taken as done)."""
    assigned = [f"{name}={value}" for name, value in variables.items()]
    out = subprocess.run(
        ["make", "-n", "-o", "install", target, f"PY={sys.executable}", *assigned],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k not in ("DEBUG", "PORT")},
    )
    return [line for line in out.stdout.splitlines() if line.strip() and not line.startswith("make")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_make_run_serves_on_port_with_the_sites_own_error_pages(tmp_path: Path) -> None:
    port = _free_port()
    serve = _recipe("run", PORT=str(port))[-1]
    assert serve.endswith(f"manage.py runserver 127.0.0.1:{port}") and "DEBUG=0" in serve
    # As a newcomer runs it: no Redis, no secret key, nothing collected; a database of its own.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    server = subprocess.Popen(
        ["sh", "-c", f"{serve} --noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(120):
            try:
                status, body = _get(f"{base}/no-such-page")
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                time.sleep(0.25)
        else:
            raise AssertionError("make run's server did not answer")
        assert status == 404
        assert 'class="topbar"' in body and "Seite nicht gefunden" in body  # the site's own page
        assert "URLconf" not in body and "DEBUG = True" not in body  # not Django's list of every URL
        status, css = _get(f"{base}/static/frontend/app.css")  # the static files, without collectstatic
        assert status == 200 and ".topbar" in css
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def test_make_dev_is_for_developers_with_djangos_debug_pages() -> None:
    assert "DEBUG=1" in _recipe("dev")[-1]  # (make dev: make run DEBUG=1)
    assert "DEBUG=1" in [line for line in _recipe("run", DEBUG="1") if "runserver" in line][0]
    assert shlex.split(_recipe("run")[-1])[-1] == "127.0.0.1:8000"  # the README's address, without PORT


def _switch(client: Client, language: str, next_page: str = "/leaderboards?date=2026-12-01") -> Any:
    client.get("/archive")  # a page: its form's CSRF cookie
    return client.post("/language", {"language": language, "next": next_page})


@pytest.mark.django_db
def test_a_guests_language_is_kept_in_a_cookie_and_the_page_comes_back_in_it() -> None:
    guest = Client(enforce_csrf_checks=False, HTTP_ACCEPT_LANGUAGE="de")
    assert "Sprache" in guest.get("/archive").content.decode()
    answer = _switch(guest, "en")
    assert answer.status_code == 302 and answer["Location"] == "/leaderboards?date=2026-12-01"
    assert guest.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    page = guest.get("/archive").content.decode()
    assert '<html lang="en"' in page
    assert 'value="en" lang="en" aria-pressed="true">English</button>' in page


@pytest.mark.django_db
def test_an_accounts_switch_is_its_language_setting() -> None:
    account = factories.user(username="lena")
    client = Client()
    client.force_login(account)
    _switch(client, "en")
    assert Profile.objects.get(user=account).language == "en"
    assert client.get("/api/v1/auth/me").json()["language"] == "en"
    _switch(client, "de")
    assert Profile.objects.get(user=account).language == "de"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "", "EN", "en-x" * 300])
def test_a_language_that_is_none_changes_nothing(language: str) -> None:
    account = factories.user()
    client = Client()
    client.force_login(account)
    answer = _switch(client, language)
    assert answer.status_code == 400 and answer["Content-Type"].startswith("text/html")
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    assert Profile.objects.get(user=account).language == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]
)
def test_the_switch_leads_only_to_a_page_of_the_site(target: str) -> None:
    answer = _switch(Client(), "en", target)
    assert answer.status_code == 302 and answer["Location"] == "/"


@pytest.mark.django_db
def test_the_switch_needs_the_pages_csrf_token_and_a_post() -> None:
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/language", {"language": "en"}).status_code == 403
    assert settings.LANGUAGE_COOKIE_NAME not in strict.cookies
    for method in ("get", "put", "delete", "patch"):
        assert getattr(Client(), method)("/language").status_code == 405
