"""The pages. Each renders its template, its text in the request's language (LocaleMiddleware:
``Accept-Language``); every piece of game data reaches the page through the JSON API
(``/api/v1/``), asked for by the page's ES module, which takes the texts it writes itself from
:func:`js_catalog` (Django's ``JavaScriptCatalog`` of ``locale/*/LC_MESSAGES/djangojs.po``)."""

from __future__ import annotations

import functools
import hashlib
import math
import re
from datetime import date
from uuid import UUID

from django.conf import settings
from django.contrib.auth import password_validation
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.utils import formats, timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import pgettext, pgettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST, require_safe
from django.views.i18n import JavaScriptCatalog

from accounts.actions.settings import player_me, user_language_set
from accounts.api import set_language_cookie
from accounts.limits import signup_limit_words
from accounts.models import SETTING_DEFAULTS
from common.errors import ApplicationError
from common.throttles import page_wait
from games.competition import clock
from games.engine.game import CLEAN_WIN_SCORE
from games.help.replay import replay_game
from games.players import player_of
from stats.selectors import daily_summary, user_by_username
from stats.standing import BARS

from . import og_image, pwa
from .modules import page_modules

#: The settings dialog's texts (label, help) of each setting of ``accounts.models.SETTING_DEFAULTS``.
_SETTING_TEXTS = {
    "double_click": (
        pgettext_lazy("settings.doubleTap", "Double-tap"),
        pgettext_lazy(
            "settings.doubleTap.help",
            "Tapping or clicking twice on a card finds a place on the table for it and the cards on it.",
        ),
    ),
    "drop_hints": (
        pgettext_lazy("settings.dropHints", "Drop hints"),
        pgettext_lazy("settings.dropHints.help", "Highlights the legal targets while you drag."),
    ),
    "interactive_rules": (
        pgettext_lazy("settings.interactiveRules", "Interactive rules"),
        pgettext_lazy("settings.interactiveRules.help", "Explains the rule when a move is refused."),
    ),
    "auto_drop": (
        pgettext_lazy("settings.autoDrop", "Automatic drop"),
        pgettext_lazy("settings.autoDrop.help", "Chooses the target column by itself when you let go."),
    ),
    "four_color": (
        pgettext_lazy("settings.fourColor", "Four-colour deck"),
        pgettext_lazy("settings.fourColor.help", "Diamonds blue, clubs green: easier to tell apart."),
    ),
}
#: The settings dialog: (API field, label, help), in the order of SETTING_DEFAULTS (docs/rules.md,
#: then the display choice); a setting without its texts fails here, at start.
SETTINGS_FIELDS = [(name, *_SETTING_TEXTS[name]) for name in SETTING_DEFAULTS]

