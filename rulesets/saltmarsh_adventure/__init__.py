"""Ghosts of Saltmarsh adventure: one adventure played as a match, one seat per hero (heroes' HP, healing surges,
conditions, experience and treasure); see docs/rules/ghosts-of-saltmarsh.md for every interpretation.

The one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule names),
``rules.py`` (the seats, phases and turns entries need, one check per entry type), ``engine.py`` (the state and
one effect per entry type), and this module, the ruleset object that ties them together.
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, State, TurnInfo
from rulesets.saltmarsh_adventure import rules as adventure_rules
from rulesets.saltmarsh_adventure.engine import EFFECTS, end_words, new_state, norm
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
    OPTIONS_SCHEMA,
    OVER,
    POISON_ROLL_MADE,
    RULE_END,
    RULE_TURN,
    START,
    TREASURE_FOUND,
    TREASURE_USED,
    VILLAIN,
    VILLAIN_PHASE_ENDED,
)

__all__ = ["RULESET", "SaltmarshAdventure"]


class SaltmarshAdventure(Ruleset):
    """One adventure as a match: see docs/rules/ghosts-of-saltmarsh.md for every interpretation."""

    describe_uses_state = True  # the history names the heroes of the state, not the players
    main_options = ("heroes",)  # every adventure names its heroes, their classes and HP
    slug = "saltmarsh-adventure"
    name = "Ghosts of Saltmarsh (adventure)"
    seats = (1, 2, 3, 4, 5)
    version = 3  # 3: an overridden Encounter cancel without the XP is unplayable, not clamped (issue 22)
    # kept by version for matches recorded under it (docs/rules/ghosts-of-saltmarsh.md › Rule versions)
    rule_changes = {3: "an Encounter cancelled under a house rule without the XP would be refused"}
    kind = "match"
    rulebook = "ghosts-of-saltmarsh.txt"
    options_schema = OPTIONS_SCHEMA
    event_types = EVENT_TYPES
    rules = adventure_rules.RULES
    effects = EFFECTS
    over_rule = RULE_END
    turn_rule = RULE_TURN

    def check_options(self, options: dict[str, Any]) -> list[str]:
        """Hero names must differ (case-insensitive)."""
        seen: set[str] = set()
        problems = []
        for hero in options.get("heroes") or []:
            key = norm(str(hero.get("name", "")))
            if key in seen:
                problems.append(f"Two heroes are called {hero.get('name')}; give each hero its own name.")
            seen.add(key)
        return problems

    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        """Seat i plays ``heroes[i]`` at full HP; seats the options do not describe get a default hero."""
        return new_state(options, seat_count)

    # -- the hooks of the one shape (the order is the base's: game over → entry → phase → turn → data → move)
    def over_words(self, state: State, ended: Outcome) -> str:
        return f"The adventure is over: {end_words(state)}"

    def seat_count(self, state: State) -> int:
        """One seat per hero."""
        return len(state["heroes"])

    def check_entry(self, state: State, event: Event) -> EventType:
        """``unknown_event``, ``no_such_seat``, ``seat_required`` (a hero's attack or a
        condition on a hero needs the seat before the phase is checked)."""
        return adventure_rules.check_entry(state, event)

    def check_phase(self, state: State, event: Event) -> None:
        adventure_rules.check_phase(state, event)

    def check_turn(self, state: State, event: Event) -> None:
        """The turn entries come from the active seat; the refusal names its hero."""
        adventure_rules.check_turn(state, event)

    def check_data(self, spec: EventType, event: Event) -> dict[str, Any]:
        """The fields' check, after the rulebook's own refusal of a blank reason for a loss (as before the one
        shape, when the rules ran on the data as recorded: ``reason_required``, not ``invalid_payload``)."""
        adventure_rules.need_reason(event)
        return super().check_data(spec, event)

    def clone(self, state: State) -> State:
        """A deep copy without the previous entry's notices (each entry keeps only what it derived)."""
        new = copy.deepcopy(state)
        new["notices"] = []
        return new

    # -- reading the state ----------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """All seats win together on a win; nobody wins on a loss; no scores."""
        if state["result"] is None:
            return None
        if state["result"] == "won":
            return Outcome(winners=tuple(range(len(state["heroes"]))), reason=state["reason"])
        return Outcome(winners=(), reason=state["reason"])

    def legal_moves(self, state: State) -> list[Event] | None:
        """None: die rolls, amounts, monster and card names are free data that cannot be listed."""
        return None

    def names(self, state: State, seat: int | None) -> dict[str, list[str]]:
        """``monsters``: the monsters in play; ``treasure``: the cards held by ``seat``'s hero (the active one
        when ``seat`` is None)."""
        heroes = state["heroes"]
        hero = heroes[seat if seat is not None and 0 <= seat < len(heroes) else state["active"]] if heroes else {}
        return {
            "monsters": list(dict.fromkeys(m["name"] for m in state["monsters"])),
            "treasure": list(dict.fromkeys(i["name"] for i in hero.get("items", []))),
        }

    def turn(self, state: State) -> TurnInfo:
        """The active seat and its phase: ``start``, ``hero``, ``villain`` (exploration + villain) or ``over``."""
        if state["result"] is not None:
            words = end_words(state)
            return TurnInfo(seats=(), phase=OVER, prompt=words[0].upper() + words[1:])
        seat = state["active"]
        hero = state["heroes"][seat]
        name = hero["name"]  # the hero, not the seat: the turn line names the player in front (TurnInfo)
        if state["phase"] == HERO and state["poison_rolled"]:
            hero_phase = f"end {name}'s Hero Phase (the poison roll is made)"
        elif state["phase"] == HERO and "poisoned" in hero["conditions"]:
            hero_phase = f"play {name}'s Hero Phase, roll against poison, then end the phase"
        else:
            hero_phase = f"play {name}'s Hero Phase, then end it"
        prompts = {
            START: f"start {name}'s Hero Phase",
            HERO: hero_phase,
            VILLAIN: f"play {name}'s Exploration and Villain Phase, then end it",
        }
        return TurnInfo(seats=(seat,), phase=state["phase"], prompt=prompts[state["phase"]])

    def insights(self, state: State) -> dict[str, Any]:
        """Adventure success: won or lost, per adventure."""
        if state.get("result") is None:
            return {}
        return {"adventure result": state["result"], "adventure": state.get("adventure", "")}

    def warnings(self, state: State) -> list[str]:
        """Setup problems (heroes described for a different number of seats)."""
        return list(state.get("setup_notes", []))

    def seat_words(self, state: State, seat_names: list[str]) -> list[str]:
        """Each seat's hero, with the player when the names differ: "Kara (Ana)"."""
        heroes = state.get("heroes") or []
        out = []
        for i, player in enumerate(seat_names):
            hero = str(heroes[i].get("name") or "") if i < len(heroes) else ""
            out.append(player if not hero else hero if norm(hero) == norm(player) else f"{hero} ({player})")
        return out

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One plain sentence per entry; with ``before`` (the state it was recorded on) a seat is named by its
        hero ("Kara attacked"), else by ``seat_names``."""
        heroes = (before or {}).get("heroes") or []
        if heroes:
            seat_names = [str(h.get("name") or n) for h, n in zip(heroes, seat_names, strict=False)] + list(
                seat_names[len(heroes) :]
            )
        who = seat_names[event.seat] if event.seat is not None and event.seat < len(seat_names) else "The table"
        sentence = _sentence(event, who)
        return sentence if sentence is not None else super().describe(event, seat_names)


def _sentence(event: Event, who: str) -> str | None:
    """The history's sentence for ``event``, its seat called ``who``; None for an entry the game does not have."""
    d, t = event.data, event.type
    if t == ATTACK_ROLLED:
        attacker = who if d.get("attacker") == "hero" else d.get("monster")
        return f"{attacker} attacked, rolling {', '.join(str(r) for r in d.get('rolls', []))}."
    if t in (CONDITION_GAINED, CONDITION_LOST):
        target = who if d.get("target") == "hero" else d.get("monster")
        verb = "became" if t == CONDITION_GAINED else "is no longer"
        return f"{target} {verb} {str(d.get('condition')).capitalize()}."
    words = {
        HERO_PHASE_STARTED: lambda: f"{who} started the Hero Phase.",
        HERO_MOVED: lambda: f"{who} moved.",
        POISON_ROLL_MADE: lambda: f"{who} rolled {d.get('roll')} against poison.",
        HERO_PHASE_ENDED: lambda: f"{who} ended the Hero Phase.",
        VILLAIN_PHASE_ENDED: lambda: f"{who} ended the Villain Phase.",
        DAMAGE_TAKEN: lambda: f"{who} took {d.get('amount')} damage.",
        HP_HEALED: lambda: f"{who} healed {d.get('amount')} HP.",
        MONSTER_PLACED: lambda: f"{d.get('monster')} entered play.",
        MONSTER_ACTIVATED: lambda: f"{d.get('monster')} activated.",
        MONSTER_DEFEATED: lambda: f"{d.get('monster')} was defeated ({d.get('xp')} XP).",
        ENCOUNTER_CANCELLED: lambda: f"The party spent experience to cancel {d.get('encounter')}.",
        TREASURE_FOUND: lambda: f"{who} found {d.get('item', {}).get('name')}.",
        TREASURE_USED: lambda: f"{who} used up {d.get('item')}.",
        GOLD_FOUND: lambda: f"{who} found {d.get('amount')} gp.",
        ADVENTURE_WON: lambda: "The party won the adventure.",
        ADVENTURE_LOST: lambda: f"The party lost the adventure: {d.get('reason')}",
    }
    said = words.get(t)
    return said() if said is not None else None


RULESET = SaltmarshAdventure()
