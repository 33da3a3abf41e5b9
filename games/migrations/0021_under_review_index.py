"""The day's wins under review get a partial index of their own (stats.standing counts them on
every standing read). Built without locking the games' table on PostgreSQL (CONCURRENTLY: this
migration is not atomic), as an ordinary index elsewhere."""

from django.conf import settings
from django.db import migrations, models

INDEX = models.Index(
    condition=models.Q(("ranked", True), ("review__in", ["pending", "held"]), ("status", "won")),
    fields=["daily"],
    name="game_under_review",
)


def add(apps, schema_editor):
    model = apps.get_model("games", "Game")
    if schema_editor.connection.vendor == "postgresql":
        sql = INDEX.create_sql(model, schema_editor, concurrently=True)
        schema_editor.execute(str(sql).replace("CONCURRENTLY", "CONCURRENTLY IF NOT EXISTS", 1))
    else:
        schema_editor.add_index(model, INDEX)


def remove(apps, schema_editor):
    schema_editor.remove_index(apps.get_model("games", "Game"), INDEX)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0020_pack_won_logs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="game", index=INDEX)],
            database_operations=[migrations.RunPython(add, remove, atomic=False)],
        ),
    ]
