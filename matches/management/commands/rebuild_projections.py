"""manage.py rebuild_projections: empty the read models and replay the whole global log into them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from tqdm import tqdm

from matches.models import Event
from matches.projections.projectors import PROJECTORS, project, projection_reset
from matches.services import match_statuses_sync


class Command(BaseCommand):
    help = "Rebuild every read model from event zero, streaming the log in batches (flat memory)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--batch", type=int, default=1000, help="events per transaction (default 1000)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        total = Event.objects.count()
        for name in PROJECTORS:
            projection_reset(name)
            with tqdm(total=total, desc=name, unit="ev", disable=options["no_progress"], file=self.stderr) as bar:
                done = project(name, batch=options["batch"], on_batch=bar.update)
            self.stdout.write(f"{name}: {done} events replayed")
        # Match.status follows the replayed outcome too (docs/ARCHITECTURE.md › Rule versions)
        self.stdout.write(f"match status: {match_statuses_sync()} changed to agree with the replayed outcome")
