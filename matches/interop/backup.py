"""A full backup as JSON Lines: every stream and event with its metadata, and the records around them
(users, players, matches, seats, campaigns, catalogs, …). Read models, snapshots and caches are left out: an
import replays every stream to check its head and rebuilds the read models from the log.

Line 1 is a header; every other line is one object in Django's serialization shape
(``{"model", "pk", "fields"}``), parents before children. Password hashes are included (a backup restores
accounts): keep the file as private as the database. The photos' stored files follow the events, one line each
(``{"model": "chronicle.photo_file", "pk": storage key, "fields": {"base64": …}}``), and are written back to the
store under the same key on import (removed at once if the import fails).
"""

from __future__ import annotations

import base64
import datetime
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction

FORMAT = "chronicle-backup"
VERSION = 1
APPS = ("auth", "matches", "campaigns", "frontend")
# Derived data: rebuilt on import, never backed up.
SKIP = {
    "matches.matchsummary",
    "matches.playedmatch",
    "matches.playerresult",
    "matches.matchfact",
    "matches.statsrollup",
    "campaigns.campaignadventure",
    "matches.projectioncheckpoint",
    "matches.snapshot",
    "auth.permission",
    "auth.group",
}


class BackupEncoder(DjangoJSONEncoder):
    """Django's encoder, but a date-time or time keeps every digit it has: ``DjangoJSONEncoder`` cuts them to
    milliseconds (ECMA-262's format), and a backup restores each stored field exactly (``recorded_at``)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class BackupError(Exception):
    """The file is not a Chronicle backup, the database is not empty, or a stream does not replay."""


def _models() -> list[type[models.Model]]:
    chosen = []
    for label in APPS:
        if not apps.is_installed(f"django.contrib.{label}") and label == "auth":
            continue
        try:
            config = apps.get_app_config(label)
        except LookupError:
            continue
        chosen.append((config, [m for m in config.get_models() if m._meta.label_lower not in SKIP]))
    return serializers.sort_dependencies(chosen, allow_cycles=True)


def streams_export(out: TextIO) -> dict[str, int]:
    """Write the backup to ``out``, one object per line, streaming (flat memory); returns counts per model."""
    from django.utils import timezone

    out.write(json.dumps({"format": FORMAT, "version": VERSION, "exported_at": timezone.now().isoformat()}) + "\n")
    counts: dict[str, int] = {}
    for model in _models():
        n = 0
        qs = model._default_manager.order_by("pk")
        for obj in qs.iterator(chunk_size=2000):
            row = serializers.serialize("python", [obj])[0]
            out.write(json.dumps(row, cls=BackupEncoder, ensure_ascii=False) + "\n")
            n += 1
        counts[model._meta.label_lower] = n
    counts[PHOTO_FILE] = _photos_export(out)
    return counts


PHOTO_FILE = "chronicle.photo_file"


def _photos_export(out: TextIO) -> int:
    """One line per stored photo file named by any ``photo_added`` entry (removed ones whose file was kept
    too: a voided removal shows them again); a file the store no longer has is left out."""
    from django.core.files.storage import default_storage

    from matches.models import Event as EventRow
    from rulesets.replay import PHOTO_ADDED

    n = 0
    rows = EventRow.objects.filter(type=PHOTO_ADDED).order_by("position").values_list("data", flat=True)
    for data in rows.iterator(chunk_size=500):
        for key in ("display", "thumb"):
            name = data.get(key)
            if not isinstance(name, str) or not default_storage.exists(name):
                continue
            with default_storage.open(name, "rb") as f:
                encoded = base64.b64encode(f.read()).decode("ascii")
            out.write(json.dumps({"model": PHOTO_FILE, "pk": name, "fields": {"base64": encoded}}) + "\n")
            n += 1
    return n


def _photo_restore(row: dict[str, Any], written: list[str]) -> None:
    """Write a backed-up photo file back under its key (``written`` collects the keys, for a rollback)."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage

    name = row.get("pk")
    encoded = (row.get("fields") or {}).get("base64")
    if not isinstance(name, str) or not name.startswith("photos/") or ".." in name or not isinstance(encoded, str):
        raise BackupError(f"A photo file line names no photo key: {str(name)[:80]!r}.")
    try:
        content = base64.b64decode(encoded, validate=True)
    except ValueError:
        raise BackupError(f"Photo file {name}: not base64.") from None
    if default_storage.exists(name):
        with default_storage.open(name, "rb") as f:
            if f.read() == content:
                return
        raise BackupError(f"Photo file {name} already exists with other content.")
    saved = default_storage.save(name, ContentFile(content))
    written.append(saved)
    if saved != name:
        raise BackupError(f"Photo file {name} could not be stored under its key.")