#: Each page's title and meta description.
PAGES = {
    "play": (
        pgettext_lazy("title.play", "Yukon Solitaire"),
        pgettext_lazy(
            "description.play",
            "Play Yukon Solitaire in your browser for free, without an account: undo, hints, keyboard play "
            "and a daily deal with a leaderboard.",
        ),
    ),
    "daily": (
        pgettext_lazy("title.daily", "Daily deal – Yukon Solitaire"),
        pgettext_lazy(
            "description.daily",
            "Today's Yukon Solitaire deal: the same winnable deal for everyone, ranked on the leaderboard "
            "until 00:00 UTC.",
        ),
    ),
    "leaderboards": (
        pgettext_lazy("title.leaderboards", "Leaderboards – Yukon Solitaire"),
        pgettext_lazy(
            "description.leaderboards",
            "The daily Yukon Solitaire leaderboards: who won each day's deal fastest, with time and moves.",
        ),
    ),
    "archive": (
        pgettext_lazy("title.archive", "Archive of daily deals – Yukon Solitaire"),
        pgettext_lazy(
            "description.archive",
            "Every past Yukon Solitaire daily deal: players, winners, the winning time and the par. Play any of them.",
        ),
    ),
    "stats": (
        pgettext_lazy("title.stats", "Statistics – Yukon Solitaire"),
        pgettext_lazy(
            "description.stats",
            "Your Yukon Solitaire statistics: games played and won, win rate, streaks, best times and history.",
        ),
    ),
    "games": (
        pgettext_lazy("title.games", "My games – Yukon Solitaire"),
        pgettext_lazy(
            "description.games",
            "Your Yukon Solitaire games: resume an unfinished game or replay a finished deal by its game code.",
        ),
    ),
    "replay": (
        pgettext_lazy("title.replay", "Replay – Yukon Solitaire"),
        pgettext_lazy(
            "description.replay",
            "Watch a Yukon Solitaire game move by move, as its player saw it, with the solver's verdict on "
            "where it was lost.",
        ),
    ),
    "login": (
        pgettext_lazy("title.login", "Log in – Yukon Solitaire"),
        pgettext_lazy(
            "description.login", "Log in to Yukon Solitaire to keep your statistics and play the ranked daily deal."
        ),
    ),
    "player": (
        pgettext_lazy("title.player", "{name} – Yukon Solitaire"),
        pgettext_lazy(
            "description.player",
            "{name} plays Yukon Solitaire: personal bests per rule, daily streaks and recent daily results.",
        ),
    ),
    "player-missing": (
        pgettext_lazy("title.player.missing", "No such player – Yukon Solitaire"),
        pgettext_lazy("description.player.missing", "There is no Yukon Solitaire player of this name."),
    ),
    "account-delete": (
        pgettext_lazy("title.account.delete", "Delete your account – Yukon Solitaire"),
        pgettext_lazy(
            "description.account.delete",
            "Delete your Yukon Solitaire account: what goes, what stays on the leaderboards.",
        ),
    ),
    "account": (
        pgettext_lazy("title.account", "Your account – Yukon Solitaire"),
        pgettext_lazy(
            "description.account",
            "Your Yukon Solitaire account: password, e-mail, language, play settings, API tokens, signed-in "
            "sessions and the export of your games.",
        ),
    ),
    "password_reset": (
        pgettext_lazy("title.password_reset", "Forgot your password? – Yukon Solitaire"),
        pgettext_lazy(
            "description.password_reset", "Get a link by e-mail to set a new password for your Yukon Solitaire account."
        ),
    ),
    "password_set": (
        pgettext_lazy("title.password_set", "Set a new password – Yukon Solitaire"),
        pgettext_lazy("description.password_set", "Choose a new password for your Yukon Solitaire account."),
    ),
    "email_confirm": (
        pgettext_lazy("title.email_confirm", "Confirm your e-mail address – Yukon Solitaire"),
        pgettext_lazy("description.email_confirm", "Confirm the e-mail address of your Yukon Solitaire account."),
    ),
    "email_undo": (
        pgettext_lazy("title.email_undo", "Undo the change of your e-mail address – Yukon Solitaire"),
        pgettext_lazy("description.email_undo", "Put back the e-mail address your Yukon Solitaire account had before."),
    ),
    "clubs": (
        pgettext_lazy("title.clubs", "Clubs – Yukon Solitaire"),
        pgettext_lazy(
            "description.clubs",
            "Play the Yukon Solitaire daily deal with the people you know: clubs with their own day and week boards.",
        ),
    ),
    "club": (
        pgettext_lazy("title.club", "Club – Yukon Solitaire"),
        pgettext_lazy(
            "description.club", "A Yukon Solitaire club: its members, today's board and the week's standing."
        ),
    ),
    "club-join": (
        pgettext_lazy("title.club.join", "Join a club – Yukon Solitaire"),
        pgettext_lazy("description.club.join", "You are invited to a Yukon Solitaire club."),
    ),
    "signup": (
        pgettext_lazy("title.signup", "Sign up – Yukon Solitaire"),
        pgettext_lazy(
            "description.signup",
            "Create a free Yukon Solitaire account: your guest games are kept, and you get on the leaderboards.",
        ),
    ),
}


