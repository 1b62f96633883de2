"""``manage.py events_partition [--partitions N]``: hash-partition the event table by stream, rows kept."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.store.partitions import DEFAULT_PARTITIONS, events_partition, events_partitioning, events_unpartition


class Command(BaseCommand):
    help = (
        "Turn matches_event into a table hash-partitioned by stream_id (PostgreSQL), rows, keys, indexes and "
        "the immutability trigger kept, in one transaction holding the table's lock. Does nothing if it is "
        "partitioned already. See matches/store/partitions.py."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--partitions", type=int, default=DEFAULT_PARTITIONS, help="how many (default 16)")
        parser.add_argument("--check", action="store_true", help="only say whether the table is partitioned")
        parser.add_argument("--undo", action="store_true", help="make it one table again, rows kept")

    def handle(self, *args: Any, partitions: int, check: bool, undo: bool, **options: Any) -> None:
        if check:
            now = events_partitioning()
            self.stdout.write(f"partitioned into {now.partitions}" if now.partitioned else "not partitioned")
            return
        if undo:
            try:
                events_unpartition()
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
            self.stdout.write("matches_event is one table")
            return
        before = events_partitioning()
        try:
            after = events_partition(partitions)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if before.partitioned:
            self.stdout.write(f"matches_event is partitioned already (into {before.partitions}); nothing done")
        else:
            self.stdout.write(f"matches_event is now hash-partitioned by stream into {after.partitions} partitions")
