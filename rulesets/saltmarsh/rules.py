"""The Saltmarsh campaign's rules: the phase of each entry, and one check per entry type (the common checks
come first, in ``rulesets.base``)."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, RuleViolation, State
from rulesets.saltmarsh.cards import is_item
from rulesets.saltmarsh.engine import (
    adventure_of_match,
    current_adventure,
    find_hero,
    find_item,
    gp,
    require_hero,
    sale_value,
)
from rulesets.saltmarsh.fields import (
    ADVANCEMENT_TOKEN_BOUGHT,
    ADVENTURE_COMPLETED,
    ADVENTURE_CONCLUDED,
    ADVENTURE_FAILED,
    ADVENTURE_STARTED,
    GOLD_GAINED,
    HAND_ADVENTURE_EVENTS,
    HERO_JOINED,
    HERO_RETIRED,
    IN_PROGRESS,
    ITEM_BOUGHT,
    ITEM_SOLD,
    LEVELED_UP,
    POWERS_SWAPPED,
    RULE_BRIDGE,
    RULE_BUY,
    RULE_CAMPAIGN,
    RULE_CARRY,
    RULE_LEVEL,
    RULE_SELL,
    RULE_SWAP,
    RULE_TOKENS,
    RULE_TOWN,
    RULE_TRACKER,
    RULE_TRADE,
    SHOP_REVEALED,
    TOWN_EVENTS,
    TRADE_MADE,
    TREASURE_GAINED,
    TREASURE_USED,
)
from rulesets.saltmarsh.sheet import norm


def check_phase(state: State, event: Event) -> None:
    """Town entries only between adventures (``adventure_in_progress``); hand entries about an adventure only
    during one (``no_adventure``) recorded by hand, not played as a match (``played_as_match``)."""
    current = current_adventure(state)
    if event.type in TOWN_EVENTS and current is not None:
        what = (
            "Heroes join, retire and take town actions" if event.type != ADVENTURE_STARTED else "A new adventure starts"
        )
        raise RuleViolation(
            "adventure_in_progress",
            f"{what} only between adventures; {current['adventure']} is still in progress.",
            RULE_TOWN,
        )
    if event.type in HAND_ADVENTURE_EVENTS and current is None:
        raise RuleViolation(
            "no_adventure", "No adventure is in progress; start one before recording what happens in it.", RULE_CAMPAIGN
        )
    if event.type in HAND_ADVENTURE_EVENTS and current is not None and current.get("match") is not None:
        raise RuleViolation(
            "played_as_match",
            f"{current['adventure']} is being played move by move as match #{current['match']}: record it "
            "there; its treasure, gold and result reach the campaign when the match is won or lost.",
            RULE_BRIDGE,
        )


def _in_party(state: State, name: str) -> int:
    """The hero called ``name``, who must be on the adventure in progress (``not_in_adventure``)."""
    idx = require_hero(state, name, RULE_CARRY)
    current = current_adventure(state)
    assert current is not None  # the phase check ran first
    if idx not in current["hero_ids"]:
        raise RuleViolation(
            "not_in_adventure",
            f"{name} is not taking part in {current['adventure']}, so cannot gain its treasure.",
            RULE_CARRY,
        )
    return idx


def check_hero_joined(state: State, event: Event) -> None:
    """A name, not an active hero's."""
    name = event.data["hero"]
    if not name.strip():
        raise RuleViolation("blank_name", "The hero needs a name.", RULE_TRACKER)
    if find_hero(state, name) is not None:
        raise RuleViolation(
            "duplicate_hero", f"A hero called {name} is already in the campaign; pick another name.", RULE_TRACKER
        )


def check_hero_retired(state: State, event: Event) -> None:
    """An active hero."""
    require_hero(state, event.data["hero"], RULE_TRACKER)


def check_adventure_started(state: State, event: Event) -> None:
    """At least one hero, every one active, none twice."""
    names = event.data["heroes"]
    if not names:
        raise RuleViolation("no_heroes", "An adventure needs at least one hero.", RULE_CAMPAIGN)
    seen: set[int] = set()
    for name in names:
        idx = require_hero(state, name, RULE_CAMPAIGN)
        if idx in seen:
            raise RuleViolation("duplicate_hero", f"{name} is listed twice for this adventure.", RULE_CAMPAIGN)
        seen.add(idx)


def check_treasure_gained(state: State, event: Event) -> None:
    """A hero of the party."""
    _in_party(state, event.data["hero"])


