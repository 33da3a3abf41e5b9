"""A Content-Security-Policy on every answer (issue 40, point 6): scripts and styles from the site's
own files only, nothing inline without the answer's nonce, no framing, no foreign base or form
target. The browser tests fail on any violation the policy reports (tests/frontend/conftest.py),
and tests/frontend/test_csp.py sees the browser refuse an injected script."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

REQUIRED = {
    "default-src": "'self'",
    "style-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def directives(header: str) -> dict[str, str]:
    parts = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {name: value for name, value in parts}


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/daily", 200),
        ("/leaderboards", 200),
        ("/login", 200),
        ("/account", 302),
        ("/no-such-page", 404),
        ("/api/v1/games", 200),
        ("/api/v1/no-such-thing", 404),
        ("/api/v1/docs/", 200),
        ("/admin/login/", 200),
    ],
)
def test_every_kind_of_answer_carries_the_strict_policy(path: str, status: int) -> None:
    response = Client().get(path)
    assert response.status_code == status
    policy = directives(response["Content-Security-Policy"])
    for name, value in REQUIRED.items():
        assert policy[name] == value, (path, name, policy)
    # Scripts: the site's files, and at most this answer's nonce; never 'unsafe-inline' or eval.
    assert re.fullmatch(r"'self'( 'nonce-[A-Za-z0-9+/=]+')?", policy["script-src"]), policy["script-src"]


def test_the_one_inline_script_carries_the_nonce_its_answer_names() -> None:
    first, second = Client().get("/"), Client().get("/")
    nonce = re.search(r"'nonce-([^']+)'", first["Content-Security-Policy"])[1]  # type: ignore[index]
    html = first.content.decode()
    inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)([^>]*)>", html)
    assert inline == [f' nonce="{nonce}"'], inline
    assert nonce not in second["Content-Security-Policy"]  # a new one for every answer


def test_a_page_without_inline_script_names_no_nonce() -> None:
    policy = Client().get("/leaderboards")["Content-Security-Policy"]
    assert "nonce-" not in policy
    assert "unsafe" not in policy


def test_the_api_docs_load_their_init_script_from_a_file_under_the_policy() -> None:
    client = Client()
    page = client.get("/api/v1/docs/").content.decode()
    assert "<style" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    script = re.search(r'<script src="([^"]*script=[^"]*)"', page)[1]  # type: ignore[index]
    answer = client.get(script.replace("&amp;", "&"))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in answer.content
