"""What every kind of stream shares (a match, a campaign, a series): one small adapter per kind, and the
plumbing built once on it: finding a stream the reader may see, who may record, recording an entry (with
hooks other apps hang their consequences on), the history as the reader may see it, undo.

A kind registers a :class:`StreamKind` (``matches.kinds``, ``campaigns.kinds``); an app that reacts to
entries of another kind registers an :func:`after_record` or :func:`around_record` hook instead of being
imported by it (the Saltmarsh campaign follows its adventure matches that way: ``campaigns.kinds``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from matches.errors import DomainError, InvalidInput, NotAllowed, NotFound, RuleBroken, VersionConflict
from matches.models import MAX_VERSION
from matches.models import Event as EventRow
from matches.store import events as store
from matches.store import live
from matches.store.visibility import (
    UserLike,
    can_record,
    can_view,
    recording_q,
    visible_q,
    writer_sight,
)
from rulesets import Event, Ruleset, UnknownGame, get_ruleset
from rulesets.offline import EntryInvalid, clean_entry
from rulesets.replay import EVENT_VOIDED
from rulesets.versions import RULES_UPGRADED


def _no_seats(obj: Any) -> list[str]:
    return []


Cleaner = Callable[[Any, UserLike, str, Any], Any]


@dataclass(frozen=True)
class StreamKind:
    """A kind of stream: its ``Stream.kind`` ``name``, the ``noun`` messages use, the aggregate ``model``
    (with ``stream``, ``owner``, ``recorders``, ``is_public``), its seat names (refusals name the players),
    an optional ``clean_entry(obj, user, type, data) -> data`` that checks what only the database knows
    before an append (raising a domain error) and may complete the payload, ``touch``: bump the object's
    ``updated_at`` on each new entry (lists sort by it), the words refusing a reader who may not record, and
    ``get_for_write(user, pk)``: a leaner :func:`stream_get` for the append endpoint (same visibility rule)."""

    name: str
    noun: str
    model: type[Model]
    seat_names: Callable[[Any], list[str]] = _no_seats
    clean_entry: Cleaner | None = None
    touch: bool = True
    not_allowed: str = ""
    get_for_write: Callable[[UserLike, int], Any] | None = None


Append = Callable[[], store.AppendResult]
AfterHook = Callable[[Any, UserLike, store.AppendResult], None]
AroundHook = Callable[[Any, UserLike, Append, str], store.AppendResult]

_KINDS: dict[str, StreamKind] = {}
_AFTER_RECORD: dict[str, list[AfterHook]] = {}
_AROUND_RECORD: dict[str, list[AroundHook]] = {}


def kind_register(kind: StreamKind) -> StreamKind:
    """Make ``kind`` known (called once per kind when its app is ready)."""
    _KINDS[kind.name] = kind
    return kind


def kind_get(name: str) -> StreamKind:
    """The registered kind called ``name``."""
    return _KINDS[name]


def kind_of(obj: Any) -> StreamKind:
    """The kind of a match, campaign or series object."""
    return next(k for k in _KINDS.values() if isinstance(obj, k.model))


def after_record(kind: str) -> Callable[[AfterHook], AfterHook]:
    """Decorator: call ``hook(obj, user, result)`` right after each entry appended on a stream of ``kind``.

    Never for a repeated idempotency key: a replay has no side effects (its ``result.state`` is the replayed
    version's, not the head's; re-running a consequence with it would undo later ones, e.g. un-finish a match).
    """

    def register(hook: AfterHook) -> AfterHook:
        _AFTER_RECORD.setdefault(kind, []).append(hook)
        return hook

    return register


def around_record(kind: str) -> Callable[[AroundHook], AroundHook]:
    """Decorator: ``hook(obj, user, append, request_id)`` runs instead of the append of each entry on a stream
    of ``kind`` and calls ``append()`` itself (and the ``after_record`` hooks with it), e.g. inside a
    transaction that also writes another stream. Returns the append's result."""

    def register(hook: AroundHook) -> AroundHook:
        _AROUND_RECORD.setdefault(kind, []).append(hook)
        return hook

    return register


# -- reads ------------------------------------------------------------------------------------------------


