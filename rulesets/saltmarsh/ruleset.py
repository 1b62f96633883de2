"""The Ghosts of Saltmarsh campaign stream: heroes, gold, items, levels, town actions and adventures."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rulesets.base import (
    Event,
    EventType,
    Outcome,
    Ruleset,
    RuleViolation,
    State,
    TurnInfo,
    unknown_event,
)
from rulesets.saltmarsh.bridge import conclusion_from_adventure
from rulesets.saltmarsh.cards import CARD_FIELDS, card_field, is_item, treasure_card
from rulesets.saltmarsh.sheet import gold_ledger, norm, sheet
from rulesets.schema import Field

BOOK = "Ghosts of Saltmarsh"
R_CAMPAIGN = f"{BOOK} › Playing the Campaign"
R_AFTERMATH = f"{R_CAMPAIGN} › Aftermath"
R_MISSED = f"{R_CAMPAIGN} › Missed Campaign Adventures"
R_CARRY = f"{R_CAMPAIGN} › Treasure carries over"
R_TOWN = f"{BOOK} › Town Actions"
R_SWAP = f"{R_TOWN} › 1. Swap Powers"
R_SELL = f"{R_TOWN} › 2. Sell Items"
R_BUY = f"{R_TOWN} › 3. Buy Items"
R_TRADE = f"{R_TOWN} › 4. Trade Treasure Cards and/or GP"
R_LEVEL = f"{R_TOWN} › 5. Level Up"
R_TOKENS = f"{R_TOWN} › Advancement Tokens"
R_TRACKER = f"{BOOK} › Campaign Tracker"
R_STREAM = "Chronicle › Campaign stream"
R_BRIDGE = "Chronicle › Adventures played as matches"

TOWN = "town"
ADVENTURE = "adventure"
IN_PROGRESS = "in progress"
COMPLETED = "completed"
FAILED = "failed"

LEDGER_CAUSES = (
    "adventure",
    "missed_adventure",
    "sale",
    "purchase",
    "trade",
    "level_up",
    "treasure",
    "advancement_token",
)

# Events recorded only between adventures (town actions and the roster), and only during one.
TOWN_EVENTS = frozenset(
    {
        "hero_joined",
        "hero_retired",
        "adventure_started",
        "powers_swapped",
        "item_sold",
        "shop_revealed",
        "item_bought",
        "trade_made",
        "leveled_up",
        "advancement_token_bought",
    }
)
ADVENTURE_EVENTS = frozenset(
    {
        "treasure_gained",
        "treasure_used",
        "gold_gained",
        "adventure_completed",
        "adventure_failed",
        "adventure_concluded",
    }
)
# What happens in an adventure played as a match is recorded in the match; these hand entries are refused then.
HAND_ADVENTURE_EVENTS = ADVENTURE_EVENTS - {"adventure_concluded"}
# Written only by the adventure match itself (campaigns.bridge), never typed at the campaign.
BRIDGE_EVENTS = frozenset({"adventure_concluded"})
BRIDGE_FIELDS = frozenset({"match"})  # data fields only the bridge may fill (``adventure_started.match``)

NAME = 60  # longest hero / item / adventure name


_SHOP_CARD = Field(
    "card",
    "object",
    fields=(
        Field("name", "str", max_length=NAME, label="Card name"),
        Field("item", "bool", label="Is an Item"),
        Field("buy", "int", required=False, nullable=True, minimum=0, label="Buy value (gp)"),
        Field("sell", "int", required=False, nullable=True, minimum=0, label="Sell value (gp)"),
    ),
)

_CONCLUDED_HERO = Field(
    "hero",
    "object",
    fields=(
        Field("hero", "str", max_length=NAME),
        Field("found", "list", item=Field("card", "object", fields=CARD_FIELDS), max_items=100),
        Field("used", "list", item=Field("item", "str", max_length=NAME), max_items=100),
        Field("gold", "int", minimum=0),
    ),
)

_HERO = Field("hero", "str", max_length=NAME, label="Hero")


def _et(name: str, label: str, *fields: Field, description: str = "") -> EventType:
    return EventType(name=name, label=label, fields=fields, seat_required=False, description=description)


EVENT_TYPES: dict[str, EventType] = {
    e.name: e
    for e in (
        _et(
            "hero_joined",
            "Hero joined",
            _HERO,
            Field("class", "str", max_length=NAME, label="Class"),
            description="A new hero joins at level 1 with no gold and no items.",
        ),
        _et("hero_retired", "Hero retired", _HERO, description="The hero leaves the campaign and can no longer act."),
        _et(
            "adventure_started",
            "Adventure started",
            Field("adventure", "str", max_length=NAME, label="Adventure"),
            Field("heroes", "list", item=Field("hero", "str", max_length=NAME), min_items=1, max_items=5),
            Field(
                "match",
                "int",
                required=False,
                nullable=True,
                minimum=1,
                label="Adventure match",
                help="Set by Chronicle when the adventure is played move by move as a match.",
            ),
            description="The named heroes set out; no town action until the adventure is completed or failed.",
        ),
        _et("treasure_gained", "Treasure gained", _HERO, card_field(), description="A Treasure card found."),
        _et(
            "treasure_used",
            "Treasure used up",
            _HERO,
            Field("item", "str", max_length=NAME, label="Card"),
            description="A Treasure card the hero held is spent or lost during the adventure.",
        ),
        _et(
            "gold_gained",
            "Gold gained",
            _HERO,
            Field("amount", "int", minimum=1, label="Gold pieces"),
            description="A gold-piece Treasure card found during the adventure.",
        ),
        _et(
            "adventure_completed",
            "Adventure completed",
            Field("reward", "int", minimum=0, label="Aftermath gold per hero"),
            description="The Aftermath gold goes to each hero who took part; every other hero gets the "
            "missed-adventure gold.",
        ),
        _et(
            "adventure_failed", "Adventure failed", description="Treasure and gold are kept; no missed-adventure gold."
        ),
        _et(
            "adventure_concluded",
            "Adventure concluded (from its match)",
            Field("match", "int", minimum=1, label="Adventure match"),
            Field("adventure", "str", max_length=NAME, label="Adventure"),
            Field("result", "choice", choices=("won", "lost"), choice_labels=("Won", "Lost"), label="Result"),
            Field("reward", "int", minimum=0, label="Aftermath gold per hero"),
            Field("heroes", "list", item=_CONCLUDED_HERO, max_items=5),
            description="Written by the adventure match when it is won or lost: each hero's cards found and "
            "used up, gold found, and the result.",
        ),
        _et(
            "powers_swapped",
            "Powers swapped",
            _HERO,
            Field("powers", "list", item=Field("power", "str", max_length=NAME), max_items=20),
            description="The hero's selected powers after the swap.",
        ),
        _et(
            "item_sold",
            "Item sold",
            _HERO,
            Field("item", "str", max_length=NAME, label="Item"),
            description="Gains the sell value, or half the buy value when the card has none.",
        ),
        _et(
            "shop_revealed",
            "Shop revealed",
            Field(
                "cards",
                "list",
                item=_SHOP_CARD,
                min_items=4,
                max_items=4,
                label="The four cards",
                rule=R_BUY,
                rule_text="the Buy Items display is four cards (“Reveal four cards from the Treasure deck”)",
            ),
            description="Four Treasure cards revealed for the Buy Items display (replaces any earlier display).",
        ),
        _et(
            "item_bought",
            "Item bought",
            _HERO,
            Field("item", "str", max_length=NAME, label="Item"),
            description="An Item from the current display, for its buy cost.",
        ),
        _et(
            "trade_made",
            "Trade made",
            Field("from", "str", max_length=NAME, label="From hero"),
            Field("to", "str", max_length=NAME, label="To hero"),
            Field("items", "list", item=Field("item", "str", max_length=NAME), max_items=50),
            Field("gold", "int", minimum=0, label="Gold pieces"),
            description="One hero gives Treasure cards and/or gold to another (a barter is two entries).",
        ),
        _et("leveled_up", "Leveled up", _HERO, description="Pays the level-up cost and gains a level."),
        _et(
            "advancement_token_bought",
            "Advancement token bought",
            _HERO,
            Field("token", "str", max_length=NAME, label="Token"),
            Field("cost", "int", minimum=0, label="Cost (gp)"),
        ),
    )
}


def _gp(n: int) -> str:
    return f"{n:,} gp"


def _violation(code: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(code, message, rule)


# -- state helpers (pure; the ``s`` variants edit a private copy inside ``apply``) ------------------------


def find_hero(state: State, name: str) -> int | None:
    """Index of the active hero called ``name`` (case-insensitive), or None."""
    key = norm(name)
    for i, hero in enumerate(state["heroes"]):
        if not hero["retired"] and norm(hero["name"]) == key:
            return i
    return None


def _require_hero(state: State, name: str, rule: str) -> int:
    idx = find_hero(state, name)
    if idx is not None:
        return idx
    key = norm(name)
    if any(norm(h["name"]) == key for h in state["heroes"]):
        raise _violation("hero_retired", f"{name} has retired from the campaign and can no longer act.", rule)
    raise _violation("unknown_hero", f"No hero called {name} is in the campaign.", rule)


def _current_adventure(state: State) -> dict[str, Any] | None:
    if state["adventures"] and state["adventures"][-1]["result"] == IN_PROGRESS:
        return state["adventures"][-1]
    return None


def adventure_of_match(state: State, match: int) -> dict[str, Any] | None:
    """The adventure played as match ``match`` (its ``adventure_started`` named the match), or None."""
    for adventure in reversed(state["adventures"]):
        if adventure.get("match") == match:
            return adventure
    return None


def match_closed_reason(state: State, match: int) -> str | None:
    """Why match ``match`` can no longer change the campaign, or None while it still can.

    A match is open while its adventure is in progress, and while the adventure it concluded is still the
    campaign's latest one (a correction in the match then flows through). Once a later adventure has
    started, or when the campaign never linked this match, the match is closed.
    """
    adventure = adventure_of_match(state, match)
    if adventure is None:
        return f"No adventure of this campaign is played as match #{match}."
    if adventure is not state["adventures"][-1]:
        later = state["adventures"][-1]["adventure"]
        return (
            f"{adventure['adventure']} is {adventure['result']} on the campaign and {later} has started since: "
            f"match #{match} is closed and can no longer change the campaign."
        )
    return None


def _refuse_hand_entry_on_match(current: dict[str, Any]) -> None:
    """What happens in an adventure played as a match is recorded there; its result arrives from it."""
    if current.get("match") is not None:
        raise _violation(
            "played_as_match",
            f"{current['adventure']} is being played move by move as match #{current['match']}: record it "
            "there; its treasure, gold and result reach the campaign when the match is won or lost.",
            R_BRIDGE,
        )


def _find_item(items: list[dict[str, Any]], name: str) -> int | None:
    key = norm(name)
    for i, item in enumerate(items):
        if norm(item["name"]) == key:
            return i
    return None


def _take_card(hero: dict[str, Any], name: str) -> dict[str, Any]:
    """Remove and return the hero's card called ``name``; ``ValueError`` when the hero holds none."""
    pos = _find_item(hero["items"], name)
    if pos is None:
        raise ValueError(f"{hero['name']} does not hold {name}")
    return hero["items"].pop(pos)


