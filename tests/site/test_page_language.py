"""Each page arrives with its text in the player's language (issue 20 items 3 and 8): rendered on
the server, a title and a meta description of its own; the scripts' texts come from Django's
JavaScriptCatalog at an address that changes with them."""

from __future__ import annotations

import gzip
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

PAGES = ["/", "/daily", "/leaderboards", "/archive", "/stats", "/games", "/login", "/signup"]

pytestmark = pytest.mark.django_db


def page(client: Client, path: str, accept_language: str) -> str:
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=accept_language)
    assert response.status_code == 200
    assert "Accept-Language" in response["Vary"]
    return response.content.decode()


def head_of(html: str) -> tuple[str, str, str]:
    lang = re.search(r'<html lang="([^"]+)"', html)
    title = re.search(r"<title>([^<]+)</title>", html)
    description = re.search(r'<meta name="description" content="([^"]+)">', html)
    assert lang and title and description
    return lang[1], unescape(title[1]), unescape(description[1])


def test_every_page_has_its_title_and_description_in_german_and_english(client: Client) -> None:
    seen: dict[str, set[str]] = {"de": set(), "en": set()}
    for path in PAGES:
        for accept, lang in (("de-DE,de;q=0.9", "de"), ("en-US,en;q=0.9", "en"), ("fr-FR", "de")):
            html = page(client, path, accept)
            got_lang, title, description = head_of(html)
            assert got_lang == lang, (path, accept)
            assert "Yukon Solitaire" in title
            assert 50 <= len(description) <= 160, (path, lang, description)
            assert "data-i18n" not in html
            seen[lang].add(description)
    assert len(seen["de"]) == len(seen["en"]) == len(PAGES)  # one of its own for each page
    assert not seen["de"] & seen["en"]


@pytest.mark.parametrize(
    ("path", "german", "english"),
    [
        ("/", ["Rückgängig", "Neues Spiel", "Einstellungen", "So spielst du Yukon"], ["Undo", "New game", "Settings"]),
        ("/daily", ["Tagesspiel", "Ganze Bestenliste"], ["Daily deal", "Full leaderboard"]),
        ("/leaderboards", ["Bestenliste", "Rang"], ["Leaderboards", "Rank"]),
        ("/archive", ["Archiv", "Siegerzeit", "Dein Ergebnis"], ["Archive", "Winning time", "Your result"]),
        ("/stats", ["Statistik", "Verlauf"], ["Statistics", "History"]),
        ("/games", ["Meine Spiele"], ["My games"]),
        ("/login", ["Benutzername", "Noch kein Konto?"], ["Username", "No account yet?"]),
        ("/signup", ["Konto anlegen", "Schon registriert?"], ["Create an account", "Already registered?"]),
    ],
)
def test_the_page_text_is_rendered_on_the_server(
    client: Client, path: str, german: list[str], english: list[str]
) -> None:
    html_de, html_en = page(client, path, "de"), page(client, path, "en")
    for text in german:
        assert f">{text}<" in html_de, text
    for text in english:
        assert f">{text}<" in html_en, text
        assert f">{text}<" not in html_de, text


def test_the_settings_dialog_names_each_setting_in_the_page_language(client: Client) -> None:
    assert ">Interaktive Regeln<" in page(client, "/", "de")
    assert ">Interactive rules<" in page(client, "/", "en")


def catalogue_address(html: str) -> str:
    found = re.search(r'<script src="(/jsi18n/\w+\.js\?v=\w+)" defer></script>\s*<script type="module"', html)
    assert found, "the catalogue is named before the page's module"
    return found[1]


def test_the_scripts_texts_come_from_the_catalogue_of_the_page_language(client: Client) -> None:
    german, english = catalogue_address(page(client, "/", "de")), catalogue_address(page(client, "/", "en"))
    assert german.startswith("/jsi18n/de.js?v=") and english.startswith("/jsi18n/en.js?v=")
    response: Any = client.get(german)
    assert response.status_code == 200 and "javascript" in response["Content-Type"]
    assert "immutable" in response["Cache-Control"] and "max-age=31536000" in response["Cache-Control"]
    body = response.content.decode()
    assert "Zielstapel {suit}, leer" in body  # a text only the scripts write
    assert "Pik" in body and "Kopiert!" not in body  # ("Kopiert!" is the page's, rendered on the server)
    # Another digest (an older page's) is answered too, but not cached for good.
    assert "immutable" not in client.get("/jsi18n/de.js?v=old")["Cache-Control"]
    assert client.get("/jsi18n/fr.js").status_code == 404


def test_the_catalogue_travels_gzipped_to_a_browser_that_takes_it(client: Client) -> None:
    address = catalogue_address(page(client, "/", "de"))
    plain: Any = client.get(address)
    packed: Any = client.get(address, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2
