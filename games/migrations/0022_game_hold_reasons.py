"""A held win's reasons as typed values (``Game.hold_reasons``, the values of
``games.competition.attempt.HoldReason``), read once from the reason text of the wins held so far:
from then on the text is staff's detail and nothing reads it back."""

from django.db import migrations, models

REASONS = ("time", "pace", "linked", "linked_suspect", "clairvoyant")  # HoldReason's values at this migration


def fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(review="held").only("pk", "review_reason").iterator():
        found = (part.split(":", 1)[0].strip() for part in game.review_reason.split(";"))
        reasons = [code for code in found if code in REASONS]
        if reasons:
            Game.objects.filter(pk=game.pk).update(hold_reasons=reasons)


class Migration(migrations.Migration):
    dependencies = [("games", "0021_under_review_index")]

    operations = [
        migrations.AddField(model_name="game", name="hold_reasons", field=models.JSONField(blank=True, default=list, null=True)),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
