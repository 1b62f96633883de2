"""The series' part of the demo data (``matches.demo``): a series of score-sheet evenings, registered when the
app is ready."""

from __future__ import annotations

from typing import Any

from campaigns.series.services import series_create, series_match_add
from matches.demo import demo_register
from matches.services import match_create, match_event_record


@demo_register
def _series_demo(user: Any) -> list[str]:
    """A series over four finished score-sheet evenings (a shared win among them), for the standings page."""
    series = series_create(owner=user, name="Demo: Thursday league", game="scoresheet", is_public=True)
    evenings = [(["Ana", "Bo", "Cy"], [41, 37, 29]), (["Bo", "Cy", "Di"], [52, 52, 30]),
                (["Ana", "Cy", "Di"], [33, 45, 38]), (["Ana", "Bo", "Di"], [48, 31, 31])]  # fmt: skip
    for night, (names, points) in enumerate(evenings, start=1):
        match = match_create(owner=user, is_public=True, game="scoresheet", seats=[{"name": n} for n in names],
                             title=f"League night {night}", options={"title": "Carcassonne"})  # fmt: skip
        for seat, p in enumerate(points):
            match_event_record(match=match, user=user, type="points_scored", seat=seat, data={"points": p})
        match_event_record(match=match, user=user, type="game_ended", data={})
        series_match_add(series=series, user=user, match_id=match.pk)
    return [series.name]
