"""Friends at one table: the accounts an owner can seat in two taps, and join links (a QR code at the table).

- :func:`seat_accounts`: who the new-match form offers for each seat: the owner ("me") and the accounts linked
  to players of the matches the owner shared with them (owned, or sat at).
- A **join link** (:class:`~matches.models.JoinLink`) is shown by the owner; a friend who opens it takes one
  free seat of that one match with their own account, and may record on the match (the owner can turn that
  off: "Who may record"). A seat is free while no account holds it and it is not the owner's (its name is the
  owner's username). Joining never links the joiner to the owner's player in other matches: a seat whose
  player sits nowhere else is linked as it is; otherwise the seat is given a player of its own for this
  match ("Dana (bo)"), and saying "this is the same Dana as in …" is the owner's separate, explicit act (a
  merge of that player into Dana, ``matches.people.players.players_merge``).
  Refused, with nothing written: an unknown token (404), a link turned off, a finished match, a full match, a
  seat taken meanwhile (409 ``join_refused``). A repeat by an account that already holds a seat answers that
  seat again and writes nothing (a replayed request has no side effects). A link that is off tells only that.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import DomainError, InvalidInput, NotAllowed, NotFound
from matches.models import JoinLink, Match, Player, PlayerResult, Seat
from matches.people.players import player_canonical
from matches.projections.rollups import rollup_refresh
from matches.selectors import UserLike
from matches.store.visibility import held_seat

TOKEN_BYTES = 24  # 192 random bits, 32 URL-safe characters
TOKEN_MAX = 64
TOKEN_SHAPE = re.compile(rf"[A-Za-z0-9_-]{{1,{TOKEN_MAX}}}")  # what ``secrets.token_urlsafe`` writes


class JoinRefused(DomainError):
    """A join link that cannot seat anyone now (off, finished, full) or a seat taken meanwhile."""

    status_code = 409
    code = "join_refused"


# -- who the new-match form offers --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatAccount:
    """An account the owner can seat: its ``user_id``, ``username`` and the ``name`` the owner gives it."""

    user_id: int
    username: str
    name: str
    me: bool = False

    @property
    def label(self) -> str:
        """ "Me (ana)", "Bo (bo)", or "bo" where the name is the username."""
        shown = "Me" if self.me else self.name
        return shown if shown == self.username else f"{shown} ({self.username})"


def seat_accounts(owner: UserLike) -> list[SeatAccount]:
    """The owner first, then every account linked to a player of a match the owner owns or sits at, by name.

    Each is named as the owner's own player linked to it is named, else by its username."""
    if not owner.is_authenticated:
        return []
    mine = Q(owner=owner) | Q(seats__player__user=owner) | Q(seats__player__merged_into__user=owner)
    shared = Match.objects.filter(mine).values("pk")
    User = get_user_model()
    users = (
        User.objects.filter(Q(as_players__seats__match__in=shared) | Q(as_players__merged__seats__match__in=shared))
        .exclude(pk=owner.pk)
        .distinct()
    )
    named = dict(
        Player.objects.filter(owner=owner, merged_into__isnull=True, user__isnull=False)
        .order_by("-created_at")
        .values_list("user_id", "name")
    )  # the oldest name wins (later rows overwrite earlier ones in the dict: newest first)
    me = SeatAccount(owner.pk, owner.get_username(), named.get(owner.pk, owner.get_username()), me=True)
    others = [SeatAccount(u.pk, u.get_username(), named.get(u.pk, u.get_username())) for u in users]
    return [me, *sorted(others, key=lambda a: (a.name.lower(), a.username.lower()))]


# -- join links ----------------------------------------------------------------------------------------------


def _owner_only(match: Match, user: UserLike) -> None:
    if not user.is_authenticated or user.pk != match.owner_id:
        raise NotAllowed("Only the match's owner can show or turn off its join link.")


def join_link_current(match: Match) -> JoinLink | None:
    """The match's join link that is on, if any."""
    return JoinLink.objects.filter(match=match, revoked_at__isnull=True).first()


def join_link_on(*, match: Match, user: UserLike, new: bool = False) -> JoinLink:
    """The match's join link that is on, made now if there is none (``new``: the old one is turned off and a
    new one made). Only the owner; refused for a finished match. Asking twice returns the same link."""
    _owner_only(match, user)
    if match.status == Match.STATUS_FINISHED:
        raise JoinRefused("This match is finished: there is no seat to take.")
    with transaction.atomic():
        if new:
            join_link_off(match=match, user=user)
        link = join_link_current(match)
        if link is not None:
            return link
        try:
            with transaction.atomic():
                return JoinLink.objects.create(
                    match=match, token=secrets.token_urlsafe(TOKEN_BYTES), created_by_id=user.pk
                )
        except IntegrityError:  # another request made it first: that one is the match's link
            link = join_link_current(match)
            if link is None:
                raise
            return link


def join_link_off(*, match: Match, user: UserLike) -> bool:
    """Turn the match's join link off (only the owner); True if one was on. Its token then seats nobody."""
    _owner_only(match, user)
    return bool(JoinLink.objects.filter(match=match, revoked_at__isnull=True).update(revoked_at=timezone.now()))


def join_link_get(token: Any) -> JoinLink:
    """The join link of ``token`` (on or off), else :class:`NotFound`."""
    link = None
    if isinstance(token, str) and TOKEN_SHAPE.fullmatch(token):  # no query for text no token can be (a NUL...)
        link = JoinLink.objects.select_related("match", "match__owner").filter(token=token).first()
    if link is None:
        raise NotFound("This join link is not valid: check it, or ask the match's owner for a new one.")
    return link