def _refuse_on_match(s: State) -> None:
    """An override bends rules, not data: a hand entry cannot reach into an adventure played as a match."""
    current = _current_adventure(s)
    if current is not None and current.get("match") is not None:
        raise ValueError(f"{current['adventure']} is played as match #{current['match']}; record it there")


def _concludable(s: State) -> dict[str, Any]:
    """The adventure a hand-recorded result concludes: the one in progress, not played as a match."""
    current = _current_adventure(s)
    if current is None:
        raise ValueError("no adventure is in progress to conclude")
    _refuse_on_match(s)
    return current


def _complete(s: State, adv: dict[str, Any], reward: int) -> None:
    adv["result"] = COMPLETED
    s["phase"] = TOWN
    missed = s["options"]["missed_adventure_gold"]
    for i, hero in enumerate(s["heroes"]):
        if hero["retired"]:
            continue
        if i in adv["hero_ids"]:
            _gold(s, i, reward, "adventure", f"Aftermath of {adv['adventure']}")
        else:
            _gold(s, i, missed, "missed_adventure", f"Missed {adv['adventure']}")


def _fail(s: State, adv: dict[str, Any]) -> None:
    adv["result"] = FAILED
    s["phase"] = TOWN


def sale_value(item: dict[str, Any]) -> int | None:
    """Gold a sold card brings: its sell value, else half its buy value rounded down, else None (no value)."""
    if item.get("sell") is not None:
        return int(item["sell"])
    if item.get("buy") is not None:
        return int(item["buy"]) // 2
    return None


