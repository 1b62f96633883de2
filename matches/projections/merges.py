"""Which player a merged player now counts as: read by the stats read models and by the merges themselves."""

from __future__ import annotations

from matches.models import Player


def players_merged_into(player_ids: set[int]) -> dict[int, int]:
    """``{player id: the id it was merged into}`` for these players and, transitively, for the players they
    were merged into (one query per level; merges re-point earlier ones, so one level is the rule)."""
    into: dict[int, int] = {}
    asked: set[int] = set()
    todo = set(player_ids)
    while todo:
        asked |= todo
        found = dict(Player.objects.filter(pk__in=todo, merged_into__isnull=False).values_list("pk", "merged_into_id"))
        into.update(found)
        todo = set(found.values()) - asked
    return into


def canonical_id(player_id: int, into: dict[int, int]) -> int:
    """The id ``player_id`` counts as, given ``into`` (:func:`players_merged_into`): ``player_canonical`` by ids."""
    seen = set()
    while player_id in into and player_id not in seen:
        seen.add(player_id)
        player_id = into[player_id]
    return player_id
