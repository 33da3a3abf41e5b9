"""The move log's key is (game, seq): its own id goes, with the second index it needed.

Safe on a live database: the new key's unique index is built first without locking the table
(CONCURRENTLY, so this migration is not atomic); then the old unique constraint and the id column
(with its index) are dropped and the new index becomes the primary key, each a short lock. On
SQLite (development, tests) the table keeps its rowid and gets the same unique index last.
"""

from django.db import migrations, models

INDEX = "games_movelog_key"


def key_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {INDEX} ON games_movelog (game_id, seq)")


def key_index_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


def index_to_primary_key(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_movelog ADD CONSTRAINT games_movelog_pkey PRIMARY KEY USING INDEX {INDEX}")
    else:  # SQLite rebuilt the table without the id above, and with it dropped any index of its own
        schema_editor.execute(f"CREATE UNIQUE INDEX {INDEX} ON games_movelog (game_id, seq)")


def primary_key_to_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_movelog DROP CONSTRAINT games_movelog_pkey")
    else:
        schema_editor.execute(f"DROP INDEX {INDEX}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0017_open_practice_index"),
    ]

    operations = [
        migrations.RunPython(key_index, key_index_drop, atomic=False),
        migrations.RemoveConstraint(
            model_name="movelog",
            name="movelog_game_seq_unique",
        ),
        migrations.RemoveField(
            model_name="movelog",
            name="id",
        ),
        migrations.AddField(
            model_name="movelog",
            name="pk",
            field=models.CompositePrimaryKey("game", "seq", blank=True, editable=False, primary_key=True, serialize=False),
        ),
        migrations.RunPython(index_to_primary_key, primary_key_to_index),
    ]
