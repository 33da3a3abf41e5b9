"""Where you stand: the histograms of each day's counted results (``stats.DailyBucket``), filled
here for the days already played (later the board's tasks keep them), and an index ``(day, moves)``
that recounts a bar of the moves histogram."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, F, IntegerField, Value
from django.db.models.functions import Least

# As in stats/standing.py when this was written: (field, width, number of bars).
_KINDS = {"time": ("time_ms", 5_000, 721), "moves": ("moves", 10, 41)}


def fill_buckets(apps, schema_editor):
    DailyResult = apps.get_model("stats", "DailyResult")
    DailyBucket = apps.get_model("stats", "DailyBucket")
    buckets = []
    for kind, (field, width, count) in _KINDS.items():
        rows = (
            DailyResult.objects.annotate(b=Least(F(field) / Value(width), Value(count - 1), output_field=IntegerField()))
            .values("day", "b")
            .annotate(n=Count("pk"))
            .order_by()
        )
        buckets.extend(DailyBucket(day=row["day"], kind=kind, bucket=row["b"], count=row["n"]) for row in rows)
    DailyBucket.objects.bulk_create(buckets, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_daily_deal_version_2'),
        ('stats', '0002_personalbest_clean_wins'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DailyBucket',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('day', models.DateField()),
                ('kind', models.CharField(max_length=5)),
                ('bucket', models.PositiveSmallIntegerField()),
                ('count', models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.AddIndex(
            model_name='dailyresult',
            index=models.Index(fields=['day', 'moves'], name='dailyresult_day_moves'),
        ),
        migrations.RunPython(fill_buckets, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='dailybucket',
            constraint=models.UniqueConstraint(fields=('day', 'kind', 'bucket'), name='dailybucket_day_kind_bucket_unique'),
        ),
    ]
