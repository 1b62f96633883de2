# Score sheets count per game name: the play_stats read model keeps the sheet's title. Derived data: emptied
# here and filled again by the projector (or rebuild_projections) from the event log.

from django.db import migrations, models


def empty_play_stats(apps, schema_editor):
    apps.get_model("matches", "MatchFact").objects.all().delete()
    apps.get_model("matches", "PlayerResult").objects.all().delete()
    apps.get_model("matches", "PlayedMatch").objects.all().delete()
    apps.get_model("matches", "ProjectionCheckpoint").objects.filter(name="play_stats").delete()


class Migration(migrations.Migration):
    dependencies = [("matches", "0008_read_model_facts_visibility")]

    operations = [
        migrations.RunPython(empty_play_stats, migrations.RunPython.noop),
        migrations.AddField(
            model_name="playedmatch", name="title", field=models.CharField(blank=True, default="", max_length=120)
        ),
        migrations.AddField(
            model_name="playerresult", name="title", field=models.CharField(blank=True, default="", max_length=120)
        ),
    ]
