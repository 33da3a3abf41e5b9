"""`make lighthouse`: Lighthouse's four scores and CLS / LCP / TBT of every page, mobile and desktop.

A benchmark, not a test. It serves the site as production does (granian via deploy/web.sh,
DEBUG=0, collected static files) against PostgreSQL and Redis, makes an account with a few
games, one of them won (for the logged-in pages: /stats, whose chart then has something to draw,
the account's pages, the won game's replay and the account's profile), and runs Lighthouse
(bench/lighthouse/package.json, `npm ci` here) in Debian's Chromium ($CHROME_PATH,
/usr/bin/chromium) on each page the site has (PAGES: every route of frontend/urls.py, a link
page with a void token, and the 404 page) with the mobile and the desktop preset. Medians of
--runs runs.

    python bench/lighthouse/run.py [--runs 3] [--port 8102] [--pages /,/stats] [--json out.json]

Environment: DATABASE_URL (postgres://postgres@127.0.0.1:5432/yukon_lighthouse), REDIS_URL
(redis://127.0.0.1:6379/13), CHROME_PATH.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from common.limits import lifted_env  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from page_support import wait_ready  # noqa: E402

PY = sys.executable
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
#: (label, path, logged in): every page of frontend/urls.py; ``{user}``, ``{game}`` and ``{club}`` are
#: the bench account's name, its won game and its club (tests/site/test_lighthouse_pages.py keeps the list whole).
PAGES = [
    ("/", "/", False),
    ("/daily", "/daily", False),
    ("/leaderboards", "/leaderboards", False),
    ("/archive", "/archive", False),
    ("/games", "/games", False),
    ("/stats (guest)", "/stats", False),
    ("/stats (logged in)", "/stats", True),
    ("/login", "/login", False),
    ("/signup", "/signup", False),
    ("/replay/<id>", "/replay/{game}", True),
    ("/players/<name>", "/players/{user}", False),
    ("/clubs", "/clubs", True),
    ("/clubs/<slug>", "/clubs/{club}", True),
    ("/clubs/join/<invite>", "/clubs/join/void-invite", True),
    ("/account", "/account", True),
    ("/account/delete", "/account/delete", True),
    ("/account/password-reset", "/account/password-reset", False),
    ("/account/reset/<link>", "/account/reset/MQ/void-token", False),
    ("/account/email/<link>", "/account/email/void-token", False),
    ("/account/email-undo/<link>", "/account/email-undo/void-token", False),
    ("404", "/no-such-page", False),
    ("/offline", "/offline", False),
]
#: A deal the solver wins at once (the tests' known winnable deal): the bench account wins it.
WON_DEAL = "YU1-C-AAAAAAB"


def server_env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/yukon_lighthouse")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
    env.update(
        DEBUG="0",
        SECRET_KEY="lighthouse-bench-only-" + "x" * 40,
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        DB_CONN_MAX_AGE="60",
        **lifted_env(),
    )
    return env


def create_database(env: dict[str, str]) -> None:
    from urllib.parse import urlparse

    import psycopg

    url = urlparse(env["DATABASE_URL"])
    if not url.scheme.startswith("postgres"):
        return
    name = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def prepare(env: dict[str, str]) -> None:
    create_database(env)
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"], ["daily_prepare"]):
        subprocess.run([PY, "manage.py", *command], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def call(opener: Any, url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", "Accept-Language": "de"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET")
    with opener.open(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def bench_account(url: str) -> dict[str, str]:
    """A new account: its session cookie, its name, a game it won and a club it made (``cookie``,
    ``user``, ``game``, ``club``), after a few more games with a move or more each."""
    from games.engine import Game, GameCode
    from games.solver import solve

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    name = f"bench{int(time.time() * 1000) % 10**9}"
    token = call(opener, f"{url}/api/v1/auth/register", {"username": name, "password": "lighthouse-bench-pw"})["token"]
    bare = urllib.request.build_opener()
    for _ in range(4):
        game = call(bare, f"{url}/api/v1/games", {"rule": "classic"}, token)
        for _ in range(3):
            if not game["legal_moves"]:
                break
            game = call(bare, f"{url}/api/v1/games/{game['id']}/moves", game["legal_moves"][0], token)
    won = call(bare, f"{url}/api/v1/games", {"code": WON_DEAL}, token)
    for move in solve(Game.new(GameCode.parse(WON_DEAL)), max_seconds=30, max_nodes=None).moves:
        won = call(bare, f"{url}/api/v1/games/{won['id']}/moves", move.to_json(), token)
    assert won["status"] == "won", won["status"]
    club = call(bare, f"{url}/api/v1/clubs", {"name": f"Club {name}"}, token)
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return {"cookie": cookie, "user": name, "game": won["id"], "club": club["slug"]}


CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--lang=de-DE"]


@contextlib.contextmanager
def chrome_with_cookies(chrome: str, url: str, cookie: str, profile: Path) -> Iterator[int]:
    """A Chromium of its own (a fresh profile) holding the account's session cookie in its jar, on a
    debugging port for Lighthouse (``--port``). Lighthouse's ``--extra-headers`` Cookie is no
    session: the first cookie a page sets (the CSRF token) starts the browser's own jar, whose
    Cookie header then replaces the extra one on the page's requests, so its API calls went as a
    guest's (/replay/<id>'s read of the game was a 404 in the console: issue 41 item 8)."""
    from playwright.sync_api import sync_playwright

    # Launched as Lighthouse launches it (chrome-launcher, its flags; chrome.mjs), a fresh profile.
    process = subprocess.Popen(
        ["node", str(HERE / "chrome.mjs"), *CHROME_FLAGS, f"--user-data-dir={profile}"],
        cwd=HERE,
        env={**os.environ, "CHROME_PATH": chrome},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        port = int(process.stdout.readline())
        with sync_playwright() as playwright:
            browser = playwright.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
            pairs = (part.split("=", 1) for part in cookie.split("; "))
            browser.contexts[0].add_cookies([{"name": n, "value": v, "url": url} for n, v in pairs])
            browser.close()  # (disconnects; the browser goes on)
        yield port
    finally:
        process.stdin.close()  # chrome.mjs ends the browser
        process.wait(timeout=30)


def lighthouse(url: str, preset: str, cookie: str | None, chrome: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={out}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--chrome-flags={' '.join(CHROME_FLAGS)}",
            "--ignore-status-code",  # the 404 page and a void link's 400 are pages too
        ]
        if preset == "desktop":
            command.append("--preset=desktop")
        for attempt in range(3):  # Lighthouse now and then fails to record a trace (NO_NAVSTART)
            if cookie:  # logged in: a browser of our own with the session in its jar, fresh each run
                origin = url.split("/", 3)[:3]
                with chrome_with_cookies(chrome, "/".join(origin), cookie, Path(tmp) / f"profile{attempt}") as port:
                    done = subprocess.run([*command, f"--port={port}"])
            else:
                done = subprocess.run(command, env={**os.environ, "CHROME_PATH": chrome})
            if done.returncode == 0:
                break
        done.check_returncode()
        report = json.loads(out.read_text())
    audits = report["audits"]
    for item in audits["errors-in-console"]["details"].get("items", []):  # what costs best practices
        print(f"  console ({preset}) {url}: {item.get('source')}: {str(item.get('description'))[:200]}", flush=True)
    return {
        **{c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES},
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "tbt": audits["total-blocking-time"]["numericValue"],
    }


def median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8102")))
    parser.add_argument("--pages", default="", help="comma-separated labels (default: every page)")
    parser.add_argument("--json", type=Path, help="also write the medians here")
    args = parser.parse_args()
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    if not LIGHTHOUSE.exists():
        print(f"no Lighthouse: cd {HERE} && npm ci", file=sys.stderr)
        return 2
    wanted = {label.strip() for label in args.pages.split(",") if label.strip()}
    pages = [page for page in PAGES if not wanted or page[0] in wanted or page[1] in wanted]
    env = server_env(args.port)
    url = f"http://127.0.0.1:{args.port}"
    prepare(env)
    server = subprocess.Popen(["deploy/web.sh"], cwd=ROOT, env=env, start_new_session=True)
    results: dict[str, dict[str, dict[str, float]]] = {}
    try:
        wait_ready(url, server, path="/readyz")
        account = bench_account(url)
        for label, path, logged in pages:
            page_url = url + path.format(**account)
            for preset in ("mobile", "desktop"):
                cookie = account["cookie"] if logged else None
                runs = [lighthouse(page_url, preset, cookie, chrome) for _ in range(args.runs)]
                results.setdefault(label, {})[preset] = median(runs)
                m = results[label][preset]
                each = " ".join(f"{run['performance']:.0f}" for run in runs) if len(runs) > 1 else ""
                print(
                    f"{label:20} {preset:7} "
                    + " / ".join(f"{m[c]:3.0f}" for c in CATEGORIES)
                    + f"   CLS {m['cls']:.3f}  LCP {m['lcp']:5.0f} ms  TBT {m['tbt']:4.0f} ms"
                    + (f"   performance of each run: {each}" if each else ""),
                    flush=True,
                )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    print(f"\nLighthouse, median of {args.runs}: performance / accessibility / best practices / SEO")
    print("| page | mobile | desktop | CLS m / d | LCP m / d (ms) | TBT m / d (ms) |")
    print("|---|---|---|---|---|---|")
    for label, by_preset in results.items():
        m, d = by_preset["mobile"], by_preset["desktop"]
        scores = [" / ".join(f"{r[c]:.0f}" for c in CATEGORIES) for r in (m, d)]
        print(
            f"| `{label}` | {scores[0]} | {scores[1]} | {m['cls']:.3f} / {d['cls']:.3f} "
            f"| {m['lcp']:.0f} / {d['lcp']:.0f} | {m['tbt']:.0f} / {d['tbt']:.0f} |"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    shutil.rmtree(HERE / ".tmp", ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
