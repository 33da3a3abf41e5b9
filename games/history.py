"""The undo history of a game written before state version 3 moves into its move log.

Until then a game's state held its whole undo history; now each move's step back lives with the
move in the log (``MoveLog.step``, ``MoveLog.below``), and the state only its size and top
(:mod:`games.engine.game`). :func:`history_to_log` converts one game: the migration that moves
every game in progress calls it, and so does a move that meets a game still in the older form.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.engine import Game as EngineGame


def history_to_log(game: Any, *, Game: Any, MoveLog: Any) -> EngineGame | None:  # noqa: N803 - model classes
    """Replay ``game``'s log, write the steps on its undo stack to their entries and its state
    without them, if nobody changed the game meanwhile; returns the engine of the converted game,
    or None if the game had changed (or its log does not replay: it is left as it was).

    ``Game`` and ``MoveLog`` are the models (a migration passes its historical ones)."""
    entries = list(MoveLog.objects.filter(game_id=game.pk).order_by("seq").values_list("move", flat=True))
    try:
        engine = EngineGame.replay(game.code, entries)
    except (ValueError, LookupError):
        return None
    stored = EngineGame.from_state(game.state)
    if engine.view() != stored.view() or engine.score != stored.score:
        return None  # the log does not reproduce the state (never seen): keep the game as it is
    with transaction.atomic():
        changed = Game.objects.filter(pk=game.pk, version=game.version).update(
            state=engine.to_state(), version=game.version + 1
        )
        if not changed:
            return None
        for seq, step, below in engine.undo_steps():
            MoveLog.objects.filter(game_id=game.pk, seq=seq).update(step=step, below=below)
    game.state, game.version = engine.to_state(), game.version + 1
    return engine
