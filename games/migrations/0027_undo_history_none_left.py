"""No game in progress keeps its undo history in its state (state version 1 or 2) any more: the
move path stops converting them (issue 48). Whatever a move of an older process left since
migration 0015 is converted here the same way (its ``forwards`` again), and then checked: a game
still in the older form (its log does not replay its state: never seen) stops the migration, with
the games named, rather than meet a move that no longer converts it."""

from importlib import import_module

from django.db import migrations

OLDER_STATES = [1, 2]


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    import_module("games.migrations.0015_undo_history_to_log").forwards(apps, schema_editor)
    Game = apps.get_model("games", "Game")
    left = list(Game.objects.filter(status="playing", state__v__in=OLDER_STATES).values_list("pk", flat=True)[:20])
    if left:
        raise RuntimeError(
            "games in progress still keep their undo history in their state (state version 1 or 2) and "
            f"their move logs do not replay it: {', '.join(map(str, left))}. Finish or delete them, then migrate again."
        )


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("games", "0026_game_played_offline")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop, elidable=True)]
