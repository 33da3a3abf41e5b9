"""The Content-Security-Policy holds in the browser (issue 40, point 6): a script that an escaping
slip would put into a page does not run, the play page's own inline script (with the answer's
nonce) does, and the violation is reported, which is what fails every other browser test on a page
that breaks the policy (tests/frontend/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CSP_REPORTER, DESKTOP

pytestmark = pytest.mark.browser


def test_an_injected_script_and_style_are_refused_and_reported(browser: Any, live_server: Any) -> None:
    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.add_init_script(CSP_REPORTER)
    context.add_init_script("try { localStorage.setItem('yukon.howto.seen', '1') } catch (e) {}")
    page = context.new_page()
    reported: list[str] = []
    page.on("console", lambda msg: reported.append(msg.text) if msg.text.startswith("CSP violation") else None)
    try:
        page.goto("/")
        page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
        # The page's own inline script ran: it carries the nonce the answer's policy names.
        assert page.evaluate("document.documentElement.classList.contains('howto-seen')")
        ran = page.evaluate(
            """() => {
                const wrapper = document.createElement('div');
                wrapper.innerHTML = '<img src="x" onerror="window.injected = 1">';
                document.body.append(wrapper);
                const script = document.createElement('script');
                script.textContent = 'window.injected = 2';
                document.head.append(script);
                const style = document.createElement('style');
                style.textContent = 'body { display: none }';
                document.head.append(style);
                return window.injected ?? null;
            }"""
        )
        page.wait_for_timeout(200)  # the violation events are dispatched after the refusal
        assert ran is None
        assert page.locator("#table").is_visible()  # the injected style sheet did not apply
        kinds = {text.split()[2] for text in reported}
        assert {"script-src-elem", "style-src-elem"} <= kinds, reported
    finally:
        context.close()
