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
