"""Match writes: creating matches and recording, voiding and overriding through the event store."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import F

from matches.errors import InvalidInput, MatchKeyReused, NotAllowed
from matches.models import Match, MatchSummary, Player, Seat, Stream
from matches.projections import tasks as projector
from matches.store import events as store
from matches.store.streams import _as_invalid_input, ruleset_for, stream_record, stream_rules_upgrade
from rulesets import Event, Ruleset, get_ruleset
from rulesets.offline import clean_options, clean_setup
from rulesets.replay import (
    EVENT_VOIDED,
    FIRST_PLAYER_DRAWN,
    RULE_OVERRIDDEN,
    final_outcome_of,
)
from rulesets.schema import RANDOM

UserLike = AbstractBaseUser | AnonymousUser


def options_clean(ruleset: Ruleset, options: Any, seat_count: int | None = None) -> dict[str, Any]:
    """Validate options against the ruleset's schema (and ``seat_count`` when given); defaults filled in.
    Raises :class:`InvalidInput` (``rulesets.offline.clean_options``, the check a phone runs offline too)."""
    with _as_invalid_input():
        return clean_options(ruleset, options, seat_count)


def player_get_or_create(*, owner: AbstractBaseUser, name: str, user: AbstractBaseUser | None = None) -> Player:
    """The owner's player with this name (case-insensitive), created on first use."""
    name = " ".join(name.split())
    player = Player.objects.filter(owner=owner, name__iexact=name).first()
    if player is None:
        try:
            with transaction.atomic():
                player = Player.objects.create(owner=owner, name=name, user=user)
        except IntegrityError:
            player = Player.objects.get(owner=owner, name__iexact=name)
    while player.merged_into_id is not None:  # a name merged into another player counts as that player
        player = Player.objects.get(pk=player.merged_into_id)
    if user is not None and player.user_id is None:
        player.user = user
        player.save(update_fields=["user"])
    return player


KEY_MAX_LENGTH = 100


def match_create(
    *,
    owner: AbstractBaseUser,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    title: str = "",
    is_public: bool = False,
    recorders: list[AbstractBaseUser] | None = None,
    campaign: Any = None,
    played: dict[str, Any] | None = None,
    idempotency_key: str | None = None,
) -> Match:
    """Create a match (:func:`match_create_new`), once per ``idempotency_key`` and owner.

    With a key, a repeat of the same request (same game, seats, options, title, visibility and recorders) by
    the same owner returns the match the first one created, with ``repeated`` True, and writes nothing; the
    same key with a different request raises :class:`MatchKeyReused` (422). Two concurrent requests with one
    key create one match: the loser of the race (the unique constraint) returns the winner's. A key that is not
    1 to 100 characters raises :class:`InvalidInput`.
    """
    kwargs = dict(
        owner=owner, game=game, seats=seats, options=options, title=title, is_public=is_public,
        recorders=recorders, campaign=campaign, played=played,
    )  # fmt: skip
    if idempotency_key is None:
        return match_create_new(**kwargs)
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= KEY_MAX_LENGTH:
        raise InvalidInput({"idempotency_key": [f"Must be a string of 1 to {KEY_MAX_LENGTH} characters."]})
    digest = create_fingerprint(game, seats, options, title, is_public, recorders)
    earlier = _created_with(owner, idempotency_key, digest)
    if earlier is not None:
        return earlier
    try:
        return match_create_new(**kwargs, key=(idempotency_key, digest))
    except IntegrityError:  # another request with this key won the race: its match is the answer
        earlier = _created_with(owner, idempotency_key, digest)
        if earlier is None:
            raise
        return earlier


