"""From a ``saltmarsh-adventure`` match to the campaign: the one entry its current result implies.

Pure: the Django side (``campaigns.saltmarsh.bridge``) compares this entry with the one the campaign holds for the
match and writes the difference in the same transaction as the match's own entry.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulesets.base import Event
from rulesets.replay import RESULT_KEY
from rulesets.saltmarsh.cards import treasure_card
from rulesets.saltmarsh.fields import ADVENTURE_CONCLUDED
from rulesets.saltmarsh.sheet import norm


def _used_up(hero: dict[str, Any]) -> list[str]:
    """Names of the campaign cards the hero brought (``carried``) and no longer holds, in carried order."""
    left = Counter(norm(i["name"]) for i in hero["items"] if i.get("carried"))
    used = []
    for name in hero.get("carried", []):
        key = norm(name)
        if left[key] > 0:
            left[key] -= 1
        else:
            used.append(name)
    return used


def adventure_result(adventure_state: dict[str, Any]) -> str | None:
    """``"won"``, ``"lost"`` or None while played. A result the table recorded without move entry
    (``result_recorded``) counts too: the party won when it names winners, else it lost."""
    result = adventure_state.get("result")
    if result in ("won", "lost"):
        return str(result)
    recorded = adventure_state.get(RESULT_KEY)
    if recorded is not None:
        return "won" if recorded.get("winners") and not recorded.get("draw") else "lost"
    return None


def conclusion_from_adventure(adventure_state: dict[str, Any], match: int) -> Event | None:
    """``adventure_concluded`` for a finished adventure played as match ``match``; None while it is played.

    Per hero in seat order: the Treasure cards found in the match and still held (``found``), the cards
    brought from the campaign that were used up or lost (``used``), and the gold found. Experience never
    crosses over. The entry names the match and its adventure, so the campaign applies it to that
    adventure only.
    """
    result = adventure_result(adventure_state)
    if result is None:
        return None
    heroes = [
        {
            "hero": hero["name"],
            "found": [treasure_card(i) for i in hero["items"] if not i.get("carried")],
            "used": _used_up(hero),
            "gold": int(hero["gold"]),
        }
        for hero in adventure_state["heroes"]
    ]
    data = {
        "match": match,
        "adventure": adventure_state["adventure"],
        "result": result,
        "reward": int(adventure_state.get("campaign_reward", 0)),
        "heroes": heroes,
    }
    return Event(ADVENTURE_CONCLUDED, None, data)