def check_treasure_used(state: State, event: Event) -> None:
    """A hero of the party, holding the card."""
    idx = _in_party(state, event.data["hero"])
    hero = state["heroes"][idx]
    if find_item(hero["items"], event.data["item"]) is None:
        raise RuleViolation("item_not_held", f"{hero['name']} does not hold {event.data['item']}.", RULE_CARRY)


def check_gold_gained(state: State, event: Event) -> None:
    """A hero of the party."""
    _in_party(state, event.data["hero"])


def check_adventure_completed(state: State, event: Event) -> None:
    """Nothing more than the phase."""


def check_adventure_failed(state: State, event: Event) -> None:
    """Nothing more than the phase."""


def check_adventure_concluded(state: State, event: Event) -> None:
    """The match plays the adventure in progress, under its name; every hero in the party; used cards held."""
    data: dict[str, Any] = event.data
    adventure = adventure_of_match(state, data["match"])
    if adventure is None:
        raise RuleViolation(
            "unknown_match", f"No adventure of this campaign is played as match #{data['match']}.", RULE_BRIDGE
        )
    if adventure["result"] != IN_PROGRESS:
        raise RuleViolation(
            "adventure_closed",
            f"{adventure['adventure']} (match #{data['match']}) is already {adventure['result']} on the "
            "campaign; this match can no longer change it.",
            RULE_BRIDGE,
        )
    if norm(data["adventure"]) != norm(adventure["adventure"]):
        raise RuleViolation(
            "other_adventure",
            f"Match #{data['match']} plays {adventure['adventure']}, not {data['adventure']}.",
            RULE_BRIDGE,
        )
    for entry in data["heroes"]:
        idx = _in_party(state, entry["hero"])
        hero = state["heroes"][idx]
        remaining = list(hero["items"])
        for name in entry["used"]:
            pos = find_item(remaining, name)
            if pos is None:
                raise RuleViolation("item_not_held", f"{hero['name']} does not hold {name} to use it up.", RULE_CARRY)
            remaining.pop(pos)


def check_powers_swapped(state: State, event: Event) -> None:
    """An active hero (the Hero card's selection requirements are the table's)."""
    require_hero(state, event.data["hero"], RULE_SWAP)


def check_item_sold(state: State, event: Event) -> None:
    """An Item the hero holds, with a value."""
    idx = require_hero(state, event.data["hero"], RULE_SELL)
    hero = state["heroes"][idx]
    pos = find_item(hero["items"], event.data["item"])
    if pos is None:
        raise RuleViolation("item_not_held", f"{hero['name']} does not hold {event.data['item']}.", RULE_SELL)
    card = hero["items"][pos]
    if not is_item(card):
        raise RuleViolation("not_an_item", f"{card['name']} is not an Item: only Item cards can be sold.", RULE_SELL)
    if sale_value(card) is None:
        raise RuleViolation(
            "no_value", f"{card['name']} has neither a sell nor a buy value, so it sells for nothing.", RULE_SELL
        )


def check_shop_revealed(state: State, event: Event) -> None:
    """Four cards."""
    if len(event.data["cards"]) != 4:
        raise RuleViolation("four_cards", "The Buy Items display is exactly four Treasure cards.", RULE_BUY)


def check_item_bought(state: State, event: Event) -> None:
    """An Item with a buy cost from the display, and the gold to pay it."""
    idx = require_hero(state, event.data["hero"], RULE_BUY)
    cards = [c for c in state["display"] if norm(c["name"]) == norm(event.data["item"])]
    if not cards:
        raise RuleViolation(
            "not_on_display",
            f"{event.data['item']} is not in the current display; only revealed cards can be bought.",
            RULE_BUY,
        )
    buyable = [c for c in cards if c["item"] and c.get("buy") is not None]
    if not buyable:
        raise RuleViolation("not_for_sale", f"{cards[0]['name']} is not an Item with a buy cost.", RULE_BUY)
    gold = state["heroes"][idx]["gold"]
    if gold < buyable[0]["buy"]:
        raise RuleViolation(
            "not_enough_gold",
            f"{state['heroes'][idx]['name']} has {gp(gold)}; {buyable[0]['name']} costs {gp(buyable[0]['buy'])}.",
            RULE_BUY,
        )


