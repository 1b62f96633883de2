"""Who a user is at a stream, what they may do there, and the one filter every read passes through.

This module is the one home of that rule; selectors, services, views and the admin ask it and it asks none
of them (it imports only the store, lazily, to fold a log).

A stream (a match, campaign or series) has an owner, the recorders the owner named, and, for a match, seats
whose players may be linked to accounts. For a signed-in user at a stream:

- **may read** (:func:`can_view`): a public stream, anyone; a private one, its owner, named recorders and, for a
  match, the accounts holding a seat (whether or not they may record: a seat is never locked out);
- **may record** (:func:`can_record`): the owner and the named recorders (an account seated at creation or by a
  join link is named when seated, ``matches.people.joins``; the owner may remove it); an entry that sets or
  depends on a seat's secrets only from whoever may see them (:func:`writer_sight`: the holder of a seat an
  account holds; the recorders for the table's seats), every other entry judged from the writer's sight;
- **sees**, in a game with hidden information (:func:`viewer_for`):

  - a **seat holder** (their account is linked to a seat's player, or to the player a seat's duplicate was
    merged into) sees that seat's view, even when they may also record, and even as the owner (the lowest
    seat when linked to several); if they may record, their phone is also the table's phone for the seats no
    account holds, and shows one of those while that seat reveals it on their device (:func:`reveal`);
  - a **seatless recorder** (the owner or a named recorder holding no seat: the phone passed round the
    table) sees what a spectator sees, except one *table* seat's secrets (a seat no account holds) while that
    seat reveals them on that device (:func:`reveal`, kept in the device's session, hidden again by the next
    entry recorded on the stream), or the one table seat an API read names with ``?seat=`` (the API's
    reveal, for that read only); a seat an account holds is that account's alone;
  - **everyone else** (spectators) sees what a spectator at the table sees.

  Games without hidden information show every reader the whole state (:data:`TABLE`).

Superusers have no privilege of sight at the table; the admin shows them the stored rows as stored. What a
seat may see is the ruleset's decision (``view``, ``redact_event``, ``visible_moves``); the :class:`Viewer`
this module returns applies it. Every read path (state, log, legal moves, pages, the append's answer,
exports, admin) goes through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q

from rulesets import Event, Ruleset, get_ruleset
from rulesets.base import State
from rulesets.offline import legal_of

UserLike = AbstractBaseUser | AnonymousUser

# -- what a reader may do ------------------------------------------------------------------------------


def _signed_in(user: UserLike | None) -> bool:
    return user is not None and user.is_authenticated


def can_record(user: UserLike | None, obj: Any) -> bool:
    """The owner of a match, campaign or series and the recorders they named may append to it."""
    if not _signed_in(user):
        return False
    return user.pk == obj.owner_id or obj.recorders.filter(pk=user.pk).exists()


def can_view(user: UserLike | None, obj: Any) -> bool:
    """Public streams are readable by all; private ones by the owner, the recorders and the seat holders."""
    return obj.is_public or can_record(user, obj) or held_seat(user, obj) is not None


def visible_q(user: UserLike | None, *, seated: bool = False) -> Q:
    """The :func:`can_view` rule as a filter on a match, campaign or series queryset (add ``.distinct()``:
    the recorders and seats joins may repeat a row). ``seated``: the queryset is of matches (their seat
    holders read them too; campaigns and series have no seats)."""
    if _signed_in(user):
        return Q(is_public=True) | Q(owner=user) | private_sight_q(user, seated=seated)
    return Q(is_public=True)


def private_sight_q(user: UserLike, *, seated: bool = True) -> Q:
    """Who reads a private stream besides its owner, as a filter: its named recorders and (``seated``, for
    matches) the accounts holding one of its seats, directly or through a merged player."""
    q = Q(recorders=user)
    if seated:
        q |= Q(seats__player__user=user) | Q(seats__player__merged_into__user=user)
    return q


def recording_q(user: UserLike) -> Q:
    """The :func:`can_record` rule as a filter ("mine" lists: the streams a user owns or records)."""
    return Q(owner=user) | Q(recorders=user)


def held_seat(user: UserLike | None, obj: Any) -> int | None:
    """The seat ``user`` holds at ``obj`` (the lowest when several), or None: no seats, or none linked to them.

    A seat's player is linked to a user directly, or through the player it was merged into."""
    seats = getattr(obj, "seats", None)
    if not _signed_in(user) or seats is None:
        return None
    mine = Q(player__user=user) | Q(player__merged_into__user=user)
    return seats.filter(mine).order_by("index").values_list("index", flat=True).first()


