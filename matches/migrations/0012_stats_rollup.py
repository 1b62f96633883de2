# Roll-ups of the play_stats read model (figures counted per visibility class, game and month). Derived
# data: the read model is emptied here and filled again, roll-ups included, by the projector (or
# rebuild_projections) from the event log.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def empty_play_stats(apps, schema_editor):
    apps.get_model("matches", "MatchFact").objects.all().delete()
    apps.get_model("matches", "PlayerResult").objects.all().delete()
    apps.get_model("matches", "PlayedMatch").objects.all().delete()
    apps.get_model("matches", "ProjectionCheckpoint").objects.filter(name="play_stats").delete()


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0011_event_request_fingerprint'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(empty_play_stats, migrations.RunPython.noop),
        migrations.CreateModel(
            name='StatsRollup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=8)),
                ('month', models.IntegerField()),
                ('game', models.CharField(max_length=64)),
                ('title', models.CharField(blank=True, default='', max_length=120)),
                ('is_public', models.BooleanField()),
                ('player_id', models.IntegerField(default=0)),
                ('other_id', models.IntegerField(default=0)),
                ('seat', models.SmallIntegerField(default=-1)),
                ('started', models.BooleanField(default=False)),
                ('value', models.FloatField(default=0)),
                ('n', models.IntegerField(default=0)),
                ('won', models.IntegerField(default=0)),
                ('drawn', models.IntegerField(default=0)),
                ('owner', models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['kind', 'player_id', 'month'], name='rollup_player_idx'), models.Index(fields=['kind', 'month'], name='rollup_kind_month_idx'), models.Index(condition=models.Q(('n', 0)), fields=['kind'], name='rollup_empty_idx')],
                'constraints': [models.UniqueConstraint(fields=('kind', 'game', 'month', 'title', 'is_public', 'owner', 'player_id', 'other_id', 'seat', 'started', 'value'), name='rollup_key_unique')],
            },
        ),
    ]
