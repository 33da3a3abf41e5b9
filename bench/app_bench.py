"""The installed app, measured (docs/offline.md): what the app shell and the offline engine cost
over the wire, how long a move takes when the network goes, a move of the page's engine on a
slowed CPU, and the play page's warm start from the service worker at 150 ms latency.

    python bench/app_bench.py [--latency 150] [--cpu 4] [--moves 10]

The site runs as production serves it (DEBUG off, collectstatic: minified, hashed, brotli; needs
REDIS_URL, default redis://127.0.0.1:6379/6) behind a proxy of this script's that delays every
chunk by half the latency each way, so that the page, its service worker and the engine's worker
all meet the same network. Debian's Chromium, a persistent profile (a service worker needs one to
install), a 390×844 phone.

- **bytes**: each address the service worker keeps at install, and Pyodide's and the engine's
  files, fetched with ``Accept-Encoding: br`` (what a browser is sent); the first visit's and a
  second visit's requests as the page saw them (a second visit's static files come from the
  worker's cache: only the page and the API go over the wire).
- **offline move**: the network cut (Chromium's offline mode), then a move dragged: from the
  pointer's release to the card moving on the table (the first move finds no network, turns the
  game into the device's and plays it in the engine), the median of ``--moves`` moves after it,
  and an online move for comparison.
- **engine move at N× CPU**: the same, with Chromium's CPU throttling at ``--cpu`` on the page and
  on the engine's worker (DevTools protocol), offline.
- **warm start**: ``performance.mark("board-rendered")`` (the play page's first board) of a
  reload with the worker, against a first visit without one, both at ``--latency``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.page_support import ARGS, CHROMIUM, free_port, served  # noqa: E402

os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
CODE = "YU1-C-AAAAAAB"
PHONE = {"width": 390, "height": 844}
WATCH_DROP = """card => {
    const el = document.getElementById('card-' + card);
    window.__drop = null; window.__moved = null;
    document.getElementById('table').addEventListener('pointerup', () => {
        window.__drop = performance.now();
        const before = el.getBoundingClientRect().top + ',' + el.getBoundingClientRect().left;
        const look = () => {
            const now = el.getBoundingClientRect().top + ',' + el.getBoundingClientRect().left;
            if (now !== before || el.style.transform !== window.__transform) {
                window.__moved = performance.now();
                return;
            }
            requestAnimationFrame(look);
        };
        window.__transform = el.style.transform;
        requestAnimationFrame(look);
    }, { once: true, capture: true });
}"""


# -- a network with latency ------------------------------------------------------------------------
@contextmanager
def delayed(target: str, latency_ms: float) -> Iterator[str]:
    """A TCP proxy in front of ``target`` (http://host:port) that holds every chunk half the
    latency in each direction: the base URL to use instead."""
    host, port = re.match(r"http://([^:/]+):(\d+)", target).groups()  # type: ignore[union-attr]
    half = latency_ms / 2000
    listen = free_port()
    loop = asyncio.new_event_loop()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(65536):
                await asyncio.sleep(half)
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(client_r, server_w), pipe(server_r, client_w))

    async def serve() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", listen)
        async with server:
            await server.serve_forever()

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    thread.start()
    time.sleep(0.3)
    yield f"http://127.0.0.1:{listen}"


# -- bytes ---------------------------------------------------------------------------------------
def br_size(url: str) -> int:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "br"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return len(answer.read())


def bytes_kept(base: str) -> dict[str, Any]:
    """What the service worker keeps at install, and the engine's files, compressed as sent."""
    with urllib.request.urlopen(base + "/sw.js", timeout=30) as answer:
        text = answer.read().decode()
    config = json.loads(re.search(r"self\.YUKON = (\{.*?\});", text).group(1))  # type: ignore[union-attr]
    shell = {entry["url"]: br_size(base + entry["url"]) for entry in config["precache"]}
    pyodide = config["pyodide"]
    engine = {name: br_size(base + pyodide + name) for name in ENGINE_FILES}
    with urllib.request.urlopen(base + "/", timeout=30) as answer:
        page = answer.read().decode()
    zip_url = re.search(r'"engine": "([^"]+)"', page).group(1)  # type: ignore[union-attr]
    engine["engine zip"] = br_size(base + zip_url)
    return {"shell": shell, "engine": engine}


ENGINE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


# -- the browser -----------------------------------------------------------------------------------
def wire(page: Any) -> list[tuple[str, int, bool]]:
    """Every request the page makes from now on: (url, bytes over the wire, from the worker)."""
    seen: list[tuple[str, int, bool]] = []

    def finished(request: Any) -> None:
        response = request.response()
        from_worker = bool(response and response.from_service_worker)
        sizes = request.sizes()
        seen.append(
            (request.url, 0 if from_worker else sizes["responseBodySize"] + sizes["responseHeadersSize"], from_worker)
        )

    page.on("requestfinished", finished)
    return seen


def drag_first_move(page: Any, game: Any) -> float:
    """Drag a legal move between columns (found by the engine in this process); ms from the
    pointer's release to the card moving."""
    from games.engine import Move

    move = next(
        m.to_json() for m in game.legal_moves() if m.to_json()["to"][0] == "t" and m.to_json()["from"][0] == "t"
    )
    game.play(Move.from_json(move))
    page.evaluate(WATCH_DROP, move["card"])
    card = page.locator(f"#card-{move['card']}").bounding_box()
    lane = page.locator(f".lane[data-target={move['to']}]").bounding_box()
    start = (card["x"] + card["width"] / 2, card["y"] + min(10, card["height"] / 6))
    end = (lane["x"] + lane["width"] / 2, lane["y"] + 60)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 8, start[1] + 8, steps=2)
    page.mouse.move(*end, steps=6)
    page.mouse.up()
    page.wait_for_function("() => window.__moved !== null", timeout=30_000)
    elapsed = page.evaluate("window.__moved - window.__drop")
    page.wait_for_function(
        f"() => document.getElementById('stat-moves').textContent === '{game.moves}'", timeout=30_000
    )
    page.wait_for_timeout(400)
    return float(elapsed)


