"""Browser tests: Playwright (sync API) drives Debian's Chromium against pytest-django's live server.

Chromium is found at $CHROMIUM or /usr/bin/chromium (`apt-get install -y chromium`; Playwright's
own browser download cannot work here). Without it these tests skip on a developer's machine and
FAIL under CI (CI=true): a browser suite that silently skips is no suite.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls that fixtures make in
# between are still plain synchronous calls, so Django's async-safety guard must let them through.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The browser logs every 4xx answer; these are API refusals the page shows in its own words
# (and 503 daily_not_ready: today's deal is being prepared, the page says so and asks again; 429
# signup_limit: the sign-up page says the limit).
EXPECTED_REFUSAL = re.compile(
    r"Failed to load resource: the server responded with a status of (400|401|403|404|409|422|429|503)"
)
CSP_REPORTER = (
    "addEventListener('securitypolicyviolation',"
    " e => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))"
)
HOWTO_SEEN = "try { localStorage.setItem('yukon.howto.seen', '1') } catch (e) {}"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        message = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any, live_server: Any, settings: Any) -> Iterator[Callable[..., Any]]:
    """Open a page in a fresh browser context (its own cookies and storage): German desktop by
    default; any `browser.new_context` option may be passed. JavaScript errors fail the test. A
    returning player's browser (the play page's how-to was read) unless ``first_visit``: on a first
    visit the game's clock waits under the pause's cover while the how-to is open."""
    settings.SITE_URL = live_server.url  # the links in mails lead to this server
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(
        *,
        locale: str = "de-DE",
        viewport: dict[str, int] | None = None,
        first_visit: bool = False,
        quiet: re.Pattern[str] | None = None,
        **options: Any,
    ) -> Any:
        """``quiet``: console errors the test expects (e.g. the requests a cut network refuses)."""
        # No service worker (and so no engine for offline play, which waits for one) unless a test
        # asks for it (service_workers="allow": tests/frontend/test_offline.py): a page's test
        # measures the page, not a worker keeping files in the background.
        options.setdefault("service_workers", "block")
        context = browser.new_context(base_url=live_server.url, locale=locale, viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        # The browser logs a Content-Security-Policy refusal as an error of its own; this names the
        # directive too, so that a page that breaks the policy fails its test with a clear reason.
        context.add_init_script(CSP_REPORTER)
        if not first_visit:
            context.add_init_script(HOWTO_SEEN)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda msg: (
                errors.append(f"{page.url}: console {msg.text}")
                if msg.type == "error"
                and not EXPECTED_REFUSAL.search(msg.text)
                and not (quiet and quiet.search(msg.text))
                else None
            ),
        )
        return page

    yield open_page
    # Let the page's last requests finish before the context closes: the live server flushes the
    # database after the test, and a request still running beside the flush (PostgreSQL's TRUNCATE)
    # can make it fail.
    for context in contexts:
        for open_tab in context.pages:
            try:
                open_tab.wait_for_load_state("networkidle", timeout=5_000)
            except Exception:  # noqa: BLE001 - a page that keeps polling still gets closed
                pass
        context.close()
    assert not errors, errors


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    return new_page()


@pytest.fixture
def screenshot() -> Callable[[Any, str], Path]:
    """Save a screenshot as a test artifact (artifacts/ is git-ignored)."""

    def save(page: Any, name: str, *, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
