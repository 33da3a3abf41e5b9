"""Each page preloads exactly the modules its script imports (frontend/modules.py follows the
imports in the static files): the browser, given the page without its preload list, fetches the
same modules by discovering the imports itself; none is discovered late, none preloaded in vain."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from frontend.modules import import_graph, imports_of
from social import services as social_services
from tests import factories

from .support import log_in

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"
PRELOAD = re.compile(r'<link rel="modulepreload" href="/static/frontend/([\w.-]+\.js)">')
#: A page of each entry module (a script no other module imports).
PAGES = {
    "play.js": "/",
    "daily.js": "/daily",
    "leaderboards.js": "/leaderboards",
    "archive.js": "/archive",
    "stats.js": "/stats",
    "games.js": "/games",
    "auth.js": "/login",
    "account.js": "/account",
    "account_delete.js": "/account/delete",
    "player.js": "/players/{name}",
    "replay.js": f"/replay/{uuid.uuid4()}",  # its 404 page loads the same script
    "clubs.js": "/clubs",
    "club.js": "/clubs/{club}",
}
#: A module a page loads only when it is needed (``import("./win.js")`` after a win): not preloaded.
LAZY = re.compile(r"""\bimport\(\s*["']\./([\w.-]+\.js)["']\s*\)""")


#: The workers' scripts: no page imports them (the engine's Web Worker, offline.js; the service
#: worker's logic, imported by /sw.js).
WORKERS = {"engine_worker.js", "service_worker.js"}


def entry_modules() -> set[str]:
    modules = {path.name for path in STATIC.glob("*.js")}
    imported = {name for path in STATIC.glob("*.js") for name in imports_of(path.read_text())}
    lazy = {name for path in STATIC.glob("*.js") for name in LAZY.findall(path.read_text())}
    return modules - imported - lazy - WORKERS


def test_every_entry_module_has_a_page_here() -> None:
    assert entry_modules() == set(PAGES)


def test_the_import_graph_follows_static_imports_once_each_and_no_dynamic_one() -> None:
    sources = {
        "page.js": 'import { a,\n  b } from "./a.js";\nimport "./strings.js";\nconst lazy = () => import("./lazy.js");',
        "a.js": 'export { c } from "./c.js";\nimport { page } from "./page.js";\n// import "./comment.js" in prose',
        "c.js": "import { a } from \"./a.js\";\nimport './strings.js';",
        "strings.js": "",
    }

    assert import_graph("page.js", sources.__getitem__) == ["a.js", "c.js", "strings.js"]


def test_each_page_preloads_what_the_browser_would_discover(new_page: Any, live_server: Any) -> None:
    user = factories.user()
    club = social_services.club_create(user=user, name="Preload club")
    page = new_page()
    log_in(page, user)
    preloaded: dict[str, list[str]] = {}
    fetched: list[str] = []

    def without_preloads(route: Any) -> None:
        if route.request.resource_type != "document":
            route.continue_()
            return
        response = route.fetch()
        html = response.text()
        preloaded[urlparse(route.request.url).path] = PRELOAD.findall(html)
        route.fulfill(response=response, body=PRELOAD.sub("", html))

    page.route("**/*", without_preloads)
    page.on(
        "request",
        lambda request: (
            fetched.append(urlparse(request.url).path.removeprefix("/static/frontend/"))
            if request.resource_type == "script" and "/vendor/" not in request.url
            else None
        ),
    )
    for entry, path in PAGES.items():
        path = path.format(name=user.username, club=club.slug)
        fetched.clear()
        page.goto(path)
        page.wait_for_load_state("networkidle")
        modules = [name for name in fetched if name.endswith(".js") and name != entry and "/" not in name]
        assert sorted(preloaded[path]) == sorted(set(modules)), path
        assert len(preloaded[path]) == len(set(preloaded[path])), path
