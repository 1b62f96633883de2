"""Import jobs: an upload stored, checked to be a play log (else nothing is kept), then imported in batches.

Each batch is one transaction holding its plays (each whole, in its own savepoint) and the job's counters,
so a job interrupted anywhere (worker killed, restart) leaves whole plays only and resumes after its last
batch: the redelivered task (``acks_late``) skips the plays the job has counted, and a play's key skips
anything written meanwhile. Progress (``done`` of ``total``) is read from the job row by the page.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import tempfile
import uuid
from collections.abc import Iterator
from typing import IO, Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.errors import DomainError, InvalidInput
from matches.interop import bgg, bgstats
from matches.interop.models import ImportJob
from matches.interop.records import FileRefused, PlayIn, PlaySkipped
from matches.interop.writer import Prepared, WriteCache, play_prepare, play_write, plays_write
from matches.models import Player

REPORT_LIMIT = 2000  # reasons kept per list; the counts stay exact
SOURCE_NAMES = {ImportJob.SOURCE_BGSTATS: "BG Stats", ImportJob.SOURCE_BGG: "BoardGameGeek"}


def import_dir() -> str:
    path = settings.CHRONICLE_IMPORT_DIR or os.path.join(tempfile.gettempdir(), "chronicle-imports")
    os.makedirs(path, exist_ok=True)
    return path


def max_bytes() -> int:
    return int(settings.CHRONICLE_IMPORT_MAX_BYTES)


def _store(fp: IO[bytes]) -> tuple[str, int]:
    """Copy the upload to the import folder in chunks; refuses more than ``CHRONICLE_IMPORT_MAX_BYTES``."""
    path = os.path.join(import_dir(), f"{uuid.uuid4().hex}.upload")
    size = 0
    limit = max_bytes()
    with open(path, "wb") as out:
        while chunk := fp.read(1024 * 1024):
            size += len(chunk)
            if size > limit:
                out.close()
                os.unlink(path)
                raise InvalidInput({"file": [f"At most {limit // (1024 * 1024)} MB per file."]})
            out.write(chunk)
    return path, size


def _sniff(path: str) -> str:
    with open(path, "rb") as fp:
        head = fp.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] == b"{":
        return ImportJob.SOURCE_BGSTATS
    if head[:1] == b"<":
        return ImportJob.SOURCE_BGG
    raise FileRefused("Not a BG Stats export (JSON) nor a BoardGameGeek play log (XML).")


def _scan(source: str, path: str) -> Any:
    with open(path, "rb") as fp:
        return bgstats.bgstats_scan(fp) if source == ImportJob.SOURCE_BGSTATS else bgg.bgg_scan(fp)


def import_job_create(*, owner: AbstractBaseUser, fp: IO[bytes], file_name: str = "", source: str = "") -> ImportJob:
    """Store and check an upload, and make its job (queued). ``source`` ("bgstats"/"bgg") is what the caller
    expects; empty: told by the file. Raises :class:`InvalidInput` (nothing kept) for a file that is not a
    play log of that source, unsafe XML or a file over the size limit."""
    path, size = _store(fp)
    try:
        found = _sniff(path)
        if source and found != source:
            raise FileRefused(f"Not a {SOURCE_NAMES[source]} file: this looks like a {SOURCE_NAMES[found]} one.")
        index = _scan(found, path)
    except FileRefused as exc:
        os.unlink(path)
        raise InvalidInput({"file": [str(exc)]}, detail=f"{exc} Nothing was imported.") from None
    kept = index.to_json() if found == ImportJob.SOURCE_BGSTATS else dataclasses.asdict(index)
    return ImportJob.objects.create(
        owner=owner, source=found, file_name=file_name[:200], path=path, size=size, total=index.plays,
        owner_ref={"name": index.owner_name} if index.owner_name else {}, report={"index": kept},
    )  # fmt: skip


def _plays(job: ImportJob) -> Iterator[tuple[int, PlayIn | PlaySkipped]]:
    """The job's plays in file order, read with the index its scan kept (scanned again if it kept none)."""
    kept = (job.report or {}).get("index")
    if kept is None:
        index: Any = _scan(job.source, job.path)
    elif job.source == ImportJob.SOURCE_BGSTATS:
        index = bgstats.BgStatsIndex.from_json(kept)
    else:
        index = bgg.BggIndex(**kept)
    with open(job.path, "rb") as fp:
        if job.source == ImportJob.SOURCE_BGSTATS:
            yield from bgstats.bgstats_plays(fp, index)
        else:
            yield from bgg.bgg_plays(fp, index)


def _note(report: dict[str, Any], key: str, entry: Any) -> None:
    items = report.setdefault(key, [])
    if len(items) < REPORT_LIMIT:
        items.append(entry)
    else:
        report[f"{key}_more"] = report.get(f"{key}_more", 0) + 1


def _label(i: int, item: PlayIn | PlaySkipped) -> str:
    """How the report names a play: its place in the file (from 1), its game and its date as written."""
    if isinstance(item, PlayIn):
        return f"play {i + 1} ({item.game_name}, {item.played_local})"
    return f"play {i + 1}"


