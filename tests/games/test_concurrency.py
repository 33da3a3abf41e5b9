"""Two clients move in one game at the same moment (real threads, PostgreSQL row locks)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection

from games.engine import Game as EngineGame
from games.models import Game, MoveLog
from tests import factories

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 25


def _client_loop(account, game_id, barrier, statuses, use_seq, errors):
    client = factories.token_client(account)
    url = f"/api/v1/games/{game_id}"
    try:
        for round_number in range(ROUNDS):
            state = client.get(url).json()
            moves = state["legal_moves"]
            body = dict(moves[round_number % len(moves)]) if moves else {}
            if use_seq:
                body["seq"] = state["moves"]
            barrier.wait(timeout=30)  # both threads fire together
            if round_number % 6 == 5:
                response = client.post(f"{url}/undo", {"seq": state["moves"]} if use_seq else {})
            else:
                response = client.post(f"{url}/moves", body)
            statuses.append(response.status_code)
    except Exception as exc:  # noqa: BLE001 - reported by the main thread
        errors.append(exc)
        barrier.abort()
    finally:
        connection.close()


def test_simultaneous_moves_are_serialised_and_the_log_replays_to_the_state():
    account = factories.user()
    game = factories.game(owner=account, code="YU1-C-AAAAAAB")
    barrier = threading.Barrier(2)
    statuses: list[int] = []
    errors: list[Exception] = []
    threads = [
        threading.Thread(target=_client_loop, args=(account, game.id, barrier, statuses, use_seq, errors))
        for use_seq in (True, False)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert not errors, errors
    assert len(statuses) == 2 * ROUNDS
    counts = Counter(statuses)
    assert set(counts) <= {200, 409, 422}, counts
    assert counts[200] >= ROUNDS, counts
    game.refresh_from_db()
    log = list(MoveLog.objects.filter(game=game).order_by("seq").values_list("seq", "move"))
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
    assert len(log) == game.moves == game.version == counts[200]
    replayed = EngineGame.replay(game.code, [move for _, move in log])
    assert replayed.to_state() == game.state
    assert Game.objects.count() == 1


def test_one_idempotency_key_sent_to_two_games_at_once_applies_once():
    account = factories.user()
    games = [factories.game(owner=account, code="YU1-C-AAAAAAB") for _ in range(2)]
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def send(game):
        client = factories.token_client(account)
        try:
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/v1/games/{game.id}/moves", {"from": "t7", "card": "TS", "to": "t2"}, HTTP_IDEMPOTENCY_KEY="same"
            )
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(statuses) == [200, 422]
    assert sorted(Game.objects.values_list("moves", flat=True)) == [0, 1]


def test_a_retry_that_overtakes_its_first_attempt_is_applied_once_and_answered_alike():
    """A phone resends a move whose answer is late: both requests (one key) arrive at the same moment."""
    account = factories.user()
    game = factories.game(owner=account, code="YU1-C-AAAAAAB")
    barrier = threading.Barrier(2)
    answers: list[tuple[int, dict, bool]] = []

    def send():
        client = factories.token_client(account)
        try:
            barrier.wait(timeout=30)
            response = client.post(
                f"/api/v1/games/{game.id}/moves", {"from": "t7", "card": "TS", "to": "t2"}, HTTP_IDEMPOTENCY_KEY="again"
            )
            answers.append((response.status_code, response.json(), "Idempotent-Replayed" in response.headers))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert [status for status, _, _ in answers] == [200, 200]
    assert answers[0][1] == answers[1][1]
    assert sorted(replayed for _, _, replayed in answers) == [False, True]
    game.refresh_from_db()
    assert game.moves == 1 and MoveLog.objects.filter(game=game).count() == 1
