"""The undo history lives in the move log, not in the game's row (docs/capacity.md): a player
takes back moves as before, up to 100, and the games stored with their history in the state
(before version 3) keep every take-back they had: the migrations convert them (0015, and 0027
for what was left since), and the move path no longer looks for them."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from common.errors import ApplicationError, ErrorCode
from games.engine import UNDO_LIMIT, GameCode
from games.engine import Game as EngineGame
from games.models import Game, MoveLog
from games.play import services
from games.players import Player
from tests import factories
from tests.support import older_state

CODE = "YU1-C-AAAAAAB"


def _random_line(code: str, length: int, seed: int = 3) -> list[str]:
    """``length`` legal moves of ``code`` (no undo), picked at random but repeatably."""
    rng = random.Random(seed)
    engine = EngineGame.from_code(code)
    line = []
    while len(line) < length:
        moves = engine.legal_moves()
        assert moves, "the line ran out of moves"
        line.append(str(engine.play(rng.choice(moves)).move))
    return line


def _older_game(owner: object, line: list[str]) -> Game:
    """A game stored before version 3: its state holds its history, its log no steps."""
    game = factories.played(owner, CODE, line)
    engine = EngineGame.replay(CODE, line)
    Game.objects.filter(pk=game.pk).update(state=older_state(engine))
    MoveLog.objects.filter(game=game).update(step="", below=0)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db
def test_a_player_takes_back_up_to_100_moves_and_the_row_keeps_no_history():
    account = factories.user()
    player = Player(user=account)
    line = _random_line(CODE, 30)
    game = factories.played(account, CODE, line)
    expected = EngineGame.replay(CODE, line)

    for _ in range(UNDO_LIMIT - 70):
        services.game_undo(game_id=game.pk, player=player)
        expected.undo()
        stored = Game.objects.get(pk=game.pk)
        assert EngineGame.from_state(stored.state).view() == expected.view()
        assert "h" not in stored.state and stored.state["u"] == expected.undo_available

    # Everything taken back: the next undo is refused, and nothing changed.
    with pytest.raises(ApplicationError) as refused:
        services.game_undo(game_id=game.pk, player=player)
    assert refused.value.code is ErrorCode.NOTHING_TO_UNDO


@pytest.mark.django_db
def test_after_more_than_100_moves_exactly_the_last_100_can_be_taken_back():
    account = factories.user()
    player = Player(user=account)
    game = factories.game(owner=account, code=CODE)
    engine = EngineGame.from_code(CODE)
    rng = random.Random(11)
    while engine.moves < UNDO_LIMIT + 20:
        moves = engine.legal_moves()
        move = rng.choice(moves)
        engine.play(move)
        services.game_play(game_id=game.pk, player=player, move=move)
    # Interleaved: a take-back, a move, a take-back ... stays in step with the engine in memory.
    for n in range(2 * UNDO_LIMIT):
        if n % 10 == 9 and n < UNDO_LIMIT:
            move = rng.choice(engine.legal_moves())
            engine.play(move)
            services.game_play(game_id=game.pk, player=player, move=move)
        if not engine.undo_available:
            break
        engine.undo()
        services.game_undo(game_id=game.pk, player=player)
        assert EngineGame.from_state(Game.objects.get(pk=game.pk).state).view() == engine.view()
    assert engine.undo_available == 0
    with pytest.raises(ApplicationError) as refused:
        services.game_undo(game_id=game.pk, player=player)
    assert refused.value.code is ErrorCode.NOTHING_TO_UNDO


@pytest.mark.django_db(transaction=True)
def test_a_game_left_with_its_history_in_the_state_is_converted_before_the_move_path_meets_it():
    """The move path no longer converts an older state (issue 48): migration 0027 converts what
    was left since 0015 (a move of an older process), and the game takes back every move it had."""
    account = factories.user()
    player = Player(user=account)
    line = _random_line(CODE, 12)
    game = _older_game(account, line)
    expected = EngineGame.replay(CODE, line)

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0026_game_played_offline")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    stored = Game.objects.get(pk=game.pk)
    assert stored.state["v"] == 3 and "h" not in stored.state
    assert MoveLog.objects.filter(game=game).exclude(step="").count() == 12
    while expected.undo_available:
        services.game_undo(game_id=game.pk, player=player)
        expected.undo()
        assert EngineGame.from_state(Game.objects.get(pk=game.pk).state).view() == expected.view()
    assert expected.view()["tableau"] == EngineGame.from_code(CODE).view()["tableau"]  # back at the deal


@pytest.mark.django_db(transaction=True)
def test_the_migration_stops_at_a_game_whose_log_does_not_replay_its_older_state():
    account = factories.user()
    game = _older_game(account, _random_line(CODE, 5))
    MoveLog.objects.filter(game=game, seq=5).delete()  # the log no longer gives the state

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0026_game_played_offline")])
    executor = MigrationExecutor(connection)
    with pytest.raises(RuntimeError, match=str(game.pk)):
        executor.migrate(executor.loader.graph.leaf_nodes())
    Game.objects.filter(pk=game.pk).delete()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_the_history_of_games_in_progress_to_their_logs():
    account = factories.user()
    line = _random_line(CODE, 9)
    game = _older_game(account, line)
    won = factories.game(owner=account, engine=factories.one_move_from_winning(CODE))
    won_state = older_state(EngineGame.from_state(won.state))
    Game.objects.filter(pk=won.pk).update(state=won_state, status="won")  # (finished: no undo is left to it)

    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0014_movelog_undo_steps")])
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0015_undo_history_to_log")])

    # Read at 0015 through its own models (the current ones have columns added since).
    Stored = executor.loader.project_state([("games", "0015_undo_history_to_log")]).apps.get_model("games", "Game")
    stored = Stored.objects.get(pk=game.pk)
    assert stored.state["v"] == 3 and stored.state["u"] == 9 and stored.state["top"] == 9
    assert list(MoveLog.objects.filter(game=game).order_by("seq").values_list("below", flat=True)) == list(range(9))
    assert Stored.objects.get(pk=won.pk).state == won_state  # a finished game is left as it was

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # the services read the current columns
    player = Player(user=account)
    expected = EngineGame.replay(CODE, line)
    for _ in range(9):
        services.game_undo(game_id=game.pk, player=player)
        expected.undo()
    assert EngineGame.from_state(Game.objects.get(pk=game.pk).state).view() == expected.view()
    assert str(GameCode.parse(stored.code)) == CODE

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
