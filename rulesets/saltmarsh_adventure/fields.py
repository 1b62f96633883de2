"""A Ghosts of Saltmarsh adventure's entries and options: their names, fields and the rulebook sections cited."""

from __future__ import annotations

from dataclasses import replace

from rulesets.base import EventType
from rulesets.saltmarsh.cards import CARD_FIELDS, card_field
from rulesets.schema import Field

BOOK = "Ghosts of Saltmarsh"
RULE_BASE = f"{BOOK} › This Is an Expansion (base game rule)"
RULE_TURN = f"{RULE_BASE} › Turn order"
RULE_SURGE = f"{RULE_BASE} › Healing Surges"
RULE_ACTIONS = f"{RULE_BASE} › Hero Phase actions"
RULE_CONDITIONS = f"{BOOK} › Conditions"
RULE_ADVANTAGE = f"{RULE_CONDITIONS} › Condition: Advantage"
RULE_DISADVANTAGE = f"{RULE_CONDITIONS} › Condition: Disadvantage"
RULE_STUNNED = f"{RULE_CONDITIONS} › Condition: Stunned"
RULE_POISONED = f"{RULE_CONDITIONS} › Condition: Poisoned"
RULE_XP = f"{BOOK} › Experience Points"
RULE_TREASURE = f"{BOOK} › The Treasure Deck"
RULE_MONSTERS = f"{BOOK} › Tile Features › Monster Symbols"
RULE_END = f"{BOOK} › Playing the Campaign"

HERO_PHASE_STARTED = "hero_phase_started"
HERO_MOVED = "hero_moved"
ATTACK_ROLLED = "attack_rolled"
POISON_ROLL_MADE = "poison_roll_made"
HERO_PHASE_ENDED = "hero_phase_ended"
VILLAIN_PHASE_ENDED = "villain_phase_ended"
DAMAGE_TAKEN = "damage_taken"
HP_HEALED = "hp_healed"
CONDITION_GAINED = "condition_gained"
CONDITION_LOST = "condition_lost"
MONSTER_PLACED = "monster_placed"
MONSTER_ACTIVATED = "monster_activated"
MONSTER_DEFEATED = "monster_defeated"
ENCOUNTER_CANCELLED = "encounter_cancelled"
TREASURE_FOUND = "treasure_found"
TREASURE_USED = "treasure_used"
GOLD_FOUND = "gold_found"
ADVENTURE_WON = "adventure_won"
ADVENTURE_LOST = "adventure_lost"

CONDITIONS = ("advantage", "disadvantage", "stunned", "poisoned")
CONDITION_WORDS = ("Advantage", "Disadvantage", "Stunned", "Poisoned")  # as the condition cards print them

# phases of the active seat's turn
START = "start"  # waiting for hero_phase_started
HERO = "hero"
VILLAIN = "villain"  # exploration and villain phase together
OVER = "over"

NAME = 60
DEFAULT_MAX_HP = 10


def _et(
    name: str, label: str, *fields: Field, seat: bool = True, description: str = "", hero_if: str = ""
) -> EventType:
    """An entry type; ``hero_if``: the entry names a hero (a seat) only in that case, said by the form's label."""
    return EventType(
        name=name, label=label, fields=fields, seat_required=seat, description=description,
        seat_optional=bool(hero_if), seat_label=f"Hero ({hero_if})" if hero_if else "",
    )  # fmt: skip


_MONSTER = Field("monster", "str", max_length=NAME, label="Monster")
_IN_PLAY = Field("monster", "str", max_length=NAME, label="Monster", names="monsters")  # one already in play
_IN_PLAY_IF = replace(_IN_PLAY, required=False, nullable=True)  # named only when a monster is the one concerned
_AMOUNT = Field("amount", "int", minimum=1, maximum=1000, label="Amount")
_ROLL = Field("roll", "int", minimum=1, maximum=20, label="d20")

# a condition marker put on or taken off a hero or a monster (condition_gained, condition_lost)
_CONDITION_FIELDS = (
    Field("target", "choice", choices=("hero", "monster"), choice_labels=("A hero", "A monster"), label="Target"),
    replace(_IN_PLAY_IF, label="Monster (when the target is a monster)"),
    Field("condition", "choice", choices=CONDITIONS, choice_labels=CONDITION_WORDS, label="Condition"),
)

