"""The installed app (docs/offline.md): the web app manifest, its icons, the service worker and
the page it shows for an address that needs the network, and the rules engine's source for the
page (offline practice runs ``games/engine`` itself, in Pyodide: never a second implementation).

The service worker is a script of this module's, not a static file: it must be served from the
site's root to control every page, and it names the static files to keep by their current
(hashed) addresses, which only the running site knows. Its logic is the static
``frontend/service_worker.js``; this answer only hands it the addresses and imports it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe
from PIL import Image, ImageDraw

import games.engine
from common.errors import explain
from games.engine import REASONS

#: The theme: the table's felt and the site's header (base.html's theme-color).
THEME = "#16202a"
FELT = (0x1F, 0x6B, 0x43)
#: The icons' sizes; each is drawn twice: as it is (purpose "any") and with its card inside the
#: middle 80 % that a launcher's mask keeps (purpose "maskable").
ICON_SIZES = (192, 512)
ICON_PURPOSES = ("any", "maskable")

#: Workbox's modules the worker imports, in order of dependency (var/vendor, frontend/vendor.mjs).
WORKBOX_MODULES = (
    "core",
    "routing",
    "strategies",
    "expiration",
    "cacheable-response",
    "precaching",
    "navigation-preload",
)
#: The static files the worker keeps at its install (the app shell): the site's own scripts and
#: style sheets. Chart.js (the statistics page only) and Pyodide (loaded by the play page once
#: it is idle) are kept when first fetched.
SHELL_SUFFIXES = (".js", ".css")


def _package_version(name: str) -> str:
    """The pinned version of one of the pages' npm packages (frontend/package.json)."""
    manifest = Path(__file__).with_name("package.json")
    return str(json.loads(manifest.read_text(encoding="utf-8"))["dependencies"][name])


