""" "This is me": the owner of a player links it to their own account in one step (the invite link is for others)."""

from __future__ import annotations

from django.db import transaction

from matches.errors import InvalidInput, NotAllowed, NotFound
from matches.models import Player
from matches.selectors import UserLike


@transaction.atomic
def player_claim_own(*, user: UserLike, player_id: int) -> Player:
    """Link ``user``'s own player ``player_id`` to ``user``. Refused: not signed in, not the player's owner, a
    merged name, a player linked to someone else, or another of the owner's players already linked to them."""
    if not user.is_authenticated:
        raise NotAllowed("Sign in to say which player you are.")
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None or player.owner_id != user.pk:
        raise NotFound(f"No player {player_id} of yours.")
    if player.merged_into_id is not None:
        raise InvalidInput({"player": [f"{player.name} was merged into another player: choose that one."]})
    if player.user_id == user.pk:
        return player
    if player.user_id is not None:
        raise InvalidInput({"player": [f"{player.name} is already linked to another account."]})
    other = Player.objects.filter(owner=user, user=user).exclude(pk=player.pk).first()
    if other is not None:
        raise InvalidInput({"player": [f"You are already {other.name} in your plays."]})
    player.user = user
    player.save(update_fields=["user"])
    return player
