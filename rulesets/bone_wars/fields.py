"""Bone Wars' entries and options: their names, fields and the rulebook sections the refusals cite."""

from __future__ import annotations

from typing import Any

from rulesets.base import EventType
from rulesets.schema import Field, start_field

SIDES = ("marsh", "cope")
PATRON_NAMES = {"marsh": "Marsh", "cope": "Cope"}
SIDE_WORDS = ("Marsh", "Cope")  # the rulebook's words for the values of SIDES, in order
ICONS = ("bug", "footprint", "fossil", "hammer", "plant")
ICON_WORDS = ("Bug", "Footprint", "Fossil", "Hammer", "Plant")
KINDS = ("team", "paleontologist", "species")
KIND_WORDS = ("Team", "Paleontologist", "Species")
ROUNDS = 4
SCORING_ROUNDS = {2: "mid-game", 4: "final"}

# the rulebook's sections (shared/rulebooks/bone-wars.txt), as every refusal names them
RULE_OVERVIEW = "Bone Wars › Overview"
RULE_LOYALTY = "Bone Wars › Loyalty"
RULE_PLAYING = "Bone Wars › Playing a card"
RULE_CARDS = "Bone Wars › The three kinds of cards"
RULE_TIES = "Bone Wars › Overview › Ties"
RULE_SITTINGS = "Chronicle › Sittings"
# when the awards are scored is not in our rulebook: Chronicle's decision (docs/rules/bone-wars.md)
RULE_AWARDS = "Chronicle › The final awards"
RULE_VERSIONS = "Chronicle › Rule versions"  # a match kept under the rules it was recorded with
RULE_ENTRIES = "Chronicle › Entries"  # rulesets.base.ENTRIES_RULE: Chronicle's own checks of an entry

# the rulebook's limits that are also bounds of a field (refused naming the rule, rulesets.schema.explain)
SLOT_COST_TEXT = "an action slot costs $0 to $3 (“the slot’s cost ($0 to $3, rising to the right)”)"
CARD_COST_TEXT = "a card's own cost is $0 to $3 (“plus the card’s own cost ($0 to $3 …)”)"
LOYALTY_TEXT = (
    "loyalty is gained, never lost: 1 or more (up to 99 in one entry) onto your patron's track "
    "(“Loyalty you gain goes on the track of your current patron”)"
)
PATRON_TEXT = "the patrons are Othniel Marsh and Edward Cope: marsh or cope"
SIDE_TEXT = "the bookshelf has two sides, Marsh’s and Cope’s: marsh or cope"

# the printed board as Chronicle assumes it when a table gives no layout (docs/rules/bone-wars.md)
DEFAULT_SLOTS: tuple[dict[str, Any], ...] = (
    {"cost": 0, "icon": "bug"},
    {"cost": 1, "icon": "footprint"},
    {"cost": 1, "icon": "fossil"},
    {"cost": 2, "icon": "hammer"},
    {"cost": 3, "icon": "plant"},
)
DEFAULT_STARTING_MONEY = 7
DEFAULT_SHELVES = 5

CARD_PLAYED = "card_played"
MONEY_CHANGED = "money_changed"
LOYALTY_GAINED = "loyalty_gained"
PAPER_PUBLISHED = "paper_published"
PAPER_DEBUNKED = "paper_debunked"
PATRON_FLIPPED = "patron_flipped"
SPECIES_ARCHIVED = "species_archived"
SLOT_UPGRADED = "slot_upgraded"
CARD_UPGRADED = "card_upgraded"
GAME_CONCLUDED = "game_concluded"
RP_GAINED = "rp_gained"
TURN_ENDED = "turn_ended"
PASSED = "passed"
CRANIUM_RECORDED = "cranial_circumference_recorded"
TABLE_PAUSED = "table_paused"

# the effects of an action: only by the seat on turn, only after its card
ACTION_EFFECTS = (
    MONEY_CHANGED,
    LOYALTY_GAINED,
    PAPER_PUBLISHED,
    PAPER_DEBUNKED,
    PATRON_FLIPPED,
    SPECIES_ARCHIVED,
    SLOT_UPGRADED,
    CARD_UPGRADED,
    RP_GAINED,
)


def _side(label: str = "Side of the bookshelf") -> Field:
    return Field(
        "side", "choice", choices=SIDES, choice_labels=SIDE_WORDS, label=label, rule=RULE_LOYALTY, rule_text=SIDE_TEXT
    )


SLOT_FIELDS = (
    Field("cost", "int", minimum=0, maximum=3, label="Slot cost ($)", rule=RULE_PLAYING, rule_text=SLOT_COST_TEXT),
    Field("icon", "choice", choices=ICONS, choice_labels=ICON_WORDS, label="Minor find icon"),
)

CARD_FIELDS = (
    Field("kind", "choice", choices=KINDS, choice_labels=KIND_WORDS, label="Kind of card"),
    Field("name", "str", max_length=80, label="Card name"),
    Field(
        "cost",
        "int",
        required=False,
        default=0,
        minimum=0,
        maximum=3,
        label="Card cost ($, team cards only)",
        rule=RULE_PLAYING,
        rule_text=CARD_COST_TEXT,
    ),
    Field(
        "minor_find",
        "choice",
        required=False,
        nullable=True,
        choices=ICONS,
        choice_labels=ICON_WORDS,
        label="Minor find (species only)",
        help="The icon printed on a species card; its prize bonus counts when it matches the slot's icon.",
    ),
)