def page_config() -> dict[str, object]:
    """What the pages' modules take from the server instead of writing it themselves, rendered into
    every page (``base.html``: ``<script type="application/json" id="page-config">``, read by
    ``config.js``): the play settings' defaults, the clean-win score and the width of a bar of the
    standing's histograms (time in ms, moves), which the page pads with empty bars."""
    return {
        "settings": SETTING_DEFAULTS,
        "clean_win_score": CLEAN_WIN_SCORE,
        "bar_widths": {kind: width for kind, (width, _, _) in BARS.items()},
    }


@functools.cache
def catalog_version() -> str:
    """A digest of the compiled script catalogues: the catalogue's address changes with its texts."""
    digest = hashlib.sha256()
    for locale_dir in settings.LOCALE_PATHS:
        for mo in sorted(locale_dir.glob("*/LC_MESSAGES/djangojs.mo")):
            digest.update(mo.read_bytes())
    return digest.hexdigest()[:12]


def page_context(page: str, script: str, *, name: str = "") -> dict[str, object]:
    """What ``base.html`` needs of a page: its title and description (``{name}`` filled in), and
    its scripts."""
    title, description = (str(text).format(name=name) for text in PAGES[page])
    return {
        "page": page,
        "title": title,
        "description": description,
        "script": f"frontend/{script}",
        "modules": [f"frontend/{module}" for module in page_modules(script)],
        "settings_fields": SETTINGS_FIELDS,
        "page_config": page_config(),
        "catalog_version": catalog_version(),
    }


def _page(
    request: HttpRequest,
    template: str,
    page: str,
    script: str,
    *,
    name: str = "",
    status: int = 200,
    config: dict[str, object] | None = None,
    **context: object,
) -> HttpResponse:
    page_ctx = page_context(page, script, name=name)
    # Who is playing, in the page itself (the answer of GET auth/me): a first visit to the board
    # deals at once instead of asking auth/me first, one round trip fewer (issue 49 item 5).
    me = player_me(user=request.user, session=request.session)
    page_ctx["page_config"] = {**page_config(), "me": me, **(config or {})}
    return render(request, f"frontend/{template}", {**page_ctx, **context}, status=status)


@require_safe
@gzip_page
def js_catalog(request: HttpRequest, lang: str) -> HttpResponseBase:
    """The scripts' texts in ``lang`` (``django.pgettext`` & co.), cached for good under the
    address the pages name (``?v=`` the catalogue's digest). Gzipped (17 KB, 5 KB so): it is the
    same text for everyone and holds no secret, so BREACH has nothing to find (frontend/middleware.py)."""
    if lang not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(lang):
        response = JavaScriptCatalog.as_view(domain="djangojs", packages=["frontend"])(request)
    if request.GET.get("v") == catalog_version():
        patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    else:
        patch_cache_control(response, no_cache=True)
    return response


@require_safe
@ensure_csrf_cookie
def play(request: HttpRequest) -> HttpResponse:
    """The table; ``?account=deleted`` (where deleting an account leads) says that it was."""
    return _page(
        request,
        "play.html",
        "play",
        "play.js",
        config={"offline": pwa.offline_config()},
        account_deleted=request.GET.get("account") == "deleted",
    )


@require_safe
@ensure_csrf_cookie
def daily(request: HttpRequest) -> HttpResponse:
    return _page(request, "daily.html", "daily", "daily.js")


@require_safe
@ensure_csrf_cookie
def leaderboards(request: HttpRequest) -> HttpResponse:
    """A day's board (``?date=``, else today's). Its address is the one a shared result links to, so
    the page names the day's figures and picture for the chat that unfurls it (Open Graph)."""
    day = _iso_day(request.GET.get("date", "")) or clock.today()
    return _page(request, "leaderboards.html", "leaderboards", "leaderboards.js", social=_board_social(request, day))


def _iso_day(text: str) -> date | None:
    """A UTC date written ``YYYY-MM-DD``, or ``None``."""
    if not _ISO_DAY.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _site_address(request: HttpRequest, path: str) -> str:
    """``path`` as an absolute address: the site's own (``SITE_URL``) where it is set."""
    return f"{settings.SITE_URL}{path}" if settings.SITE_URL else request.build_absolute_uri(path)


