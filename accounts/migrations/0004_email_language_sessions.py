"""E-mail and language of an account, and the list of its signed-in sessions (issue 26).

Confirmed addresses are the user's ``email``, unique whatever their case among those that are set:
a unique index on LOWER(email) where it is not empty. Addresses that already collide keep the
oldest account's; each later one is emptied (printed).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Count
from django.db.models.functions import Lower

INDEX = "accounts_email_lower_uniq"


def _user_model(apps):
    return apps.get_model(*settings.AUTH_USER_MODEL.split("."))


def empty_collisions(apps, schema_editor):
    User = _user_model(apps)
    users = User.objects.using(schema_editor.connection.alias).exclude(email="").annotate(folded=Lower("email"))
    collisions = users.values("folded").annotate(n=Count("id")).filter(n__gt=1).values_list("folded", flat=True)
    for folded in list(collisions):
        for user in list(users.filter(folded=folded).order_by("id"))[1:]:
            print(f"\n  e-mail of {user.username!r} (id {user.id}) is an older account's too: emptied")
            user.email = ""
            user.save(update_fields=["email"])


def create_index(apps, schema_editor):
    table = schema_editor.quote_name(_user_model(apps)._meta.db_table)
    schema_editor.execute(f"CREATE UNIQUE INDEX {INDEX} ON {table} (LOWER(email)) WHERE email <> ''")


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_api_tokens'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(empty_collisions, migrations.RunPython.noop),
        migrations.RunPython(create_index, drop_index),
        migrations.AddField(
            model_name='profile',
            name='four_color',
            field=models.BooleanField(default=False, help_text='Four-colour deck: diamonds blue, clubs green.'),
        ),
        migrations.AddField(
            model_name='profile',
            name='email_pending',
            field=models.EmailField(blank=True, help_text="A new address waiting for its confirmation link (the confirmed one is the user's email).", max_length=254),
        ),
        migrations.AddField(
            model_name='profile',
            name='language',
            field=models.CharField(blank=True, choices=[('de', 'Deutsch'), ('en', 'English')], help_text="The language of the account's e-mails and pages (empty: the browser's).", max_length=8),
        ),
        migrations.CreateModel(
            name='LoginSession',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('session_key', models.CharField(max_length=40, unique=True)),
                ('user_agent', models.CharField(blank=True, help_text="Browser and system, e.g. 'Firefox, Windows'.", max_length=80)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('last_seen_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='login_sessions', to=settings.AUTH_USER_MODEL)),
            ],
        ),
    ]