def stream_visible_qs(kind: str, user: UserLike) -> QuerySet[Any]:
    """Every object of ``kind`` that ``user`` may read: public ones, and their own or those they record."""
    model = kind_get(kind).model
    qs = model.objects.select_related("stream", "owner").filter(visible_q(user, seated=hasattr(model, "seats")))
    return qs.distinct() if user and user.is_authenticated else qs


def stream_list(*, kind: str, user: UserLike, mine: bool = False) -> QuerySet[Any]:
    """The objects of ``kind`` that ``user`` may read, most recently active first; ``mine``: only those they own
    or record."""
    qs = stream_visible_qs(kind, user)
    if mine and user.is_authenticated:
        qs = qs.filter(recording_q(user)).distinct()
    return qs.order_by("-updated_at", "-pk")


def stream_get(*, kind: str, user: UserLike, pk: int, without_state: bool = False) -> Any:
    """The object of ``kind`` with id ``pk`` if ``user`` may read it, else :class:`NotFound` (existence of a
    private one does not leak). ``without_state``: the stream's head state is not read (history pages: a long
    campaign's state is large, and a page of its log does not need it)."""
    spec = kind_get(kind)
    qs = spec.model.objects.select_related("stream", "owner")
    obj = (qs.defer("stream__state") if without_state else qs).filter(pk=pk).first()
    if obj is None or not can_view(user, obj):
        raise NotFound(f"No {spec.noun} {pk}.")
    return obj


def stream_get_for_write(*, kind: str, user: UserLike, pk: int) -> Any:
    """:func:`stream_get` for an append: the kind's leaner lookup when it has one (the match's hot path)."""
    spec = kind_get(kind)
    if spec.get_for_write is not None:
        return spec.get_for_write(user, pk)
    return stream_get(kind=kind, user=user, pk=pk)


# -- writes -----------------------------------------------------------------------------------------------


def stream_record(
    *, obj: Any, user: UserLike, type: str, seat: int | None = None, data: Any = None,
    expected_version: int | None = None, idempotency_key: str | None = None,
    client_time: datetime | None = None, request_id: str = "", rebase: bool = False,
    own_keys: tuple[str, ...] = (), photo: bool = False,
) -> store.AppendResult:  # fmt: skip
    """Record one entry on any kind of stream: the owner and named recorders only; the kind's database
    checks; the append (a refusal names the players); the kind's ``after_record`` hooks (not for a replayed
    idempotency key); all of it inside the kind's ``around_record`` hooks. ``rebase``: a stale
    ``expected_version`` is rebased by the store's one rule (``store.rebase_refusal``) instead of refused;
    ``own_keys``: the client's own earlier entries, not judged against this one (``store.append``); ``photo``:
    the caller is ``matches.photos`` (a photo entry names stored files, so no other path may write one).

    Raises :class:`NotAllowed`, ``InvalidInput``, ``RuleBroken`` or ``VersionConflict``; then nothing is written.
    """
    spec = kind_of(obj)
    if not can_record(user, obj):
        raise NotAllowed(spec.not_allowed or f"Only the {spec.noun}'s owner and the recorders they named may record.")
    if spec.clean_entry is not None:
        data = spec.clean_entry(obj, user, type, data)

    def write() -> store.AppendResult:
        return stream_event_record(
            stream_id=obj.stream_id, game=obj.stream.game, seat_count=obj.stream.seat_count, type=type,
            seat=seat, data=data, user_id=user.pk, expected_version=expected_version,
            idempotency_key=idempotency_key, client_time=client_time, request_id=request_id, rebase=rebase,
            own_keys=own_keys, photo=photo, sight=writer_sight(user, obj, records=True),
        )  # fmt: skip

    try:
        return _through_hooks(spec, obj, user, request_id, write)
    except RuleBroken as refused:
        if refused.house_rule is None or refused.withdrawn:
            raise
        try:
            _house_rule_withdraw(obj, user, refused.house_rule, request_id)
        except DomainError:  # not withdrawn (someone recorded first): the refusal as it was
            raise refused from None
        raise refused.spent() from None


