"""The ``play_stats`` projector: finished matches and each seat's result, the read model of the dashboards."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches import store
from matches.models import Event as EventRow
from matches.models import Match, PlayedMatch, PlayerResult
from matches.people import player_canonical
from rulesets import get_ruleset
from rulesets.replay import EVENT_VOIDED, META_EVENT_TYPES, RESULT_RECORDED, outcome_of

PLAY_STATS = "play_stats"
_TABLE_LEVEL = {*META_EVENT_TYPES, RESULT_RECORDED}


def apply_play_stats(entries: list[store.LogEntry]) -> None:
    """Re-derive the rows of every match touched by ``entries`` from its position at the last entry."""
    last: dict[int, int] = {}
    for entry in entries:
        last[entry.stream_id] = entry.version
    matches = (
        Match.objects.filter(stream_id__in=last).select_related("stream").prefetch_related("seats__player__merged_into")
    )
    for match in matches:
        _project_match(match, last[match.stream_id])


def _project_match(match: Match, version: int) -> None:
    PlayerResult.objects.filter(match=match).delete()
    PlayedMatch.objects.filter(match=match).delete()
    pos = store.position_at(match.stream_id, version)
    ruleset = get_ruleset(match.game)
    outcome = outcome_of(ruleset, pos.state)
    if outcome is None:
        return
    rows = list(
        EventRow.objects.filter(stream_id=match.stream_id, version__lte=version)
        .order_by("version")
        .values_list("version", "type", "seat", "recorded_at", "data")
    )
    voided = {int(data["version"]) for _, type_, _, _, data in rows if type_ == EVENT_VOIDED}
    moves = [(seat, at) for v, type_, seat, at, _ in rows if type_ not in _TABLE_LEVEL and v not in voided]
    first_seat = _first_seat(match, moves)
    played_at = match.played_at or (rows[0][3] if rows else match.created_at)
    winners = [] if outcome.draw else sorted(outcome.winners)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    PlayedMatch.objects.create(
        match=match,
        game=match.game,
        played_at=played_at,
        seats=len(seats),
        first_seat=first_seat,
        winners=winners,
        draw=outcome.draw,
        moves=len(moves),
        minutes=_minutes(match, moves),
        facts=_facts(ruleset, pos.state),
    )
    scores = outcome.scores or {}
    PlayerResult.objects.bulk_create(
        [
            PlayerResult(
                match=match,
                seat=seat.index,
                player_id=player_canonical(seat.player).pk,
                game=match.game,
                played_at=played_at,
                won=seat.index in winners,
                drawn=outcome.draw,
                started=first_seat == seat.index,
                score=scores.get(seat.index),
            )
            for seat in seats
        ]
    )


def _first_seat(match: Match, moves: list[tuple[int | None, datetime]]) -> int | None:
    if match.first_seat is not None:
        return match.first_seat
    option = (match.stream.options or {}).get("first_seat")
    if isinstance(option, int) and not isinstance(option, bool):
        return option
    return next((seat for seat, _ in moves if seat is not None), None)


def _minutes(match: Match, moves: list[tuple[int | None, datetime]]) -> int | None:
    if match.duration_min:
        return match.duration_min
    if len(moves) < 2:
        return None
    return max(1, round((moves[-1][1] - moves[0][1]).total_seconds() / 60))


def _facts(ruleset: Any, state: dict[str, Any]) -> dict[str, Any]:
    try:
        return ruleset.insights(state)
    except Exception:  # insights are extras: a ruleset bug must not stop the projector
        return {}


def reset_play_stats() -> None:
    """Empty the read model (the next run replays the log from the start)."""
    PlayerResult.objects.all().delete()
    PlayedMatch.objects.all().delete()