@dataclass(frozen=True)
class JoinSeat:
    """One seat as the join page shows it: ``index``, the player's ``name``, whether it is ``free``, whether it
    is the ``owners`` (never offered)."""

    index: int
    name: str
    free: bool
    owners: bool = False


def owners_seat(match: Match, player: Player) -> bool:
    """Whether a seat with ``player`` (after merges) is the match owner's: linked to the owner's account, or
    named as the owner's account is (the owner typed their own name instead of choosing "Me")."""
    if player.user_id is not None:
        return player.user_id == match.owner_id
    return player.name.casefold() == match.owner.get_username().casefold()


def join_seats(match: Match) -> list[JoinSeat]:
    """The match's seats in order; a seat is free while its player (after merges) is linked to no account and
    it is not the owner's (:func:`owners_seat`)."""
    seats = match.seats.select_related("player", "player__merged_into").order_by("index")
    out = []
    for seat in seats:
        player = player_canonical(seat.player)
        owners = owners_seat(match, player)
        out.append(JoinSeat(seat.index, seat.player.name, player.user_id is None and not owners, owners))
    return out


def seats_held(match_id: int) -> int:
    """How many seats of the match an account holds (directly or through the player its player was merged into),
    in one count: what the owner's page polls to follow a friend taking a seat."""
    held = Q(player__user__isnull=False) | Q(player__merged_into__user__isnull=False)
    return Seat.objects.filter(held, match_id=match_id).count()


def join_refusal(link: JoinLink, seats: list[JoinSeat] | None = None) -> str:
    """Why ``link`` seats nobody now ("" when it can): turned off, the match finished, every seat taken."""
    if link.revoked_at is not None:
        return "The owner turned this join link off: ask them for a new one."
    if link.match.status == Match.STATUS_FINISHED:
        return "This match is finished: there is no seat to take."
    if not any(s.free for s in (seats if seats is not None else join_seats(link.match))):
        return "Every seat of this match is taken."
    return ""


@dataclass(frozen=True)
class Joined:
    """The answer to a join: the ``match``, the ``seat`` held and its ``name``; ``already``: held before."""

    match: Match
    seat: int
    name: str
    already: bool


@transaction.atomic
def join_take(*, user: UserLike, token: Any, seat: Any) -> Joined:
    """Seat ``user`` at seat ``seat`` of the match of ``token``'s join link: the seat's player is linked to
    the account and the account may record on the match (unless it owns it).

    An account that already holds a seat of the match gets that seat back and nothing is written, whatever
    ``seat`` says (a repeat, a second tap). Refused with nothing written: signed out (:class:`NotAllowed`), an
    unknown token (:class:`NotFound`), a seat that is not one of the match's (:class:`InvalidInput`), a link
    off, a finished or full match, or a seat whose player is linked to another account (:class:`JoinRefused`).
    """
    if not user.is_authenticated:
        raise NotAllowed("Sign in to take a seat.")
    link = join_link_get(token)
    match = Match.objects.select_for_update().get(pk=link.match_id)  # one join at a time per match
    link.match = match
    names = {s.index: s.name for s in join_seats(match)}
    held = held_seat(user, match)
    if held is not None:
        return Joined(match, held, names.get(held, ""), already=True)
    refusal = join_refusal(link)
    if refusal:
        raise JoinRefused(refusal)
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in names:
        raise InvalidInput({"seat": [f"Choose a seat from 1 to {len(names)}."]})
    row = match.seats.select_related("player", "player__merged_into").get(index=seat)
    player = Player.objects.select_for_update().get(pk=player_canonical(row.player).pk)
    if player.user_id is not None:
        raise JoinRefused(f"{row.player.name}'s seat was taken by another account: choose a free seat.")
    if owners_seat(match, player):
        raise JoinRefused(f"{row.player.name}'s seat is the owner's: choose a free seat.")
    if _sits_elsewhere(player, match):
        _seat_own_player(row, user)
    else:  # a player of this match alone: linking it hands over nothing else
        player.user_id = user.pk
        player.save(update_fields=["user"])
    if user.pk != match.owner_id:
        match.recorders.add(user)
    return Joined(match, seat, names[seat], already=False)


def _sits_elsewhere(player: Player, match: Match) -> bool:
    """Whether ``player`` (or a name merged into it) has a seat or a result in another match."""
    mine = Q(player=player) | Q(player__merged_into=player)
    return (
        Seat.objects.filter(mine).exclude(match=match).exists()
        or PlayerResult.objects.filter(mine).exclude(match=match).exists()
    )


def _seat_own_player(row: Seat, user: UserLike) -> None:
    """Give seat ``row`` a new player of the owner's for this match only, linked to ``user`` ("Dana (bo)"; the
    seat's name there shows who took it); the match's read-model rows of that seat follow it."""
    base = f"{row.player.name} ({user.get_username()})"[:72]
    name, n = base, 1
    while Player.objects.filter(owner_id=row.match.owner_id, name__iexact=name).exists():
        n += 1
        name = f"{base} {n}"
    own = Player.objects.create(owner_id=row.match.owner_id, name=name, user_id=user.pk)
    old = row.player_id

    def repoint() -> None:
        Seat.objects.filter(pk=row.pk).update(player=own)
        PlayerResult.objects.filter(match_id=row.match_id, seat=row.index, player_id=old).update(player=own)

    rollup_refresh([row.match_id], repoint)
