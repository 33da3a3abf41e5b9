"""The logs of the games won before packing existed are packed (games.movelog): in batches, each
game in a transaction of its own (this migration is not atomic), so it can run while the site
plays; a game it misses is packed by the hourly task, or stays readable as it is."""

from datetime import UTC, datetime

from django.db import migrations, transaction
from django.utils import timezone


def pack_won(apps, schema_editor):
    from games.movelog import logs_pack_pending

    models = (apps.get_model("games", "Game"), apps.get_model("games", "MoveLog"), apps.get_model("games", "PackedLog"))
    logs_pack_pending(since=datetime(2000, 1, 1, tzinfo=UTC), until=timezone.now(), models=models)


def unpack_all(apps, schema_editor):
    """Back: each packed log as rows again (what each move did, from the engine's replay)."""
    from games.engine import Game as EngineGame
    from games.engine import replay
    from games.movelog import unpack

    Game, MoveLog, PackedLog = (apps.get_model("games", name) for name in ("Game", "MoveLog", "PackedLog"))
    for packed in PackedLog.objects.all().iterator(chunk_size=500):
        code = Game.objects.filter(pk=packed.game_id).values_list("code", flat=True).get()
        entries = unpack(bytes(packed.data))
        steps = replay(EngineGame.from_code(code), [move for move, _ in entries])
        rows = [
            MoveLog(
                game_id=packed.game_id,
                seq=step.seq,
                move=step.entry,
                points=step.result.points,
                flipped=step.result.flipped or "",
                step=step.result.step,
                below=step.result.below,
                created_at=at,
            )
            for step, (_, at) in zip(steps, entries, strict=True)
        ]
        with transaction.atomic():
            MoveLog.objects.bulk_create(rows)
            PackedLog.objects.filter(pk=packed.pk).delete()


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0019_packed_log"),
    ]

    operations = [
        migrations.RunPython(pack_won, unpack_all, atomic=False),
    ]