def import_job_run(job_id: int, *, batch: int | None = None) -> ImportJob:
    """Run (or resume) a job to its end; returns it done. Safe to run twice: the second finds it done, or
    resumes where the first stopped."""
    from matches.projections.tasks import wake_projector

    batch = batch or settings.CHRONICLE_IMPORT_BATCH
    job = ImportJob.objects.get(pk=job_id)
    if job.status in (ImportJob.DONE, ImportJob.FAILED):
        return job
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.RUNNING, started_at=job.started_at or timezone.now())
    cache = WriteCache(owner=job.owner)
    pending: list[tuple[int, PlayIn | PlaySkipped]] = []
    start = projected = job.done
    try:
        for i, item in _plays(job):
            if i < start:
                continue
            pending.append((i, item))
            if len(pending) >= batch:
                if not _batch(job.pk, pending, cache):
                    return ImportJob.objects.get(pk=job.pk)  # another run of this job is ahead: it finishes
                pending = []
                if i + 1 - projected >= settings.CHRONICLE_IMPORT_PROJECT_EVERY:
                    projected = i + 1
                    wake_projector()  # the read models follow the import every so many plays, and at its end
        if pending and not _batch(job.pk, pending, cache):
            return ImportJob.objects.get(pk=job.pk)
    except FileRefused as exc:
        ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.FAILED, message=str(exc)[:500])
        with contextlib.suppress(OSError):
            os.unlink(job.path)
        return ImportJob.objects.get(pk=job.pk)
    job = ImportJob.objects.get(pk=job.pk)
    owner_name = (job.owner_ref or {}).get("name")
    if owner_name:
        player = Player.objects.filter(owner=job.owner, name__iexact=owner_name).first()
        job.owner_ref = {**job.owner_ref, "player_id": player.pk if player else None}
    job.status, job.finished_at, job.total = ImportJob.DONE, timezone.now(), job.done  # the total made exact
    job.report = {k: v for k, v in (job.report or {}).items() if k != "index"}  # the report alone stays
    job.save(update_fields=["status", "finished_at", "owner_ref", "total", "report", "updated_at"])
    with contextlib.suppress(OSError):
        os.unlink(job.path)
    wake_projector()
    return job


def _batch(job_id: int, items: list[tuple[int, PlayIn | PlaySkipped]], cache: WriteCache) -> bool:
    """Write one batch and count it on the job, in one transaction. False when the job's count shows another
    run got there first (nothing written)."""
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.done != items[0][0]:
            return False
        report = job.report or {}
        ready: list[tuple[int, Prepared]] = []
        keys: set[str] = set()
        for i, item in items:
            if isinstance(item, PlaySkipped):
                job.skipped += 1
                _note(report, "skipped", {"play": i + 1, "label": _label(i, item), "reason": str(item)})
                continue
            try:
                prepared = play_prepare(item, cache)
            except PlaySkipped as exc:
                job.skipped += 1
                _note(report, "skipped", {"play": i + 1, "label": _label(i, item), "key": item.key, "reason": str(exc)})
                continue
            if prepared is None or item.key in keys:  # already in, or twice in this file
                job.already += 1
                continue
            for warning in item.warnings:  # the reader's, and the writer's (e.g. scores a game refused)
                _note(report, "warnings", f"{_label(i, item)}: {warning}")
            keys.add(item.key)
            ready.append((i, prepared))
        try:
            plays_write([p for _, p in ready], cache)  # the whole batch in a few statements
            job.imported += len(ready)
        except (DomainError, PlaySkipped, IntegrityError):
            for i, p in ready:  # one play refused the batch: each on its own, the odd one reported
                try:
                    written = play_write(p.play, cache)
                except PlaySkipped as exc:
                    job.skipped += 1
                    _note(report, "skipped", {"play": i + 1, "label": _label(i, p.play), "key": p.play.key,
                                              "reason": str(exc)})  # fmt: skip
                    continue
                if written is None:
                    job.already += 1
                else:
                    job.imported += 1
        job.done = items[-1][0] + 1
        job.total = max(job.total, job.done)
        job.report = report
        job.save(update_fields=["done", "total", "imported", "already", "skipped", "report", "updated_at"])
    return True


def import_job_progress(job: ImportJob) -> dict[str, Any]:
    """The job as the page and the API show it: progress, time left, the report."""
    seconds_left = None
    if job.status == ImportJob.RUNNING and job.started_at and job.done:
        elapsed = (timezone.now() - job.started_at).total_seconds()
        seconds_left = round(elapsed / job.done * max(0, job.total - job.done))
    report = job.report or {}
    return {
        "id": job.pk, "status": job.status, "source": job.source, "file_name": job.file_name, "total": job.total,
        "done": job.done, "imported": job.imported, "already": job.already, "skipped": job.skipped,
        "percent": 100 if job.status == ImportJob.DONE else (round(100 * job.done / job.total) if job.total else 0),
        "seconds_left": seconds_left, "message": job.message, "owner_ref": job.owner_ref or {},
        "skipped_plays": report.get("skipped", []), "warnings": report.get("warnings", []),
        "skipped_more": report.get("skipped_more", 0), "warnings_more": report.get("warnings_more", 0),
    }  # fmt: skip


def import_report(job: ImportJob) -> dict[str, Any]:
    """The API's answer for a finished job: ``imported``, ``skipped`` (already here), ``errors`` (each play not
    imported, with its reason), plus the job's id, status and warnings."""
    report = job.report or {}
    return {
        "imported": job.imported,
        "skipped": job.already,
        "errors": [f"{s['label']}: {s['reason']}" for s in report.get("skipped", [])],
        "warnings": report.get("warnings", []),
        "job": job.pk,
        "status": job.status,
        "total": job.total,
    }


def import_bytes(*, owner: AbstractBaseUser, data: bytes, source: str = "", file_name: str = "") -> ImportJob:
    """Import a whole file held in memory, now (the demo data, tests)."""
    import io

    job = import_job_create(owner=owner, fp=io.BytesIO(data), file_name=file_name, source=source)
    return import_job_run(job.pk)
