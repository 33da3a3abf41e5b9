"""The play page's first load, as a new player gets it: bytes transferred, requests, and the time
to the first rendered board (issue 16 asks to keep it at or below 108 KB and 14 requests).

Starts ``manage.py runserver`` (default settings, a fresh SQLite file) from ``--root`` (this
checkout by default; point it at an exported older commit to measure "before") and loads ``/``
with an empty cache in Debian's Chromium, ``--runs`` times in fresh browser contexts:

- bytes: request and response headers plus bodies as sent, every request of the load (API included);
- requests: how many the load made until the network was idle;
- board: navigation start to the first paint after 52 cards lie on the table (the
  ``board-rendered`` mark when the page sets one, else the cards observed in the DOM).

    python bench/page_load.py [--runs 5] [--root /path/to/checkout] [--viewport 390x844]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]

#: Waits for 52 cards, then for the next animation frame (the board is painted).
BOARD_PAINTED = """() => new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => resolve(performance.now()));
    const ready = () => document.querySelectorAll('#table .card').length === 52;
    if (ready()) return done();
    new MutationObserver((_, observer) => { if (ready()) { observer.disconnect(); done(); } })
        .observe(document.documentElement, { childList: true, subtree: true });
})"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped")
        try:
            urllib.request.urlopen(url + "/", timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("the server did not answer")


def load_once(browser: Any, url: str, viewport: dict[str, int]) -> dict[str, float]:
    context = browser.new_context(viewport=viewport, locale="de-DE")
    page = context.new_page()
    sizes: list[tuple[str, int]] = []

    def finished(request: Any) -> None:
        s = request.sizes()
        sizes.append((request.url, s["responseHeadersSize"] + s["responseBodySize"] + s["requestHeadersSize"]))

    page.on("requestfinished", finished)
    page.goto(url + "/", wait_until="commit")
    painted = float(page.evaluate(BOARD_PAINTED))
    page.wait_for_load_state("networkidle")
    mark = page.evaluate(
        "() => { const m = performance.getEntriesByName('board-rendered')[0]; return m ? m.startTime : null; }"
    )
    context.close()
    return {
        "bytes": sum(size for _, size in sizes),
        "api": sum(size for u, size in sizes if "/api/" in u),
        "requests": len(sizes),
        "board": float(mark) if mark is not None else painted,
        "painted": painted,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--viewport", default="1366x800")
    args = parser.parse_args()
    width, height = (int(v) for v in args.viewport.split("x"))
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
        env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        env.update(lifted_env())
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=args.root, env=env, check=True)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        server = subprocess.Popen(command, cwd=args.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_ready(url, server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                load_once(browser, url, {"width": width, "height": height})  # warm the server
                loads = [load_once(browser, url, {"width": width, "height": height}) for _ in range(args.runs)]
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
    kb = statistics.median(load["bytes"] for load in loads) / 1024
    api = statistics.median(load["api"] for load in loads) / 1024
    requests = max(int(load["requests"]) for load in loads)
    board = statistics.median(load["board"] for load in loads)
    painted = statistics.median(load["painted"] for load in loads)
    print(f"first load of / at {width}x{height} ({args.root}), median of {args.runs} fresh contexts:")
    print(f"  bytes:    {kb:.1f} KB transferred ({api:.1f} KB of it API), goal <= 108 KB")
    print(f"  requests: {requests} (most of any run), goal <= 14")
    print(f"  board:    {board:.0f} ms from navigation start to the rendered board ({painted:.0f} ms to its paint)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