def create_fingerprint(
    game: str, seats: Any, options: Any, title: str, is_public: bool, recorders: list[AbstractBaseUser] | None
) -> str:
    """A digest of what a create asks for: equal for a retry, different for another match."""
    seat_list = seats if isinstance(seats, list) else [seats]
    people = [
        [str(s.get("name", "")), getattr(s.get("user"), "pk", None)] if isinstance(s, dict) else repr(s)
        for s in seat_list
    ]
    asked = [game, people, options or {}, title, bool(is_public), sorted(u.pk for u in recorders or [])]
    canonical = json.dumps(asked, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _created_with(owner: AbstractBaseUser, key: str, digest: str) -> Match | None:
    """The owner's match created with ``key`` (``repeated`` set), None if none; :class:`MatchKeyReused` when it
    was created by a different request."""
    match = Match.objects.filter(owner=owner, idempotency_key=key).first()
    if match is None:
        return None
    if match.request_fingerprint != digest:
        raise MatchKeyReused(key, match.pk)
    match.repeated = True
    return match


@transaction.atomic
def match_create_new(
    *,
    owner: AbstractBaseUser,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    title: str = "",
    is_public: bool = False,
    recorders: list[AbstractBaseUser] | None = None,
    campaign: Any = None,
    played: dict[str, Any] | None = None,
    key: tuple[str, str] | None = None,
) -> Match:
    """Create a match of ``game`` with one seat per entry of ``seats`` (``{"name", "user"?}``).

    Raises :class:`InvalidInput` for an unknown or non-match (campaign) game, a seat count the game does not
    allow, blank or duplicate seat names, or options that do not fit the game's schema. ``played`` carries how
    a game logged after the fact was played (``played_at``, ``duration_min``, ``location``, ``first_seat``,
    ``source_uuid``), all optional. A match is private (its owner and recorders) unless ``is_public``.

    Who starts: when the ruleset's ``start_option`` is ``"random"`` (and the game allows it), the server draws
    the seat once and records it as the match's first entry, ``first_player_drawn {seat}``; the match's
    ``first_seat`` says who was drawn. A random start in a game without one raises :class:`InvalidInput`.
    ``key``: the idempotency key and request fingerprint to keep (:func:`match_create`).
    """
    ruleset = ruleset_for(game)
    seats = seats_with_account_names(owner, seats)
    with _as_invalid_input():  # the checks a phone runs when a match is started offline (rulesets.offline)
        names, cleaned = clean_setup(ruleset, seats, options)
    accounts = _seated_accounts(owner, seats, names)
    stream = store.stream_create(kind=Stream.KIND_MATCH, game=game, options=cleaned, seat_count=len(seats))
    drawn = first_player_draw(ruleset, cleaned, stream, len(seats), owner)
    played = {**(played or {}), **({"first_seat": drawn} if drawn is not None else {})}
    if key is not None:
        played = {**played, "idempotency_key": key[0], "request_fingerprint": key[1]}
    match = Match.objects.create(
        stream=stream, game=game, title=title[:120], owner=owner, is_public=is_public, campaign=campaign, **played,
    )  # fmt: skip
    for index, (seat, name) in enumerate(zip(seats, names, strict=True)):
        player = player_get_or_create(owner=owner, name=name, user=seat.get("user"))
        Seat.objects.create(match=match, index=index, player=player)
    if recorders:
        match.recorders.set(recorders)
    seated = [u for u in accounts if u.pk != owner.pk]
    if seated:  # a seated account may record by default; the owner turns it off in the match's settings
        match.recorders.add(*seated)
    MatchSummary.objects.create(match=match, status=Match.STATUS_IN_PROGRESS, last_activity=match.created_at)
    return match


def seats_with_account_names(owner: AbstractBaseUser, seats: Any) -> Any:
    """``seats`` with a name for each seat that names an account (``user``) and no name: the name the owner
    already gives that account (their player linked to it), else the account's username. Other seats (and
    anything that is not a list of seats, which ``clean_setup`` refuses) are returned as they are."""
    if not isinstance(seats, list):
        return seats
    out = []
    for seat in seats:
        user = seat.get("user") if isinstance(seat, dict) else None
        if user is not None and not " ".join(str(seat.get("name") or "").split()):
            known = (
                Player.objects.filter(owner=owner, user=user, merged_into__isnull=True)
                .order_by("created_at")
                .values_list("name", flat=True)
                .first()
            )
            seat = {**seat, "name": known or user.get_username()}
        out.append(seat)
    return out


def _seated_accounts(owner: AbstractBaseUser, seats: list[dict[str, Any]], names: list[str]) -> list[Any]:
    """The accounts ``seats`` seat, once each: the account a seat names (``user``), and the account a typed
    name is already linked to (the owner's player of that name, after merges: typing "Cleo" seats Cleo's
    account openly, as picking it would; docs/ARCHITECTURE.md › Friends at one table). :class:`InvalidInput`
    when one account would sit at two seats, or a seat's name is a player of the owner already linked to
    another account than the one it names (the seat would not be that account's)."""
    errors: dict[str, list[str]] = {}
    accounts: list[Any] = []
    for i, (seat, name) in enumerate(zip(seats, names, strict=True)):
        player = Player.objects.filter(owner=owner, name__iexact=name).select_related("merged_into").first()
        while player is not None and player.merged_into_id is not None:
            player = Player.objects.get(pk=player.merged_into_id)
        user = seat.get("user")
        if user is None and player is not None and player.user_id is not None:
            user = player.user  # the name is the owner's name for an account: that account sits here
        if user is None:
            continue
        if any(u.pk == user.pk for u in accounts):
            field = "user" if seat.get("user") is not None else "name"
            errors[f"seats[{i}].{field}"] = [f"{user.get_username()} already sits at another seat."]
            continue
        accounts.append(user)
        if player is not None and player.user_id not in (None, user.pk):
            errors[f"seats[{i}].name"] = [
                f"{name} is already linked to another account: leave the name blank to seat "
                f"{user.get_username()} under the name you use for them, or type another name."
            ]
    if errors:
        raise InvalidInput(errors)
    return accounts


def first_player_draw(
    ruleset: Ruleset, options: dict[str, Any], stream: Stream, seat_count: int, owner: AbstractBaseUser
) -> int | None:
    """If ``options`` ask for a random start, draw the seat (``secrets``: an unpredictable, uniform draw) and
    append it to the new ``stream`` as its first entry; returns the seat drawn, else None."""
    if not ruleset.start_option or options.get(ruleset.start_option) != RANDOM:
        return None
    seat = secrets.randbelow(seat_count)
    store.append(
        stream_id=stream.pk, event=Event(FIRST_PLAYER_DRAWN, None, {"seat": seat}), expected_version=0,
        meta=store.Metadata(recorded_by_id=owner.pk),
    )  # fmt: skip
    transaction.on_commit(projector.wake_projector)
    return seat


def match_event_record(
    *,
    match: Match,
    user: UserLike,
    type: str,
    seat: int | None = None,
    data: Any = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    client_time: datetime | None = None,
    request_id: str = "",
    rebase: bool = False,
    own_keys: tuple[str, ...] = (),
) -> store.AppendResult:
    """Record one event on a match after checking the user may record there (``rebase``: a stale
    ``expected_version`` is rebased when the store's rule allows it, ``store.append``).

    Raises :class:`NotAllowed`, :class:`InvalidInput`, ``RuleBroken`` or ``VersionConflict``; on any of
    them nothing is written; a refusal's ``detail`` names the seats by the match's names. The shared stream layer does it (``matches.store.streams.stream_record``): the match
    kind keeps ``Match.status`` in step with the outcome, and an adventure match carries its result into its
    campaign in the same transaction (hooks registered by ``matches.kinds`` and ``campaigns.kinds``).
    """
    return stream_record(
        obj=match, user=user, type=type, seat=seat, data=data, expected_version=expected_version,
        idempotency_key=idempotency_key, client_time=client_time, request_id=request_id, rebase=rebase,
        own_keys=own_keys,
    )  # fmt: skip


def match_status_sync(match: Match, state: dict[str, Any]) -> bool:
    """Set ``Match.status`` from the outcome of ``state`` when it changed (rare: a win, or its undo).

    Returns True when the match has just finished.
    """
    outcome = final_outcome_of(get_ruleset(match.game), state)
    status = Match.STATUS_FINISHED if outcome is not None else Match.STATUS_IN_PROGRESS
    if status == match.status:
        return False
    Match.objects.filter(pk=match.pk).update(status=status)
    match.status = status
    return status == Match.STATUS_FINISHED


def match_rules_upgrade(
    *, match: Match, user: UserLike, expected_version: int | None = None, idempotency_key: str | None = None,
    request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Replay ``match`` under the current rules of its game, at its owner's request: records ``rules_upgraded``
    (``streams.stream_rules_upgrade``; what it would change: ``matches.checks.rules_difference``)."""
    return stream_rules_upgrade(
        obj=match, user=user, expected_version=expected_version, idempotency_key=idempotency_key,
        request_id=request_id,
    )  # fmt: skip


def match_statuses_sync() -> int:
    """Set ``Match.status`` to its summary's wherever they differ (the summary is the replayed outcome, under
    the rules each match is judged under): run after ``rebuild_projections``. A summary behind its stream (one
    the projector passed over: it cannot be replayed) moves nothing. Returns how many changed."""
    changed = 0
    for status in (Match.STATUS_FINISHED, Match.STATUS_IN_PROGRESS):
        current = Match.objects.filter(summary__status=status, summary__version=F("stream__version"))
        changed += Match.objects.filter(pk__in=current.exclude(status=status).values("pk")).update(status=status)
    return changed


def match_event_void(
    *, match: Match, user: UserLike, version: int, reason: str, expected_version: int | None = None,
    idempotency_key: str | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Record ``event_voided``: entry ``version`` stops counting; the log keeps both."""
    return match_event_record(
        match=match, user=user, type=EVENT_VOIDED, data={"version": version, "reason": reason},
        expected_version=expected_version, idempotency_key=idempotency_key, request_id=request_id,
    )  # fmt: skip


def match_rule_override(
    *, match: Match, user: UserLike, reason: str, expected_version: int | None = None,
    idempotency_key: str | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """Record ``rule_overridden``: the next move is let through without the rules check."""
    return match_event_record(
        match=match, user=user, type=RULE_OVERRIDDEN, data={"reason": reason},
        expected_version=expected_version, idempotency_key=idempotency_key, request_id=request_id,
    )  # fmt: skip


@transaction.atomic
def match_house_rule_record(
    *, match: Match, user: UserLike, reason: str, type: str, seat: int | None = None, data: Any = None,
    expected_version: int | None = None, idempotency_key: str | None = None, request_id: str = "",
) -> store.AppendResult:  # fmt: skip
    """A move the rules refuse, recorded on purpose in one step: ``rule_overridden {reason}`` then the move,
    both or neither. Returns the move's result; raises like :func:`match_event_record`."""
    match_rule_override(
        match=match, user=user, reason=reason, expected_version=expected_version,
        idempotency_key=f"{idempotency_key}-house-rule" if idempotency_key else None, request_id=request_id,
    )  # fmt: skip
    return match_event_record(
        match=match, user=user, type=type, seat=seat, data=data,
        expected_version=None if expected_version is None else expected_version + 1,
        idempotency_key=idempotency_key, request_id=request_id,
    )  # fmt: skip


@transaction.atomic
def match_rematch(*, match: Match, user: UserLike) -> Match:
    """A new match of the same game with the same seats (same players), options, title, visibility and
    recorders; only the owner starts one, and not from an adventure (its campaign starts those)."""
    if user.pk != match.owner_id:
        raise NotAllowed("Only the match's owner can start a rematch.")
    if match.campaign_id is not None:
        raise InvalidInput({"match": ["An adventure is started again from its campaign, not as a rematch."]})
    seated = match.seats.select_related("player__user").order_by("index")
    return match_create(
        owner=user, game=match.game, seats=[{"name": s.player.name, "user": s.player.user} for s in seated],
        options=dict(match.stream.options), title=match.title, is_public=match.is_public,
        recorders=list(match.recorders.all()),
    )  # fmt: skip


def match_rename(*, match: Match, user: UserLike, title: str) -> None:
    """The owner changes the match's title (blank: the game's name is shown)."""
    if user.pk != match.owner_id:
        raise NotAllowed("Only the match's owner can rename it.")
    title = " ".join(title.split())
    if len(title) > 120:
        raise InvalidInput({"title": ["At most 120 characters."]})
    Match.objects.filter(pk=match.pk).update(title=title)
    match.title = title


def match_recorders_set(*, match: Match, user: UserLike, recorders: list[AbstractBaseUser]) -> None:
    """Only the owner names who else may record."""
    if user.pk != match.owner_id:
        raise NotAllowed("Only the match's owner can choose its recorders.")
    match.recorders.set(recorders)


# -- waking the projector -------------------------------------------------------------------------------
