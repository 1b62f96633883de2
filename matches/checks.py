"""Re-checking stored streams against the current rulesets (after a rules fix bumps a ruleset version)."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import MatchSummary, Stream
from matches.store import events as store
from rulesets import get_ruleset
from rulesets.replay import Position, ReplayError, final_outcome_of, fold, voided_versions


@dataclass(frozen=True)
class RecheckReport:
    """What a full, validated replay says of a stream; ``problem`` is empty when nothing changed."""

    stream_id: int
    game: str
    problem: str


def stream_recheck(stream_id: int) -> RecheckReport:
    """Replay ``stream_id`` from its first event, validating each entry, and compare with its stored head."""
    stream = Stream.objects.get(pk=stream_id)
    ruleset = get_ruleset(stream.game)
    rows = list(store.events_iter(stream_id))
    numbered = [(r.version, store._to_event(r)) for r in rows]
    start = Position(ruleset.initial_state(stream.options, stream.seat_count), 0, False)
    try:
        pos = fold(ruleset, start, numbered, voided_versions(numbered), check=True)
    except ReplayError as exc:
        return RecheckReport(stream_id, stream.game, f"no longer valid: {exc.detail}")
    if pos.state != stream.state and stream.ruleset_version == ruleset.version:
        return RecheckReport(stream_id, stream.game, "the replayed state differs from the stored head")
    after = final_outcome_of(ruleset, pos.state)
    now = (sorted(after.winners), after.draw, True) if after else ([], False, False)
    summary = MatchSummary.objects.filter(match__stream_id=stream_id, version=stream.version).first()
    if summary is not None:
        then = (sorted(summary.winners), summary.draw, summary.status == "finished")
        if then != now:
            reason = f" ({after.reason})" if after and after.reason else ""
            return RecheckReport(
                stream_id,
                stream.game,
                f"outcome changes: winners {then[0]} → {now[0]}, finished {then[2]} → {now[2]}{reason}",
            )
    return RecheckReport(stream_id, stream.game, "")
