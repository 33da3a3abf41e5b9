"""The undo history of the games in progress moves from their states to their move logs (state
version 3, docs/capacity.md): each game's log is replayed by the engine, the steps still on its
undo stack are written to their log entries, and its state is written again without the history.

Safe on a live database: in batches of games, each batch in a transaction of its own, each game
only if nobody moved meanwhile (its ``version``); a game a move changed during the batch, or one
an older process wrote afterwards, is converted by its next move instead
(``games.play.services``, with the same function: :func:`games.history.history_to_log`). Won games
keep their states (no undo is left to them)."""

from django.db import migrations

BATCH = 200


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    from games.history import history_to_log

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


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("games", "0014_movelog_undo_steps")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
