"""manage.py rebuild_projections: empty the read models and replay the whole global log into them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from matches.models import Event, Match
from matches.projections.projectors import PROJECTORS, passed_over_streams, project, projection_reset
from matches.services import match_statuses_sync


class Command(BaseCommand):
    help = "Rebuild every read model from event zero, streaming the log in batches (flat memory)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--batch", type=int, default=1000, help="events per transaction (default 1000)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        total = Event.objects.count()
        passed_over_streams(forget=True)
        for name in PROJECTORS:
            projection_reset(name)
            with tqdm(total=total, desc=name, unit="ev", disable=options["no_progress"], file=self.stderr) as bar:
                done = project(name, batch=options["batch"], on_batch=bar.update)
            self.stdout.write(f"{name}: {done} events replayed")
        # a stream that cannot be replayed is skipped, with a warning naming it and the entry (docs/ARCHITECTURE.md
        # › Errors): its read-model rows stay empty until it is repaired; every other stream is rebuilt
        skipped = passed_over_streams(forget=True)
        matches = dict(Match.objects.filter(stream_id__in=list(skipped)).values_list("stream_id", "pk"))
        for stream_id, exc in sorted(skipped.items()):
            what = f"match #{matches[stream_id]}" if stream_id in matches else f"stream {stream_id}"
            self.stderr.write(
                self.style.WARNING(
                    f"warning: {what} skipped: entry {exc.version} ({exc.type}) cannot be replayed: {exc.cause}"
                )
            )
        # Match.status follows the replayed outcome too (docs/ARCHITECTURE.md › Rule versions)
        self.stdout.write(f"match status: {match_statuses_sync()} changed to agree with the replayed outcome")