def _clock_text(ms: int) -> str:
    """Milliseconds as the pages write a time: m:ss, or h:mm:ss."""
    total = ms // 1000
    hours, minutes, seconds = total // 3600, total // 60 % 60, total % 60
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def _board_social(request: HttpRequest, day: date) -> dict[str, object] | None:
    """The Open Graph tags of ``day``'s board (``base.html``): "Yukon #12 · 11 December 2026", its
    players, winners and best time in words, and its picture (:func:`board_image`). Only what the
    board shows anyone; ``None`` for a day without a deal (the page's own title and description then)."""
    summary = daily_summary(day=day)
    if summary is None:
        return None
    name = f"Yukon #{summary.number}" if summary.number else "Yukon"
    title = pgettext("og.board.title", "{name} · {date}: the daily leaderboard").format(
        name=name, date=formats.date_format(day, "DATE_FORMAT")
    )
    players = (
        pgettext("og.board.players.one", "{n} player")
        if summary.players == 1
        else pgettext("og.board.players.other", "{n} players")
    )
    figures = [
        players.format(n=summary.players),
        pgettext("og.board.won", "{n} won").format(n=summary.winners),
    ]
    if summary.best_time_ms is not None:
        figures.append(pgettext("og.board.best", "best time {time}").format(time=_clock_text(summary.best_time_ms)))
    lead = (
        pgettext("og.board.over", "{figures}.")
        if summary.over
        else pgettext("og.board.today", "So far today: {figures}.")
    ).format(figures=", ".join(figures))
    invite = pgettext("og.board.invite", "The same Yukon Solitaire deal for everyone, every day: can you beat it?")
    language = translation.get_language() or settings.LANGUAGE_CODE
    return {
        "title": title,
        "description": f"{lead} {invite}",
        "url": _site_address(request, f"/leaderboards?date={day.isoformat()}"),
        "image": _site_address(request, f"/leaderboards/{day.isoformat()}.png?lang={language}"),
        "image_alt": pgettext("og.board.image", "{name}: players, winners and the best time of the day").format(
            name=name
        ),
    }


@require_safe
def board_image(request: HttpRequest, day: str) -> HttpResponse:
    """The picture of a day's board that a chat shows beside its link (``og:image``): a PNG of
    1200×630 in ``?lang=`` (de, en) with the deal's number and date, players, winners and best time
    (:mod:`frontend.og_image`). The site's 404 for a date that is none, not begun or without a deal.
    Drawn once for each set of figures (the cache), kept by browsers and chats ten minutes during
    the day, an hour after it."""
    language = request.GET.get("lang") or settings.LANGUAGE_CODE
    parsed = _iso_day(day)
    summary = daily_summary(day=parsed) if parsed is not None else None
    if summary is None or language not in dict(settings.LANGUAGES):
        raise Http404
    best = _clock_text(summary.best_time_ms) if summary.best_time_ms is not None else "\u2013"
    key = f"board-image:2:{summary.day}:{language}:{summary.players}:{summary.winners}:{best}"
    png = cache.get(key)
    if png is None:
        with translation.override(language):
            png = og_image.board_image(
                title=f"Yukon #{summary.number}" if summary.number else "Yukon",
                subtitle=pgettext("og.image.board", "LEADERBOARD"),
                date=formats.date_format(summary.day, "SHORT_DATE_FORMAT"),
                figures=[
                    (str(summary.players), pgettext("og.image.players", "PLAYERS")),
                    (str(summary.winners), pgettext("og.image.won", "WON")),
                    (best, pgettext("og.image.best", "BEST TIME")),
                ],
            )
        cache.set(key, png, 24 * 3600)
    response = HttpResponse(png, content_type="image/png")
    patch_cache_control(response, public=True, max_age=3600 if summary.over else 600)
    return response


@require_safe
@ensure_csrf_cookie
def archive(request: HttpRequest) -> HttpResponse:
    return _page(request, "archive.html", "archive", "archive.js")


@require_safe
@ensure_csrf_cookie
def stats(request: HttpRequest) -> HttpResponse:
    return _page(request, "stats.html", "stats", "stats.js")


def _next_page(request: HttpRequest, *, target: str | None = None) -> str:
    """Where ?next= (or ``target``) leads, if it is a page of this site; else the table."""
    target = (request.GET.get("next") if target is None else target) or "/"
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


