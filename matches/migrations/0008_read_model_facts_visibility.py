# The play_stats read model gains the match's visibility (is_public, owner) and a table of insight facts.
# Read models are derived data: the migration empties them and their checkpoint, and the projector (or
# rebuild_projections) fills them again from the event log.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def empty_play_stats(apps, schema_editor):
    apps.get_model("matches", "PlayerResult").objects.all().delete()
    apps.get_model("matches", "PlayedMatch").objects.all().delete()
    apps.get_model("matches", "ProjectionCheckpoint").objects.filter(name="play_stats").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_player_merges"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(empty_play_stats, migrations.RunPython.noop),
        migrations.AddField(
            model_name="playedmatch",
            name="is_public",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playedmatch",
            name="owner",
            field=models.ForeignKey(
                default=None, on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="playerresult",
            name="is_public",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="playerresult",
            name="owner",
            field=models.ForeignKey(
                default=None, on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL
            ),
            preserve_default=False,
        ),
        migrations.CreateModel(
            name="MatchFact",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("game", models.CharField(max_length=64)),
                ("played_at", models.DateTimeField()),
                ("key", models.CharField(max_length=64)),
                ("value", models.CharField(max_length=120)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="facts", to="matches.match"
                    ),
                ),
            ],
            options={"indexes": [models.Index(fields=["game", "key"], name="fact_game_key_idx")]},
        ),
    ]
