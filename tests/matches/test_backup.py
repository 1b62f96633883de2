"""export_streams / import_streams: a full backup round-trips into an empty database with identical streams,
outcomes and read models (PostgreSQL and SQLite)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from matches.demo import load_demo
from matches.interop.backup import BackupError, streams_import
from matches.models import Match, MatchSummary, Player, PlayerResult, Stream
from matches.projections.projectors import PROJECTORS, project

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def picture() -> dict:
    """Everything a user sees, keyed by stable ids."""
    from rulesets import get_ruleset
    from rulesets.replay import outcome_of

    streams = {s.pk: (s.kind, s.game, s.version, s.state) for s in Stream.objects.all()}
    outcomes = {}
    for m in Match.objects.select_related("stream"):
        out = outcome_of(get_ruleset(m.game), m.stream.state)
        outcomes[m.pk] = (
            m.status,
            m.title,
            out.to_dict() if out else None,
            sorted(m.recorders.values_list("username", flat=True)),
        )
    summaries = sorted(
        MatchSummary.objects.values_list("match_id", "version", "status", "winners", "draw", "scores", "voided_count")
    )
    results = sorted(
        PlayerResult.objects.values_list("match_id", "seat", "player_id", "won", "drawn", "started", "score")
    )
    players = sorted(Player.objects.values_list("pk", "owner__username", "name", "user__username", "merged_into_id"))
    return {"streams": streams, "outcomes": outcomes, "summaries": summaries, "results": results, "players": players}


def test_backup_round_trips_into_an_empty_database(owner):
    load_demo()
    from matches.services import match_create, match_event_record

    m = match_create(
        owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Anna"}], options={"title": "Azul"}
    )
    for seat, points in ((0, 3), (1, 5)):
        match_event_record(match=m, user=owner, type="points_scored", seat=seat, data={"points": points})
    match_event_record(match=m, user=owner, type="event_voided", data={"version": 2, "reason": "typo"})
    match_event_record(match=m, user=owner, type="game_ended", data={})
    for name in PROJECTORS:
        project(name)
    before = picture()
    assert before["results"] and before["summaries"]

    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    backup = out.getvalue()
    assert backup.splitlines()[0].startswith('{"format": "chronicle-backup"')
    assert '"model": "matches.event"' in backup and '"model": "matches.matchsummary"' not in backup

    call_command("flush", interactive=False, verbosity=0)
    assert Stream.objects.count() == 0
    report = streams_import(io.StringIO(backup))
    assert report.streams_checked == len(before["streams"])
    assert picture() == before
    # the store goes on where it stopped: versions and positions continue
    match = Match.objects.get(pk=m.pk)
    assert match.stream.version == 4


def test_import_refuses_a_database_that_is_not_empty(owner, tmp_path):
    load_demo()
    path = tmp_path / "backup.jsonl"
    call_command("export_streams", str(path), stderr=io.StringIO())
    with pytest.raises(CommandError, match="empty database"):
        call_command("import_streams", str(path))


def test_a_file_that_is_not_a_backup_is_refused_and_writes_nothing():
    for text, message in (
        ("", "empty"),
        ('{"format": "other"}\n', "chronicle-backup"),
        ('{"format": "chronicle-backup", "version": 1}\nnot json\n', "Line 2"),
    ):
        with pytest.raises(BackupError, match=message):
            streams_import(io.StringIO(text))
    assert Stream.objects.count() == 0


def test_a_tampered_stream_is_refused(owner):
    load_demo()
    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    lines = out.getvalue().splitlines()
    # change one stored event's data: the head no longer matches what the log replays to
    for i, line in enumerate(lines):
        if '"model": "matches.event"' in line and '"stones_taken"' in line:
            lines[i] = line.replace('"count": 1', '"count": 2').replace('"count": 3', '"count": 2')
            break
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(BackupError, match="does not replay"):
        streams_import(io.StringIO("\n".join(lines)))
    assert Stream.objects.count() == 0


def every_row() -> dict[str, list[dict]]:
    """Every field of every row the backup carries, as Python values (date-times to the microsecond)."""
    from django.core import serializers

    from matches.interop.backup import _models

    return {
        model._meta.label_lower: serializers.serialize("python", model._default_manager.order_by("pk"))
        for model in _models()
    }


def seeded(owner) -> None:
    """The demo matches and a score sheet whose entries carry fractions, names in any script and an undo."""
    from matches.models import Event
    from matches.services import match_create, match_event_record

    load_demo()
    m = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Zoë 李"}], options={})
    for seat, points in ((0, 3), (1, 5), (0, 2)):
        match_event_record(match=m, user=owner, type="points_scored", seat=seat, data={"points": points})
    match_event_record(match=m, user=owner, type="event_voided", data={"version": 2, "reason": "typo ✓"})
    # the bug this guards: every recorded_at came back cut to the millisecond
    assert any(at.microsecond % 1000 for at in Event.objects.values_list("recorded_at", flat=True))


def test_a_backup_restores_every_field_of_every_row(owner):
    seeded(owner)
    before = every_row()
    assert before["matches.event"] and before["matches.stream"] and before["auth.user"]
    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    call_command("flush", interactive=False, verbosity=0)
    streams_import(io.StringIO(out.getvalue()))
    after = every_row()
    for label, rows in before.items():
        assert after[label] == rows, label


def backup_rows(text: str) -> list[dict]:
    """The objects of a backup file (its header left out), parsed: JSON objects compare field by field."""
    import json

    return [json.loads(line) for line in text.splitlines()[1:] if line.strip()]


def sqlite_manage(path, *args: str) -> str:
    """Run manage.py on the embedded SQLite database at ``path`` (a separate process); its standard output."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(path)
    done = subprocess.run(
        [sys.executable, "manage.py", *args], env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


SEED = """
from django.contrib.auth import get_user_model
from tests.matches.test_backup import seeded
seeded(get_user_model().objects.create_user("owner", password="pass-word-123"))
"""


@pytest.mark.postgres
def test_a_backup_moves_from_sqlite_to_postgresql_and_back_field_for_field(tmp_path):
    """The path a group takes when it outgrows one machine, and back: each stored field arrives as it was."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("moves between the two databases; run on PostgreSQL")
    sqlite_manage(tmp_path / "first.db", "migrate", "-v0")
    sqlite_manage(tmp_path / "first.db", "shell", "-c", SEED)
    sqlite_manage(tmp_path / "first.db", "export_streams", str(tmp_path / "first.jsonl"))
    first = (tmp_path / "first.jsonl").read_text(encoding="utf-8")

    call_command("flush", interactive=False, verbosity=0)
    call_command("import_streams", str(tmp_path / "first.jsonl"), stdout=io.StringIO())
    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    on_postgresql = out.getvalue()
    assert backup_rows(on_postgresql) == backup_rows(first)

    (tmp_path / "second.jsonl").write_text(on_postgresql, encoding="utf-8")
    sqlite_manage(tmp_path / "back.db", "migrate", "-v0")
    sqlite_manage(tmp_path / "back.db", "import_streams", str(tmp_path / "second.jsonl"))
    back = sqlite_manage(tmp_path / "back.db", "export_streams")
    assert backup_rows(back) == backup_rows(first)
