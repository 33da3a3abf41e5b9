"""Personal bests: the highest score goes (each take-back and return earns 10 again, so it has no
ceiling); the count of clean wins (625 points, no take-back) per rule comes in, counted from the
games that are already won."""

from django.db import migrations, models
from django.db.models import Count


def count_clean_wins(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    PersonalBest = apps.get_model("stats", "PersonalBest")
    counts = (
        Game.objects.filter(status="won", score=625, owner__isnull=False)
        .values("owner_id", "rule")
        .annotate(n=Count("pk"))
        .order_by()
    )
    for row in counts:
        PersonalBest.objects.filter(user_id=row["owner_id"], rule=row["rule"]).update(clean_wins=row["n"])


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0001_initial"),
        ("games", "0005_daily_deal_version_2"),
    ]

    operations = [
        migrations.RemoveField(model_name="personalbest", name="best_score"),
        migrations.AddField(model_name="personalbest", name="clean_wins", field=models.PositiveIntegerField(default=0)),
        migrations.RunPython(count_clean_wins, migrations.RunPython.noop),
    ]
