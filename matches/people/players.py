"""Players are people: linking a table's player to a user account (invite, claim) and merging duplicates.

A merge is recorded once (:class:`~matches.models.PlayerMerge`) and points the duplicate at the kept player;
match logs and seats are never rewritten. The stats read model follows the pointer (re-pointed here, in the
same transaction, and by the projector from then on).
"""

from __future__ import annotations

from django.core import signing
from django.db import transaction

from matches.errors import InvalidInput, NotAllowed, NotFound
from matches.models import Player, PlayerMerge, PlayerResult
from matches.projections.rollups import rollup_refresh
from matches.selectors import UserLike

CLAIM_SALT = "chronicle.player-claim"
CLAIM_MAX_AGE = 30 * 24 * 3600  # an invitation link works for 30 days


def player_canonical(player: Player) -> Player:
    """The player a (possibly merged) player now counts as."""
    seen = set()
    while player.merged_into_id is not None and player.pk not in seen:
        seen.add(player.pk)
        player = player.merged_into  # type: ignore[assignment]
    return player


def player_owned(*, user: UserLike, player_id: int) -> Player:
    """One of ``user``'s players, else :class:`NotFound`."""
    player = Player.objects.filter(pk=player_id).select_related("merged_into").first()
    if player is None or not user.is_authenticated or player.owner_id != user.pk:
        raise NotFound(f"No player {player_id} of yours.")
    return player


def player_invite_token(*, user: UserLike, player: Player) -> str:
    """A signed token the owner sends to the person, who claims the player with it (see ``player_claim``)."""
    if not user.is_authenticated or player.owner_id != user.pk:
        raise NotAllowed("Only the player's owner can invite someone to claim it.")
    if player.merged_into_id is not None:
        raise InvalidInput(
            {"player": [f"{player.name} was merged into {player_canonical(player).name}; invite that player."]}
        )
    return signing.dumps({"p": player.pk}, salt=CLAIM_SALT)


@transaction.atomic
def player_claim(*, user: UserLike, token: str) -> Player:
    """Link the invited player to ``user``'s account. Refused: a bad or expired link, a player already claimed."""
    if not user.is_authenticated:
        raise NotAllowed("Sign in to claim a player.")
    try:
        data = signing.loads(str(token), salt=CLAIM_SALT, max_age=CLAIM_MAX_AGE)
    except signing.SignatureExpired:
        raise InvalidInput({"token": ["This invitation has expired; ask for a new link."]}) from None
    except signing.BadSignature:
        raise InvalidInput({"token": ["This invitation link is not valid."]}) from None
    player = Player.objects.select_for_update().filter(pk=data.get("p")).first()
    if player is None:
        raise InvalidInput({"token": ["The invited player no longer exists."]})
    player = player_canonical(player)
    if player.user_id not in (None, user.pk):
        raise InvalidInput({"token": [f"{player.name} is already linked to another account."]})
    if player.user_id is None:
        player.user = user
        player.save(update_fields=["user"])
    return player


@transaction.atomic
def players_merge(*, user: UserLike, source: Player, target: Player, reason: str = "") -> PlayerMerge:
    """Record that ``source`` is ``target`` (both the user's); stats follow at once. Refused: not yours, the
    same player, a player already merged, or two different linked accounts."""
    if not user.is_authenticated or source.owner_id != user.pk or target.owner_id != user.pk:
        raise NotAllowed("You can only merge your own players.")
    target = player_canonical(target)
    if source.pk == target.pk:
        raise InvalidInput({"into": ["A player cannot be merged into itself."]})
    if source.merged_into_id is not None:
        raise InvalidInput({"player": [f"{source.name} is already merged into {player_canonical(source).name}."]})
    if source.user_id and target.user_id and source.user_id != target.user_id:
        raise InvalidInput({"into": ["These players are linked to two different accounts: they are two people."]})
    merge = PlayerMerge.objects.create(
        owner_id=user.pk, source=source, target=target, reason=reason[:200], recorded_by_id=user.pk
    )
    Player.objects.filter(pk=source.pk).update(merged_into=target)
    Player.objects.filter(merged_into=source).update(merged_into=target)  # earlier merges follow along
    if source.user_id and not target.user_id:
        Player.objects.filter(pk=target.pk).update(user_id=source.user_id)
    sat = list(PlayerResult.objects.filter(player=source).values_list("match_id", flat=True).distinct())
    rollup_refresh(sat, lambda: PlayerResult.objects.filter(player=source).update(player=target))
    return merge
