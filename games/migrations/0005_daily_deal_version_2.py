"""Daily deals in format version 2 (docs/codes.md): a deal is stored by its code, which for the
deals made before keeps their version-1 code; spare certified deals have no date yet. Games get
the closing of a ranked attempt at midnight and the review of a ranked win."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

LETTERS = 7


def _v1_code(rule, number):
    letters = []
    for _ in range(LETTERS):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return f"YU1-{'C' if rule == 'classic' else 'R'}-{''.join(reversed(letters))}"


def codes_from_numbers(apps, schema_editor):
    DailyDeal = apps.get_model("games", "DailyDeal")
    for deal in DailyDeal.objects.all():
        deal.code = _v1_code(deal.rule, deal.number)
        deal.save(update_fields=["code"])


def numbers_from_codes(apps, schema_editor):
    DailyDeal = apps.get_model("games", "DailyDeal")
    for deal in DailyDeal.objects.all():
        if not deal.code.startswith("YU1-"):
            raise RuntimeError(f"deal {deal.pk} has a version-2 code: it has no version-1 number")
        number = 0
        for letter in deal.code[-LETTERS:]:
            number = number * 26 + ord(letter) - 65
        deal.number = number
        deal.save(update_fields=["number"])


def existing_ranked_wins_stay(apps, schema_editor):
    """Ranked wins from before the review keep their place on their boards."""
    Game = apps.get_model("games", "Game")
    Game.objects.filter(ranked=True, status="won").update(review="verified", review_reason="won before reviews")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_movelog_game_index_dropped"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="dailydeal", name="code", field=models.CharField(default="", max_length=64), preserve_default=False
        ),
        migrations.RunPython(codes_from_numbers, numbers_from_codes),
        migrations.AlterField(model_name="dailydeal", name="number", field=models.BigIntegerField(null=True)),
        migrations.RemoveField(model_name="dailydeal", name="number"),
        migrations.AlterField(
            model_name="dailydeal", name="date", field=models.DateField(blank=True, null=True, unique=True)
        ),
        migrations.AddIndex(
            model_name="dailydeal",
            index=models.Index(
                condition=models.Q(("date__isnull", True)), fields=["created_at"], name="dailydeal_spares"
            ),
        ),
        migrations.AlterField(model_name="game", name="code", field=models.CharField(max_length=64)),
        migrations.AddField(model_name="game", name="closed_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.AddField(
            model_name="game",
            name="review",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "not a ranked win"),
                    ("pending", "pending: being replayed and checked"),
                    ("verified", "verified: the log reproduces the game, in a human's time"),
                    ("held", "held for review: faster than a human"),
                    ("approved", "approved by staff"),
                    ("rejected", "rejected by staff"),
                    ("invalid", "invalid: the move log does not reproduce the game"),
                ],
                default="",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game", name="review_reason", field=models.CharField(blank=True, default="", max_length=120)
        ),
        migrations.AddField(
            model_name="game",
            name="reviewed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(model_name="game", name="reviewed_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(existing_ranked_wins_stay, migrations.RunPython.noop),
    ]
