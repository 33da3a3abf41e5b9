"""Each board result says whether the server replayed its game's log (issue 19 item 4): kept on the
result so the board reads it without the game row; filled here for the results already there."""

from django.db import migrations, models
from django.db.models import Q

# As games.selectors.replay_verified and games.models.UNCHECKED_REASON when this was written.
_REPLAYED = Q(game__review="approved") | (Q(game__review="verified") & ~Q(game__review_reason="won before reviews"))


def fill_verified(apps, schema_editor):
    DailyResult = apps.get_model("stats", "DailyResult")
    DailyResult.objects.filter(_REPLAYED).update(verified=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_daily_deal_version_2"),
        ("stats", "0003_daily_standing"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailyresult",
            name="verified",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.RunPython(fill_verified, migrations.RunPython.noop),
    ]
