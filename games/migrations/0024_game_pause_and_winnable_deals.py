"""Issue 41: a practice game's clock pauses (``Game.paused_at``, ``paused_ms``), the solver's verdict
on a game's deal (``deal_verdict``, decided by the worker), and the pool of certified winnable deals
(``WinnableDeal``, "winnable deals only"). The new columns have defaults in the database as well:
a game that the release before inserts during a deploy is valid (running, undecided)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0023_game_finish_from'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='deal_verdict',
            field=models.CharField(blank=True, choices=[('', 'being decided'), ('yes', 'winnable'), ('no', 'not winnable'), ('unknown', "not decided within the solver's budget")], db_default='', default='', max_length=8),
        ),
        migrations.AddField(
            model_name='game',
            name='paused_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='paused_ms',
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name='game',
            name='winnable_deal',
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.CreateModel(
            name='WinnableDeal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(max_length=64, unique=True)),
                ('rule', models.CharField(choices=[('classic', 'Klassisch'), ('relaxed', 'Gelockert')], max_length=8)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'indexes': [models.Index(fields=['rule', 'created_at'], name='winnabledeal_rule_age')],
            },
        ),
    ]
