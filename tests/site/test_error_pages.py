"""The site's own error pages (issue 28 item 5): outside the API a 404, 403, 400 or 500 is a page
in the site's look and the player's language, with a way home; never Django's bare English text.
(The browser sees the 404: tests/frontend/test_error_pages.py.)"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from yukon_site.urls import urlpatterns as site_urls


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret internals")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("secret reason")


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("secret reason")


urlpatterns = [path("broken", broken), path("forbidden", forbidden), path("suspicious", suspicious), *site_urls]
handler400 = "common.views.bad_request"
handler403 = "common.views.permission_denied"
handler404 = "common.views.not_found"
handler500 = "common.views.server_error"

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

CASES = [
    # path, status, German heading, English heading
    ("/no-such-page", 404, "Seite nicht gefunden", "Page not found"),
    ("/replay/12345", 404, "Seite nicht gefunden", "Page not found"),
    ("/forbidden", 403, "Nicht erlaubt", "Not allowed"),
    ("/suspicious", 400, "Ungültige Anfrage", "Bad request"),
    ("/broken", 500, "Etwas ist schiefgegangen", "Something went wrong"),
]


@pytest.mark.parametrize(("path", "status", "german", "english"), CASES)
def test_an_error_is_a_page_of_the_site_in_the_players_language(
    path: str, status: int, german: str, english: str
) -> None:
    client = Client(raise_request_exception=False)
    for accept, lang, heading in (("de-DE,de;q=0.9", "de", german), ("en-US,en;q=0.9", "en", english)):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=accept)
        assert response.status_code == status
        assert response["Content-Type"].startswith("text/html")
        html = response.content.decode()
        assert f'<html lang="{lang}"' in html
        assert unescape(re.search(r"<h1[^>]*>([^<]+)</h1>", html)[1]) == heading  # type: ignore[index]
        assert unescape(re.search(r"<title>([^<]+)</title>", html)[1]) == f"{heading} – Yukon Solitaire"  # type: ignore[index]
        assert '<a class="button primary" href="/" id="error-home">' in html  # the way home
        assert 'class="site-nav"' in html and "pages.css" in html  # the site's header and look
        assert "secret" not in html
        assert '<meta name="robots" content="noindex">' in html


def test_the_api_keeps_its_json_errors() -> None:
    response = Client().get("/api/v1/no-such-thing", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404 and response.json()["error"] == "not_found"


def test_an_error_quotes_the_bad_value_with_the_languages_quotation_marks() -> None:
    """Issue 28 item 10: German errors quoted 'YU1-C-AAAA1' with straight quotes."""
    client = Client()
    german = client.post(
        "/api/v1/games", {"code": "YU1-C-AAAA1"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert german.json()["detail"] == "Ungültiger Spielcode „YU1-C-AAAA1“: erwartet wird z. B. YU1-C-AAAAAAB."
    english = client.get("/api/v1/leaderboards/daily/2026-13-45", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "Invalid date “2026-13-45”: expected YYYY-MM-DD, e.g. 2026-01-31."
