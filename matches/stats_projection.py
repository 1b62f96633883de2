"""The ``play_stats`` projector: finished matches, each seat's result and the games' insight facts, the read
model of the dashboards. Each batch of the log is handled with a fixed number of queries, whatever its size."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import prefetch_related_objects

from matches import store
from matches.models import Event as EventRow
from matches.models import Match, MatchFact, PlayedMatch, PlayerResult
from matches.people import player_canonical
from matches.projections import read_model_register
from matches.stats_rollup import contributions, difference, rollup_apply, rollup_reset, rows_of
from matches.visibility import SPECTATOR
from rulesets import get_ruleset
from rulesets.base import Event as GameEvent
from rulesets.replay import EVENT_VOIDED, TABLE_LEVEL_TYPES, final_outcome_of, walk

PLAY_STATS = "play_stats"
SCORE_SHEET = "scoresheet"  # its matches count per game name (the sheet's title)


def apply_play_stats(entries: list[store.LogEntry]) -> None:
    """Re-derive the rows of every match touched by ``entries`` from its newest committed position (its head
    row, read with it), so that rows never move back to an older version whichever entries come in which
    order (the stream read-ahead feeds newer entries before the global reader redelivers older ones)."""
    touched = {entry.stream_id for entry in entries}
    matches = list(Match.objects.filter(stream_id__in=touched).select_related("stream"))
    if not matches:
        return
    last = {m.stream_id: m.stream.version for m in matches}
    states = {m.pk: store.position_of_row(m.stream, last[m.stream_id]).state for m in matches}
    # only finished matches have rows (the three tables together): a match in progress costs one indexed
    # look-up, and is re-derived (its rows dropped) only when it has rows, i.e. a void took back its end
    # a play imported as "ignored for stats" (BG Stats' flag, ``Match.ignored``) has no rows, as if unfinished
    finished = [m for m in matches if not m.ignored and final_outcome_of(get_ruleset(m.game), states[m.pk]) is not None]
    unfinished = [m.pk for m in matches if m not in finished]  # (an empty list costs Django no query)
    ids = [m.pk for m in finished]
    ids += PlayedMatch.objects.filter(match_id__in=unfinished).values_list("match_id", flat=True)
    if not ids:
        return
    prefetch_related_objects(finished, "seats__player__merged_into")
    before = contributions(*rows_of(ids))  # the roll-ups move by what these matches' rows change
    PlayerResult.objects.filter(match_id__in=ids).delete()
    MatchFact.objects.filter(match_id__in=ids).delete()
    PlayedMatch.objects.filter(match_id__in=ids).delete()
    logs = logs_upto({m.stream_id: last[m.stream_id] for m in finished})
    played, results, facts = [], [], []
    for match in finished:
        _derive(match, states[match.pk], logs[match.stream_id], played, results, facts)
    PlayedMatch.objects.bulk_create(played)
    PlayerResult.objects.bulk_create(results, batch_size=2000)
    MatchFact.objects.bulk_create(facts, batch_size=2000)
    rollup_apply(difference(contributions(played, results), before))


def logs_upto(last: dict[int, int]) -> dict[int, list[tuple[int, str, int | None, datetime, Any]]]:
    """Each stream's entries ``(version, type, seat, recorded_at, data)`` up to its version in ``last``, oldest
    first, read in one query."""
    logs: dict[int, list[tuple[int, str, int | None, datetime, Any]]] = defaultdict(list)
    rows = (
        EventRow.objects.filter(stream_id__in=list(last))
        .order_by("stream_id", "version")
        .values_list("stream_id", "version", "type", "seat", "recorded_at", "data")
    )
    for stream_id, version, type_, seat, at, data in rows.iterator(chunk_size=5000):
        if version <= last[stream_id]:
            logs[stream_id].append((version, type_, seat, at, data))
    return logs


def _derive(
    match: Match, state: dict[str, Any], log: list[tuple[int, str, int | None, datetime, Any]],
    played: list[PlayedMatch], results: list[PlayerResult], facts: list[MatchFact],
) -> None:  # fmt: skip
    ruleset = get_ruleset(match.game)
    outcome = final_outcome_of(ruleset, state)
    if outcome is None:
        return
    voided = {int(data["version"]) for _, type_, _, _, data in log if type_ == EVENT_VOIDED}
    moves = [(seat, at) for v, type_, seat, at, _ in log if type_ not in TABLE_LEVEL_TYPES and v not in voided]
    first_seat = _first_seat(match, moves)
    played_at = match.played_at or (log[0][3] if log else match.created_at)
    winners = [] if outcome.draw else sorted(outcome.winners)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    insight = _facts(ruleset, SPECTATOR.state(ruleset, state), match, log)  # stats are read by anyone
    title = str((match.stream.options or {}).get("title") or "").strip() if match.game == SCORE_SHEET else ""
    common = {
        "game": match.game, "title": title[:120], "is_public": match.is_public, "owner_id": match.owner_id,
        "played_at": played_at,
    }  # fmt: skip
    played.append(
        PlayedMatch(
            match=match,
            seats=len(seats),
            first_seat=first_seat,
            winners=winners,
            draw=outcome.draw,
            moves=len(moves),
            minutes=_minutes(match, moves),
            facts=insight,
            **common,
        )
    )
    scores = outcome.scores or {}
    results.extend(
        PlayerResult(
            match=match,
            seat=seat.index,
            player_id=player_canonical(seat.player).pk,
            won=seat.index in winners,
            drawn=outcome.draw,
            started=first_seat == seat.index,
            score=scores.get(seat.index),
            **common,
        )
        for seat in seats
    )
    facts.extend(
        MatchFact(match=match, game=match.game, played_at=played_at, key=key[:64], value=str(value)[:120])
        for key, values in insight.items()
        for value in (values if isinstance(values, list) else [values])
        if isinstance(value, str | int | bool)
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


def _facts(
    ruleset: Any, state: dict[str, Any], match: Match, log: list[tuple[int, str, int | None, datetime, Any]]
) -> dict[str, Any]:
    """The ruleset's insights of the final (spectator's) state, then those it draws from replaying the log.
    Insights are extras: a ruleset bug in them must not stop the projector (that part is left out)."""
    facts: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        facts.update(ruleset.insights(state))
    events = ((version, GameEvent(type_, seat, data)) for version, type_, seat, _, data in log)
    with contextlib.suppress(Exception):
        facts.update(ruleset.log_insights(walk(ruleset, match.stream.options or {}, match.stream.seat_count, events)))
    return facts


def reset_play_stats() -> None:
    """Empty the read model (the next run replays the log from the start)."""
    PlayerResult.objects.all().delete()
    MatchFact.objects.all().delete()
    PlayedMatch.objects.all().delete()
    rollup_reset()


read_model_register(PLAY_STATS, apply_play_stats, reset_play_stats)