def throttle(context: Any, page: Any, rate: float) -> int:
    """CPU throttling on the page and on its workers (the engine's), through a DevTools session of
    the page that attaches to them: how many workers it reached."""
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    workers: list[str] = []
    session.on(
        "Target.attachedToTarget",
        lambda event: workers.append(event["sessionId"]) if event["targetInfo"]["type"] == "worker" else None,
    )
    session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False})
    page.wait_for_timeout(500)
    message = json.dumps({"id": 1, "method": "Emulation.setCPUThrottlingRate", "params": {"rate": rate}})
    for worker in workers:
        session.send("Target.sendMessageToTarget", {"sessionId": worker, "message": message})
    return len(workers)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from games.engine import Game

    figures: dict[str, Any] = {}
    with served(production=True) as origin, delayed(origin, args.latency) as base, sync_playwright() as pw:
        kept = bytes_kept(origin)
        figures["shell_bytes"] = sum(kept["shell"].values())
        figures["shell_files"] = len(kept["shell"])
        figures["engine_bytes"] = kept["engine"]
        with tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                args=ARGS,
                viewport=PHONE,
                has_touch=False,
                locale="en-US",
                base_url=base,
            )
            context.add_init_script("try { localStorage.setItem('yukon.howto.seen', '1') } catch (e) {}")
            page = context.pages[0] if context.pages else context.new_page()
            first = wire(page)
            started = time.monotonic()
            page.goto(f"/?code={CODE}")
            page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52", timeout=60_000)
            page.wait_for_function("() => document.documentElement.dataset.engine === 'ready'", timeout=180_000)
            figures["engine_ready_s"] = round(time.monotonic() - started, 1)
            page.wait_for_timeout(3000)  # the worker keeps what the page hands it
            figures["first_visit_bytes"] = sum(size for _, size, _ in first)
            game_id = page.evaluate("new URLSearchParams(location.search).get('game')")

            # warm start: a reload through the worker
            second = wire(page)
            page.reload()
            page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52", timeout=60_000)
            figures["warm_start_ms"] = round(
                page.evaluate("performance.getEntriesByName('board-rendered')[0].startTime")
            )
            page.wait_for_load_state("networkidle")
            figures["second_visit_bytes"] = sum(size for _, size, _ in second)
            figures["second_visit_from_worker"] = sum(1 for _, _, hit in second if hit)
            figures["second_visit_requests"] = len(second)

            game = Game.from_code(CODE)
            page.wait_for_function(
                f"() => document.documentElement.dataset.engineGame === '{game_id}:0'", timeout=60_000
            )
            figures["online_move_ms"] = round(drag_first_move(page, game))
            page.wait_for_function(
                f"() => document.documentElement.dataset.engineGame === '{game_id}:1'", timeout=60_000
            )
            context.set_offline(True)
            figures["first_offline_move_ms"] = round(drag_first_move(page, game))
            later = [drag_first_move(page, game) for _ in range(args.moves)]
            figures["offline_move_ms_median"] = round(statistics.median(later))
            figures["throttled_workers"] = throttle(context, page, args.cpu)
            slowed = [drag_first_move(page, game) for _ in range(args.moves)]
            figures[f"offline_move_ms_median_cpu_{args.cpu:g}x"] = round(statistics.median(slowed))
            throttle(context, page, 1)
            context.set_offline(False)
            context.close()

        # a first visit without a worker, for the warm start's comparison
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        cold = browser.new_context(viewport=PHONE, locale="en-US", base_url=base, service_workers="block")
        cold.add_init_script("try { localStorage.setItem('yukon.howto.seen', '1') } catch (e) {}")
        page = cold.new_page()
        page.goto(f"/?code={CODE}")
        page.wait_for_function("() => document.querySelectorAll('#table .card').length === 52", timeout=60_000)
        figures["cold_start_ms"] = round(page.evaluate("performance.getEntriesByName('board-rendered')[0].startTime"))
        browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=150, help="round-trip latency in ms (default 150)")
    parser.add_argument("--cpu", type=float, default=4, help="CPU slow-down for the engine's move (default 4)")
    parser.add_argument("--moves", type=int, default=10, help="moves per median (default 10)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    figures = run(args)
    kib = lambda n: f"{n / 1024:,.0f} KiB"  # noqa: E731
    print(f"latency {args.latency:g} ms (round trip), phone 390x844, DEBUG off, brotli")
    print(f"app shell kept at install: {figures['shell_files']} files, {kib(figures['shell_bytes'])}")
    engine = figures["engine_bytes"]
    for name, size in engine.items():
        print(f"  engine  {name:<20} {kib(size):>10}")
    print(f"  engine  {'total':<20} {kib(sum(engine.values())):>10}")
    f = figures
    print(
        f"first visit, as the page saw it: {kib(f['first_visit_bytes'])} (engine ready {f['engine_ready_s']} s after)"
    )
    print(
        f"second visit: {kib(f['second_visit_bytes'])} over the wire, "
        f"{f['second_visit_from_worker']} of {f['second_visit_requests']} requests from the worker"
    )
    print(f"warm start (board drawn) with the worker: {f['warm_start_ms']} ms; first visit: {f['cold_start_ms']} ms")
    print(f"a move online (release to card moving): {f['online_move_ms']} ms")
    cut, then = f["first_offline_move_ms"], f["offline_move_ms_median"]
    print(f"first move after the network is cut: {cut} ms; then {then} ms")
    key = f"offline_move_ms_median_cpu_{args.cpu:g}x"
    print(f"offline moves with the CPU {args.cpu:g}x slower: median {figures[key]} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