def _house_rule_withdraw(obj: Any, user: UserLike, version: int, request_id: str) -> None:
    """A house rule that could not place its move is spent: void it (``event_voided``, reason
    ``store.HOUSE_RULE_SPENT``) after the refused entry's transaction, so the log says what happened and the next
    entry is checked by the rules again (docs/ARCHITECTURE.md › Corrections). Raises what the void's own
    append raises (a domain error); then nothing is withdrawn."""
    data = {"version": version, "reason": store.HOUSE_RULE_SPENT}
    stream_record(obj=obj, user=user, type=EVENT_VOIDED, data=data, request_id=request_id)


def _through_hooks(
    spec: Any, obj: Any, user: UserLike, request_id: str, write: Append, *, atomic: bool = False
) -> store.AppendResult:
    """``write`` (one append) as every entry of a kind is recorded: refusals in the players' names, the kind's
    ``after_record`` hooks (not for a replayed idempotency key), all inside its ``around_record`` hooks (in one
    transaction when ``atomic``), then the object's ``updated_at``."""

    def append() -> store.AppendResult:
        try:
            result = write()
        except RuleBroken as refused:  # rulesets speak of seats; the table hears names
            raise refused.named(spec.seat_names(obj)) from None
        except VersionConflict as conflict:  # the store speaks of matches; say what moved on
            raise conflict.of(spec.noun).named(spec.seat_names(obj)) from None
        if result.repeated:  # a replay has no side effects: consequences follow the head (``after_record``)
            return result
        for hook in _AFTER_RECORD.get(spec.name, []):
            hook(obj, user, result)
        return result

    run: Append = append
    for hook in _AROUND_RECORD.get(spec.name, []):
        run = functools.partial(hook, obj, user, run, request_id)
    if atomic:
        with transaction.atomic():
            result = run()
    else:
        result = run()
    if spec.touch and not result.repeated:
        spec.model.objects.filter(pk=obj.pk).update(updated_at=timezone.now())
    return result


