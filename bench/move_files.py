"""The files a winning ranked move passes through, from the browser's request to the day's board
(issue 48: what a reader opens to follow it), and the steps on that path hidden in an import
inside a function.

A logged-in browser (session cookie and CSRF token) starts today's deal, its winning line is
written as a player would have played it (tests/stats/helpers.py), and its last move is sent
through the API; the tasks run in the process (eager, the embedded defaults): the log packed,
the attempt reviewed, the verdict's event, the bests and the board; then the day's board is read.
Every function of the project that runs is recorded (a profile hook, threads too); imports at a
module's top are not (they run before, when the module is first imported), an import inside a
function that runs is.

Prints the project's Python files the move passes through, by package, their count, and the
imports inside functions met on the way. ``--code DIR`` measures another checkout (a worktree of
an earlier commit: ``git worktree add /tmp/before <commit>``).

    python bench/move_files.py [--code DIR] [--list]
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

HERE = Path(__file__).resolve().parent.parent
PACKAGES = ("common", "games", "stats", "social", "accounts", "frontend", "yukon_site")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout to measure (default: this one)")
    parser.add_argument("--list", action="store_true", help="print every file")
    args = parser.parse_args()
    root = args.code.resolve()
    os.chdir(root)  # (the settings find the project from the working directory too)
    sys.path.insert(0, str(root))
    scratch = tempfile.TemporaryDirectory()
    os.environ.update(
        DATABASE_URL=f"sqlite:///{scratch.name}/files.sqlite3",
        REDIS_URL="",
        DJANGO_SETTINGS_MODULE="yukon_site.settings",
        LOG_LEVEL="ERROR",
        DAILY_ARRANGEMENTS="1",
    )
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from games.competition import clock
    from tests import factories
    from tests.stats import helpers

    call_command("migrate", verbosity=0)
    account = factories.user()
    helpers.deal(clock.today())
    browser = Client(enforce_csrf_checks=True)
    browser.get("/api/v1/auth/me")
    login = {"username": account.username, "password": factories.PASSWORD}
    csrf = browser.cookies["csrftoken"].value
    logged_in = browser.post(
        "/api/v1/auth/login", login, content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    assert logged_in.status_code == 200, logged_in.content
    csrf = browser.cookies["csrftoken"].value
    game = browser.post(
        "/api/v1/games", {"daily": True}, content_type="application/json", headers={"X-CSRFToken": csrf}
    ).json()
    last = helpers.play_all_but_the_last(game["id"], pace_ms=4000)
    browser.get(f"/api/v1/games/{game['id']}")  # (a browser reads its game first: imports done)

    seen: set[tuple[str, str, int]] = set()
    project = [str(root / package) + os.sep for package in PACKAGES]

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(tuple(project)) and code.co_name != "<module>":
                seen.add((code.co_filename, code.co_name, code.co_firstlineno))

    threading.setprofile(hook)
    sys.setprofile(hook)
    try:
        answer = browser.post(
            f"/api/v1/games/{game['id']}/moves",
            last.to_json(),
            content_type="application/json",
            headers={"X-CSRFToken": csrf, "Idempotency-Key": "the-winning-move"},
        )
        board = browser.get(f"/api/v1/leaderboards/daily/{clock.today().isoformat()}")
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    state = answer.json()
    assert answer.status_code == 200 and state["status"] == "won", answer.content
    review = browser.get(f"/api/v1/games/{game['id']}").json().get("review")
    print(
        f"the move: {answer.status_code} {state['status']}; its review: {review}; the board read: {board.status_code}"
    )

    import games

    print("the checkout measured:", Path(games.__file__).parent.parent)
    files = sorted({name for name, _, _ in seen})
    shown = [str(Path(name).relative_to(root)) for name in files]
    by_package = Counter(
        "/".join(Path(name).parts[:2])
        if Path(name).parts[0] == "games" and len(Path(name).parts) > 2
        else Path(name).parts[0]
        for name in shown
    )
    print(f"\nPython files on the path: {len(files)}")
    for package, count in sorted(by_package.items()):
        print(f"  {package:<20} {count}")
    if args.list:
        for name in shown:
            print("   ", name)

    hidden = []
    for filename, function, line in sorted(seen):
        tree = ast.parse(Path(filename).read_text())
        for node in ast.walk(tree):
            starts = {getattr(node, "lineno", 0), *(d.lineno for d in getattr(node, "decorator_list", ()))}
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function and line in starts:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
                        top = inner.module.split(".")[0]
                        names = inner.module
                    elif isinstance(inner, ast.ImportFrom) and inner.level:
                        top, names = "(relative)", "." * inner.level + (inner.module or "")
                    elif isinstance(inner, ast.Import):
                        names = ", ".join(alias.name for alias in inner.names)
                        top = inner.names[0].name.split(".")[0]
                    else:
                        continue
                    if top in PACKAGES or top == "(relative)":
                        hidden.append(f"{Path(filename).relative_to(root)}:{function} imports {names}")
    hidden = sorted(set(hidden))
    print(f"\nimports inside functions on the path: {len(hidden)}")
    for step in hidden:
        print("   ", step)
    scratch.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
