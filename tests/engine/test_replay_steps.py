"""The one replay loop (games.engine.replay): one step per logged entry, the same game as the
moves made one by one, and a log that does not replay stops at its bad entry."""

from __future__ import annotations

import pytest

from games.engine import BadMove, Game, IllegalMove, replay

CODE = "YU1-C-AAAAAAB"


def test_each_entry_is_one_step_on_the_same_live_game():
    game = Game.from_code(CODE)
    log = ["t7:TS>t2", "undo", "t7:TS>t2"]

    steps = [(step.seq, step.entry, step.result.points, step.game.moves, step.game.score) for step in replay(game, log)]

    assert steps == [(1, "t7:TS>t2", 5, 1, 5), (2, "undo", -5, 2, 0), (3, "t7:TS>t2", 5, 3, 5)]
    assert game == Game.replay(CODE, log) and game.moves == 3


def test_a_position_kept_from_a_step_is_a_copy():
    kept = [step.game.copy() for step in replay(Game.from_code(CODE), ["t7:TS>t2", "undo"])]

    assert kept[0].score == 5 and kept[1].score == 0


@pytest.mark.parametrize(("log", "error"), [(["t7:TS>t2", "t9>f"], BadMove), (["undo"], IllegalMove)])
def test_a_log_that_does_not_replay_stops_at_its_bad_entry(log, error):
    seen = []
    with pytest.raises(error):
        for step in replay(Game.from_code(CODE), log):
            seen.append(step.seq)

    assert seen == list(range(1, len(log)))
