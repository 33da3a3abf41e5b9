"""Where a move spends the web process's CPU: cProfile over moves in one process.

A logged-in browser (session cookie and CSRF token, Django's test client through the whole
middleware stack and DRF), or with ``--client token`` an API client sending its token, plays
random legal moves; prints moves per second in one thread, the CPU per move (test client
included), and the profiled CPU of the parts of a move.

    DATABASE_URL=postgres://... REDIS_URL=redis://... DEBUG=0 SECRET_KEY=... ALLOWED_HOSTS=testserver \\
        python bench/move_profile.py [--moves 1500] [--client session|token]

Needs ``SECURE_SSL_REDIRECT=0`` with ``DEBUG=0``, and lifted limits (``common.limits.lifted_env``),
as ``bench/loadtest.py`` sets them. Profiling slows every call about threefold: read the parts
as shares of the unprofiled CPU per move.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PARTS = {
    "Django handler (all)": r"handlers/base.py:get_response$",
    "DRF dispatch": r"rest_framework/views.py:dispatch$",
    "  initial: auth, CSRF, limits": r"rest_framework/views.py:initial$",
    "    authentication (account)": r"rest_framework/views.py:perform_authentication$",
    "    CSRF check": r"accounts/authentication.py:enforce_csrf$",
    "    limits (Redis)": r"rest_framework/views.py:check_throttles$",
    "  view: the move (service)": r"games/play/services.py:game_play$",
    "    store read + write": r"games/play/store.py:(game_read|game_change_save)$",
    "    engine + state": r"games/play/services.py:_game_apply$|games/play/presenters.py:game_state$",
    "response render (JSON)": r"template/response.py:render$",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--client", choices=("session", "token"), default="session")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
    import django

    django.setup()
    from django.test import Client

    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="de")
    client.get("/api/v1/auth/me")
    credentials = {"username": f"profile{random.randrange(10**9)}", "password": "Load-test-9x!"}
    csrf = client.cookies["csrftoken"].value
    signed_up = client.post(
        "/api/v1/auth/register", credentials, content_type="application/json", HTTP_X_CSRFTOKEN=csrf
    )
    assert signed_up.status_code == 201, signed_up.content
    headers: dict[str, Any] = {
        "content_type": "application/json",
        "HTTP_X_CSRFTOKEN": client.cookies["csrftoken"].value,
        "HTTP_ORIGIN": "http://testserver",
    }
    if args.client == "token":  # no cookies at all: the token alone
        client = Client(HTTP_ACCEPT_LANGUAGE="de")
        headers = {"content_type": "application/json", "HTTP_AUTHORIZATION": f"Token {signed_up.json()['token']}"}

    def new_game() -> dict[str, Any]:
        answer = client.post("/api/v1/games", {"rule": "relaxed"}, **headers)
        assert answer.status_code == 201, answer.content
        return dict(answer.json())

    def play(moves: int) -> None:
        state = new_game()
        for _ in range(moves):
            if not state["legal_moves"] or state["status"] == "won":
                state = new_game()
                continue
            body = {**random.choice(state["legal_moves"]), "seq": state["moves"]}
            answer = client.post(f"/api/v1/games/{state['id']}/moves", body, **headers)
            assert answer.status_code == 200, answer.content
            state = answer.json()

    play(100)  # warm up: connections, prepared statements
    started, cpu = time.perf_counter(), time.process_time()
    play(args.moves)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    per_move = cpu / args.moves * 1000
    print(f"move_profile: {args.client}, {args.moves / wall:.0f} moves/s in one thread, {per_move:.2f} ms CPU per move")
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    play(args.moves)
    profile.disable()
    stats: Any = pstats.Stats(profile)
    print(f"move_profile: profiled CPU per move {stats.total_tt / args.moves * 1000:.2f} ms, of it:")
    for name, pattern in PARTS.items():
        spent = sum(v[3] for k, v in stats.stats.items() if re.search(pattern, f"{k[0]}:{k[2]}"))
        print(f"move_profile:   {name:32s} {spent / args.moves * 1000:6.2f} ms")


if __name__ == "__main__":
    main()
