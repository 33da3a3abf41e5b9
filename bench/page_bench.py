"""The play page in a real browser: weight of the first load, time to a dealt table, and how soon
a dropped card starts to move.

Starts its own server the way ``make run`` does (``manage.py runserver``, default settings, a fresh
SQLite file in a temporary folder) on a free port and drives Debian's Chromium with Playwright:

- weight: bytes transferred (headers + bodies, as sent) by a first load of ``/`` with an empty
  cache, the API calls included; the statistics page (which adds Chart.js) for comparison;
- render: navigation start to the ``board-rendered`` mark (the dealt state on the table), and
  to the ``load`` event, median of ``--runs`` fresh loads;
- animation: from ``pointerup`` of a drag onto a legal column to the first animation frame in
  which the dropped card has moved, median and worst of ``--runs`` drops.

    python bench/page_bench.py [--runs 7]

Goals (issue 5): <= 200 KB first load, < 1 s render, < 100 ms from drop to movement.
Prints figures; exits non-zero only if the page cannot be measured.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Any

import django
from page_support import ARGS, CHROMIUM, Figures, first_load, served

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
django.setup()  # tests.frontend.support, which holds the drop watcher the browser tests use, reads models

from games.engine import Game, GameCode, Rule  # noqa: E402
from tests.frontend.support import WATCH_DROP  # noqa: E402

VIEWPORT = {"width": 1280, "height": 800}
TIMING = """() => {
    const mark = performance.getEntriesByName('board-rendered')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    return { rendered: mark ? mark.startTime : null, load: nav.loadEventEnd };
}"""


def drop_deals(count: int) -> list[tuple[str, str, str]]:
    """(code, card, target column) of deals with a legal move of a group onto a column."""
    found = []
    number = 1
    while len(found) < count:
        game = Game.new(GameCode(Rule.CLASSIC, number))
        number += 1
        for move in game.legal_moves():
            m = move.to_json()
            if m["from"][0] == "t" and m["to"][0] == "t":
                found.append((str(game.code), m["card"], m["to"]))
                break
    return found


def page_load(browser: Any, url: str, path: str) -> Figures:
    """A first load of ``path``: its weight, and when the board (or the statistics) was ready."""

    def ready(page: Any) -> Figures:
        if path == "/":
            page.wait_for_function("() => performance.getEntriesByName('board-rendered').length > 0")
        else:
            page.wait_for_function("() => document.body.dataset.statsReady === '1'")
        return {}

    def settled(page: Any) -> Figures:
        return dict(page.evaluate(TIMING))

    return first_load(browser, url + path, viewport=VIEWPORT, ready=ready, settled=settled)


def drop_latency(browser: Any, url: str, code: str, card: str, target: str) -> float:
    context = browser.new_context(viewport=VIEWPORT, locale="de-DE")
    page = context.new_page()
    page.goto(f"{url}/?code={code}")
    page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52")
    page.wait_for_timeout(900)  # the deal animation
    page.evaluate(WATCH_DROP, card)
    box = page.locator(f"#card-{card}").bounding_box()
    lane = page.locator(f".lane[data-target={target}]").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 8
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 8, y + 8, steps=2)
    page.mouse.move(lane["x"] + lane["width"] / 2, lane["y"] + 60, steps=8)
    page.mouse.up()
    page.wait_for_function("() => window.__moved !== null")
    latency = float(page.evaluate("window.__moved - window.__drop"))
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '1'")
    context.close()
    return latency


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args, _ = parser.parse_known_args()
    if not os.path.exists(CHROMIUM):
        print(f"page: no Chromium at {CHROMIUM} (apt-get install -y chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with served() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page_load(browser, url, "/")  # warm the server (imports, templates)
        loads = [page_load(browser, url, "/") for _ in range(args.runs)]
        stats_page = page_load(browser, url, "/stats")
        latencies = [drop_latency(browser, url, *deal) for deal in drop_deals(args.runs)]
        browser.close()

    weight = statistics.median(load["bytes"] for load in loads) / 1024
    api = statistics.median(load["api"] for load in loads) / 1024
    rendered = statistics.median(load["rendered"] for load in loads)
    loaded = statistics.median(load["load"] for load in loads)
    print(
        f"page weight: {weight:.1f} KB transferred on a first load of / ({loads[0]['requests']} requests, "
        f"{api:.1f} KB of it API), goal <= 200 KB"
    )
    print(f"page weight: {stats_page['bytes'] / 1024:.1f} KB for /stats (Chart.js loaded there only)")
    print(
        f"render: dealt table at {rendered:.0f} ms after navigation start (load event {loaded:.0f} ms), "
        f"median of {args.runs}, goal < 1000 ms"
    )
    print(
        f"animation: a dropped card moves {statistics.median(latencies):.1f} ms after pointerup "
        f"(worst {max(latencies):.1f} ms of {len(latencies)}), goal < 100 ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
