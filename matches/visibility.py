"""Hidden information: who is reading a stream, and the one place every read is filtered for them.

Recorders (a stream's owner and the recorders they named) and superusers see everything; a user seated at a
match (their account linked to a seat's player) sees what that seat sees; everyone else sees what a
spectator at the table sees. The ruleset decides what a seat may see (``view``, ``redact_event``,
``visible_moves``); :func:`viewer_for` decides who is looking, and the returned :class:`Viewer` applies the
ruleset's decision. Every read path (state, log, legal moves, pages, exports, admin) goes through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesets import Event, Ruleset, get_ruleset
from rulesets.base import State


@dataclass(frozen=True)
class Viewer:
    """Who is looking: ``everything`` (recorders) or the view of ``seat`` (None: a spectator)."""

    everything: bool
    seat: int | None = None

    def state(self, ruleset: Ruleset, state: State) -> State:
        """``state`` as this viewer may see it."""
        return state if self.everything else ruleset.view(state, self.seat)

    def moves(self, ruleset: Ruleset, state: State) -> list[Event] | None:
        """The legal moves in ``state`` as this viewer may know them (None where the game cannot list them)."""
        return ruleset.legal_moves(state) if self.everything else ruleset.visible_moves(state, self.seat)

    def event(self, ruleset: Ruleset, event: Event, state_before: State) -> Event:
        """One recorded entry as this viewer may read it; ``state_before`` is the full state it was applied to."""
        return event if self.everything else ruleset.redact_event(event, state_before, self.seat)

    def log(self, ruleset: Ruleset, entries: Sequence[tuple[int, Event]], before: Mapping[int, State]) -> list[Event]:
        """A log (``(version, event)`` pairs, corrections included) as this viewer reads it; ``before`` maps each
        version to the full state it was recorded on (``rulesets.replay.states_before``), needed only when
        the game hides anything from this viewer."""
        if self.everything or not ruleset.hides_information:
            return [event for _, event in entries]
        return [self.event(ruleset, event, before[version]) for version, event in entries]


RECORDER = Viewer(everything=True)
SPECTATOR = Viewer(everything=False)


def viewer_for(user: Any, obj: Any, *, seat: int | None = None) -> Viewer:
    """Who ``user`` is at ``obj`` (a match, campaign or series): the one rule deciding what a reader sees.

    Superusers, the owner and named recorders see everything, or one seat's view when they ask for ``seat``;
    a user linked to a seat's player sees that seat's view (the lowest seat when linked to several); anyone
    else is a spectator. ``seat`` is ignored for everyone but recorders.
    """
    from django.db.models import Q

    from matches.selectors import can_record

    if user is not None and user.is_authenticated and (user.is_superuser or can_record(user, obj)):
        return RECORDER if seat is None else Viewer(everything=False, seat=seat)
    seats = getattr(obj, "seats", None)
    if user is not None and user.is_authenticated and seats is not None:
        mine = Q(player__user=user) | Q(player__merged_into__user=user)  # a merged duplicate counts as its player
        own = seats.filter(mine).order_by("index").values_list("index", flat=True).first()
        if own is not None:
            return Viewer(everything=False, seat=own)
    return SPECTATOR


def stream_owner(stream: Any) -> Any:
    """The match, campaign or series a stream row belongs to (what permissions are decided on), or None."""
    for name in ("match", "campaign", "series"):
        owner = getattr(stream, name, None)  # a missing reverse one-to-one raises an AttributeError subclass
        if owner is not None:
            return owner
    return None


def viewer_for_stream(user: Any, stream: Any) -> Viewer:
    """:func:`viewer_for` the owner of a raw stream row (the admin reads streams and events directly)."""
    owner = stream_owner(stream)
    if owner is None:
        return RECORDER if user is not None and user.is_authenticated and user.is_superuser else SPECTATOR
    return viewer_for(user, owner)


def row_as_seen(viewer: Viewer, row: Any) -> Event:
    """A stored event row as ``viewer`` may read it (folds the stream up to it only when the game hides anything)."""
    from matches import store

    ruleset = get_ruleset(row.stream.game)
    event = Event(row.type, row.seat, row.data)
    if viewer.everything or not ruleset.hides_information:
        return event
    return viewer.event(ruleset, event, store.position_at(row.stream_id, row.version - 1).state)