EVENT_TYPES: dict[str, EventType] = {
    e.name: e
    for e in (
        _et(
            HERO_PHASE_STARTED,
            "Hero phase started",
            description="The seat's turn begins: poison damage, then a healing surge if the hero is at 0 HP.",
        ),
        _et(
            HERO_MOVED,
            "Hero moved",
            description="A move: the free move action, or the hero's one action spent on a second move "
            "(a stunned hero has lost the free move).",
        ),
        _et(
            ATTACK_ROLLED,
            "Attack rolled",
            Field(
                "attacker",
                "choice",
                choices=("hero", "monster"),
                choice_labels=("A hero", "A monster"),
                label="Who attacks",
            ),
            replace(_IN_PLAY_IF, label="Monster (when a monster attacks)"),
            Field(
                "rolls",
                "list",
                item=_ROLL,
                min_items=1,
                max_items=2,
                label="d20 rolls",
                help="One roll; two with Advantage or Disadvantage.",
            ),
            Field(
                "same_attack",
                "bool",
                required=False,
                default=False,
                label="Another roll of the same attack",
                help="Tick for the next target of an attack that rolls once per target; the hero's action "
                "is not spent again.",
            ),
            seat=False,
            hero_if="when a hero attacks",
            description="Two rolls with Advantage (higher counts) or Disadvantage (lower counts), else one; the "
            "marker is discarded.",
        ),
        _et(POISON_ROLL_MADE, "Poison roll made", _ROLL, description="End of a poisoned hero's phase: 10+ cures."),
        _et(HERO_PHASE_ENDED, "Hero phase ended", description="Stunned is discarded; exploration follows."),
        _et(
            VILLAIN_PHASE_ENDED,
            "Villain phase ended",
            description="Exploration and villain phase are over; the next seat's turn begins.",
        ),
        _et(DAMAGE_TAKEN, "Damage taken", _AMOUNT, description="The seat's hero loses HP (not below 0)."),
        _et(HP_HEALED, "HP healed", _AMOUNT, description="The seat's hero regains HP (not above maximum)."),
        _et(
            CONDITION_GAINED,
            "Condition gained",
            *_CONDITION_FIELDS,
            seat=False,
            hero_if="when the target is a hero",
        ),
        _et(
            CONDITION_LOST,
            "Condition removed",
            *_CONDITION_FIELDS,
            seat=False,
            hero_if="when the target is a hero",
            description="An effect (a card, a power) discards a marker.",
        ),
        _et(MONSTER_PLACED, "Monster placed", _MONSTER, seat=False, description="A monster figure enters play."),
        _et(
            MONSTER_ACTIVATED,
            "Monster activated",
            _IN_PLAY,
            seat=False,
            description="A stunned monster skips this activation and loses the marker.",
        ),
        _et(
            MONSTER_DEFEATED,
            "Monster defeated",
            _IN_PLAY,
            Field("xp", "int", minimum=0, maximum=100, label="Experience on its card"),
            seat=False,
            description="The monster leaves play; its experience goes to the party.",
        ),
        _et(
            ENCOUNTER_CANCELLED,
            "Encounter cancelled",
            Field("encounter", "str", max_length=NAME, label="Encounter card"),
            seat=False,
            description="Spends party experience to cancel an Encounter card.",
        ),
        _et(TREASURE_FOUND, "Treasure found", card_field(), description="The seat's hero takes a Treasure card."),
        _et(
            TREASURE_USED,
            "Treasure used up",
            Field("item", "str", max_length=NAME, label="Treasure card", names="treasure"),
            description="A Treasure card the hero held (found here or brought from the campaign) is spent or "
            "lost and does not carry over.",
        ),
        _et(GOLD_FOUND, "Gold found", _AMOUNT, description="A gold-piece Treasure card for the seat's hero."),
        _et(ADVENTURE_WON, "Adventure won", seat=False, description="The adventure's goal is met."),
        _et(
            ADVENTURE_LOST,
            "Adventure lost",
            Field("reason", "str", max_length=300, label="Why"),
            seat=False,
            description="The adventure's defeat condition happened (a hero at 0 HP with no surge is derived).",
        ),
    )
}

OPTIONS_SCHEMA: tuple[Field, ...] = (
    Field(
        "heroes",
        "list",
        required=False,
        default=[],
        max_items=5,
        label="Heroes, one per player",
        per_seat=True,
        item=Field(
            "hero",
            "object",
            fields=(
                Field("name", "str", max_length=NAME),
                Field("class", "str", max_length=NAME),
                Field("max_hp", "int", minimum=1, maximum=99),
                Field(
                    "surges",
                    "int",
                    required=False,
                    nullable=True,
                    minimum=1,
                    maximum=99,
                    help="Surge value on the Hero card: HP regained when this hero spends a healing surge.",
                ),
                Field(
                    "items",
                    "list",
                    required=False,
                    default=[],
                    max_items=100,
                    item=Field("card", "object", fields=CARD_FIELDS),
                    help="Treasure cards the hero brings from the campaign.",
                ),
            ),
        ),
    ),
    Field("healing_surges", "int", required=False, default=2, minimum=0, maximum=20, label="Healing surges"),
    Field(
        "surge_hp",
        "int",
        required=False,
        nullable=True,
        minimum=1,
        maximum=99,
        label="HP per healing surge",
        help="For heroes without a Surge value; empty: half the hero's maximum HP, rounded down (at least 1).",
    ),
    Field("adventure", "str", required=False, default="Adventure", max_length=NAME, label="Adventure"),
    Field("campaign_reward", "int", required=False, default=0, minimum=0, maximum=100_000, label="Reward (gp)"),
    Field(
        "encounter_cancel_xp",
        "int",
        required=False,
        default=5,
        minimum=1,
        maximum=100,
        label="Experience to cancel an Encounter card",
    ),
)
