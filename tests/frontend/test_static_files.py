"""Static files as production serves them (DEBUG off, after collectstatic): hashed names, brotli or
gzip by the browser's Accept-Encoding, cached for good; pages compressed too."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import brotli
import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("static")


@pytest.fixture
def production_static(settings: Any, collected: Path) -> Client:
    settings.DEBUG = False
    settings.STATIC_ROOT = collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": "frontend.storage.StaticStorage"}}
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    if not (collected / "staticfiles.json").exists():
        # (The admin's and the API docs' files are left out: compressing them takes a minute.)
        ignore = ["admin/*", "drf_spectacular_sidecar/*", "rest_framework/*"]
        call_command("collectstatic", "--noinput", verbosity=0, ignore_patterns=ignore)
    return Client()  # a new handler: WhiteNoise reads the settings above


def asset(html: str, pattern: str) -> str:
    match = re.search(pattern, html)
    assert match, f"{pattern} not in the page"
    return match.group(0)


def body_of(response: Any) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_pages_name_static_files_by_a_hash_of_their_content(production_static: Client) -> None:
    html = production_static.get("/").content.decode()

    script = asset(html, r"/static/frontend/play\.[0-9a-f]{12}\.js")
    asset(html, r"/static/frontend/app\.[0-9a-f]{12}\.css")
    assert 'src="/static/frontend/play.js"' not in html
    # The modules import each other by the same hashed names the page preloads (one copy each).
    source = body_of(production_static.get(script)).decode()
    imported = re.findall(r'(?:from|import)\s*"(\./[^"]+)"', source)
    assert imported and all(re.fullmatch(r"\./\w+\.[0-9a-f]{12}\.js", name) for name in imported), imported
    for name in imported:
        assert f"/static/frontend/{name[2:]}" in html


@pytest.mark.parametrize(
    ("accept", "encoding", "decode"), [("br, gzip", "br", brotli.decompress), ("gzip", "gzip", gzip.decompress)]
)
def test_a_static_file_comes_compressed_and_cached_for_good(
    production_static: Client, accept: str, encoding: str, decode: Any
) -> None:
    url = asset(production_static.get("/").content.decode(), r"/static/frontend/game\.[0-9a-f]{12}\.js")

    response = production_static.get(url, HTTP_ACCEPT_ENCODING=accept)

    assert response.status_code == 200
    assert response["Content-Encoding"] == encoding
    assert "immutable" in response["Cache-Control"] and "max-age=315360000" in response["Cache-Control"]
    script = decode(body_of(response)).decode()
    assert "export" in script and "\n\n" not in script  # minified


def test_pages_come_compressed(production_static: Client) -> None:
    response = production_static.get("/stats", HTTP_ACCEPT_ENCODING="gzip")

    assert response["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(response.content)


def test_api_answers_are_not_compressed(production_static: Client) -> None:
    response = production_static.get("/api/v1/auth/me", HTTP_ACCEPT_ENCODING="gzip")

    assert response.status_code == 200 and not response.has_header("Content-Encoding")
    assert response.json()["authenticated"] is False
