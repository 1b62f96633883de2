"""manage.py check_rulesets: replay every stream under the rules it is judged under and under the current rules;
report, in players' words, what a rules change alters (docs/ARCHITECTURE.md › Rule versions). Exits non-zero when
a stream does not replay as stored under its own rules (an entry that cannot be replayed or is refused, another
state or outcome), naming the match and the entry; what the current rules would change is only reported."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.checks import RecheckReport, stream_recheck
from matches.models import Stream


def _recheck(stream_id: int, game: str) -> RecheckReport:
    """:func:`stream_recheck`, or a broken report when the check itself fails (one stream never stops the rest)."""
    try:
        return stream_recheck(stream_id)
    except Exception as exc:  # a stream the check cannot read: reported, and the command goes on
        return RecheckReport(stream_id, game, f"could not be checked: {exc}", f"{game} stream {stream_id}", True)


class Command(BaseCommand):
    help = (
        "Re-validate every stored stream with the current rulesets; list those whose validity or outcome changed. "
        "Exits with status 1 when a stream does not replay as stored under the rules it was recorded with."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", help="only streams of this game slug")

    def handle(self, *args: Any, **options: Any) -> None:
        streams = Stream.objects.order_by("pk")
        if options["game"]:
            streams = streams.filter(game=options["game"])
        changed = broken = 0
        for stream_id, game in streams.values_list("pk", "game").iterator():
            report = _recheck(stream_id, game)
            if report.problem:
                changed += 1
                broken += report.broken
                self.stdout.write(f"{report.label}: {report.problem}")
        self.stdout.write(f"{changed} stream(s) changed under the current rules.")
        if broken:
            raise CommandError(
                f"{broken} stream(s) do not replay as stored under the rules they were recorded with (listed above).",
                returncode=1,
            )