PYODIDE_DIR = f"frontend/vendor/pyodide-{_package_version('pyodide')}/"
WORKBOX_DIR = f"frontend/vendor/workbox-{_package_version('workbox-core')}/"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest, in the request's language."""
    icons = [
        {
            "src": reverse("app-icon", args=[purpose, size]),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for purpose in ICON_PURPOSES
        for size in ICON_SIZES
    ]
    body = {
        "id": "/",
        "name": pgettext("app.name", "Yukon Solitaire"),
        "short_name": "Yukon",
        "description": pgettext(
            "app.description", "Yukon Solitaire: today's deal for everyone, practice that goes on offline."
        ),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME,
        "theme_color": THEME,
        "categories": ["games"],
        "icons": icons,
        "shortcuts": [
            {
                "name": pgettext("app.shortcut.daily", "Today's deal"),
                "url": "/daily?source=app",
                "icons": [icons[0]],
            },
            {
                "name": pgettext("app.shortcut.new", "New game"),
                "url": "/?new=1&source=app",
                "icons": [icons[0]],
            },
        ],
    }
    response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def icon(request: HttpRequest, purpose: str, size: int) -> HttpResponse:
    if purpose not in ICON_PURPOSES or size not in ICON_SIZES:
        raise Http404
    response = HttpResponse(app_icon(size, maskable=purpose == "maskable"), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@functools.cache
def app_icon(size: int, *, maskable: bool) -> bytes:
    """The app's icon: a white card with a spade on the felt, drawn with Pillow. A maskable icon
    fills its square with the felt and keeps the card within the middle 80 %.

    >>> png = app_icon(192, maskable=False)
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", Image.open(io.BytesIO(png)).size
    (True, (192, 192))
    """
    scale = 4  # drawn large, then scaled down: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=FELT)
        inset = big * 0.2
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=FELT)
        inset = big * 0.16
    width = (big - 2 * inset) * 0.74
    left = (big - width) / 2
    card = (left, inset, left + width, big - inset)
    draw.rounded_rectangle(card, radius=width * 0.12, fill="white", outline=THEME, width=max(2, big // 64))
    _spade(draw, big / 2, big / 2, (big - 2 * inset) * 0.5)
    buffer = io.BytesIO()
    image.resize((size, size), Image.Resampling.LANCZOS).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A spade of width ``size`` centred on (cx, cy): a point, two lobes and a stem (the bundled
    typeface has no suit signs)."""
    lobe = size * 0.27
    for side in (-1, 1):
        x, y = cx + side * size * 0.24, cy + size * 0.1
        draw.ellipse((x - lobe, y - lobe, x + lobe, y + lobe), fill=THEME)
    draw.polygon(
        [
            (cx, cy - size * 0.55),
            (cx + size * 0.49, cy + size * 0.02),
            (cx, cy + size * 0.2),
            (cx - size * 0.49, cy + size * 0.02),
        ],
        fill=THEME,
    )
    draw.polygon(
        [(cx, cy + size * 0.05), (cx + size * 0.2, cy + size * 0.58), (cx - size * 0.2, cy + size * 0.58)], fill=THEME
    )


@functools.cache
def engine_archive() -> tuple[bytes, str]:
    """The rules engine's source as the page runs it (``games/engine/*.py`` in a zip, under a
    ``games`` package of its own), and a digest of it that names its address."""
    buffer = io.BytesIO()
    root = Path(games.engine.__file__).parent
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("games/__init__.py", "")
        for path in sorted(root.glob("*.py")):
            archive.writestr(f"games/engine/{path.name}", path.read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:12]


def engine_url() -> str:
    return reverse("app-engine", args=[engine_archive()[1]])


@require_safe
def engine(request: HttpRequest, digest: str) -> HttpResponse:
    data, current = engine_archive()
    if digest != current:
        raise Http404
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def _revision(name: str) -> str | None:
    """A static file's content digest for the worker's cache (None: the address is hashed already).
    Read again when the file changes (``make dev`` serves the files as they are edited)."""
    if not settings.STATIC_FROM_APPS:
        return None
    path = finders.find(name)
    if not path:
        return None
    return _digest(str(path), Path(path).stat().st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _digest(path: str, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def shell_files() -> list[str]:
    """The static files of the app shell, by name: the site's own scripts and style sheets."""
    root = Path(__file__).parent / "static"
    return sorted(
        path.relative_to(root).as_posix() for path in (root / "frontend").glob("*") if path.suffix in SHELL_SUFFIXES
    )


def worker_config() -> dict[str, object]:
    """What the service worker is told: the addresses to keep and where the rest lives."""
    precache = [{"url": static(name), "revision": _revision(name)} for name in shell_files()]
    precache.append({"url": reverse("app-offline"), "revision": _offline_revision()})
    precache.append({"url": engine_url(), "revision": None})
    return {
        "precache": precache,
        "offline": reverse("app-offline"),
        "static": settings.STATIC_URL,
        "pyodide": static(PYODIDE_DIR + "pyodide.mjs").rsplit("/", 1)[0] + "/",
        "catalog": "/jsi18n/",
    }


def _offline_revision() -> str:
    """The offline page changes with its templates, the site's style and texts."""
    digest = hashlib.sha256()
    for name in ("frontend/app.css", "frontend/pages.css"):
        digest.update(static(name).encode())
        digest.update((_revision(name) or "").encode())
    templates = Path(__file__).parent / "templates" / "frontend"
    locale = Path(settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES"
    for path in (templates / "offline.html", templates / "base.html", locale / "django.mo"):
        if path.exists():
            digest.update(_digest(str(path), path.stat().st_mtime_ns).encode())
    return digest.hexdigest()[:16]


def offline_config() -> dict[str, object]:
    """What the play page needs to play on offline (offline.js): the engine worker's script,
    Pyodide's and the engine's addresses, and the rules' refusals in the page's language (the
    server's own texts, ``common.errors.explain``), which the page then shows itself."""
    refusals = {reason: explain(reason) for reason in sorted(REASONS)}
    refusals["does_not_fit_relaxed"] = explain("does_not_fit", relaxed=True)
    return {
        "worker": static("frontend/engine_worker.js"),
        "pyodide": static(PYODIDE_DIR + "pyodide.mjs"),
        "engine": engine_url(),
        "refusals": refusals,
    }


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: its configuration, Workbox's modules, then its own logic."""
    imports = [static(f"{WORKBOX_DIR}workbox-{name}.prod.js") for name in WORKBOX_MODULES]
    imports.append(static("frontend/service_worker.js"))
    body = (
        "// Yukon Solitaire's service worker (frontend/pwa.py, frontend/static/frontend/service_worker.js).\n"
        f"self.YUKON = {json.dumps(worker_config(), separators=(',', ':'))};\n"
        f"importScripts({', '.join(json.dumps(url) for url in imports)});\n"
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows for an address it does not keep while the network is gone."""
    response = render(
        request,
        "frontend/offline.html",
        {"page": "offline", "title": pgettext("title.offline", "Offline"), "description": ""},
    )
    response["Cache-Control"] = "no-cache"
    return response