def stream_rules_upgrade(
    *, obj: Any, user: UserLike, expected_version: int | None = None, idempotency_key: str | None = None,
    request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Move ``obj``'s stream to the current rules of its game at its owner's request: record ``rules_upgraded
    {from, to}``, after which the whole stream replays under the current rules (``store.append`` refuses it,
    writing nothing, when an entry would not hold under them; docs/ARCHITECTURE.md › Rule versions). The
    kind's ``around_record`` and ``after_record`` hooks run as for any entry (``Match.status`` follows).

    Raises :class:`NotAllowed` (not the owner), ``InvalidInput``, ``RuleBroken`` or ``VersionConflict``; then
    nothing is written.
    """
    spec = kind_of(obj)
    if user is None or getattr(obj, "owner_id", None) != getattr(user, "pk", None):
        raise NotAllowed(f"Only the {spec.noun}'s owner may replay it under the current rules.")
    if expected_version is not None and (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or not 0 <= expected_version <= MAX_VERSION
    ):
        raise InvalidInput({"expected_version": [f"Must be a whole number from 0 to {MAX_VERSION}."]})
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100):
        raise InvalidInput({"idempotency_key": ["Must be a string of 1 to 100 characters."]})
    head = store.head_load(obj.stream_id, fresh=True)
    ruleset = get_ruleset(head.game)
    event = Event(RULES_UPGRADED, None, {"from": head.rules_version or ruleset.version, "to": ruleset.version})
    if idempotency_key is not None:  # a repeat asks for what the first request asked for, whatever the head is now
        prior = EventRow.objects.filter(stream_id=obj.stream_id, idempotency_key=idempotency_key)
        first = prior.values_list("type", "data").first()
        if first is not None and first[0] == RULES_UPGRADED:
            event = Event(RULES_UPGRADED, None, first[1])

    def write() -> store.AppendResult:
        result = store.append(
            stream_id=obj.stream_id, event=event, expected_version=expected_version,
            idempotency_key=idempotency_key, meta=store.Metadata(recorded_by_id=user.pk, request_id=request_id),
        )  # fmt: skip
        if not result.repeated:
            _after_commit(obj.stream_id)
        return result

    return _through_hooks(spec, obj, user, request_id, write, atomic=True)


def stream_undo(*, obj: Any, user: UserLike, version: int | None, reason: str, **guards: Any) -> store.AppendResult:
    """Record ``event_voided``: entry ``version`` stops counting; the log keeps both."""
    return stream_record(obj=obj, user=user, type=EVENT_VOIDED, data={"version": version, "reason": reason}, **guards)


# -- cleaning and appending one entry (every kind) -------------------------------------------------


def ruleset_for(game: str) -> Ruleset:
    """The ruleset for a game slug, or :class:`InvalidInput` naming the known games."""
    try:
        return get_ruleset(game)
    except UnknownGame:
        from rulesets import all_rulesets

        known = ", ".join(r.slug for r in all_rulesets())
        raise InvalidInput({"game": [f"Unknown game '{game}'. Known games: {known}."]}) from None


@contextmanager
def _as_invalid_input() -> Iterator[None]:
    """The pure checks' refusal (``rulesets.offline.EntryInvalid``, what a phone says offline) raised as the
    service's :class:`InvalidInput`, with the same errors, sentence and rule."""
    try:
        yield
    except EntryInvalid as exc:
        raise InvalidInput(exc.errors, detail=exc.detail, rule=exc.rule) from None


def event_clean(ruleset: Ruleset, seat_count: int, type_: Any, seat: Any, data: Any, *, photo: bool = False) -> Event:
    """Check an event's envelope and payload against the ruleset's ``event_types``
    (``rulesets.offline.clean_entry``, the check the match page also runs offline).

    Raises :class:`InvalidInput` for an unknown type, a missing/extra/out-of-range seat, or a payload
    that does not fit the type's fields.
    """
    with _as_invalid_input():
        return clean_entry(ruleset, seat_count, type_, seat, data, photo=photo)


def stream_event_record(
    *,
    stream_id: int,
    game: str,
    seat_count: int,
    type: str,
    seat: int | None,
    data: Any,
    user_id: int | None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    client_time: datetime | None = None,
    request_id: str = "",
    rebase: bool = False,
    own_keys: tuple[str, ...] = (),
    photo: bool = False,
    sight: frozenset[int] | None = None,
) -> store.AppendResult:
    """Clean and append one event to any stream (``rebase``: see ``store.append``); wakes the projector after
    commit. A photo entry only with ``photo`` (``matches.photos`` writes them: they name stored files)."""
    ruleset = get_ruleset(game)
    event = event_clean(ruleset, seat_count, type, seat, data, photo=photo)
    if idempotency_key is not None and (not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 100):
        raise InvalidInput({"idempotency_key": ["Must be a string of 1 to 100 characters."]})
    if expected_version is not None and (
        not isinstance(expected_version, int)
        or isinstance(expected_version, bool)
        or not 0 <= expected_version <= MAX_VERSION
    ):
        raise InvalidInput({"expected_version": [f"Must be a whole number from 0 to {MAX_VERSION}."]})
    own_keys = tuple(own_keys or ())
    if len(own_keys) > store.MAX_OWN_KEYS or not all(isinstance(k, str) and 1 <= len(k) <= 100 for k in own_keys):
        raise InvalidInput({"own_keys": [f"At most {store.MAX_OWN_KEYS} strings of 1 to 100 characters."]})
    if own_keys and not rebase:
        raise InvalidInput({"own_keys": ["Only with rebase: true."]})
    result = store.append(
        stream_id=stream_id,
        event=event,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        meta=store.Metadata(recorded_by_id=user_id, client_time=client_time, request_id=request_id),
        rebase=bool(rebase),
        own_keys=own_keys,
        sight=sight,
    )
    if not result.repeated:
        _after_commit(stream_id)
    return result


_AFTER_COMMIT: list[Callable[[], None]] = []


def _after_commit(stream_id: int) -> None:
    """After the commit of a new entry on ``stream_id``: the registered hooks (the projector's wake-up) and the
    live table's wake-up of the pages watching it (``matches.store.live``)."""
    for hook in _AFTER_COMMIT:
        transaction.on_commit(hook)
    transaction.on_commit(lambda: live.stream_moved(stream_id))


def after_commit_register(hook: Callable[[], None]) -> None:
    """Run ``hook`` after the commit of every new entry on any stream (not after a replayed idempotency key).
    The projector's wake-up registers itself here at start (``matches.projections.tasks``): the store never
    imports what follows it."""
    if hook not in _AFTER_COMMIT:
        _AFTER_COMMIT.append(hook)
