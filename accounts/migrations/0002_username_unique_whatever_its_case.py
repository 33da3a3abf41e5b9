"""Usernames unique whatever their case: a unique index on LOWER(username) of the user table.

Registration checked ``username__iexact`` before creating an account, but Django stores names
NFKC-normalised, so a full-width "ＳＰＥＥＤＲＵＮＮＥＲ" passed the check and was stored as
"SPEEDRUNNER" beside "speedrunner"; and two registrations at the same moment could both pass.
Names that already collide (by the database's own LOWER, the index's) keep the oldest account's
name; each later one is renamed to "<name>-<id>" (printed), which its owner learns from staff.
"""

from django.conf import settings
from django.db import migrations
from django.db.models import Count
from django.db.models.functions import Lower

INDEX = "accounts_username_lower_uniq"


def _user_model(apps):
    return apps.get_model(*settings.AUTH_USER_MODEL.split("."))


def rename_collisions(apps, schema_editor):
    User = _user_model(apps)
    users = User.objects.using(schema_editor.connection.alias).annotate(folded=Lower("username"))
    collisions = users.values("folded").annotate(n=Count("id")).filter(n__gt=1).values_list("folded", flat=True)
    for folded in list(collisions):
        for user in list(users.filter(folded=folded).order_by("id"))[1:]:
            suffix = f"-{user.id}"
            new_name = user.username[: 150 - len(suffix)] + suffix
            print(f"\n  username {user.username!r} (id {user.id}) collides with an older one: renamed {new_name!r}")
            user.username = new_name
            user.save(update_fields=["username"])


def create_index(apps, schema_editor):
    table = schema_editor.quote_name(_user_model(apps)._meta.db_table)
    schema_editor.execute(f"CREATE UNIQUE INDEX {INDEX} ON {table} (LOWER(username))")


def drop_index(apps, schema_editor):
    schema_editor.execute(f"DROP INDEX {INDEX}")


class Migration(migrations.Migration):
    # After auth's last migration: on SQLite, altering a table rebuilds it without the indexes that
    # Django does not know of (this one). (tests/accounts/test_usernames.py checks it is there.)
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(rename_collisions, migrations.RunPython.noop),
        migrations.RunPython(create_index, drop_index),
    ]
