"""The ``play_stats`` projector: finished matches, each seat's result and the games' insight facts, the read
model of the dashboards. Each batch of the log is handled with a fixed number of queries, whatever its size."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from datetime import datetime
from typing import Any, NamedTuple

from matches.errors import StreamUnreplayable
from matches.models import Event as EventRow
from matches.models import Match, MatchFact, PlayedMatch, PlayerResult, Seat
from matches.projections.merges import canonical_id, players_merged_into
from matches.projections.projectors import passed_over, read_model_register
from matches.projections.rollups import contributions, difference, rollup_apply, rollup_reset, rows_of
from matches.store import events as store
from matches.store.rows import ids_among, rows_insert
from matches.store.visibility import SPECTATOR
from rulesets import get_ruleset
from rulesets.base import Event as GameEvent
from rulesets.replay import EVENT_VOIDED, TABLE_LEVEL_TYPES, final_outcome_of, walk

PLAY_STATS = "play_stats"
SCORE_SHEET = "scoresheet"  # its matches count per game name (the sheet's title)


class PlayedRow(NamedTuple):
    """A ``PlayedMatch`` row as the projector writes it (and :func:`contributions` reads it)."""

    match_id: int
    game: str
    is_public: bool
    owner_id: int
    title: str
    played_at: datetime
    seats: int
    first_seat: int | None
    winners: list[int]
    draw: bool
    moves: int
    minutes: int | None
    facts: dict[str, Any]


class ResultRow(NamedTuple):
    """A ``PlayerResult`` row as the projector writes it."""

    match_id: int
    seat: int
    player_id: int
    game: str
    is_public: bool
    owner_id: int
    title: str
    played_at: datetime
    won: bool
    drawn: bool
    started: bool
    score: float | None


class FactRow(NamedTuple):
    """A ``MatchFact`` row as the projector writes it."""

    match_id: int
    game: str
    played_at: datetime
    key: str
    value: str


class MatchRow(NamedTuple):
    """The columns of a match the projector reads (a match row carries text it never needs: details,
    location…), with its stream's head."""

    pk: int
    stream_id: int
    game: str
    owner_id: int
    is_public: bool
    played_at: datetime | None
    created_at: datetime
    duration_min: int | None
    first_seat: int | None
    ignored: bool
    stream: store.Head


_MATCH_FIELDS = ("id", "stream_id", "game", "owner_id", "is_public", "played_at", "created_at", "duration_min",
                 "first_seat", "ignored")  # fmt: skip


def apply_play_stats(entries: list[store.LogEntry]) -> None:
    """Re-derive the rows of every match touched by ``entries`` from its newest committed position (its head
    row, read with it), so that rows never move back to an older version whichever entries come in which
    order (the stream read-ahead feeds newer entries before the global reader redelivers older ones).

    Set-based: whatever the batch's size, a fixed number of statements (the matches with their heads; for
    those finished, or with rows to drop, their old rows, seats and logs; one delete per table, one insert per
    table, one roll-up upsert)."""
    touched = {entry.stream_id for entry in entries}
    rows = Match.objects.filter(ids_among(Match, "stream_id", touched))
    n = len(_MATCH_FIELDS)
    matches = [
        MatchRow(*row[:n], store.Head(*row[n:])) for row in rows.values_list(*_MATCH_FIELDS, *store.STREAM_FIELDS)
    ]
    if not matches:
        return
    states: dict[int, Any] = {}
    for m in list(matches):
        try:
            states[m.pk] = store.position_of_row(m.stream, m.stream.version).state
        except StreamUnreplayable as exc:  # its rows stay as they were; the other matches go on
            passed_over(PLAY_STATS, exc)
            matches.remove(m)
    # only finished matches have rows (the three tables together): a match in progress costs one indexed
    # look-up, and is re-derived (its rows dropped) only when it has rows, i.e. a void took back its end
    # a play imported as "ignored for stats" (BG Stats' flag, ``Match.ignored``) has no rows, as if unfinished
    finished = [m for m in matches if not m.ignored and final_outcome_of(get_ruleset(m.game), states[m.pk]) is not None]
    done = {m.pk for m in finished}
    unfinished = [m.pk for m in matches if m.pk not in done]  # (an empty list costs Django no query)
    ids = [m.pk for m in finished]
    if unfinished:
        ids += PlayedMatch.objects.filter(ids_among(PlayedMatch, "match_id", unfinished)).values_list(
            "match_id", flat=True
        )
    if not ids:
        return
    old_played, old_results = rows_of(ids)
    before = contributions(old_played, old_results)  # the roll-ups move by what these matches' rows change
    had = [p.match_id for p in old_played]  # the three tables together: only these have rows to drop
    if had:
        for model in (PlayerResult, MatchFact, PlayedMatch):
            model.objects.filter(ids_among(model, "match_id", had)).delete()
    seats = seats_canonical([m.pk for m in finished])
    logs = logs_upto({m.stream_id: m.stream.version for m in finished})
    played: list[PlayedRow] = []
    results: list[ResultRow] = []
    facts: list[FactRow] = []
    for match in finished:
        _derive(match, states[match.pk], logs[match.stream_id], seats.get(match.pk, []), played, results, facts)
    rows_insert(PlayedMatch, PlayedRow._fields, played)
    rows_insert(PlayerResult, ResultRow._fields, results)
    rows_insert(MatchFact, FactRow._fields, facts)
    rollup_apply(difference(contributions(played, results), before))


