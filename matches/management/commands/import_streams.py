"""manage.py import_streams FILE: load a backup into an empty database, check every stream, rebuild read models."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.interop.backup import BackupError, streams_import


class Command(BaseCommand):
    help = "Load a backup written by export_streams into an EMPTY database (all or nothing)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the backup file ('-' for standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                report = streams_import(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as lines:
                    report = streams_import(lines)
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from None
        objects = sum(report.counts.values())
        self.stdout.write(
            f"Imported {objects} objects; {report.streams_checked} streams replayed to their stored state; "
            f"{report.events_projected} events projected into the read models."
        )