@require_safe
@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    """The login form; a logged-in player is told so and may go on (to ?next=) or log out."""
    return _page(request, "auth.html", "login", "auth.js", mode="login", next_page=_next_page(request))


@require_safe
@ensure_csrf_cookie
def signup(request: HttpRequest) -> HttpResponse:
    return _page(
        request,
        "auth.html",
        "signup",
        "auth.js",
        mode="signup",
        signup_limit=signup_limit_words(request),
        password_rules=password_validation.password_validators_help_texts(),
        next_page=_next_page(request),
    )


@require_safe
@ensure_csrf_cookie
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public profile (``player.js`` asks ``GET players/{name}/stats``), the name
    taken in any case; an unknown or deleted name gets the page's own 404, in the site's look.
    Limited as the statistics it shows are (``lookup``): a 429 page past the limit."""
    wait = page_wait(request, "lookup", "lookup_ip")
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        response = render(request, "429.html", {"wait": seconds}, status=429)
        response["Retry-After"] = str(seconds)
        return response
    try:
        account = user_by_username(username=username)
    except ApplicationError:
        return _page(request, "player.html", "player-missing", "player.js", status=404, missing=True)
    name = account.get_username()
    return _page(request, "player.html", "player", "player.js", name=name, player_name=name)


@require_safe
@ensure_csrf_cookie
def account_delete(request: HttpRequest) -> HttpResponse:
    """Deleting one's account (``DELETE auth/me`` with the password asked again); a guest is
    sent to log in first."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), login_url="/login")
    return _page(request, "account_delete.html", "account-delete", "account_delete.js")


@require_safe
@ensure_csrf_cookie
def my_games(request: HttpRequest) -> HttpResponse:
    return _page(request, "games.html", "games", "games.js")


@require_safe
@ensure_csrf_cookie
def replay(request: HttpRequest, game_id: UUID) -> HttpResponse:
    """A game's replay (``replay.js`` asks ``GET games/{id}/replay``). A game the caller may not
    watch (not theirs, nor among a past day's top 10) gets the page's own 404, which says so; the
    same answer as for a game that does not exist."""
    try:
        replay_game(game_id=game_id, player=player_of(request), now=timezone.now())
    except ApplicationError:
        response = _page(request, "replay.html", "replay", "replay.js", error="not_found")
        response.status_code = 404
        return response
    return _page(request, "replay.html", "replay", "replay.js", game_id=game_id)


@require_safe
@ensure_csrf_cookie
def clubs(request: HttpRequest) -> HttpResponse:
    """The player's clubs and a form to make one (``clubs.js``); a guest is asked to log in."""
    return _page(request, "clubs.html", "clubs", "clubs.js", mode="list")


@require_safe
@ensure_csrf_cookie
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's page (``club.js`` asks ``GET clubs/{slug}``: members only, a 404 for anyone else)."""
    return _page(request, "club.html", "club", "club.js", slug=slug)


@require_safe
@ensure_csrf_cookie
def club_join(request: HttpRequest, invite: str) -> HttpResponse:
    """Where an invite link leads: a button that joins (``clubs.js``); a guest logs in first and
    comes back here."""
    return _page(request, "clubs.html", "club-join", "clubs.js", mode="join", invite=invite)


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """The language switch in every page's footer (``base.html``): ``language`` (``de`` or ``en``)
    is kept in Django's language cookie, which LocaleMiddleware reads before ``Accept-Language``,
    and, for an account, as its language (the account page's setting, its mails' language, set on
    every device it logs in on); then back to ``next``, a page of this site, in that language.
    A language that is none gets the 400 page and changes nothing (CSRF as for any form)."""
    choice = request.POST.get("language", "")
    if choice not in dict(settings.LANGUAGES):
        return render(request, "400.html", status=400)
    if request.user.is_authenticated:
        user_language_set(user=request.user, language=choice)
    response = HttpResponseRedirect(_next_page(request, target=request.POST.get("next", "")))
    set_language_cookie(response, choice)
    return response