def _held(hero: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The cards called ``names`` that ``hero`` holds (counted: two Potions need two), leaving out the others."""
    remaining, cards = list(hero["items"]), []
    for name in names:
        pos = find_item(remaining, name)
        if pos is not None:
            cards.append(remaining.pop(pos))
    return cards


def _check_side(state: State, idx: int, names: list[str], gold: int, against_item: bool) -> list[dict[str, Any]]:
    """What hero ``idx`` hands over: cards it holds (``item_not_held``), Items unless an Item card comes the
    other way (``not_an_item``), gold it has (``not_enough_gold``); returns the cards."""
    hero = state["heroes"][idx]
    remaining, cards = list(hero["items"]), []
    for name in names:
        pos = find_item(remaining, name)
        if pos is None:
            raise RuleViolation("item_not_held", f"{hero['name']} does not hold {name} to give.", RULE_TRADE)
        card = remaining.pop(pos)
        if not is_item(card) and not against_item:
            raise RuleViolation(
                "not_an_item",
                f"{card['name']} is not an Item: only Item Treasure cards and gold can be given; a card that is "
                "not an Item changes hands only in exchange for an Item Treasure card.",
                RULE_TRADE,
            )
        cards.append(card)
    if gold > hero["gold"]:
        raise RuleViolation("not_enough_gold", f"{hero['name']} has only {gp(hero['gold'])} to give.", RULE_TRADE)
    return cards


def check_trade_made(state: State, event: Event) -> None:
    """Two different active heroes; something handed over; cards each side holds, gold it has. A gift is Item
    cards and/or gold; a barter (``items_back``, ``gold_back``) exchanges Item cards for other Treasure cards
    or gold: a card that is not an Item only goes against an Item card from the other side."""
    data = event.data
    giver = require_hero(state, data["from"], RULE_TRADE)
    taker = require_hero(state, data["to"], RULE_TRADE)
    if giver == taker:
        raise RuleViolation("same_hero", "A hero cannot trade with themselves.", RULE_TRADE)
    if not data["items"] and data["gold"] == 0:
        raise RuleViolation("empty_trade", "A trade must hand over at least one card or some gold.", RULE_TRADE)
    back_names = data.get("items_back", [])
    item_back = any(is_item(c) for c in _held(state["heroes"][taker], back_names))
    given = _check_side(state, giver, data["items"], data["gold"], item_back)
    _check_side(state, taker, back_names, data.get("gold_back", 0), any(is_item(c) for c in given))


def check_leveled_up(state: State, event: Event) -> None:
    """Below the highest level, with the gold to pay."""
    idx = require_hero(state, event.data["hero"], RULE_LEVEL)
    hero = state["heroes"][idx]
    top = state["options"]["max_level"]
    if hero["level"] >= top:
        raise RuleViolation("max_level", f"{hero['name']} is already level {hero['level']}, the highest.", RULE_LEVEL)
    cost = state["options"]["level_up_cost"]
    if hero["gold"] < cost:
        raise RuleViolation(
            "not_enough_gold", f"Leveling up costs {gp(cost)}; {hero['name']} has {gp(hero['gold'])}.", RULE_LEVEL
        )


def check_advancement_token_bought(state: State, event: Event) -> None:
    """A base game with Advancement Tokens, and the gold to pay."""
    if not state["options"]["advancement_tokens"]:
        raise RuleViolation(
            "no_advancement_tokens", "This campaign's base game has no Advancement Tokens.", RULE_TOKENS
        )
    idx = require_hero(state, event.data["hero"], RULE_TOKENS)
    hero = state["heroes"][idx]
    if hero["gold"] < event.data["cost"]:
        raise RuleViolation(
            "not_enough_gold",
            f"{hero['name']} has {gp(hero['gold'])}; the token costs {gp(event.data['cost'])}.",
            RULE_TOKENS,
        )


RULES = {
    HERO_JOINED: check_hero_joined,
    HERO_RETIRED: check_hero_retired,
    ADVENTURE_STARTED: check_adventure_started,
    TREASURE_GAINED: check_treasure_gained,
    TREASURE_USED: check_treasure_used,
    GOLD_GAINED: check_gold_gained,
    ADVENTURE_COMPLETED: check_adventure_completed,
    ADVENTURE_FAILED: check_adventure_failed,
    ADVENTURE_CONCLUDED: check_adventure_concluded,
    POWERS_SWAPPED: check_powers_swapped,
    ITEM_SOLD: check_item_sold,
    SHOP_REVEALED: check_shop_revealed,
    ITEM_BOUGHT: check_item_bought,
    TRADE_MADE: check_trade_made,
    LEVELED_UP: check_leveled_up,
    ADVANCEMENT_TOKEN_BOUGHT: check_advancement_token_bought,
}


def legal_moves(state: State) -> None:
    """None: entries carry free names, amounts and card values that cannot be listed."""
    return None
