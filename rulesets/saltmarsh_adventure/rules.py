"""A Saltmarsh adventure's rules: the seats, phases and turns its entries need, and one check per entry type
(run after the common checks of ``rulesets.base``, on data cleaned by the entry's fields)."""

from __future__ import annotations

from rulesets.base import ENTRIES_RULE, Event, EventType, RuleViolation, State, unknown_event
from rulesets.saltmarsh_adventure.engine import find_monster, norm
from rulesets.saltmarsh_adventure.fields import (
    ADVENTURE_LOST,
    ADVENTURE_WON,
    ATTACK_ROLLED,
    CONDITION_GAINED,
    CONDITION_LOST,
    DAMAGE_TAKEN,
    ENCOUNTER_CANCELLED,
    EVENT_TYPES,
    GOLD_FOUND,
    HERO,
    HERO_MOVED,
    HERO_PHASE_ENDED,
    HERO_PHASE_STARTED,
    HP_HEALED,
    MONSTER_ACTIVATED,
    MONSTER_DEFEATED,
    MONSTER_PLACED,
    POISON_ROLL_MADE,
    RULE_ACTIONS,
    RULE_ADVANTAGE,
    RULE_CONDITIONS,
    RULE_DISADVANTAGE,
    RULE_END,
    RULE_MONSTERS,
    RULE_POISONED,
    RULE_STUNNED,
    RULE_TREASURE,
    RULE_TURN,
    RULE_XP,
    START,
    TREASURE_FOUND,
    TREASURE_USED,
    VILLAIN,
    VILLAIN_PHASE_ENDED,
)

GAME_WORDS = "A Saltmarsh adventure"  # how the unknown_event refusal names the game

# entry type → the phase it belongs to and what it is, in the wrong_phase refusal's words
PHASES: dict[str, tuple[str, str]] = {
    HERO_PHASE_STARTED: (START, "A new Hero Phase"),
    HERO_MOVED: (HERO, "Moving"),
    POISON_ROLL_MADE: (HERO, "The poison roll"),
    HERO_PHASE_ENDED: (HERO, "Ending the Hero Phase"),
    VILLAIN_PHASE_ENDED: (VILLAIN, "Ending the Villain Phase"),
    MONSTER_ACTIVATED: (VILLAIN, "A monster activation"),
    ENCOUNTER_CANCELLED: (VILLAIN, "Drawing (and cancelling) an Encounter card"),
}
HERO_ATTACK = (HERO, "A hero's attack")
MONSTER_ATTACK = (VILLAIN, "A monster's attack")
PHASE_WORDS = {START: "before a Hero Phase has started", HERO: "in a Hero Phase", VILLAIN: "in a Villain Phase"}

# the turn entries: made by the active seat only (a hero's attack too, see on_turn)
TURN_ENTRIES = frozenset({HERO_PHASE_STARTED, HERO_MOVED, POISON_ROLL_MADE, HERO_PHASE_ENDED, VILLAIN_PHASE_ENDED})

# entries naming a hero only in some cases: the data key and value saying so, the refusal without a seat
HERO_NAMED: dict[str, tuple[str, str, str]] = {
    ATTACK_ROLLED: ("attacker", "Say which hero attacks (choose a seat).", RULE_TURN),
    CONDITION_GAINED: ("target", "Say which hero (choose a seat).", RULE_CONDITIONS),
    CONDITION_LOST: ("target", "Say which hero (choose a seat).", RULE_CONDITIONS),
}


