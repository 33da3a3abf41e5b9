"""Does "winnable deals only" keep a deal for everyone while one client asks as fast as it can?

Issue 50: one guest asking 30 times took the whole pool of 20 in 0.6 s and everyone else got
``503 winnable_not_ready``; a guest asking once a second took every refill. Now the deals stay in
the pool and each request gets a random one its player has not had (games/play/winnable.py).

On PostgreSQL, through the API as browsers ask (Django's test client, a session cookie each, one
thread per client, each client from an address of its own as behind the site's proxy), with a
pool of ``--pool`` certified deals of each rule (filled before, the worker's refill switched off
so that nothing grows it meanwhile) for ``--seconds``:

- a greedy guest asking ``--rate`` times a second with its one session (the rate limit of
  ``POST games``, 120 a minute a player, stops it after two seconds: 429);
- a greedy client that never keeps its cookie (a new guest each request, under the address's
  limit of 600 a minute);
- ``--victims`` guests each asking every ``--every`` seconds.

It prints, for each, what it was answered (201, 429, 503) and how long the answers took, and how
many different deals each victim got. The goal: every victim's request gets a winnable deal, in
well under a second or two, whatever the greedy clients do.

    python bench/winnable_bench.py [--pool 20] [--seconds 30] [--rate 30] [--victims 4] [--every 6]

Database: ``BENCH_DATABASE_URL`` if set (used as is, kept); otherwise a scratch database
``yukon_winnable_bench`` on the PostgreSQL server of ``DATABASE_URL`` (or 127.0.0.1), created and
dropped here. Without a reachable PostgreSQL server it says so and exits 0.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from scratch_db import with_scratch_database

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = "yukon_winnable_bench"


@dataclass
class Seen:
    name: str
    statuses: Counter[int] = field(default_factory=Counter)
    ms: list[float] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=int, default=20, help="certified deals of each rule in the pool")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=30.0, help="requests a second of each greedy client")
    parser.add_argument("--victims", type=int, default=4)
    parser.add_argument("--every", type=float, default=6.0, help="seconds between a victim's requests")
    args = parser.parse_args()
    return with_scratch_database(SCRATCH, "winnable_bench", lambda url: run(url, args))


def run(url: str, args: argparse.Namespace) -> int:
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("ACCESS_LOG_LEVEL", "WARNING")
    os.environ["WINNABLE_POOL_SIZE"] = os.environ["WINNABLE_FILL_BATCH"] = str(args.pool)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from games import jobs
    from games.play import winnable

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    print(f"pool: {winnable.winnable_deals_fill()} certified in {time.perf_counter() - started:.1f} s")
    refills: list[int] = []
    jobs.winnable_deals_fill = lambda: refills.append(1)  # (the pool stays as filled: the hard case)
    stop = time.perf_counter() + args.seconds

    def client(name: str, address: str, every: float, *, keeps_cookie: bool = True) -> Seen:
        seen = Seen(name)
        browser = Client(REMOTE_ADDR=address)
        due = time.perf_counter()
        while due < stop:
            time.sleep(max(0.0, due - time.perf_counter()))
            if not keeps_cookie:
                browser = Client(REMOTE_ADDR=address)
            asked = time.perf_counter()
            response = browser.post("/api/v1/games", {"winnable_only": True}, content_type="application/json")
            seen.ms.append((time.perf_counter() - asked) * 1000)
            seen.statuses[response.status_code] += 1
            if response.status_code == 201:
                seen.codes.append(response.json()["code"])
            due += every
        connection.close()
        return seen

    plans = [
        ("greedy guest, one session", "10.0.0.1", 1 / args.rate, True),
        ("greedy client, a new session each request", "10.0.0.2", 1 / args.rate, False),
    ] + [(f"victim {n} (every {args.every:g} s)", f"10.0.1.{n}", args.every, True) for n in range(1, args.victims + 1)]
    results: dict[str, Seen] = {}

    def work(name: str, address: str, every: float, keeps: bool) -> None:
        results[name] = client(name, address, every, keeps_cookie=keeps)

    threads = [threading.Thread(target=work, args=plan) for plan in plans]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    print(f"{args.seconds:g} s, pool of {args.pool} a rule, no refill ({len(refills)} asked for)")
    print(f"{'client':<44} {'asked':>5} {'201':>5} {'429':>5} {'503':>5} {'p50 ms':>7} {'max ms':>7} {'deals':>5}")
    victims_ok = True
    for name, _, _, _ in plans:
        seen = results[name]
        asked = sum(seen.statuses.values())
        cells = [seen.statuses[code] for code in (201, 429, 503)]
        p50, worst = statistics.median(seen.ms), max(seen.ms)
        deals = len(set(seen.codes))
        print(f"{name:<44} {asked:>5} {cells[0]:>5} {cells[1]:>5} {cells[2]:>5} {p50:>7.1f} {worst:>7.1f} {deals:>5}")
        if name.startswith("victim"):
            victims_ok &= cells[0] == asked and worst < 2000
    print("every victim got a winnable deal within 2 s each time:", "yes" if victims_ok else "NO")
    return 0 if victims_ok else 1


if __name__ == "__main__":
    sys.exit(main())
