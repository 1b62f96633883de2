"""The default Salt & Bones catalog (board layout, attack cards, strategy cards) as plain JSON data."""

from __future__ import annotations

import copy
from typing import Any

# Attack card bonus effects the rules engine knows (the catalog picks one per card).
ATTACK_BONUSES: tuple[str, ...] = (
    "none",  # plain card
    "chain",  # playable right after another card on your turn if you have Momentum
    "stops_chain",  # no Chain card may follow it
    "extra_instances",  # Flourish: `bonus_instances` extra damage instances of `bonus_damage` each
    "parry",  # Advance Into Parry: Parry is active on your next turn
    "riposte",  # Lunge/Riposte: + `bonus_damage` to its damage instance while your Parry is active
    "forced_disengage",  # your opponent must disengage at the start of their next turn
)

STRATEGY_TYPES: tuple[str, ...] = ("INSTINCT", "EQUIPMENT", "GAMBIT")
ACTIVATIONS: tuple[str, ...] = ("automatic", "choice")

# Effects that trigger by themselves (EQUIPMENT, or INSTINCT with activation "automatic").
AUTOMATIC_EFFECTS: tuple[str, ...] = (
    "negate_first_instance",  # Bracer: negates the first damage instance you take
    "extra_instance",  # Razor Oil: one extra damage instance of `amount` when you play an attack card
)
# Effects an INSTINCT is played for by choice.
CHOICE_EFFECTS: tuple[str, ...] = (
    "negate_chosen_instance",  # Anticipation: negates one damage instance you choose
    "unnegatable",  # Overwhelm: your attack's damage instances cannot be negated
    "negate_card",  # Condescend: negates an opponent's Chain card or INSTINCT card
    "none",  # no rules effect (flavour only)
)
# Effects of a GAMBIT, in force for both players for the whole Combat Phase.
GAMBIT_EFFECTS: tuple[str, ...] = (
    "negate_chains_and_instincts",  # Test of Will
    "no_negation",  # Test of Pain
    "increase_instances",  # Test of Skill: + `amount` to every damage instance
    "extra_turn_on_disengage",  # Test of Courage
    "none",
)
STRATEGY_EFFECTS: tuple[str, ...] = tuple(dict.fromkeys(AUTOMATIC_EFFECTS + CHOICE_EFFECTS + GAMBIT_EFFECTS))

# Player Board slots: slot name → (card type it holds, capacity).
SLOTS: dict[str, tuple[str, int]] = {
    "instinct": ("INSTINCT", 3),
    "equipment": ("EQUIPMENT", 2),
    "gambit": ("GAMBIT", 1),
}

# The rulebook's words for a form's options, one per value above.
ATTACK_BONUS_WORDS: dict[str, str] = {
    "none": "None (a plain card)",
    "chain": "Chain",
    "stops_chain": "Stops chain",
    "extra_instances": "Extra damage instances (Flourish)",
    "parry": "Parry next turn (Advance Into Parry)",
    "riposte": "Riposte (while your Parry is active)",
    "forced_disengage": "Forces a disengage",
}
STRATEGY_TYPE_WORDS: dict[str, str] = {"INSTINCT": "INSTINCT", "EQUIPMENT": "EQUIPMENT", "GAMBIT": "GAMBIT"}
ACTIVATION_WORDS: dict[str, str] = {"automatic": "Automatic (activation condition)", "choice": "When you choose"}
STRATEGY_EFFECT_WORDS: dict[str, str] = {
    "negate_first_instance": "Negates the first damage instance you take (Bracer)",
    "extra_instance": "One extra damage instance (Razor Oil)",
    "negate_chosen_instance": "Negates a damage instance you choose (Anticipation)",
    "unnegatable": "Your damage instances cannot be negated (Overwhelm)",
    "negate_card": "Negates a Chain or INSTINCT card (Condescend)",
    "none": "No rules effect",
    "negate_chains_and_instincts": "Negates every Chain and INSTINCT card (Test of Will)",
    "no_negation": "No damage instance can be negated (Test of Pain)",
    "increase_instances": "Every damage instance is increased (Test of Skill)",
    "extra_turn_on_disengage": "An extra turn before a disengage (Test of Courage)",
}
SLOT_WORDS: dict[str, str] = {"instinct": "INSTINCT slot", "equipment": "EQUIPMENT slot", "gambit": "GAMBIT slot"}
CARD_KIND_WORDS: dict[str, str] = {"attack": "Attack Card", "strategy": "Strategy Card"}

DEFAULT_DECKS: dict[str, int] = {"attack": 40, "strategy": 40, "field": 10}


