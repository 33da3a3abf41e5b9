"""The stack grows by adding processes (issue 34, point 6): two web processes, a worker for the
board's tasks and one for the solver's (the two Celery queues, as docker-compose.yml runs them),
one PostgreSQL primary with a streaming replica that the public read-only answers read from, and
one Redis. Players win today's deal with their moves alternating between the two web processes:
every move is kept, in order, and both web processes show the same board, read from the replica.
Run with `make test-faults` (CI runs it too).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from .harness import STACK_READY_SECONDS, PrivatePostgres, Stack, call, free_port, private_stack, wait_until

pytestmark = pytest.mark.faults

PLAYERS = 4

LINES = """
import json
from django.contrib.auth import get_user_model
from games.engine import Game, GameCode
from games.players import Player
from games.play.services import game_start
from tests.stats.helpers import winning_line

games = []
for name in json.loads(input()):
    game = game_start(player=Player(user=get_user_model().objects.get(username=name)), daily=True)
    games.append([str(game.pk), [move.to_json() for move in winning_line(game.code)]])
print(json.dumps(games))
"""


@pytest.fixture(scope="module")
def stacks() -> Iterator[tuple[Stack, str, PrivatePostgres]]:
    with private_stack("faults-scale-out") as (stack, postgres, _, base):
        replica = postgres.standby(base)
        stack.env.update(
            DATABASE_REPLICA_URL=f"postgres://postgres@127.0.0.1:{replica.port}/yukon",
            # These players win at a machine's pace with the solver's line: the fair-play checks
            # would rightly hold them (tests/stats, tests/games test those); here they all count.
            RANKED_REVIEW_MIN_TIME_MS="0",
            RANKED_REVIEW_MIN_MEDIAN_GAP_MS="0",
            FAIRPLAY_MACHINE_GAP_MS="0",
        )
        stack.manage("migrate", "--noinput")
        second = free_port()
        stack.start("web")
        stack.start("web", alias="web2", env={"PORT": str(second), "WEB_PORT": str(second)})
        stack.start("worker", env={"WORKER_QUEUES": "celery", "WORKER_NAME": "boards@%h"})
        stack.start("worker", alias="solver", env={"WORKER_QUEUES": "solver", "WORKER_NAME": "solver@%h"})
        stack.start("beat")
        try:
            wait_until(
                stack.ready, STACK_READY_SECONDS, "the stack ready (today's deal certified by the solver's worker)"
            )
            wait_until(lambda: call(f"http://127.0.0.1:{second}", "GET", "/readyz")[0] == 200, 60, "web2 up")
            yield stack, f"http://127.0.0.1:{second}", replica
        finally:
            replica.stop("immediate")


def text(move: dict[str, str]) -> str:
    """A move's text in the log, from its JSON (``{"from": "t3", "card": "7H", "to": "t5"}``: ``t3:7H>t5``)."""
    return move["from"] + (f":{move['card']}" if "card" in move else "") + ">" + move["to"]


def replica_clients(replica: PrivatePostgres) -> int:
    """How many client connections the replica has to the site's database."""
    out = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-p", str(replica.port), "-U", "postgres", "-d", "yukon", "-tAc",
         "SELECT count(*) FROM pg_stat_activity WHERE datname = 'yukon' AND pid <> pg_backend_pid()"],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return int(out.stdout.strip())


def test_moves_alternating_between_two_web_processes_are_all_kept_and_both_show_one_board(stacks: Any) -> None:
    stack, other, replica = stacks
    webs = [stack.url, other]
    names = [f"scaler{n}" for n in range(PLAYERS)]
    tokens = {}
    for n, name in enumerate(names):
        status, answer = call(
            webs[n % 2], "POST", "/api/v1/auth/register", {"username": name, "password": "Scale-out-9x!"}
        )
        assert status == 201, answer
        tokens[name] = answer["token"]
    lines = json.loads(stack.manage("shell", stdin=LINES.replace("input()", repr(json.dumps(names)))).splitlines()[-1])

    finals: dict[str, dict[str, Any]] = {}
    played: dict[str, list[dict[str, Any]]] = {}
    for n, (name, (game_id, line)) in enumerate(zip(names, lines, strict=True)):
        # Each player from an address of its own (the fair-play links would join one address's players).
        headers = {"Authorization": f"Token {tokens[name]}", "X-Forwarded-For": f"198.51.100.{n + 1}"}
        played[game_id] = line
        state: dict[str, Any] = {"moves": 0}
        for number, move in enumerate(line):
            status, state = call(
                webs[number % 2], "POST", f"/api/v1/games/{game_id}/moves", {**move, "seq": state["moves"]}, headers
            )
            assert status == 200, (name, number, state)
        assert state["status"] == "won", state
        finals[name] = state

    # Every move kept, in order, whichever process took it (the won games' logs are packed by then).
    for game_id, line in played.items():
        name = names[list(played).index(game_id)]
        for web in webs:
            status, log = call(
                web,
                "GET",
                f"/api/v1/games/{game_id}/moves?page_size=1000",
                None,
                {"Authorization": f"Token {tokens[name]}"},
            )
            assert status == 200, log
            assert [entry["seq"] for entry in log["results"]] == list(range(1, len(line) + 1))
            assert [entry["move"] for entry in log["results"]] == [text(move) for move in line]

    # Both processes show the same board, with every winner verified, read from the replica.
    today = finals[names[0]]["daily"]

    def boards() -> Any:
        answers = [call(web, "GET", f"/api/v1/leaderboards/daily/{today}") for web in webs]
        if any(status != 200 for status, _ in answers):
            return None
        entries = [
            {entry["username"]: (entry["time_ms"], entry["moves"], entry["verified"]) for entry in board["entries"]}
            for _, board in answers
        ]
        wanted = {name: (finals[name]["elapsed_ms"], finals[name]["moves"], True) for name in names}
        return entries[0] == entries[1] == wanted

    wait_until(boards, 90, "the same board with every winner on both web processes", interval=1)
    assert replica_clients(replica) > 0  # the boards were read there
    assert call(stack.url, "GET", "/api/v1/daily/archive")[0] == 200
