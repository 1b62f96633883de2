"""The Saltmarsh campaign's entries and options: their names, fields and the rulebook sections refusals cite."""

from __future__ import annotations

from rulesets.base import EventType
from rulesets.saltmarsh.cards import CARD_FIELDS, card_field
from rulesets.schema import Field

BOOK = "Ghosts of Saltmarsh"
RULE_CAMPAIGN = f"{BOOK} › Playing the Campaign"
RULE_AFTERMATH = f"{RULE_CAMPAIGN} › Aftermath"
RULE_MISSED = f"{RULE_CAMPAIGN} › Missed Campaign Adventures"
RULE_CARRY = f"{RULE_CAMPAIGN} › Treasure carries over"
RULE_TOWN = f"{BOOK} › Town Actions"
RULE_SWAP = f"{RULE_TOWN} › 1. Swap Powers"
RULE_SELL = f"{RULE_TOWN} › 2. Sell Items"
RULE_BUY = f"{RULE_TOWN} › 3. Buy Items"
RULE_TRADE = f"{RULE_TOWN} › 4. Trade Treasure Cards and/or GP"
RULE_LEVEL = f"{RULE_TOWN} › 5. Level Up"
RULE_TOKENS = f"{RULE_TOWN} › Advancement Tokens"
RULE_TRACKER = f"{BOOK} › Campaign Tracker"
RULE_STREAM = "Chronicle › Campaign stream"
RULE_BRIDGE = "Chronicle › Adventures played as matches"

# the campaign's phases (``turn().phase``) and an adventure's results on the sheet
TOWN = "town"
ADVENTURE = "adventure"
IN_PROGRESS = "in progress"
COMPLETED = "completed"
FAILED = "failed"

HERO_JOINED = "hero_joined"
HERO_RETIRED = "hero_retired"
ADVENTURE_STARTED = "adventure_started"
TREASURE_GAINED = "treasure_gained"
TREASURE_USED = "treasure_used"
GOLD_GAINED = "gold_gained"
ADVENTURE_COMPLETED = "adventure_completed"
ADVENTURE_FAILED = "adventure_failed"
ADVENTURE_CONCLUDED = "adventure_concluded"
POWERS_SWAPPED = "powers_swapped"
ITEM_SOLD = "item_sold"
SHOP_REVEALED = "shop_revealed"
ITEM_BOUGHT = "item_bought"
TRADE_MADE = "trade_made"
LEVELED_UP = "leveled_up"
ADVANCEMENT_TOKEN_BOUGHT = "advancement_token_bought"

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
        HERO_JOINED,
        HERO_RETIRED,
        ADVENTURE_STARTED,
        POWERS_SWAPPED,
        ITEM_SOLD,
        SHOP_REVEALED,
        ITEM_BOUGHT,
        TRADE_MADE,
        LEVELED_UP,
        ADVANCEMENT_TOKEN_BOUGHT,
    }
)
ADVENTURE_EVENTS = frozenset(
    {TREASURE_GAINED, TREASURE_USED, GOLD_GAINED, ADVENTURE_COMPLETED, ADVENTURE_FAILED, ADVENTURE_CONCLUDED}
)
# What happens in an adventure played as a match is recorded in the match; these hand entries are refused then.
HAND_ADVENTURE_EVENTS = ADVENTURE_EVENTS - {ADVENTURE_CONCLUDED}
# Written only by the adventure match itself (campaigns.saltmarsh.bridge), never typed at the campaign.
BRIDGE_EVENTS = frozenset({ADVENTURE_CONCLUDED})
BRIDGE_FIELDS = frozenset({"match"})  # data fields only the bridge may fill (``adventure_started.match``)

NAME = 60  # longest hero / item / adventure name

OPTIONS_SCHEMA = (
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
            HERO_JOINED,
            "Hero joined",
            _HERO,
            Field("class", "str", max_length=NAME, label="Class"),
            description="A new hero joins at level 1 with no gold and no items.",
        ),
        _et(HERO_RETIRED, "Hero retired", _HERO, description="The hero leaves the campaign and can no longer act."),
        _et(
            ADVENTURE_STARTED,
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
        _et(TREASURE_GAINED, "Treasure gained", _HERO, card_field(), description="A Treasure card found."),
        _et(
            TREASURE_USED,
            "Treasure used up",
            _HERO,
            Field("item", "str", max_length=NAME, label="Card"),
            description="A Treasure card the hero held is spent or lost during the adventure.",
        ),
        _et(
            GOLD_GAINED,
            "Gold gained",
            _HERO,
            Field("amount", "int", minimum=1, label="Gold pieces"),
            description="A gold-piece Treasure card found during the adventure.",
        ),
        _et(
            ADVENTURE_COMPLETED,
            "Adventure completed",
            Field("reward", "int", minimum=0, label="Aftermath gold per hero"),
            description="The Aftermath gold goes to each hero who took part; every other hero gets the "
            "missed-adventure gold.",
        ),
        _et(ADVENTURE_FAILED, "Adventure failed", description="Treasure and gold are kept; no missed-adventure gold."),
        _et(
            ADVENTURE_CONCLUDED,
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
            POWERS_SWAPPED,
            "Powers swapped",
            _HERO,
            Field("powers", "list", item=Field("power", "str", max_length=NAME), max_items=20),
            description="The hero's selected powers after the swap.",
        ),
        _et(
            ITEM_SOLD,
            "Item sold",
            _HERO,
            Field("item", "str", max_length=NAME, label="Item"),
            description="Gains the sell value, or half the buy value when the card has none.",
        ),
        _et(
            SHOP_REVEALED,
            "Shop revealed",
            Field(
                "cards",
                "list",
                item=_SHOP_CARD,
                min_items=4,
                max_items=4,
                label="The four cards",
                rule=RULE_BUY,
                rule_text="the Buy Items display is four cards (“Reveal four cards from the Treasure deck”)",
            ),
            description="Four Treasure cards revealed for the Buy Items display (replaces any earlier display).",
        ),
        _et(
            ITEM_BOUGHT,
            "Item bought",
            _HERO,
            Field("item", "str", max_length=NAME, label="Item"),
            description="An Item from the current display, for its buy cost.",
        ),
        _et(
            TRADE_MADE,
            "Trade made",
            Field("from", "str", max_length=NAME, label="From hero"),
            Field("to", "str", max_length=NAME, label="To hero"),
            Field("items", "list", item=Field("item", "str", max_length=NAME), max_items=50),
            Field("gold", "int", minimum=0, label="Gold pieces"),
            Field(
                "items_back",
                "list",
                item=Field("item", "str", max_length=NAME),
                required=False,
                default=[],
                max_items=50,
                label="Cards given back",
                help="A barter: the Treasure cards the other hero hands over in exchange.",
            ),
            Field(
                "gold_back",
                "int",
                required=False,
                default=0,
                minimum=0,
                label="Gold given back",
                help="A barter: the gold pieces the other hero hands over in exchange.",
            ),
            description="One hero gives Item Treasure cards and/or gold to another, or barters: Item cards for "
            "other Treasure cards or gold given back.",
        ),
        _et(LEVELED_UP, "Leveled up", _HERO, description="Pays the level-up cost and gains a level."),
        _et(
            ADVANCEMENT_TOKEN_BOUGHT,
            "Advancement token bought",
            _HERO,
            Field("token", "str", max_length=NAME, label="Token"),
            Field("cost", "int", minimum=0, label="Cost (gp)"),
        ),
    )
}
