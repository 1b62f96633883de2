"""manage.py check_rulesets: replay every stream under the rules it is judged under and under the current rules;
report, in players' words, what a rules change alters (docs/ARCHITECTURE.md › Rule versions)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.checks import stream_recheck
from matches.models import Stream


class Command(BaseCommand):
    help = "Re-validate every stored stream with the current rulesets; list those whose validity or outcome changed."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", help="only streams of this game slug")

    def handle(self, *args: Any, **options: Any) -> None:
        streams = Stream.objects.order_by("pk")
        if options["game"]:
            streams = streams.filter(game=options["game"])
        changed = 0
        for stream_id in streams.values_list("pk", flat=True).iterator():
            report = stream_recheck(stream_id)
            if report.problem:
                changed += 1
                self.stdout.write(f"{report.label}: {report.problem}")
        self.stdout.write(f"{changed} stream(s) changed under the current rules.")
