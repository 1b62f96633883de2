"""The import job: one uploaded play log being imported in the background, its progress and its report.

Declared in the ``matches`` app (``app_label``) so the migration lives with the match tables.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJob(models.Model):
    """An uploaded BG Stats export or BGG play log and how far its import got.

    ``done`` counts plays handled (imported, already here or skipped); it moves in the transaction that writes
    those plays, so an interrupted job resumes after the last whole batch. ``report`` lists each skipped play
    with its reason and the warnings; ``owner_ref`` is the player the file names as its owner ("This is me").
    """

    SOURCE_BGSTATS = "bgstats"
    SOURCE_BGG = "bgg"
    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs")
    source = models.CharField(max_length=16, choices=[(SOURCE_BGSTATS, "BG Stats"), (SOURCE_BGG, "BoardGameGeek")])
    status = models.CharField(max_length=16, default=QUEUED)
    file_name = models.CharField(max_length=200, blank=True, default="")
    path = models.CharField(max_length=500, blank=True, default="")  # the stored upload, removed when done
    size = models.BigIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    imported = models.PositiveIntegerField(default=0)
    already = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict)  # {"skipped": [{"play", "reason"}], "warnings": [...]}
    owner_ref = models.JSONField(default=dict)  # {"name": ..., "player_id": ...} when the file names its owner
    message = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "matches"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.source}, {self.status}, {self.done}/{self.total})"