def _holders(obj: Any) -> dict[int, int]:
    """Seat index → the id of the account holding it (directly, or through the player its player was merged
    into), for the seats an account holds; the other seats are the table's."""
    seats = getattr(obj, "seats", None)
    if seats is None:
        return {}
    rows = seats.values_list("index", "player__user_id", "player__merged_into__user_id")
    return {index: direct or merged for index, direct, merged in rows if (direct or merged)}


def table_seats(obj: Any) -> frozenset[int]:
    """The seats of ``obj`` that no account holds (a friend without a phone, the phone passed round): the
    recorders see and record their secrets (docs/ARCHITECTURE.md › Hidden information)."""
    seats = getattr(obj, "seats", None)
    if seats is None:
        return frozenset()
    return frozenset(range(obj.stream.seat_count)) - set(_holders(obj))


def writer_sight(user: UserLike | None, obj: Any, *, records: bool | None = None) -> frozenset[int] | None:
    """The seats whose hidden information ``user`` may see and record at ``obj``: the seats their account holds,
    and, when they may record there, the seats no account holds (the table's). None for a game that hides
    nothing (every writer judges on the whole table). The one rule of sight for writes; reads follow it too
    (:func:`viewer_for` shows a seatless recorder only a table seat's secrets). ``records``: :func:`can_record`'s
    answer when the caller has just asked it (not asked again)."""
    if not get_ruleset(_game(obj)).hides_information:
        return None
    holders = _holders(obj)
    mine = {index for index, holder in holders.items() if _signed_in(user) and holder == user.pk}
    if can_record(user, obj) if records is None else records:
        mine |= set(range(obj.stream.seat_count)) - set(holders)
    return frozenset(mine)


@dataclass(frozen=True)
class Reader:
    """Who a user is at a stream: ``owner``, may ``record`` (owner or a named recorder), the ``seat`` they
    hold (None: none). ``role`` is what decides what they see: ``"seat holder"``, ``"recorder"`` (holding no
    seat: the owner too), ``"spectator"``."""

    owner: bool
    record: bool
    seat: int | None

    @property
    def role(self) -> str:
        if self.seat is not None:
            return "seat holder"
        return "recorder" if self.record else "spectator"

    @property
    def may_reveal(self) -> bool:
        """Only a recorder's device shows a seat's secrets on request (:func:`reveal`), and only a seat that no
        account holds (:func:`table_seats`): a recorder holding a seat shows a table seat's on their own phone,
        passed to that friend (the recorders see the table's seats: :func:`writer_sight`)."""
        return self.record


def reader_at(user: UserLike | None, obj: Any) -> Reader:
    """Who ``user`` is at ``obj`` (a match, campaign or series)."""
    if not _signed_in(user):
        return Reader(owner=False, record=False, seat=None)
    return Reader(owner=user.pk == obj.owner_id, record=can_record(user, obj), seat=held_seat(user, obj))


