"""The play page's first load, as a new player gets it: bytes transferred, requests, and the time
to the first rendered board (issue 16 asks to keep it at or below 108 KB and 14 requests).

Starts ``manage.py runserver`` (default settings, a fresh SQLite file) from ``--root`` (this
checkout by default; point it at an exported older commit to measure "before") and loads ``/``
with an empty cache in Debian's Chromium, ``--runs`` times in fresh browser contexts:

- bytes: request and response headers plus bodies as sent, every request of the load (API included);
- requests: how many the load made until the network was idle;
- board: navigation start to the first paint after 52 cards lie on the table (the
  ``board-rendered`` mark when the page sets one, else the cards observed in the DOM).

    python bench/page_load.py [--runs 5] [--root /path/to/checkout] [--viewport 390x844] [--production]

``--production`` serves the checkout as production does (DEBUG=0: collected static files, minified
and compressed where the checkout does that; REDIS_URL must name a Redis database), which is what a
player gets; without it, the development server's uncompressed files.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from page_support import ARGS, CHROMIUM, ROOT, Figures, first_load, served

#: Waits for 52 cards, then for the next animation frame (the board is painted).
BOARD_PAINTED = """() => new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => resolve(performance.now()));
    const ready = () => document.querySelectorAll('#table .card').length === 52;
    if (ready()) return done();
    new MutationObserver((_, observer) => { if (ready()) { observer.disconnect(); done(); } })
        .observe(document.documentElement, { childList: true, subtree: true });
})"""
BOARD_MARK = "() => { const m = performance.getEntriesByName('board-rendered')[0]; return m ? m.startTime : null; }"


def load_once(browser: Any, url: str, viewport: dict[str, int]) -> Figures:
    def painted(page: Any) -> Figures:
        return {"painted": float(page.evaluate(BOARD_PAINTED))}

    def marked(page: Any) -> Figures:
        return {"mark": page.evaluate(BOARD_MARK)}

    load = first_load(browser, url + "/", viewport=viewport, ready=painted, settled=marked, wait_until="commit")
    load["board"] = float(load["mark"]) if load["mark"] is not None else load["painted"]
    return load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--viewport", default="1366x800")
    parser.add_argument("--production", action="store_true", help="DEBUG=0 and collected static files")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.split("x"))
    from playwright.sync_api import sync_playwright

    viewport = {"width": width, "height": height}
    with served(args.root, production=args.production) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        load_once(browser, url, viewport)  # warm the server
        loads = [load_once(browser, url, viewport) for _ in range(args.runs)]
        browser.close()
    kb = statistics.median(load["bytes"] for load in loads) / 1024
    api = statistics.median(load["api"] for load in loads) / 1024
    requests = max(int(load["requests"]) for load in loads)
    board = statistics.median(load["board"] for load in loads)
    painted = statistics.median(load["painted"] for load in loads)
    mode = "production settings" if args.production else "development server"
    print(f"first load of / at {width}x{height} ({args.root}, {mode}), median of {args.runs} fresh contexts:")
    print(f"  bytes:    {kb:.1f} KB transferred ({api:.1f} KB of it API), goal <= 108 KB")
    print(f"  requests: {requests} (most of any run), goal <= 14")
    print(f"  board:    {board:.0f} ms from navigation start to the rendered board ({painted:.0f} ms to its paint)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
