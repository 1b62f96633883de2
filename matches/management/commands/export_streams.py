"""manage.py export_streams [FILE]: a full backup (JSON Lines) of every stream, event and the records around them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.interop.backup import streams_export


class Command(BaseCommand):
    help = "Write a full backup as JSON Lines to FILE (default: standard output). Read models are not included."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", nargs="?", default="-", help="where to write ('-' for standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["file"] == "-":
            counts = streams_export(self.stdout)  # type: ignore[arg-type]  # write() of a text stream
        else:
            with open(options["file"], "w", encoding="utf-8") as out:
                counts = streams_export(out)
        summary = ", ".join(f"{n} {label}" for label, n in counts.items() if n)
        self.stderr.write(f"Exported {summary}.")