# -- what a reader sees ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    """What a reader sees: ``everything`` (the whole table: games without hidden information, the server's
    own reads) or the view of ``seat`` (None: a spectator's)."""

    everything: bool
    seat: int | None = None

    def state(self, ruleset: Ruleset, state: State) -> State:
        """``state`` as this viewer may see it."""
        return state if self.everything else ruleset.view(state, self.seat)

    def moves(self, ruleset: Ruleset, state: State) -> list[Event] | None:
        """The legal moves in the full ``state`` as this viewer may know them (None where the game cannot list
        them; [] after a recorded result). A move may come with a hidden value blanked (None), as the log would
        show it (the one rule, pure: ``rulesets.offline.legal_of``, also run by the offline page)."""
        return legal_of(ruleset, state, self.everything, self.seat)

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


TABLE = Viewer(everything=True)
SPECTATOR = Viewer(everything=False)


def _game(obj: Any) -> str:
    stream = getattr(obj, "stream", None)
    return stream.game if stream is not None else obj.game


def viewer_for(
    user: UserLike | None, obj: Any, *, seat: int | None = None, session: Mapping[str, Any] | None = None
) -> Viewer:
    """What ``user`` sees at ``obj`` (a match, campaign or series): the one rule (module docstring).

    ``seat``: the seat an API read asks for, honoured for a seatless recorder only. ``session``: the reading
    device's session, where :func:`reveal` keeps the seat a seatless recorder's device shows. A game without
    hidden information costs no query.
    """
    narrow = _NARROWERS.get(_game(obj))
    if narrow is not None:  # a stream whose entries name other streams (a series' matches)
        return narrow(user, obj, _viewer_for(user, obj, seat, session))
    return _viewer_for(user, obj, seat, session)


def _viewer_for(user: UserLike | None, obj: Any, seat: int | None, session: Mapping[str, Any] | None) -> Viewer:
    if not get_ruleset(_game(obj)).hides_information:
        return TABLE
    own = held_seat(user, obj)
    asked = revealed_seat(session, obj) if own is not None or seat is None else seat  # ?seat=: seatless only
    if asked is not None and asked in table_seats(obj) and can_record(user, obj):
        return Viewer(everything=False, seat=asked)
    return SPECTATOR if own is None else Viewer(everything=False, seat=own)


# A stream whose entries name other streams (a series names matches) shows a reader only the ones the reader
# may see (:func:`can_view`, :func:`visible_q`): the app that owns the kind registers, at start, the function
# that narrows the :class:`Viewer` of such a stream's game accordingly (``campaigns.series.sight``).
Narrower = Callable[[UserLike | None, Any, Viewer], Viewer]
_NARROWERS: dict[str, Narrower] = {}


def viewer_narrow_register(game: str, narrow: Narrower) -> None:
    """Have :func:`viewer_for` pass its answer for streams of ``game`` through ``narrow``."""
    _NARROWERS[game] = narrow


# -- revealing one seat's secrets on a shared device -----------------------------------------------------

REVEAL_KEY = "chronicle_revealed"
REVEALS_KEPT = 20  # a session remembers at most this many streams' reveals (the newest)


def revealed_seat(session: Mapping[str, Any] | None, obj: Any) -> int | None:
    """The seat whose secrets this device shows at ``obj``, or None. A reveal holds only while the stream is
    at the version it was made at: the next entry recorded on the stream (from any device) hides it again."""
    if not session:
        return None
    kept = session.get(REVEAL_KEY, {}).get(str(obj.stream_id))
    if not isinstance(kept, list) or len(kept) != 2:
        return None
    seat, version = kept
    return seat if version == obj.stream.version else None


def reveal(session: MutableMapping[str, Any], obj: Any, seat: int) -> None:
    """Show ``seat``'s secrets at ``obj`` on the device of ``session`` until the next entry on its stream.
    The caller checks that the reader may reveal (:attr:`Reader.may_reveal`) and that ``seat`` exists."""
    kept = {k: v for k, v in session.get(REVEAL_KEY, {}).items() if k != str(obj.stream_id)}
    kept[str(obj.stream_id)] = [seat, obj.stream.version]
    session[REVEAL_KEY] = dict(list(kept.items())[-REVEALS_KEPT:])


def reveal_end(session: MutableMapping[str, Any], obj: Any) -> None:
    """Hide the secrets the device of ``session`` shows at ``obj`` (if any)."""
    kept = session.get(REVEAL_KEY, {})
    if str(obj.stream_id) in kept:
        session[REVEAL_KEY] = {k: v for k, v in kept.items() if k != str(obj.stream_id)}


# -- raw rows (the admin) -----------------------------------------------------------------------------


def stream_owner(stream: Any) -> Any:
    """The match, campaign or series a stream row belongs to (what permissions are decided on), or None."""
    for name in ("match", "campaign", "series"):
        owner = getattr(stream, name, None)  # a missing reverse one-to-one raises an AttributeError subclass
        if owner is not None:
            return owner
    return None


def viewer_for_stream(user: UserLike | None, stream: Any) -> Viewer:
    """:func:`viewer_for` the owner of a raw stream row (staff read streams and events in the admin); a row of
    no match, campaign or series is read as a spectator would."""
    owner = stream_owner(stream)
    if owner is None:
        return TABLE if not get_ruleset(stream.game).hides_information else SPECTATOR
    return viewer_for(user, owner)


def row_as_seen(viewer: Viewer, row: Any) -> Event:
    """A stored event row as ``viewer`` may read it (folds the stream up to it only when the game hides anything)."""
    from matches.store import events as store

    ruleset = get_ruleset(row.stream.game)
    event = Event(row.type, row.seat, row.data)
    if viewer.everything or not ruleset.hides_information:
        return event
    return viewer.event(ruleset, event, store.position_at(row.stream_id, row.version - 1).state)
