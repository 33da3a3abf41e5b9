"""Room on each page of the games' table for the next version of its rows (fillfactor 70): a
move's update then stays on its page and touches no index (a HOT update, docs/capacity.md).
PostgreSQL only; it applies to pages written from now on, no rewrite (safe on a live database)."""

from django.db import migrations

FILLFACTOR = 70


def _fillfactor(value: int | None):  # type: ignore[no-untyped-def]
    def apply(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("games", "Game")._meta.db_table)
        if value is None:
            schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")
        else:
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {value})")

    return apply


class Migration(migrations.Migration):
    dependencies = [("games", "0012_fairplay_evidence")]

    operations = [migrations.RunPython(_fillfactor(FILLFACTOR), _fillfactor(None), elidable=False)]
