"""API tokens of our own (many per account, only their hashes kept) in place of DRF's authtoken
(one per account, its key stored as it is).

The keys of DRF's tokens, where its table exists, move over as tokens named "login" (they keep
working) and are deleted there, so no key lies around in the clear. Going back loses them: their
clients log in again.
"""

import hashlib
from datetime import UTC, datetime

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.utils.dateparse import parse_datetime


def _aware(value):
    value = parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(value, datetime):
        return django.utils.timezone.now()
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)  # (stored in UTC)


def tokens_from_drf(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
        ApiToken.objects.using(connection.alias).bulk_create(
            ApiToken(
                user_id=user_id,
                digest=hashlib.sha256(key.encode()).hexdigest(),
                prefix=key[:8],
                name="login",
                created_at=_aware(created),
            )
            for key, user_id, created in rows
        )
        cursor.execute("DELETE FROM authtoken_token")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_username_unique_whatever_its_case'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(help_text='SHA-256 of the key (hex).', max_length=64, unique=True)),
                ('prefix', models.CharField(help_text="The key's first characters.", max_length=8)),
                ('name', models.CharField(blank=True, help_text="What it is for: login, register, or the owner's name.", max_length=60)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_used_at', models.DateTimeField(blank=True, help_text='To about a minute (null: never used).', null=True)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'API token',
            },
        ),
        migrations.RunPython(tokens_from_drf, migrations.RunPython.noop),
    ]