@dataclass
class ImportReport:
    counts: dict[str, int] = field(default_factory=dict)
    streams_checked: int = 0
    events_projected: int = 0


def _rows(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    it = iter(lines)
    try:
        header = json.loads(next(it))
    except (StopIteration, ValueError):
        raise BackupError("The file is empty or its first line is not JSON.") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BackupError(f"Line 1 does not say this is a {FORMAT} file.")
    if header.get("version") != VERSION:
        raise BackupError(f"This is a version {header.get('version')} backup; this Chronicle reads version {VERSION}.")
    for number, line in enumerate(it, start=2):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise BackupError(f"Line {number} is not JSON: {exc}") from None
        if not isinstance(row, dict) or "model" not in row:
            raise BackupError(f"Line {number} is not an object of the backup.")
        yield row


def _replay(stream: Any) -> Any:
    """A stream folded from its initial state over every stored event (no head, no snapshot)."""
    from matches.store import events as store
    from rulesets import get_ruleset
    from rulesets.replay import Position, ReplayError, fold, voided_versions
    from rulesets.versions import initial_state

    ruleset = get_ruleset(stream.game)
    numbered = [(row.version, store.event_of_row(row)) for row in store.events_iter(stream.pk)]
    start = Position(initial_state(ruleset, stream.options, stream.seat_count, stream.rules_version), 0, False)
    try:
        return fold(ruleset, start, numbered, voided_versions(numbered))
    except ReplayError as exc:
        raise BackupError(f"Stream {stream.pk} ({stream.game}) cannot be replayed: {exc.detail}") from None


def streams_import(lines: Iterable[str]) -> ImportReport:
    """Load a backup into an empty database, replay every stream against its stored head, rebuild read models.

    All or nothing: any problem raises :class:`BackupError` and leaves the database as it was. The read models
    are rebuilt once the load has committed: the global-log reader only returns events of transactions that
    have ended (docs/ARCHITECTURE.md), so inside the loading transaction it would see none of them.
    """
    from django.core.files.storage import default_storage

    from matches.projections.projectors import PROJECTORS, project, projection_reset

    written: list[str] = []
    try:
        report = _streams_load(lines, written)
    except BaseException:
        for name in written:
            default_storage.delete(name)
        raise
    for name in PROJECTORS:
        projection_reset(name)
        report.events_projected += project(name)
    return report


@transaction.atomic
def _streams_load(lines: Iterable[str], written: list[str]) -> ImportReport:
    """Load and check the rows of a backup (one transaction); photo files written are named in ``written``."""
    from matches.models import Stream
    from matches.projections import projectors as projections
    from matches.store import events as store
    from rulesets import get_ruleset

    if Stream.objects.exists():
        raise BackupError("The database already holds streams: import a backup into an empty database.")
    report = ImportReport()
    touched: set[type[models.Model]] = set()
    for row in _rows(lines):
        if row["model"] in SKIP:
            continue
        fields = row.get("fields")
        if row["model"] == "matches.stream" and isinstance(fields, dict) and "rules_version" not in fields:
            # a backup of a release before rule versions: each stream was recorded under its head's version
            row = {**row, "fields": {**fields, "rules_version": fields.get("ruleset_version", 1)}}
        if row["model"] == PHOTO_FILE:
            _photo_restore(row, written)
            report.counts[PHOTO_FILE] = report.counts.get(PHOTO_FILE, 0) + 1
            continue
        try:
            for obj in serializers.deserialize("python", [row], ignorenonexistent=True):
                obj.save()
                touched.add(type(obj.object))
        except Exception as exc:  # a bad object: say which, write nothing
            raise BackupError(f"{row.get('model')} {row.get('pk')}: {exc}") from None
        report.counts[row["model"]] = report.counts.get(row["model"], 0) + 1
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(touched)):
            cursor.execute(sql)
    store.head_cache.clear()
    projections.positions_forget()
    for stream in Stream.objects.order_by("pk").iterator():
        replayed = _replay(stream)
        # a head an older ruleset produced is rebuilt on its first load (the store's rule); its version must hold
        current = get_ruleset(stream.game).version == stream.ruleset_version
        if (current and replayed.state != stream.state) or replayed.version != stream.version:
            raise BackupError(f"Stream {stream.pk} ({stream.game}) does not replay to its stored state.")
        report.streams_checked += 1
    return report
