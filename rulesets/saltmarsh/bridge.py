"""Turning a finished ``saltmarsh-adventure`` match into the campaign entries that record its result."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event


def events_from_adventure(adventure_state: dict[str, Any]) -> list[Event]:
    """The campaign events a finished adventure adds, in order, all with seat None.

    For each hero in seat order: one ``treasure_gained`` per Treasure card still held at the end, then one
    ``gold_gained`` with the hero's total gold found (when above zero); finally ``adventure_completed``
    ``{"reward": campaign_reward}`` on a win or ``adventure_failed {}`` on a loss. Experience is not carried
    over, so nothing about it is emitted. Raises ``ValueError`` while the adventure is still being played.
    The campaign must have an adventure in progress naming these heroes for the entries to be accepted.
    """
    result = adventure_state.get("result")
    if result not in ("won", "lost"):
        raise ValueError("The adventure is not finished yet: record adventure_won or adventure_lost first.")
    events: list[Event] = []
    for hero in adventure_state["heroes"]:
        for item in hero["items"]:
            card = {"name": item["name"], "buy": item.get("buy"), "sell": item.get("sell")}
            events.append(Event("treasure_gained", None, {"hero": hero["name"], "item": card}))
        if hero["gold"] > 0:
            events.append(Event("gold_gained", None, {"hero": hero["name"], "amount": hero["gold"]}))
    if result == "won":
        events.append(Event("adventure_completed", None, {"reward": int(adventure_state.get("campaign_reward", 0))}))
    else:
        events.append(Event("adventure_failed", None, {}))
    return events
