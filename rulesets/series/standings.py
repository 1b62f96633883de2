"""Series standings from match results: places, points, wins and scores (pure; see docs/rules/series.md).

Places use standard competition ranking ("1224"): a match's winners share place 1; the other seats are ranked
among themselves after the winners, by score where the game has scores (a higher score is better, or a lower
one in a game won by the lowest score, tied
scores share the better place; seats without a score come after those with one), else they share the place
after the winners. A match without winners (a draw) ranks every seat by score from place 1 (all share place 1
without scores). Place p earns ``place_points[p - 1]`` (0 past the end of the list). A shared win is a win
for each winner. Rows are sorted by points, then total score (both highest first), then name.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

DEFAULT_PLACE_POINTS: tuple[int, ...] = (3, 2, 1)

Score = int | float


@dataclass(frozen=True)
class Result:
    """One finished match: who sat at each seat (``players[seat] = (key, name)``), winners and scores."""

    match: int
    players: Sequence[tuple[Hashable, str]]
    winners: Sequence[int] = ()
    scores: dict[int, Score] | None = None
    lower_is_better: bool = False  # a game won by the lowest score (a score sheet with highest_wins false)


@dataclass
class Row:
    """One player's line of the standings."""

    key: Hashable
    player: str
    played: int = 0
    wins: int = 0
    points: int = 0
    total_score: Score = 0
    best_score: Score | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "played": self.played,
            "wins": self.wins,
            "points": self.points,
            "total_score": self.total_score,
            "best_score": self.best_score,
        }


@dataclass(frozen=True)
class Placed:
    """A match's places and points per seat."""

    match: int
    places: dict[int, int]
    points: dict[int, int]


@dataclass
class Standings:
    """The table (sorted) and each counted match's places, in the order the results were given."""

    rows: list[Row] = field(default_factory=list)
    matches: list[Placed] = field(default_factory=list)


def places(result: Result) -> dict[int, int]:
    """Seat → place (1 = best) under standard competition ranking; see the module docstring."""
    seats = range(len(result.players))
    winners = [s for s in seats if s in set(result.winners)]
    scores = result.scores or {}
    out = dict.fromkeys(winners, 1)
    others = [s for s in seats if s not in out]
    start = len(winners) + 1
    scored = [s for s in others if scores.get(s) is not None]
    for s in scored:
        better = (lambda t: scores[t] < scores[s]) if result.lower_is_better else (lambda t: scores[t] > scores[s])  # noqa: B023
        out[s] = start + sum(1 for t in scored if better(t))
    unscored = [s for s in others if s not in out]
    for s in unscored:
        out[s] = start + len(scored)
    return out


def points_for(place: int, place_points: Sequence[int]) -> int:
    """What finishing in ``place`` earns (0 past the end of ``place_points``)."""
    return place_points[place - 1] if 1 <= place <= len(place_points) else 0


def standings(results: Sequence[Result], place_points: Sequence[int] = DEFAULT_PLACE_POINTS) -> Standings:
    """The standings over ``results`` (finished matches only; the caller leaves the others out)."""
    rows: dict[Hashable, Row] = {}
    placed = []
    for result in results:
        match_places = places(result)
        match_points = {s: points_for(p, place_points) for s, p in match_places.items()}
        placed.append(Placed(result.match, match_places, match_points))
        scores = result.scores or {}
        for seat, (key, name) in enumerate(result.players):
            row = rows.setdefault(key, Row(key=key, player=name))
            row.played += 1
            row.wins += seat in result.winners
            row.points += match_points[seat]
            score = scores.get(seat)
            if score is not None:
                row.total_score += score
                pick = min if result.lower_is_better else max
                row.best_score = score if row.best_score is None else pick(row.best_score, score)
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.total_score, r.player.casefold()))
    return Standings(rows=ordered, matches=placed)
