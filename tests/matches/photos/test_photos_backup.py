"""A backup (export_streams / import_streams) carries the photos: their entries and their stored files, written
back under the same keys; a failed import leaves no file behind (PostgreSQL and SQLite)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from matches.interop.backup import BackupError, streams_import
from matches.photos.services import photo_add, photo_file, photo_remove, photos_of
from matches.services import match_create
from tests.matches.photos.pictures import phone_jpeg

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def test_backup_includes_photos_and_restores_them(owner, media, tmp_path, settings):
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}])
    _, shown = photo_add(obj=match, user=owner, upload=phone_jpeg(), caption="winning board")
    _, kept = photo_add(obj=match, user=owner, upload=phone_jpeg(), caption="blurred")
    photo_remove(obj=match, user=owner, photo_id=kept.id, reason="blurred", delete_file=False)
    with photo_file(shown, "display") as f:
        display = f.read()
    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    backup = out.getvalue()
    files = [json.loads(line) for line in backup.splitlines() if '"chronicle.photo_file"' in line]
    assert sorted(f["pk"] for f in files) == sorted([shown.display, shown.thumb, kept.display, kept.thumb])

    call_command("flush", interactive=False, verbosity=0)
    settings.MEDIA_ROOT = str(tmp_path / "elsewhere")  # a new machine: an empty store
    report = streams_import(io.StringIO(backup))
    assert report.counts["chronicle.photo_file"] == 4
    restored = photos_of(match.stream_id)
    assert [p.caption for p in restored] == ["winning board"]
    with photo_file(restored[0], "display") as f:
        assert f.read() == display


def test_a_failed_import_leaves_no_photo_file(owner, tmp_path, settings):
    from matches.services import match_event_record

    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}])
    match_event_record(match=match, user=owner, type="points_scored", seat=0, data={"points": 3})
    photo_add(obj=match, user=owner, upload=phone_jpeg())
    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    lines = [  # a tampered score: the stream no longer replays to its head, after the files were written
        line.replace('"points": 3', '"points": 4') if '"points_scored"' in line else line
        for line in out.getvalue().splitlines()
    ]
    call_command("flush", interactive=False, verbosity=0)
    settings.MEDIA_ROOT = str(tmp_path / "elsewhere")
    with pytest.raises(BackupError, match="does not replay"):
        streams_import(io.StringIO("\n".join(lines)))
    assert not any(p.is_file() for p in (tmp_path / "elsewhere").rglob("*"))


def test_a_photo_line_naming_another_path_is_refused(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "elsewhere")
    bad = '{"model": "chronicle.photo_file", "pk": "../../etc/x", "fields": {"base64": ""}}'
    with pytest.raises(BackupError, match="no photo key"):
        streams_import(io.StringIO('{"format": "chronicle-backup", "version": 1}\n' + bad))
