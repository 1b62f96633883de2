"""Series reads: lists, the series at any version, its standings, the finished matches that could join it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet

from campaigns.models import Series
from matches.errors import StreamUnreplayable
from matches.models import Match
from matches.people.players import player_canonical
from matches.selectors import UserLike, match_visible_qs
from matches.store import events as store
from matches.store.streams import stream_get, stream_list
from matches.store.visibility import viewer_for
from rulesets import get_ruleset
from rulesets.replay import final_outcome_of
from rulesets.series.standings import Result, Row, standings


def series_list(*, user: UserLike, mine: bool = False) -> QuerySet[Series]:
    """Visible series, most recently active first (``matches.store.streams.stream_list``)."""
    return stream_list(kind="series", user=user, mine=mine)


def series_get(*, user: UserLike, series_id: int) -> Series:
    """The series if ``user`` may read it, else ``NotFound``."""
    return stream_get(kind="series", user=user, pk=series_id)


def series_state(*, series: Series, user: UserLike, at: int | None = None) -> tuple[int, int, dict[str, Any]]:
    """``(version, latest_version, state)`` of the series at version ``at`` (latest when None); ``NotFound``
    past the latest."""
    head = store.head_load(series.stream_id, fresh=True)
    pos = store.position_at(series.stream_id, head.version if at is None else at, _head=head)
    return pos.version, head.version, viewer_for(user, series).state(get_ruleset(series.stream.game), pos.state)


@dataclass
class MatchLine:
    """A match of the series as the standings read it: ``results`` per seat once it is finished."""

    match: Match
    finished: bool
    results: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.match.pk,
            "title": str(self.match),
            "status": self.match.status,
            "finished": self.finished,
            "results": self.results,
        }


@dataclass
class SeriesStandings:
    """The standings of a series at ``version``; ``hidden`` counts its matches the reader may not see (left
    out of everything, so standings never leak a private match)."""

    version: int
    latest_version: int
    place_points: list[int]
    rows: list[Row]
    matches: list[MatchLine]
    hidden: int
    chart: list[dict[str, Any]]
    members: list[int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "latest_version": self.latest_version,
            "place_points": self.place_points,
            "standings": [r.to_dict() for r in self.rows],
            "matches": [m.to_dict() for m in self.matches],
            "hidden_matches": self.hidden,
        }


def series_standings(*, series: Series, user: UserLike, at: int | None = None) -> SeriesStandings:
    """Standings over the series' finished matches at series version ``at`` (membership as of that entry;
    each match's result as it stands now). A player is the same person across matches when the seat's player
    is (a name under one owner, merges followed); see docs/rules/series.md."""
    version, latest, state = series_state(series=series, user=user, at=at)
    ids = list(state["matches"])
    visible = {
        m.pk: m
        for m in match_visible_qs(user)
        .filter(pk__in=ids)
        .select_related("stream")
        .prefetch_related("seats__player__merged_into")
    }
    lines: list[MatchLine] = []
    results: list[Result] = []
    for match_id in ids:
        match = visible.get(match_id)
        if match is None:
            continue
        # the head, rebuilt when an older ruleset produced it (under the rules the match is judged under); a match
        # whose stream cannot be replayed is left out, and the standings go on without it
        try:
            head = store.head_from_row(match.stream)
        except StreamUnreplayable:
            continue
        outcome = final_outcome_of(get_ruleset(match.game), head.state)
        line = MatchLine(match=match, finished=outcome is not None)
        lines.append(line)
        if outcome is None:
            continue
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        players = [(p.pk, p.name) for p in (player_canonical(s.player) for s in seats)]
        result = Result(
            match=match.pk, players=players, winners=() if outcome.draw else tuple(outcome.winners),
            scores=outcome.scores, lower_is_better=(match.stream.options or {}).get("highest_wins") is False,
        )  # fmt: skip
        results.append(result)
        line.results = [
            {"seat": i, "player": name, "score": (outcome.scores or {}).get(i)} for i, (_, name) in enumerate(players)
        ]
    table = standings(results, state["place_points"])
    for line, placed in zip([ln for ln in lines if ln.finished], table.matches, strict=True):
        for r in line.results:
            r.update(place=placed.places[r["seat"]], points=placed.points[r["seat"]])
    return SeriesStandings(
        version=version,
        latest_version=latest,
        place_points=list(state["place_points"]),
        rows=table.rows,
        matches=lines,
        hidden=len(ids) - len(lines),
        chart=_points_over_time(results, table),
        members=ids,
    )


def _points_over_time(results: list[Result], table: Any) -> list[dict[str, Any]]:
    """Each player's running points after each counted match, in series order (for the chart)."""
    running: dict[Any, int] = {}
    names = {row.key: row.player for row in table.rows}
    series_out: dict[Any, list[int]] = {row.key: [] for row in table.rows}
    for result, placed in zip(results, table.matches, strict=True):
        for seat, (key, _) in enumerate(result.players):
            running[key] = running.get(key, 0) + placed.points[seat]
        for key in series_out:
            series_out[key].append(running.get(key, 0))
    return [{"player": names[key], "points": pts} for key, pts in series_out.items()]


def series_candidates(*, series: Series, user: UserLike, members: list[int]) -> QuerySet[Match]:
    """Finished matches of the series' game that ``user`` may see and that are not among ``members`` (the
    series' matches), newest first."""
    return (
        match_visible_qs(user)
        .filter(game=series.game, status=Match.STATUS_FINISHED)
        .exclude(pk__in=members)
        .order_by("-updated_at", "-pk")
    )
