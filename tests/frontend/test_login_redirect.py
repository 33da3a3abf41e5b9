"""After logging in, the page goes to ``?next=`` only if that is a path of this site.

Found by an outside audit: ``/login?next=/%5Cevil.example`` and ``/login?next=/%09/evil.example``
passed the page's check (a leading "/" and no "//"), and browsers resolve both to another site
(a backslash counts as a slash; a tab is dropped). The check is now made on the resolved URL.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests import factories

pytestmark = pytest.mark.browser

ELSEWHERE = re.compile(r"^https?://(?!127\.0\.0\.1[:/]|localhost[:/])")


@pytest.mark.parametrize(
    ("next_query", "lands_on"),
    [
        ("/%5Cevil.example", "/"),
        ("/%09/evil.example", "/"),
        ("/%5C%5Cevil.example/x", "/"),
        ("//evil.example", "/"),
        ("%2F%2Fevil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        ("/stats", "/stats"),
        ("/leaderboards?day=2026-01-01", "/leaderboards?day=2026-01-01"),
    ],
)
def test_login_follows_next_only_within_the_site(
    new_page: Any, live_server: Any, next_query: str, lands_on: str
) -> None:
    factories.user(username="lena")
    page = new_page()
    left_for: list[str] = []

    def elsewhere(route: Any) -> None:  # never a real request to another host
        left_for.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<title>elsewhere</title>")

    page.context.route(ELSEWHERE, elsewhere)
    page.goto(f"/login?next={next_query}")
    page.fill("#username", "lena")
    page.fill("#password", factories.PASSWORD)
    page.locator("#auth-form button[type=submit]").click()
    page.wait_for_url(lambda url: "/login" not in url)

    landed = urlsplit(page.url)
    assert not left_for, left_for
    assert f"{landed.scheme}://{landed.netloc}" == live_server.url
    assert landed.path + (f"?{landed.query}" if landed.query else "") == lands_on
