"""Streams keep the rules version they were recorded under (issue 32, item 6).

A database written by an older release knows only ``ruleset_version``, the version of the ruleset that produced
each head: that is the version each stored stream was recorded under, so it is copied.
"""

from django.db import migrations, models


def copy_recorded_version(apps, schema_editor):
    Stream = apps.get_model("matches", "Stream")
    Stream.objects.update(rules_version=models.F("ruleset_version"))


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0016_event_photos_idx"),
    ]

    operations = [
        migrations.AddField(
            model_name="stream",
            name="rules_version",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.RunPython(copy_recorded_version, migrations.RunPython.noop),
    ]
