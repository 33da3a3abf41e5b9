"""The pages. Each only renders its template: every piece of game data reaches the page
through the JSON API (``/api/v1/``), asked for by the page's ES module."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

#: The settings dialog: (API field, i18n key), SPEC section 3 order, then the display choice.
SETTINGS_FIELDS = [
    ("double_click", "doubleTap"),
    ("drop_hints", "dropHints"),
    ("interactive_rules", "interactiveRules"),
    ("auto_drop", "autoDrop"),
    ("four_color", "fourColor"),
]


#: Each page's ES modules, named up front (<link rel="modulepreload">) so that the browser fetches
#: them side by side instead of discovering one level of imports after another.
MODULES = {
    "play.js": ["i18n", "api", "nav", "settings", "board", "drag", "keyboard", "game", "dialogs"],
    "daily.js": ["i18n", "strings", "api", "nav", "settings", "board", "drag", "keyboard", "game", "dialogs"],
    "leaderboards.js": ["i18n", "strings", "api", "nav"],
    "stats.js": ["i18n", "strings", "api", "nav"],
    "auth.js": ["i18n", "strings", "api", "nav"],
    "games.js": ["i18n", "strings", "api", "nav"],
}


def _page(request: HttpRequest, template: str, page: str, script: str, **context: object) -> HttpResponse:
    return render(
        request,
        f"frontend/{template}",
        {
            "page": page,
            "script": f"frontend/{script}",
            "modules": [f"frontend/{name}.js" for name in MODULES[script]],
            "settings_fields": SETTINGS_FIELDS,
            **context,
        },
    )


@require_safe
@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    return _page(request, "play.html", "play", "play.js")


@require_safe
@ensure_csrf_cookie
def daily(request: HttpRequest) -> HttpResponse:
    return _page(request, "daily.html", "daily", "daily.js")


@require_safe
@ensure_csrf_cookie
def leaderboards(request: HttpRequest) -> HttpResponse:
    return _page(request, "leaderboards.html", "leaderboards", "leaderboards.js")


@require_safe
@ensure_csrf_cookie
def stats(request: HttpRequest) -> HttpResponse:
    return _page(request, "stats.html", "stats", "stats.js")


@require_safe
@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    return _page(request, "auth.html", "login", "auth.js", mode="login")


@require_safe
@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    return _page(request, "auth.html", "signup", "auth.js", mode="signup")


@require_safe
@ensure_csrf_cookie
def my_games(request: HttpRequest) -> HttpResponse:
    return _page(request, "games.html", "games", "games.js")