def _v(code: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(code, message, rule)


def _hero_attacks(event: Event) -> bool:
    return event.type == ATTACK_ROLLED and isinstance(event.data, dict) and event.data.get("attacker") == "hero"


# -- the common checks, as this game words them --------------------------------------------------------
def check_entry(state: State, event: Event) -> EventType:
    """A known entry (``unknown_event``), a seat the adventure has (``no_such_seat``), and a seat wherever the
    entry is about a hero (``seat_required``): always for a hero's entry, else when its data names a hero."""
    spec = EVENT_TYPES.get(event.type)
    if spec is None:
        raise unknown_event(GAME_WORDS, event.type)
    n, seat = len(state["heroes"]), event.seat
    if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
        raise _v("no_such_seat", f"This adventure has seats 0 to {n - 1}; {seat!r} is not one of them.", ENTRIES_RULE)
    if spec.seat_required and seat is None:
        raise _v("seat_required", "Say which hero this entry is about (choose a seat).", ENTRIES_RULE)
    named = HERO_NAMED.get(event.type)
    if named is not None and seat is None and isinstance(event.data, dict) and event.data.get(named[0]) == "hero":
        raise _v("seat_required", named[1], named[2])
    return spec


def phase_of(event: Event) -> tuple[str, str] | None:
    """The phase ``event`` belongs to and what it is in words; None for entries about any moment of play."""
    if event.type == ATTACK_ROLLED:
        return HERO_ATTACK if _hero_attacks(event) else MONSTER_ATTACK
    return PHASES.get(event.type)


def check_phase(state: State, event: Event) -> None:
    """The turn entries come in their order; a monster acts and Encounters are drawn in the Villain Phase."""
    need = phase_of(event)
    if need is not None and state["phase"] != need[0]:
        raise _v("wrong_phase", f"{need[1]} happens {PHASE_WORDS[need[0]]}; it is not that moment now.", RULE_TURN)


def on_turn(event: Event) -> bool:
    """Whether only the active seat may make ``event``: the turn entries and a hero's attack."""
    return event.type in TURN_ENTRIES or _hero_attacks(event)


def check_turn(state: State, event: Event) -> None:
    """A turn entry comes from the active seat, named by its hero (``not_your_turn``)."""
    if on_turn(event) and event.seat != state["active"]:
        hero = state["heroes"][state["active"]]["name"]
        raise _v("not_your_turn", f"It is {hero}'s turn.", RULE_TURN)


# -- helpers of the moves --------------------------------------------------------------------------
def _phase_open(state: State) -> None:
    """After the poison roll only ending the Hero Phase is left."""
    if state["poison_rolled"]:
        raise _v(
            "hero_phase_ending",
            "The poison roll has been made at the end of this Hero Phase; only ending the phase is left.",
            RULE_POISONED,
        )


def _need_action(state: State, seat: int, what: str) -> None:
    """A Hero Phase is a move action plus one action (an attack, or a second move); Stunned loses the move."""
    hero = state["heroes"][seat]
    stunned = "stunned" in hero["conditions"]
    taken = state["actions"]
    if len(taken) >= (1 if stunned else 2):
        if stunned:
            raise _v(
                "no_action_left",
                f"{hero['name']} is Stunned and has lost the free move action: the one action left this "
                f"Hero Phase is spent ({taken[0]}).",
                RULE_STUNNED,
            )
        raise _v(
            "no_action_left",
            f"{hero['name']} has used the move action and the action of this Hero Phase ({', '.join(taken)}).",
            RULE_ACTIONS,
        )
    if what == "attack" and "attack" in taken:
        raise _v(
            "already_attacked",
            f"{hero['name']} has already attacked this Hero Phase: the phase is a move and one action "
            "(or two moves). Tick 'Another roll of the same attack' for the next target of that attack.",
            RULE_ACTIONS,
        )


def _need_monster(state: State, name: str | None) -> int:
    """The index of the named monster in play (``monster_required``, ``unknown_monster``)."""
    if not name:
        raise _v("monster_required", "Name the monster.", RULE_MONSTERS)
    idx = find_monster(state, name)
    if idx is None:
        raise _v("unknown_monster", f"No monster called {name} is in play.", RULE_MONSTERS)
    return idx


def _condition_holder(state: State, event: Event) -> list[str]:
    """The markers of the hero or monster a condition entry is about (only heroes can be Poisoned)."""
    data = event.data
    if data["target"] == "hero":
        return state["heroes"][event.seat]["conditions"]
    if data["condition"] == "poisoned":
        raise _v("monster_not_poisonable", "Only Heroes can be Poisoned.", RULE_POISONED)
    return state["monsters"][_need_monster(state, data.get("monster"))]["conditions"]


# -- one check per entry type -----------------------------------------------------------------------
def accept(state: State, event: Event) -> None:
    """Nothing to check beyond the common checks (phase and turn included)."""


def check_hero_moved(state: State, event: Event) -> None:
    """A move spends the free move or the phase's one action."""
    _phase_open(state)
    assert event.seat is not None
    _need_action(state, event.seat, "move")


def _hero_attack(state: State, event: Event) -> tuple[list[str], str]:
    assert event.seat is not None
    _phase_open(state)
    who = state["heroes"][event.seat]["name"]
    if event.data.get("same_attack"):
        if not state["actions"] or state["actions"][-1] != "attack":
            raise _v(
                "no_attack_to_continue",
                f"{who} has no attack under way to roll again for; record the attack itself first.",
                RULE_ACTIONS,
            )
    else:
        _need_action(state, event.seat, "attack")
    return state["heroes"][event.seat]["conditions"], who


def _monster_attack(state: State, event: Event) -> tuple[list[str], str]:
    monster = state["monsters"][_need_monster(state, event.data.get("monster"))]
    act = state["activation"]
    if act is None or norm(act["monster"]) != norm(monster["name"]):
        raise _v(
            "monster_not_activated",
            f"{monster['name']} attacks during its activation: record monster_activated first.",
            RULE_TURN,
        )
    if act["skipped"]:
        raise _v(
            "monster_skipped",
            f"{monster['name']} was Stunned and skips this activation: it does nothing.",
            RULE_STUNNED,
        )
    return monster["conditions"], monster["name"]


def check_attack_rolled(state: State, event: Event) -> None:
    """A hero attacks once per Hero Phase, a monster during its activation; two rolls with Advantage or
    Disadvantage, else one."""
    conditions, who = _hero_attack(state, event) if event.data["attacker"] == "hero" else _monster_attack(state, event)
    rolls = event.data["rolls"]
    need = 2 if ("advantage" in conditions or "disadvantage" in conditions) else 1
    if len(rolls) != need:
        why = "has Advantage or Disadvantage: roll twice" if need == 2 else "rolls once"
        rule = RULE_ADVANTAGE if "advantage" in conditions else RULE_DISADVANTAGE
        raise _v("wrong_roll_count", f"{who} {why}.", rule)
    if any(not (1 <= r <= 20) for r in rolls):
        raise _v("bad_roll", "A d20 shows 1 to 20.", RULE_TURN)


def check_poison_roll_made(state: State, event: Event) -> None:
    """Only a Poisoned hero rolls, once, at the end of the Hero Phase."""
    _phase_open(state)
    hero = state["heroes"][event.seat]
    if "poisoned" not in hero["conditions"]:
        raise _v("not_poisoned", f"{hero['name']} is not Poisoned.", RULE_POISONED)


def check_hero_phase_ended(state: State, event: Event) -> None:
    """A Poisoned hero rolls against the poison first."""
    hero = state["heroes"][event.seat]
    if "poisoned" in hero["conditions"] and not state["poison_rolled"]:
        raise _v(
            "poison_roll_needed",
            f"{hero['name']} is Poisoned: roll the die at the end of the Hero Phase (poison_roll_made) first.",
            RULE_POISONED,
        )


def check_condition_gained(state: State, event: Event) -> None:
    """A hero, or a monster in play (never Poisoned)."""
    _condition_holder(state, event)


def check_condition_lost(state: State, event: Event) -> None:
    """Only a marker held can be discarded."""
    if event.data["condition"] not in _condition_holder(state, event):
        raise _v(
            "condition_absent",
            f"There is no {event.data['condition'].capitalize()} marker to discard.",
            RULE_CONDITIONS,
        )


def check_monster_placed(state: State, event: Event) -> None:
    """Names differ among the monsters in play."""
    if find_monster(state, event.data["monster"]) is not None:
        raise _v(
            "duplicate_monster",
            f"A monster called {event.data['monster']} is already in play; number the figures (e.g. 'Kobold 2').",
            RULE_MONSTERS,
        )


def check_monster_in_play(state: State, event: Event) -> None:
    """The monster is in play."""
    _need_monster(state, event.data["monster"])


def check_encounter_cancelled(state: State, event: Event) -> None:
    """The party has the experience the cancel costs."""
    cost = state["encounter_cancel_xp"]
    if state["xp"] < cost:
        raise _v("not_enough_xp", f"Cancelling an Encounter costs {cost} XP; the party has {state['xp']}.", RULE_XP)


def check_treasure_used(state: State, event: Event) -> None:
    """The hero holds the card."""
    hero = state["heroes"][event.seat]
    key = norm(event.data["item"])
    if not any(norm(i["name"]) == key for i in hero["items"]):
        raise _v("item_not_held", f"{hero['name']} holds no {event.data['item']}.", RULE_TREASURE)


def need_reason(event: Event) -> None:
    """A lost adventure says why (``reason_required``): the rulebook's refusal, said before the data's fields
    are checked (a blank reason does not fit them either)."""
    reason = event.data.get("reason") if isinstance(event.data, dict) else None
    if event.type == ADVENTURE_LOST and isinstance(reason, str) and not reason.strip():
        raise _v("reason_required", "Say why the adventure was lost.", RULE_END)


def check_adventure_lost(state: State, event: Event) -> None:
    """The table says why."""
    need_reason(event)


RULES = {
    HERO_PHASE_STARTED: accept,
    HERO_MOVED: check_hero_moved,
    ATTACK_ROLLED: check_attack_rolled,
    POISON_ROLL_MADE: check_poison_roll_made,
    HERO_PHASE_ENDED: check_hero_phase_ended,
    VILLAIN_PHASE_ENDED: accept,
    DAMAGE_TAKEN: accept,
    HP_HEALED: accept,
    CONDITION_GAINED: check_condition_gained,
    CONDITION_LOST: check_condition_lost,
    MONSTER_PLACED: check_monster_placed,
    MONSTER_ACTIVATED: check_monster_in_play,
    MONSTER_DEFEATED: check_monster_in_play,
    ENCOUNTER_CANCELLED: check_encounter_cancelled,
    TREASURE_FOUND: accept,
    TREASURE_USED: check_treasure_used,
    GOLD_FOUND: accept,
    ADVENTURE_WON: accept,
    ADVENTURE_LOST: check_adventure_lost,
}
