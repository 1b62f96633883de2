"""The First Spine's card vocabulary and the default card list (invented here: the rulebook prints none)."""

from __future__ import annotations

import copy
from typing import Any

KINDS: tuple[str, ...] = ("creature", "artifact", "spell")
SIDES: tuple[str, ...] = ("front", "right", "back", "left")
# Card capacities in the rulebook's priority order ("The capacities", "Multiple abilities ... at the same time").
CAPACITIES: tuple[str, ...] = ("death", "treason", "run", "burden_earth", "growth")
SIDE_CAPACITIES: tuple[str, ...] = ("threat", "aura")
DESTINIES: tuple[str, ...] = ("conjurer", "summoner", "sorcerer", "hunter")
ORIGINS: tuple[str, ...] = ("healer", "architect", "priest", "blacksmith")
# The rulebook's words for a form's options (capitalised as the rulebook writes them).
KIND_WORDS: tuple[str, ...] = tuple(k.capitalize() for k in KINDS)
DESTINY_WORDS: tuple[str, ...] = tuple(d.capitalize() for d in DESTINIES)
ORIGIN_WORDS: tuple[str, ...] = tuple(o.capitalize() for o in ORIGINS)

GROWTH_TURNS = 5  # "The card wins 1 each owner's turn for 5 turns."
AURA_BONUS = 2  # "... wins 2 for all sides as long as it is controlled by the same player."
WIZARD = "Wizard"

CAPACITY_WORDS = {
    "death": "Death",
    "treason": "Treason",
    "run": "Run",
    "burden_earth": "Burden earth",
    "growth": "Growth",
    "threat": "Threat",
    "aura": "Aura",
}


def _sides(front: int, right: int, back: int, left: int) -> dict[str, int]:
    return {"front": front, "right": right, "back": back, "left": left}


def _card(
    name: str,
    kind: str,
    hp: int,
    attack: tuple[int, int, int, int],
    defense: tuple[int, int, int, int],
    *,
    capacities: tuple[str, ...] = (),
    side_capacities: dict[str, str] | None = None,
    origin: str | None = None,
    text: str = "",
) -> dict[str, Any]:
    return {
        "name": name,
        "kind": kind,
        "hp": hp,
        "attack": _sides(*attack),
        "defense": _sides(*defense),
        "capacities": list(capacities),
        "side_capacities": dict(side_capacities or {}),
        "origin": origin,
        "text": text,
    }


_DEFAULT_CARDS: list[dict[str, Any]] = [
    # The two cards of the rulebook's confrontation example, with the numbers it gives: the Paladin
    # (attack 3, defense 2 on the side facing the Barbed Wire, 4 hp so that it "stays in play with 2").
    _card("Paladin", "creature", 4, (3, 1, 0, 1), (2, 1, 1, 1), text="The rulebook's example creature."),
    _card("Barbed Wire", "artifact", 3, (4, 4, 4, 4), (0, 0, 0, 0), text="The rulebook's example artifact."),
    _card("Squire", "creature", 3, (2, 1, 0, 1), (1, 1, 0, 1)),
    _card("Grey Wolf", "creature", 3, (2, 1, 1, 1), (1, 0, 0, 0), capacities=("run",)),
    _card("Ghoul", "creature", 2, (2, 1, 1, 1), (0, 0, 0, 0), capacities=("death",)),
    _card("Turncoat", "creature", 3, (2, 1, 0, 1), (1, 1, 1, 1), capacities=("treason",)),
    _card("Stone Golem", "creature", 6, (2, 1, 1, 1), (2, 2, 2, 2), capacities=("burden_earth",)),
    _card("Sapling", "creature", 1, (1, 0, 0, 0), (1, 1, 1, 1), capacities=("growth",)),
    _card("Spearman", "creature", 3, (3, 2, 0, 2), (1, 1, 0, 1), side_capacities={"right": "threat", "left": "threat"}),
    _card("Standard Bearer", "creature", 3, (1, 1, 0, 1), (1, 1, 1, 1), side_capacities={"back": "aura"}),
    _card("Watchtower", "artifact", 5, (2, 0, 0, 0), (2, 2, 2, 2), side_capacities={"front": "threat"}),
    _card("Fireball", "spell", 1, (0, 0, 0, 0), (0, 0, 0, 0), text="Deals 3 to one card (record it as hp_changed)."),
    # Six origin cards each (two designs per origin; a deck holds several copies).
    _card("Healing Light", "spell", 1, (0, 0, 0, 0), (0, 0, 0, 0), origin="healer", text="Heals 3 (hp_changed +3)."),
    _card("Shield Maiden", "creature", 4, (1, 1, 0, 1), (3, 3, 2, 3), origin="healer"),
    _card("Rampart", "artifact", 6, (0, 0, 0, 0), (3, 3, 3, 3), origin="architect", capacities=("burden_earth",)),
    _card("Surveyor", "creature", 3, (2, 1, 1, 1), (1, 1, 1, 1), origin="architect", capacities=("run",)),
    _card("Martyr", "creature", 2, (3, 1, 1, 1), (0, 0, 0, 0), origin="priest", capacities=("death", "treason")),
    _card("Pain Ritual", "spell", 1, (0, 0, 0, 0), (0, 0, 0, 0), origin="priest", text="Deals 2 to one card."),
    _card(
        "Anvil Guard", "creature", 4, (2, 1, 1, 1), (2, 2, 2, 2), origin="blacksmith", side_capacities={"front": "aura"}
    ),
    _card("Deadly Hammer", "creature", 3, (5, 1, 0, 1), (1, 0, 0, 0), origin="blacksmith"),
]


def default_cards() -> list[dict[str, Any]]:
    """A fresh copy of the default card list (the project's own invention, documented in the rules doc)."""
    return copy.deepcopy(_DEFAULT_CARDS)