def logs_upto(last: dict[int, int]) -> dict[int, list[tuple[int, str, int | None, datetime, Any]]]:
    """Each stream's entries ``(version, type, seat, recorded_at, data)`` up to its version in ``last``, oldest
    first, read in one query."""
    logs: dict[int, list[tuple[int, str, int | None, datetime, Any]]] = defaultdict(list)
    rows = (
        EventRow.objects.filter(ids_among(EventRow, "stream_id", last))
        .order_by("stream_id", "version")
        .values_list("stream_id", "version", "type", "seat", "recorded_at", "data")
    )
    for stream_id, version, type_, seat, at, data in rows.iterator(chunk_size=5000):
        if version <= last[stream_id]:
            logs[stream_id].append((version, type_, seat, at, data))
    return logs


def _derive(
    match: MatchRow, state: dict[str, Any], log: list[tuple[int, str, int | None, datetime, Any]],
    seats: list[tuple[int, int]], played: list[PlayedRow], results: list[ResultRow], facts: list[FactRow],
) -> None:  # fmt: skip
    """Append the rows of a finished match; ``seats``: its ``(index, counted player id)`` in seat order."""
    ruleset = get_ruleset(match.game)
    outcome = final_outcome_of(ruleset, state)
    if outcome is None:
        return
    voided = {int(data["version"]) for _, type_, _, _, data in log if type_ == EVENT_VOIDED}
    moves = [(seat, at) for v, type_, seat, at, _ in log if type_ not in TABLE_LEVEL_TYPES and v not in voided]
    first_seat = _first_seat(match, moves)
    played_at = match.played_at or (log[0][3] if log else match.created_at)
    winners = [] if outcome.draw else sorted(outcome.winners)
    insight = _facts(ruleset, SPECTATOR.state(ruleset, state), match, log)  # stats are read by anyone
    title = str((match.stream.options or {}).get("title") or "").strip() if match.game == SCORE_SHEET else ""
    title = title[:120]
    played.append(
        PlayedRow(
            match.pk, match.game, match.is_public, match.owner_id, title, played_at, len(seats), first_seat, winners,
            outcome.draw, len(moves), _minutes(match, moves), insight,
        )
    )  # fmt: skip
    scores = outcome.scores or {}
    won = set(winners)
    for index, player_id in seats:
        results.append(
            ResultRow(
                match.pk, index, player_id, match.game, match.is_public, match.owner_id, title, played_at,
                index in won, outcome.draw, first_seat == index, scores.get(index),
            )
        )  # fmt: skip
    facts.extend(
        FactRow(match.pk, match.game, played_at, key[:64], str(value)[:120])
        for key, values in insight.items()
        for value in (values if isinstance(values, list) else [values])
        if isinstance(value, str | int | bool)
    )


def seats_canonical(match_ids: list[int]) -> dict[int, list[tuple[int, int]]]:
    """Each match's seats as ``(index, player id)`` in seat order, a merged player counted as the one it was
    merged into (``people.player_canonical``), in one query (one more per level of merges, rarely any)."""
    out: dict[int, list[tuple[int, int]]] = defaultdict(list)
    if not match_ids:
        return out
    rows = (
        Seat.objects.filter(ids_among(Seat, "match_id", match_ids))
        .order_by("match_id", "index")
        .values_list("match_id", "index", "player_id", "player__merged_into_id")
    )
    seats = list(rows)
    into = {player: merged for _, _, player, merged in seats if merged is not None}
    into.update(players_merged_into(set(into.values())))
    for match_id, index, player, _ in seats:
        out[match_id].append((index, canonical_id(player, into)))
    return out


def _first_seat(match: MatchRow, moves: list[tuple[int | None, datetime]]) -> int | None:
    if match.first_seat is not None:
        return match.first_seat
    option = (match.stream.options or {}).get("first_seat")
    if isinstance(option, int) and not isinstance(option, bool):
        return option
    return next((seat for seat, _ in moves if seat is not None), None)


def _minutes(match: MatchRow, moves: list[tuple[int | None, datetime]]) -> int | None:
    if match.duration_min:
        return match.duration_min
    if len(moves) < 2:
        return None
    return max(1, round((moves[-1][1] - moves[0][1]).total_seconds() / 60))


def _facts(
    ruleset: Any, state: dict[str, Any], match: MatchRow, log: list[tuple[int, str, int | None, datetime, Any]]
) -> dict[str, Any]:
    """The ruleset's insights of the final (spectator's) state, then those it draws from replaying the log.
    Insights are extras: a ruleset bug in them must not stop the projector (that part is left out)."""
    facts: dict[str, Any] = {}
    with contextlib.suppress(Exception):
        facts.update(ruleset.insights(state))
    events = ((version, GameEvent(type_, seat, data)) for version, type_, seat, _, data in log)
    with contextlib.suppress(Exception):
        facts.update(
            ruleset.log_insights(
                walk(
                    ruleset,
                    match.stream.options or {},
                    match.stream.seat_count,
                    events,
                    match.stream.rules_version or None,
                )
            )
        )
    return facts


def reset_play_stats() -> None:
    """Empty the read model (the next run replays the log from the start)."""
    PlayerResult.objects.all().delete()
    MatchFact.objects.all().delete()
    PlayedMatch.objects.all().delete()
    rollup_reset()


read_model_register(PLAY_STATS, apply_play_stats, reset_play_stats)