def _gold(s: State, idx: int, delta: int, cause: str, note: str) -> None:
    """Change a hero's gold and write the ledger row (rows are only written for non-zero changes).

    Raises ``ValueError`` rather than leave a hero below 0 gp (an overridden entry is then ``unplayable``).
    """
    if delta == 0:
        return
    hero = s["heroes"][idx]
    if hero["gold"] + delta < 0:
        raise ValueError(
            f"{hero['name']} has {_gp(hero['gold'])} and cannot pay {_gp(-delta)}: gold never goes below zero"
        )
    hero["gold"] += delta
    hero["ledger"].append(
        {"version": s["events_applied"], "delta": delta, "cause": cause, "note": note, "balance": hero["gold"]}
    )


class SaltmarshCampaign(Ruleset):
    """The campaign sheet as a stream: see docs/rules/ghosts-of-saltmarsh.md for every interpretation."""

    slug = "saltmarsh"
    name = "Ghosts of Saltmarsh (campaign)"
    seats = (0,)
    version = 2
    kind = "campaign"
    rulebook = "ghosts-of-saltmarsh.txt"
    options_schema = (
        Field(
            "level_up_cost",
            "int",
            required=False,
            default=2000,
            minimum=1,
            maximum=1_000_000,
            label="Level-up cost (gp)",
            help="The rulebook asks 2,000 gp and advises not going below 1,000.",
        ),
        Field(
            "missed_adventure_gold",
            "int",
            required=False,
            default=200,
            minimum=0,
            maximum=1_000_000,
            label="Gold for a missed successful adventure",
        ),
        Field("max_level", "int", required=False, default=2, minimum=1, maximum=10, label="Highest level"),
        Field(
            "advancement_tokens",
            "bool",
            required=False,
            default=True,
            label="Advancement tokens available",
            help="Only base games that contain Advancement Tokens have them.",
        ),
    )
    event_types = EVENT_TYPES

    # -- setup ----------------------------------------------------------------------------------
    def initial_state(self, options: dict[str, Any], seat_count: int = 0) -> State:
        """An empty campaign: no heroes, no adventures, in town."""
        return {
            "options": {
                "level_up_cost": int(options.get("level_up_cost", 2000)),
                "missed_adventure_gold": int(options.get("missed_adventure_gold", 200)),
                "max_level": int(options.get("max_level", 2)),
                "advancement_tokens": bool(options.get("advancement_tokens", True)),
            },
            "events_applied": 0,
            "phase": TOWN,
            "heroes": [],
            "adventures": [],
            "display": [],
        }

    # -- validation -----------------------------------------------------------------------------
    def validate(self, state: State, event: Event) -> None:
        """Raise :class:`RuleViolation` unless ``event`` may be recorded now (campaigns never end)."""
        if event.type not in self.event_types:  # the data itself is checked against the fields by the API
            raise unknown_event("A Saltmarsh campaign", event.type)
        if event.seat is not None:
            raise _violation(
                "no_seats",
                "A campaign has no seats: record the entry for the table and name the hero in it.",
                R_STREAM,
            )
        current = _current_adventure(state)
        if event.type in TOWN_EVENTS and current is not None:
            what = (
                "Heroes join, retire and take town actions"
                if event.type != "adventure_started"
                else "A new adventure starts"
            )
            raise _violation(
                "adventure_in_progress",
                f"{what} only between adventures; {current['adventure']} is still in progress.",
                R_TOWN,
            )
        if event.type in HAND_ADVENTURE_EVENTS and current is None:
            raise _violation(
                "no_adventure",
                "No adventure is in progress; start one before recording what happens in it.",
                R_CAMPAIGN,
            )
        if event.type in HAND_ADVENTURE_EVENTS:
            assert current is not None
            _refuse_hand_entry_on_match(current)
        check: Callable[[State, dict[str, Any]], None] = getattr(self, f"_check_{event.type}")
        check(state, event.data)

    def _check_hero_joined(self, state: State, data: dict[str, Any]) -> None:
        if not data["hero"].strip():
            raise _violation("blank_name", "The hero needs a name.", R_TRACKER)
        if find_hero(state, data["hero"]) is not None:
            raise _violation(
                "duplicate_hero",
                f"A hero called {data['hero']} is already in the campaign; pick another name.",
                R_TRACKER,
            )

    def _check_hero_retired(self, state: State, data: dict[str, Any]) -> None:
        _require_hero(state, data["hero"], R_TRACKER)

    def _check_adventure_started(self, state: State, data: dict[str, Any]) -> None:
        names = data["heroes"]
        if not names:
            raise _violation("no_heroes", "An adventure needs at least one hero.", R_CAMPAIGN)
        seen: set[int] = set()
        for name in names:
            idx = _require_hero(state, name, R_CAMPAIGN)
            if idx in seen:
                raise _violation("duplicate_hero", f"{name} is listed twice for this adventure.", R_CAMPAIGN)
            seen.add(idx)

    def _check_treasure_used(self, state: State, data: dict[str, Any]) -> None:
        idx = self._check_in_party(state, data["hero"])
        hero = state["heroes"][idx]
        if _find_item(hero["items"], data["item"]) is None:
            raise _violation("item_not_held", f"{hero['name']} does not hold {data['item']}.", R_CARRY)

    def _check_adventure_concluded(self, state: State, data: dict[str, Any]) -> None:
        adventure = adventure_of_match(state, data["match"])
        if adventure is None:
            raise _violation(
                "unknown_match", f"No adventure of this campaign is played as match #{data['match']}.", R_BRIDGE
            )
        if adventure["result"] != IN_PROGRESS:
            raise _violation(
                "adventure_closed",
                f"{adventure['adventure']} (match #{data['match']}) is already {adventure['result']} on the "
                "campaign; this match can no longer change it.",
                R_BRIDGE,
            )
        if norm(data["adventure"]) != norm(adventure["adventure"]):
            raise _violation(
                "other_adventure",
                f"Match #{data['match']} plays {adventure['adventure']}, not {data['adventure']}.",
                R_BRIDGE,
            )
        for entry in data["heroes"]:
            idx = self._check_in_party(state, entry["hero"])
            hero = state["heroes"][idx]
            remaining = list(hero["items"])
            for name in entry["used"]:
                pos = _find_item(remaining, name)
                if pos is None:
                    raise _violation("item_not_held", f"{hero['name']} does not hold {name} to use it up.", R_CARRY)
                remaining.pop(pos)

    def _check_in_party(self, state: State, name: str) -> int:
        idx = _require_hero(state, name, R_CARRY)
        current = _current_adventure(state)
        assert current is not None  # the phase check ran first
        if idx not in current["hero_ids"]:
            raise _violation(
                "not_in_adventure",
                f"{name} is not taking part in {current['adventure']}, so cannot gain its treasure.",
                R_CARRY,
            )
        return idx

    def _check_treasure_gained(self, state: State, data: dict[str, Any]) -> None:
        self._check_in_party(state, data["hero"])

    def _check_gold_gained(self, state: State, data: dict[str, Any]) -> None:
        self._check_in_party(state, data["hero"])

    def _check_adventure_completed(self, state: State, data: dict[str, Any]) -> None:
        return None

    def _check_adventure_failed(self, state: State, data: dict[str, Any]) -> None:
        return None

    def _check_powers_swapped(self, state: State, data: dict[str, Any]) -> None:
        _require_hero(state, data["hero"], R_SWAP)

    def _check_item_sold(self, state: State, data: dict[str, Any]) -> None:
        idx = _require_hero(state, data["hero"], R_SELL)
        hero = state["heroes"][idx]
        pos = _find_item(hero["items"], data["item"])
        if pos is None:
            raise _violation("item_not_held", f"{hero['name']} does not hold {data['item']}.", R_SELL)
        card = hero["items"][pos]
        if not is_item(card):
            raise _violation("not_an_item", f"{card['name']} is not an Item: only Item cards can be sold.", R_SELL)
        if sale_value(card) is None:
            raise _violation(
                "no_value", f"{card['name']} has neither a sell nor a buy value, so it sells for nothing.", R_SELL
            )

    def _check_shop_revealed(self, state: State, data: dict[str, Any]) -> None:
        if len(data["cards"]) != 4:
            raise _violation("four_cards", "The Buy Items display is exactly four Treasure cards.", R_BUY)

    def _check_item_bought(self, state: State, data: dict[str, Any]) -> None:
        idx = _require_hero(state, data["hero"], R_BUY)
        cards = [c for c in state["display"] if norm(c["name"]) == norm(data["item"])]
        if not cards:
            raise _violation(
                "not_on_display",
                f"{data['item']} is not in the current display; only revealed cards can be bought.",
                R_BUY,
            )
        buyable = [c for c in cards if c["item"] and c.get("buy") is not None]
        if not buyable:
            raise _violation("not_for_sale", f"{cards[0]['name']} is not an Item with a buy cost.", R_BUY)
        gold = state["heroes"][idx]["gold"]
        if gold < buyable[0]["buy"]:
            raise _violation(
                "not_enough_gold",
                f"{state['heroes'][idx]['name']} has {_gp(gold)}; {buyable[0]['name']} costs {_gp(buyable[0]['buy'])}.",
                R_BUY,
            )

    def _check_trade_made(self, state: State, data: dict[str, Any]) -> None:
        giver = _require_hero(state, data["from"], R_TRADE)
        taker = _require_hero(state, data["to"], R_TRADE)
        if giver == taker:
            raise _violation("same_hero", "A hero cannot trade with themselves.", R_TRADE)
        if not data["items"] and data["gold"] == 0:
            raise _violation("empty_trade", "A trade must hand over at least one card or some gold.", R_TRADE)
        hero = state["heroes"][giver]
        remaining = list(hero["items"])
        for name in data["items"]:
            pos = _find_item(remaining, name)
            if pos is None:
                raise _violation("item_not_held", f"{hero['name']} does not hold {name} to give.", R_TRADE)
            card = remaining.pop(pos)
            if not is_item(card):
                raise _violation(
                    "not_an_item",
                    f"{card['name']} is not an Item: only Item Treasure cards and gold can change hands.",
                    R_TRADE,
                )
        if data["gold"] > hero["gold"]:
            raise _violation("not_enough_gold", f"{hero['name']} has only {_gp(hero['gold'])} to give.", R_TRADE)

    def _check_leveled_up(self, state: State, data: dict[str, Any]) -> None:
        idx = _require_hero(state, data["hero"], R_LEVEL)
        hero = state["heroes"][idx]
        top = state["options"]["max_level"]
        if hero["level"] >= top:
            raise _violation("max_level", f"{hero['name']} is already level {hero['level']}, the highest.", R_LEVEL)
        cost = state["options"]["level_up_cost"]
        if hero["gold"] < cost:
            raise _violation(
                "not_enough_gold", f"Leveling up costs {_gp(cost)}; {hero['name']} has {_gp(hero['gold'])}.", R_LEVEL
            )

    def _check_advancement_token_bought(self, state: State, data: dict[str, Any]) -> None:
        if not state["options"]["advancement_tokens"]:
            raise _violation("no_advancement_tokens", "This campaign's base game has no Advancement Tokens.", R_TOKENS)
        idx = _require_hero(state, data["hero"], R_TOKENS)
        hero = state["heroes"][idx]
        if hero["gold"] < data["cost"]:
            raise _violation(
                "not_enough_gold",
                f"{hero['name']} has {_gp(hero['gold'])}; the token costs {_gp(data['cost'])}.",
                R_TOKENS,
            )

    # -- reducer --------------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        """The state after ``event``; ``events_applied`` counts every applied entry (ledger rows carry it)."""
        s = copy.deepcopy(state)
        s["events_applied"] = s.get("events_applied", 0) + 1
        getattr(self, f"_apply_{event.type}")(s, event.data)
        return s

    def _apply_hero_joined(self, s: State, data: dict[str, Any]) -> None:
        if not data["hero"].strip() or find_hero(s, data["hero"]) is not None:
            raise ValueError(f"an active hero is already called {data['hero']!r} (names must tell heroes apart)")
        s["heroes"].append(
            {
                "name": " ".join(data["hero"].split()),
                "class": data["class"],
                "level": 1,
                "gold": 0,
                "items": [],
                "powers": [],
                "advancement_tokens": [],
                "retired": False,
                "ledger": [],
            }
        )

    def _apply_hero_retired(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_TRACKER)
        current = _current_adventure(s)
        if current is not None and idx in current["hero_ids"]:
            raise ValueError(f"{s['heroes'][idx]['name']} is on {current['adventure']}, which is still in progress")
        s["heroes"][idx]["retired"] = True

    def _apply_adventure_started(self, s: State, data: dict[str, Any]) -> None:
        current = _current_adventure(s)
        if current is not None:
            raise ValueError(f"{current['adventure']} is still in progress; only one adventure at a time")
        ids = [_require_hero(s, name, R_CAMPAIGN) for name in data["heroes"]]
        if not ids:
            raise ValueError("an adventure needs at least one hero")
        if len(set(ids)) != len(ids):
            raise ValueError("a hero is listed twice for the adventure")
        match = data.get("match")
        if match is not None and adventure_of_match(s, match) is not None:
            raise ValueError(f"match #{match} already plays another adventure")
        s["adventures"].append(
            {
                "adventure": data["adventure"],
                "heroes": [s["heroes"][i]["name"] for i in ids],
                "hero_ids": ids,
                "result": IN_PROGRESS,
                "match": match,
                "conclusion": None,
            }
        )
        s["phase"] = ADVENTURE
        s["display"] = []

    def _apply_treasure_gained(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_CARRY)
        _refuse_on_match(s)
        s["heroes"][idx]["items"].append(treasure_card(data["item"]))

    def _apply_treasure_used(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_CARRY)
        _refuse_on_match(s)
        _take_card(s["heroes"][idx], data["item"])

    def _apply_gold_gained(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_CARRY)
        _refuse_on_match(s)
        adventure = s["adventures"][-1]["adventure"] if s["adventures"] else "the adventure"
        _gold(s, idx, data["amount"], "treasure", f"Gold found in {adventure}")

    def _apply_adventure_completed(self, s: State, data: dict[str, Any]) -> None:
        _complete(s, _concludable(s), data["reward"])

    def _apply_adventure_failed(self, s: State, data: dict[str, Any]) -> None:
        _fail(s, _concludable(s))

    def _apply_adventure_concluded(self, s: State, data: dict[str, Any]) -> None:
        adv = adventure_of_match(s, data["match"])
        if adv is None or adv["result"] != IN_PROGRESS:
            raise ValueError(f"match #{data['match']} has no adventure in progress on this campaign")
        for entry in data["heroes"]:
            idx = _require_hero(s, entry["hero"], R_CARRY)
            hero = s["heroes"][idx]
            for name in entry["used"]:
                _take_card(hero, name)
            hero["items"].extend(treasure_card(card) for card in entry["found"])
            _gold(s, idx, entry["gold"], "treasure", f"Gold found in {adv['adventure']}")
        if data["result"] == "won":
            _complete(s, adv, data["reward"])
        else:
            _fail(s, adv)
        adv["conclusion"] = copy.deepcopy(data)

    def _apply_powers_swapped(self, s: State, data: dict[str, Any]) -> None:
        s["heroes"][_require_hero(s, data["hero"], R_SWAP)]["powers"] = list(data["powers"])

    def _apply_item_sold(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_SELL)
        item = _take_card(s["heroes"][idx], data["item"])
        _gold(s, idx, sale_value(item) or 0, "sale", f"Sold {item['name']}")

    def _apply_shop_revealed(self, s: State, data: dict[str, Any]) -> None:
        s["display"] = [treasure_card(c) for c in data["cards"]]

    def _apply_item_bought(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_BUY)
        key = norm(data["item"])
        pos = next(
            (
                i
                for i, c in enumerate(s["display"])
                if norm(c["name"]) == key and c["item"] and c.get("buy") is not None
            ),
            None,
        )
        if pos is None:
            raise ValueError(f"{data['item']} is not an Item with a buy cost in the current display")
        card = s["display"].pop(pos)
        _gold(s, idx, -card["buy"], "purchase", f"Bought {card['name']}")
        s["heroes"][idx]["items"].append(card)

    def _apply_trade_made(self, s: State, data: dict[str, Any]) -> None:
        giver = _require_hero(s, data["from"], R_TRADE)
        taker = _require_hero(s, data["to"], R_TRADE)
        g, t = s["heroes"][giver], s["heroes"][taker]
        for name in data["items"]:
            t["items"].append(_take_card(g, name))
        _gold(s, giver, -data["gold"], "trade", f"Gave to {t['name']}")
        _gold(s, taker, data["gold"], "trade", f"Received from {g['name']}")

    def _apply_leveled_up(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_LEVEL)
        s["heroes"][idx]["level"] += 1
        level = s["heroes"][idx]["level"]
        _gold(s, idx, -s["options"]["level_up_cost"], "level_up", f"Reached level {level}")

    def _apply_advancement_token_bought(self, s: State, data: dict[str, Any]) -> None:
        idx = _require_hero(s, data["hero"], R_TOKENS)
        s["heroes"][idx]["advancement_tokens"].append(data["token"])
        _gold(s, idx, -data["cost"], "advancement_token", f"Bought {data['token']}")

    # -- reading the state ----------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Campaigns do not end: always None."""
        return None

    def legal_moves(self, state: State) -> list[Event] | None:
        """None: entries carry free names, amounts and card values that cannot be listed."""
        return None

    def turn(self, state: State) -> TurnInfo:
        """Phase ``town`` between adventures, ``adventure`` while one is in progress; no seats."""
        current = _current_adventure(state)
        if current is not None:
            where = f" as match #{current['match']}" if current.get("match") is not None else ""
            if current.get("match") is not None:  # what the table does next, where it does it
                what = "play it there; its match brings the result here when it is won or lost"
            else:
                what = "record the treasure and gold found, then whether it was completed or failed"
            prompt = f"{current['adventure']} is in progress{where}: {what}."
            return TurnInfo(seats=(), phase=ADVENTURE, prompt=prompt)
        return TurnInfo(seats=(), phase=TOWN, prompt="In town: heroes may take town actions or set out.")

    def warnings(self, state: State) -> list[str]:
        """Advice: the rulebook recommends a level-up cost of at least 1,000 gp."""
        cost = state["options"]["level_up_cost"]
        if cost < 1000:
            return [f"Leveling up costs {_gp(cost)}: the rulebook does not recommend going below 1,000 gp."]
        return []

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One plain sentence per entry."""
        d = event.data
        t = event.type
        if t == "hero_joined":
            return f"{d.get('hero')} the {d.get('class')} joined the campaign."
        if t == "hero_retired":
            return f"{d.get('hero')} retired."
        if t == "adventure_started":
            return f"{', '.join(d.get('heroes', []))} set out on {d.get('adventure')}."
        if t == "treasure_gained":
            return f"{d.get('hero')} gained {d.get('item', {}).get('name')}."
        if t == "treasure_used":
            return f"{d.get('hero')} used up {d.get('item')}."
        if t == "adventure_concluded":
            verb = "won" if d.get("result") == "won" else "lost"
            parts = []
            for h in d.get("heroes", []):
                bits = [c.get("name", "?") for c in h.get("found", [])]
                if h.get("gold"):
                    bits.append(_gp(h["gold"]))
                if bits:
                    parts.append(f"{h.get('hero')} brought back {', '.join(bits)}")
                if h.get("used"):
                    parts.append(f"{h.get('hero')} used up {', '.join(h['used'])}")
            tail = f" {'; '.join(parts)}." if parts else ""
            return f"Match #{d.get('match')} {verb} {d.get('adventure')}.{tail}"
        if t == "gold_gained":
            return f"{d.get('hero')} found {_gp(d.get('amount', 0))}."
        if t == "adventure_completed":
            return f"The adventure was completed; {_gp(d.get('reward', 0))} to each hero who took part."
        if t == "adventure_failed":
            return "The adventure failed; the heroes keep their treasure."
        if t == "powers_swapped":
            return f"{d.get('hero')} now uses {', '.join(d.get('powers', [])) or 'no powers'}."
        if t == "item_sold":
            return f"{d.get('hero')} sold {d.get('item')}."
        if t == "shop_revealed":
            return f"The shop shows {', '.join(c.get('name', '?') for c in d.get('cards', []))}."
        if t == "item_bought":
            return f"{d.get('hero')} bought {d.get('item')}."
        if t == "trade_made":
            parts = [*d.get("items", [])]
            if d.get("gold"):
                parts.append(_gp(d["gold"]))
            return f"{d.get('from')} gave {', '.join(parts) or 'nothing'} to {d.get('to')}."
        if t == "leveled_up":
            return f"{d.get('hero')} leveled up."
        if t == "advancement_token_bought":
            return f"{d.get('hero')} bought the {d.get('token')} token for {_gp(d.get('cost', 0))}."
        return super().describe(event, seat_names)

    # -- campaign helpers exposed on the object ---------------------------------------------------
    def sheet(self, state: State) -> dict[str, Any]:
        """The campaign sheet (see :func:`rulesets.saltmarsh.sheet.sheet`)."""
        return sheet(state)

    def gold_ledger(self, state: State, hero: str | None = None) -> list[dict[str, Any]]:
        """Gold changes (see :func:`rulesets.saltmarsh.sheet.gold_ledger`)."""
        return gold_ledger(state, hero)

    def conclusion_from_adventure(self, adventure_state: State, match: int) -> Event | None:
        """The entry a finished adventure match writes (see :func:`rulesets.saltmarsh.bridge.conclusion_from_adventure`)."""
        return conclusion_from_adventure(adventure_state, match)
