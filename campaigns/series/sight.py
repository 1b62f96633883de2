"""What a reader sees of a series' matches: a match only to those who may see it (``can_view``'s rule, as the
``visible_q`` filter); to anyone else "a private match", with no id and no game, in the log, the state and the
append's answer. Registered with ``matches.store.visibility`` at start (``campaigns.kinds``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from matches.models import Event as EventRow
from matches.models import Match
from matches.store.visibility import UserLike, Viewer, visible_q
from rulesets import Event, Ruleset
from rulesets.base import State

ENTRY_TYPES = ("match_added", "match_removed")


@dataclass(frozen=True)
class SeriesViewer(Viewer):
    """A reader of a series who may not see the matches ``hidden`` (their ids): those entries and the state's
    list show ``None`` in their place. Every other read is the wrapped viewer's."""

    hidden: frozenset[int] = field(default_factory=frozenset)

    def state(self, ruleset: Ruleset, state: State) -> State:
        shown = super().state(ruleset, state)
        if not self.hidden or "matches" not in shown:
            return shown
        return {**shown, "matches": [None if m in self.hidden else m for m in shown["matches"]]}

    def event(self, ruleset: Ruleset, event: Event, state_before: State) -> Event:
        return self._masked(super().event(ruleset, event, state_before))

    def log(self, ruleset: Ruleset, entries: Sequence[tuple[int, Event]], before: Mapping[int, State]) -> list[Event]:
        return [self._masked(event) for event in super().log(ruleset, entries, before)]

    def _masked(self, event: Event) -> Event:
        if event.type in ENTRY_TYPES and event.data.get("match") in self.hidden:
            return Event(event.type, event.seat, {**event.data, "match": None, "game": None})
        return event


def series_named_matches(stream_id: int) -> set[int]:
    """Every match id the series' entries name (added or removed, voided or not)."""
    rows = EventRow.objects.filter(stream_id=stream_id, type__in=ENTRY_TYPES).values_list("data", flat=True)
    return {d["match"] for d in rows if isinstance(d.get("match"), int) and not isinstance(d.get("match"), bool)}


def series_viewer(user: UserLike | None, series: Any, viewer: Viewer) -> Viewer:
    """``viewer`` narrowed for ``series``: the matches its entries name that ``user`` may not see are hidden."""
    named = series_named_matches(series.stream_id)
    if not named:
        return viewer
    seen = set(Match.objects.filter(visible_q(user, seated=True), pk__in=named).values_list("pk", flat=True).distinct())
    hidden = frozenset(named - seen)
    if not hidden:
        return viewer
    return SeriesViewer(everything=viewer.everything, seat=viewer.seat, hidden=hidden)