def _attack(
    name: str,
    copies: int,
    attack: int,
    opportunity: int,
    bonus: str = "none",
    *,
    bonus_damage: int = 0,
    bonus_instances: int = 0,
    text: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "copies": copies,
        "attack": attack,
        "opportunity": opportunity,
        "bonus": bonus,
        "bonus_damage": bonus_damage,
        "bonus_instances": bonus_instances,
        "text": text,
    }


def _strategy(
    name: str,
    copies: int,
    type_: str,
    activation: str,
    effect: str,
    *,
    amount: int = 0,
    destroyed: bool = False,
    text: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "copies": copies,
        "type": type_,
        "activation": activation,
        "effect": effect,
        "amount": amount,
        "destroyed_at_round_end": destroyed,
        "text": text,
    }


def default_board() -> dict[str, Any]:
    """The 6 × 6 Field Board: grey corners, the four centre tiles; cells are ``[row, col]`` from 0."""
    return {
        "rows": 6,
        "cols": 6,
        "grey": [[0, 0], [0, 5], [5, 0], [5, 5]],
        "centre": [[2, 2], [2, 3], [3, 2], [3, 3]],
    }


def default_attack_cards() -> list[dict[str, Any]]:
    """Attack cards: the three the rulebook names plus plain, Chain, stops-chain and forced-disengage cards.

    Values and copies are this project's defaults (the rulebook prints no card list); 40 copies in all.
    """
    return [
        _attack("Slash", 8, 3, 1, text="A plain cut."),
        _attack("Thrust", 6, 2, 2, text="A plain thrust."),
        _attack("Feint", 6, 1, 2, "chain", text="Chain."),
        _attack("Quick Cut", 6, 2, 1, "chain", text="Chain."),
        _attack("Heavy Blow", 4, 4, 0, "stops_chain", text="Stops chain."),
        _attack(
            "Flourish",
            3,
            2,
            1,
            "extra_instances",
            bonus_damage=1,
            bonus_instances=2,
            text="Creates 2 additional damage instances of 1 (not increased by Opportunity Values).",
        ),
        _attack("Advance Into Parry", 3, 1, 2, "parry", text="Parry is active for your next turn."),
        _attack(
            "Lunge/Riposte",
            3,
            3,
            1,
            "riposte",
            bonus_damage=2,
            text="While your Parry is active: +2 to this card's damage instance (Riposte).",
        ),
        _attack(
            "Disarm", 1, 1, 1, "forced_disengage", text="Your opponent must disengage at the start of their next turn."
        ),
    ]


def default_strategy_cards() -> list[dict[str, Any]]:
    """Strategy cards: every one the rulebook names, with its effect; 40 copies in all."""
    return [
        _strategy(
            "Bracer",
            6,
            "EQUIPMENT",
            "automatic",
            "negate_first_instance",
            text="Automatically negates the first damage instance you take.",
        ),
        _strategy(
            "Razor Oil",
            6,
            "EQUIPMENT",
            "automatic",
            "extra_instance",
            amount=2,
            destroyed=True,
            text="When you play an Attack Card: one extra damage instance of 2. Destroyed when the round ends.",
        ),
        _strategy(
            "Anticipation",
            6,
            "INSTINCT",
            "choice",
            "negate_chosen_instance",
            text="Negate one damage instance of your choice.",
        ),
        _strategy(
            "Overwhelm",
            5,
            "INSTINCT",
            "choice",
            "unnegatable",
            text="The damage instances of the Attack Card you just played cannot be negated.",
        ),
        _strategy(
            "Condescend",
            5,
            "INSTINCT",
            "choice",
            "negate_card",
            text="Negate a Chain card or an INSTINCT card your opponent plays; it is discarded.",
        ),
        _strategy(
            "Test of Will",
            3,
            "GAMBIT",
            "automatic",
            "negate_chains_and_instincts",
            text="All Chain and INSTINCT cards played this combat are negated and discarded.",
        ),
        _strategy(
            "Test of Pain",
            3,
            "GAMBIT",
            "automatic",
            "no_negation",
            text="Damage negate cards (Bracer, Anticipation) cannot negate damage this combat.",
        ),
        _strategy(
            "Test of Skill",
            3,
            "GAMBIT",
            "automatic",
            "increase_instances",
            amount=1,
            text="Every damage instance this combat is increased by 1.",
        ),
        _strategy(
            "Test of Courage",
            3,
            "GAMBIT",
            "automatic",
            "extra_turn_on_disengage",
            text="A disengage succeeds only after the opponent takes one more turn.",
        ),
    ]


def default_catalog() -> dict[str, Any]:
    """Fresh JSON data for seeding editable catalogs: ``board``, ``attack_cards``, ``strategy_cards``, ``decks``."""
    return copy.deepcopy(
        {
            "board": default_board(),
            "attack_cards": default_attack_cards(),
            "strategy_cards": default_strategy_cards(),
            "decks": dict(DEFAULT_DECKS),
        }
    )
