"""Projectors: read models kept from the global event log, checkpointed in the same transaction."""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection, transaction

from matches import store
from matches.models import Match, MatchSummary, ProjectionCheckpoint
from matches.stats_projection import PLAY_STATS, apply_play_stats, reset_play_stats
from rulesets import get_ruleset
from rulesets.names import name_seats
from rulesets.replay import outcome_of

MATCH_SUMMARY = "match_summary"
BATCH = 1000


def _lock(name: str) -> None:
    """Serialise runs of one projector (PostgreSQL advisory lock, released at commit)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"projection:{name}"])


def _apply_match_summary(entries: list[store.LogEntry]) -> None:
    """Bring each touched match's summary up to the last version of it in ``entries``."""
    last: dict[int, store.LogEntry] = {}
    voids: dict[int, int] = {}
    for entry in entries:
        last[entry.stream_id] = entry
        if entry.type == "event_voided":
            voids[entry.stream_id] = voids.get(entry.stream_id, 0) + 1
    matches = {
        m.stream_id: m
        for m in Match.objects.filter(stream_id__in=last).select_related("summary").prefetch_related("seats__player")
    }
    for stream_id, entry in last.items():
        match = matches.get(stream_id)
        if match is None:
            continue  # a campaign stream: not a match
        summary = getattr(match, "summary", None) or MatchSummary(match=match)
        if summary.version >= entry.version:
            continue  # already projected (a redelivered task)
        pos = store.position_at(stream_id, entry.version)
        outcome = outcome_of(get_ruleset(match.game), pos.state)
        summary.version = entry.version
        summary.events_count = entry.version
        summary.voided_count += voids.get(stream_id, 0)
        summary.last_activity = entry.recorded_at
        summary.status = Match.STATUS_FINISHED if outcome else Match.STATUS_IN_PROGRESS
        summary.winners = list(outcome.winners) if outcome else []
        summary.draw = bool(outcome and outcome.draw)
        names = [s.player.name for s in sorted(match.seats.all(), key=lambda seat: seat.index)]
        summary.reason = (name_seats(outcome.reason, names) if outcome else "")[:200]
        summary.scores = outcome.to_dict()["scores"] if outcome else None
        summary.save()


PROJECTORS: dict[str, Callable[[list[store.LogEntry]], None]] = {
    MATCH_SUMMARY: _apply_match_summary,
    PLAY_STATS: apply_play_stats,
}


def project(name: str = MATCH_SUMMARY, *, batch: int = BATCH, on_batch: Callable[[int], None] | None = None) -> int:
    """Feed every event after the projector's checkpoint to it, one transaction per batch; return the count.

    Each batch's read-model writes and the new checkpoint commit together, so a crash or a redelivered
    task replays at most an uncommitted batch, which the version guard makes harmless.
    """
    apply = PROJECTORS[name]
    done = 0
    while True:
        with transaction.atomic():
            _lock(name)
            checkpoint, _ = ProjectionCheckpoint.objects.get_or_create(name=name)
            entries = store.log_read(after_txid=checkpoint.txid, after_position=checkpoint.position, limit=batch)
            if not entries:
                return done
            apply(entries)
            checkpoint.txid = entries[-1].txid
            checkpoint.position = entries[-1].position
            checkpoint.save()
        done += len(entries)
        if on_batch is not None:
            on_batch(len(entries))
        if len(entries) < batch:
            return done


@transaction.atomic
def projection_reset(name: str = MATCH_SUMMARY) -> None:
    """Empty a read model and its checkpoint, so the next run replays the log from the start."""
    _lock(name)
    if name == MATCH_SUMMARY:
        MatchSummary.objects.all().delete()
        MatchSummary.objects.bulk_create(
            [
                MatchSummary(match_id=pk, last_activity=created)
                for pk, created in Match.objects.values_list("pk", "created_at")
            ],
            batch_size=1000,
        )
    elif name == PLAY_STATS:
        reset_play_stats()
    ProjectionCheckpoint.objects.filter(name=name).delete()
