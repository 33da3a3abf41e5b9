"""The undo history of the games in progress moves from their states to their move logs (state
version 3, docs/capacity.md): each game's log is replayed by the engine, the steps still on its
undo stack are written to their log entries, and its state is written again without the history.

Safe on a live database: in batches of games, each batch in a transaction of its own, each game
only if nobody moved meanwhile (its ``version``); a game a move changed during the batch, or one
an older process wrote afterwards, was converted by its next move until migration 0027 converted
what was left and checked that no such game remains (the move path no longer converts). Won games
keep their states (no undo is left to them)."""

from typing import Any

from django.db import migrations, transaction

from games.engine import Game as EngineGame

BATCH = 200


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    Game = apps.get_model("games", "Game")
    MoveLog = apps.get_model("games", "MoveLog")
    last = None
    while True:
        games = Game.objects.filter(status="playing", state__v__in=[1, 2]).order_by("pk")
        if last is not None:
            games = games.filter(pk__gt=last)
        batch = list(games[:BATCH])
        if not batch:
            return
        for game in batch:
            history_to_log(game, Game=Game, MoveLog=MoveLog)
        last = batch[-1].pk


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


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("games", "0014_movelog_undo_steps")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
