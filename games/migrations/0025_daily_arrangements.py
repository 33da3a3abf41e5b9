"""The days from now on have an opening and arrangements of its face-down cards (docs/daily.md).

The spares and the deals of later days were drawn as one deal each: they are dropped (nobody has
played a day that has not begun, and a spare is no day's), so that the beat draws them anew with
arrangements. Today's deal, and every earlier one, keeps its one deal.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def drop_single_deals_not_begun(apps, schema_editor):
    DailyDeal = apps.get_model("games", "DailyDeal")
    Game = apps.get_model("games", "Game")
    today = timezone.now().date()  # UTC (USE_TZ): the competition's day
    later = DailyDeal.objects.filter(date__gt=today).exclude(date__in=Game.objects.values("daily"))
    later.delete()
    DailyDeal.objects.filter(date__isnull=True).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0024_game_pause_and_winnable_deals'),
    ]

    operations = [
        migrations.CreateModel(
            name='DailyArrangements',
            fields=[
                ('deal', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='arrangement_set', serialize=False, to='games.dailydeal')),
                ('key', models.BinaryField(max_length=32)),
                ('draws', models.BinaryField()),
                ('pars', models.BinaryField()),
                ('tried', models.PositiveIntegerField(default=0)),
                ('won', models.PositiveIntegerField(default=0)),
                ('seconds', models.FloatField(default=0.0)),
            ],
            options={
                'verbose_name_plural': 'daily arrangements',
            },
        ),
        migrations.AddField(
            model_name='dailydeal',
            name='arrangements',
            field=models.PositiveIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='dailydeal',
            name='par_high',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='dailydeal',
            name='par_low',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(drop_single_deals_not_begun, migrations.RunPython.noop),
    ]