OPTIONS_SCHEMA = (
    start_field(
        "first_seat",
        4,
        label="First player",
        help="A seat, or random: Chronicle draws the first player and records the draw.",
    ),
    Field(
        "starting_money",
        "int",
        required=False,
        default=DEFAULT_STARTING_MONEY,
        minimum=0,
        maximum=999,
        label="Starting money ($)",
    ),
    Field(
        "patrons",
        "list",
        required=False,
        nullable=True,
        item=Field(
            "patron",
            "choice",
            choices=SIDES,
            choice_labels=SIDE_WORDS,
            label="Patron of player",
            rule=RULE_LOYALTY,
            rule_text=PATRON_TEXT,
        ),
        min_items=1,
        max_items=4,
        label="Starting patrons",
        help="Marsh or Cope for each player. Left empty: Marsh, Cope, Marsh, Cope in seat order.",
        per_seat=True,
    ),
    Field(
        "slots",
        "list",
        required=False,
        nullable=True,
        default=[dict(slot) for slot in DEFAULT_SLOTS],  # shown on the form: the layout that applies
        item=Field("slot", "object", fields=SLOT_FIELDS),
        min_items=5,
        max_items=5,
        label="Action slots (left to right)",
        help="The player-board layout, the same for every seat: 5 slots, costs rising to the right. "
        "Filled in: the printed board's layout.",
    ),
    Field(
        "shelves",
        "int",
        required=False,
        default=DEFAULT_SHELVES,
        minimum=1,
        maximum=20,
        label="Shelves per side of the bookshelf",
    ),
)

EVENT_TYPES: dict[str, EventType] = {
    CARD_PLAYED: EventType(
        name=CARD_PLAYED,
        label="Played a card",
        fields=(Field("card", "object", fields=CARD_FIELDS, label="Card"),),
        description="Into the leftmost empty action slot; pays the slot's cost plus the card's own cost.",
    ),
    MONEY_CHANGED: EventType(
        name=MONEY_CHANGED,
        label="Money changed",
        fields=(Field("amount", "int", minimum=-999, maximum=999, label="Amount ($, negative to pay)"),),
        description="An effect of the action: money gained or paid (a payment never below $0).",
    ),
    LOYALTY_GAINED: EventType(
        name=LOYALTY_GAINED,
        label="Gained loyalty",
        fields=(
            Field("amount", "int", minimum=1, maximum=99, label="Loyalty", rule=RULE_LOYALTY, rule_text=LOYALTY_TEXT),
        ),
        description="An effect of the action: loyalty on the current patron's track.",
    ),
    PAPER_PUBLISHED: EventType(
        name=PAPER_PUBLISHED,
        label="Published a paper",
        fields=(_side(),),
        description="An effect of the action: one more paper on that side of the bookshelf.",
    ),
    PAPER_DEBUNKED: EventType(
        name=PAPER_DEBUNKED,
        label="Debunked a paper",
        fields=(_side(),),
        description="An effect of the action: one paper fewer on that side of the bookshelf.",
    ),
    PATRON_FLIPPED: EventType(
        name=PATRON_FLIPPED,
        label="Flipped the patron tile",
        description="An effect of the action: the seat now works for the other patron.",
    ),
    SPECIES_ARCHIVED: EventType(
        name=SPECIES_ARCHIVED,
        label="Archived a species",
        fields=(Field("name", "str", max_length=80, label="Species"),),
        description="An effect of the action: a species card goes into the seat's archive.",
    ),
    SLOT_UPGRADED: EventType(
        name=SLOT_UPGRADED,
        label="Upgraded an action slot",
        fields=SLOT_FIELDS,
        description="An effect of the action: one more action slot at the right end of the seat's board, "
        "costing at least as much as the slot to its left.",
    ),
    CARD_UPGRADED: EventType(
        name=CARD_UPGRADED,
        label="Upgraded a card in a slot",
        fields=(
            Field("slot", "int", minimum=1, maximum=20, label="Slot (1 = leftmost)"),
            Field("card", "object", fields=CARD_FIELDS, label="New card"),
        ),
        description="An effect of the action: a team card already in a slot is replaced by a better one (pays "
        "the new card's own cost; the slot stays spent for this round).",
    ),
    RP_GAINED: EventType(
        name=RP_GAINED,
        label="Gained reputation (RP)",
        fields=(
            Field("amount", "int", minimum=-999, maximum=999, label="RP"),
            Field("reason", "str", max_length=120, label="Why (award, bonus, …)"),
        ),
        description="An effect of the action: RP scored outside the two scorings; after the last pass, the "
        "awards of the final scoring (any seat) until the table confirms the end.",
    ),
    GAME_CONCLUDED: EventType(
        name=GAME_CONCLUDED,
        label="End of the game confirmed (awards recorded)",
        seat_required=False,
        description="After the last pass and the awards: the awards are in (a cranial circumference can still "
        "break a tie).",
    ),
    TURN_ENDED: EventType(
        name=TURN_ENDED,
        label="Ended the turn",
        description="After the card and its effects; the next seat in order that has not passed plays.",
    ),
    PASSED: EventType(
        name=PASSED,
        label="Passed",
        fields=(
            Field(
                "patron",
                "choice",
                choices=SIDES,
                choice_labels=SIDE_WORDS,
                label="Patron (the university you return to)",
                rule=RULE_LOYALTY,
                rule_text=PATRON_TEXT,
            ),
        ),
        description="Instead of a card: out for the round, working for the chosen patron from now on.",
    ),
    CRANIUM_RECORDED: EventType(
        name=CRANIUM_RECORDED,
        label="Cranial circumference measured",
        fields=(Field("cm", "number", minimum=0, maximum=200, label="Circumference (cm)"),),
        description="At any time: the last tie-break.",
    ),
    TABLE_PAUSED: EventType(
        name=TABLE_PAUSED,
        label="Table paused (end of sitting)",
        seat_required=False,
        description="The table packs the game away here; the next entry starts a new sitting.",
    ),
}
