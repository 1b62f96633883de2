"""One Ghosts of Saltmarsh adventure: heroes' HP, healing surges, conditions, experience and treasure."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulesets.base import (
    ENTRIES_RULE,
    Event,
    EventType,
    Outcome,
    Ruleset,
    RuleViolation,
    State,
    TurnInfo,
    unknown_event,
)
from rulesets.names import plural
from rulesets.saltmarsh.cards import CARD_FIELDS, card_field, treasure_card
from rulesets.schema import Field
from rulesets.versions import recorded_before

BOOK = "Ghosts of Saltmarsh"
R_BASE = f"{BOOK} › This Is an Expansion (base game rule)"
R_TURN = f"{R_BASE} › Turn order"
R_SURGE = f"{R_BASE} › Healing Surges"
R_ACTIONS = f"{R_BASE} › Hero Phase actions"
R_CONDITIONS = f"{BOOK} › Conditions"
R_ADVANTAGE = f"{R_CONDITIONS} › Condition: Advantage"
R_DISADVANTAGE = f"{R_CONDITIONS} › Condition: Disadvantage"
R_STUNNED = f"{R_CONDITIONS} › Condition: Stunned"
R_POISONED = f"{R_CONDITIONS} › Condition: Poisoned"
R_XP = f"{BOOK} › Experience Points"
R_TREASURE = f"{BOOK} › The Treasure Deck"
R_MONSTERS = f"{BOOK} › Tile Features › Monster Symbols"
R_END = f"{BOOK} › Playing the Campaign"

CONDITIONS = ("advantage", "disadvantage", "stunned", "poisoned")
CONDITION_WORDS = ("Advantage", "Disadvantage", "Stunned", "Poisoned")  # as the condition cards print them
OPPOSITE = {"advantage": "disadvantage", "disadvantage": "advantage"}

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
            "hero_phase_started",
            "Hero phase started",
            description="The seat's turn begins: poison damage, then a healing surge if the hero is at 0 HP.",
        ),
        _et(
            "hero_moved",
            "Hero moved",
            description="A move: the free move action, or the hero's one action spent on a second move "
            "(a stunned hero has lost the free move).",
        ),
        _et(
            "attack_rolled",
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
        _et("poison_roll_made", "Poison roll made", _ROLL, description="End of a poisoned hero's phase: 10+ cures."),
        _et("hero_phase_ended", "Hero phase ended", description="Stunned is discarded; exploration follows."),
        _et(
            "villain_phase_ended",
            "Villain phase ended",
            description="Exploration and villain phase are over; the next seat's turn begins.",
        ),
        _et("damage_taken", "Damage taken", _AMOUNT, description="The seat's hero loses HP (not below 0)."),
        _et("hp_healed", "HP healed", _AMOUNT, description="The seat's hero regains HP (not above maximum)."),
        _et(
            "condition_gained",
            "Condition gained",
            *_CONDITION_FIELDS,
            seat=False,
            hero_if="when the target is a hero",
        ),
        _et(
            "condition_lost",
            "Condition removed",
            *_CONDITION_FIELDS,
            seat=False,
            hero_if="when the target is a hero",
            description="An effect (a card, a power) discards a marker.",
        ),
        _et("monster_placed", "Monster placed", _MONSTER, seat=False, description="A monster figure enters play."),
        _et(
            "monster_activated",
            "Monster activated",
            _IN_PLAY,
            seat=False,
            description="A stunned monster skips this activation and loses the marker.",
        ),
        _et(
            "monster_defeated",
            "Monster defeated",
            _IN_PLAY,
            Field("xp", "int", minimum=0, maximum=100, label="Experience on its card"),
            seat=False,
            description="The monster leaves play; its experience goes to the party.",
        ),
        _et(
            "encounter_cancelled",
            "Encounter cancelled",
            Field("encounter", "str", max_length=NAME, label="Encounter card"),
            seat=False,
            description="Spends party experience to cancel an Encounter card.",
        ),
        _et("treasure_found", "Treasure found", card_field(), description="The seat's hero takes a Treasure card."),
        _et(
            "treasure_used",
            "Treasure used up",
            Field("item", "str", max_length=NAME, label="Treasure card", names="treasure"),
            description="A Treasure card the hero held (found here or brought from the campaign) is spent or "
            "lost and does not carry over.",
        ),
        _et("gold_found", "Gold found", _AMOUNT, description="A gold-piece Treasure card for the seat's hero."),
        _et("adventure_won", "Adventure won", seat=False, description="The adventure's goal is met."),
        _et(
            "adventure_lost",
            "Adventure lost",
            Field("reason", "str", max_length=300, label="Why"),
            seat=False,
            description="The adventure's defeat condition happened (a hero at 0 HP with no surge is derived).",
        ),
    )
}


def norm(name: str) -> str:
    """The comparison key of a name: case and extra spaces do not matter."""
    return " ".join(name.split()).casefold()


def default_hero(index: int) -> dict[str, Any]:
    """The hero used for a seat the options do not describe."""
    return {"name": f"Hero {index + 1}", "class": "Hero", "max_hp": DEFAULT_MAX_HP, "surges": None}


def surge_value(max_hp: int, hero_surge: int | None, option: int | None) -> int:
    """HP a healing surge restores: the hero card's value, else the ``surge_hp`` option, else half max HP."""
    if hero_surge is not None:
        return hero_surge
    if option is not None:
        return option
    return max(1, max_hp // 2)


def gain_condition(conditions: list[str], condition: str) -> list[str]:
    """Markers after gaining ``condition``: one of a kind; Advantage and Disadvantage cancel each other."""
    held = set(conditions)
    opposite = OPPOSITE.get(condition)
    if opposite is not None and opposite in held:
        held.discard(opposite)
    else:
        held.add(condition)
    return [c for c in CONDITIONS if c in held]


def _v(code: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(code, message, rule)


def _find_monster(state: State, name: str | None) -> int | None:
    if not name:
        return None
    key = norm(name)
    for i, m in enumerate(state["monsters"]):
        if norm(m["name"]) == key:
            return i
    return None


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
    options_schema = (
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
    event_types = EVENT_TYPES

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

    # -- setup ----------------------------------------------------------------------------------
    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        """Seat i plays ``heroes[i]`` at full HP; seats the options do not describe get a default hero."""
        given = list(options.get("heroes") or [])
        notes = []
        if given and len(given) != seat_count:
            notes.append(
                f"{plural(len(given), 'hero', 'heroes')} were described for {plural(seat_count, 'seat')}; "
                "missing seats got a default hero and extra heroes were left out."
            )
        option_surge = options.get("surge_hp")
        heroes = []
        for i in range(seat_count):
            h = given[i] if i < len(given) else default_hero(i)
            max_hp = int(h.get("max_hp", DEFAULT_MAX_HP))
            heroes.append(
                {
                    "name": h.get("name") or f"Hero {i + 1}",
                    "class": h.get("class", ""),
                    "max_hp": max_hp,
                    "hp": max_hp,
                    "surge_hp": min(max_hp, surge_value(max_hp, h.get("surges"), option_surge)),
                    "conditions": [],
                    "items": [{**treasure_card(c), "carried": True} for c in h.get("items") or []],
                    "carried": [treasure_card(c)["name"] for c in h.get("items") or []],
                    "gold": 0,
                }
            )
        return {
            "adventure": options.get("adventure") or "Adventure",
            "campaign_reward": int(options.get("campaign_reward", 0)),
            "encounter_cancel_xp": int(options.get("encounter_cancel_xp", 5)),
            "heroes": heroes,
            "healing_surges": int(options.get("healing_surges", 2)),
            "xp": 0,
            "monsters": [],
            "defeated": [],
            "encounters_cancelled": [],
            "active": 0,
            "phase": START,
            "round": 1,
            "actions": [],
            "poison_rolled": False,
            "activation": None,
            "last_attack": None,
            "notices": [],
            "result": None,
            "reason": "",
            "setup_notes": notes,
        }

    # -- validation -----------------------------------------------------------------------------
    def validate(self, state: State, event: Event) -> None:
        """Raise :class:`RuleViolation` unless ``event`` may be recorded now.

        Order: game over → unknown entry → seat → phase → whose turn → the move itself.
        """
        if state["result"] is not None:
            raise _v("game_over", f"The adventure is over: {self._end_words(state)}", R_END)
        etype = self.event_types.get(event.type)
        if etype is None:
            raise unknown_event("A Saltmarsh adventure", event.type)
        n = len(state["heroes"])
        if event.seat is not None and not (0 <= event.seat < n):
            raise _v(
                "no_such_seat",
                f"This adventure has seats 0 to {n - 1}; {event.seat!r} is not one of them.",
                ENTRIES_RULE,
            )
        if etype.seat_required and event.seat is None:
            raise _v("seat_required", "Say which hero this entry is about (choose a seat).", ENTRIES_RULE)
        check: Callable[[State, Event], None] = getattr(self, f"_check_{event.type}")
        check(state, event)

    @staticmethod
    def _end_words(state: State) -> str:
        return f"the party completed {state['adventure']}." if state["result"] == "won" else state["reason"]

    def _need_phase(self, state: State, phase: str, what: str) -> None:
        if state["phase"] != phase:
            words = {START: "before a Hero Phase has started", HERO: "in a Hero Phase", VILLAIN: "in a Villain Phase"}
            raise _v("wrong_phase", f"{what} happens {words[phase]}; it is not that moment now.", R_TURN)

    def _need_turn(self, state: State, seat: int | None) -> None:
        if seat != state["active"]:
            hero = state["heroes"][state["active"]]["name"]
            raise _v("not_your_turn", f"It is {hero}'s turn.", R_TURN)

    def _own_hero_phase(self, state: State, event: Event, what: str) -> None:
        self._need_phase(state, HERO, what)
        self._need_turn(state, event.seat)
        if state["poison_rolled"]:
            raise _v(
                "hero_phase_ending",
                "The poison roll has been made at the end of this Hero Phase; only ending the phase is left.",
                R_POISONED,
            )

    def _check_hero_phase_started(self, state: State, event: Event) -> None:
        self._need_phase(state, START, "A new Hero Phase")
        self._need_turn(state, event.seat)

    def _need_action(self, state: State, seat: int, what: str) -> None:
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
                    R_STUNNED,
                )
            raise _v(
                "no_action_left",
                f"{hero['name']} has used the move action and the action of this Hero Phase ({', '.join(taken)}).",
                R_ACTIONS,
            )
        if what == "attack" and "attack" in taken:
            raise _v(
                "already_attacked",
                f"{hero['name']} has already attacked this Hero Phase: the phase is a move and one action "
                "(or two moves). Tick 'Another roll of the same attack' for the next target of that attack.",
                R_ACTIONS,
            )

    def _check_hero_moved(self, state: State, event: Event) -> None:
        self._own_hero_phase(state, event, "Moving")
        assert event.seat is not None
        self._need_action(state, event.seat, "move")

    def _check_attack_rolled(self, state: State, event: Event) -> None:
        data = event.data
        if data["attacker"] == "hero":
            if event.seat is None:
                raise _v("seat_required", "Say which hero attacks (choose a seat).", R_TURN)
            self._own_hero_phase(state, event, "A hero's attack")
            who = state["heroes"][event.seat]["name"]
            if data.get("same_attack"):
                if not state["actions"] or state["actions"][-1] != "attack":
                    raise _v(
                        "no_attack_to_continue",
                        f"{who} has no attack under way to roll again for; record the attack itself first.",
                        R_ACTIONS,
                    )
            else:
                self._need_action(state, event.seat, "attack")
            conditions = state["heroes"][event.seat]["conditions"]
        else:
            self._need_phase(state, VILLAIN, "A monster's attack")
            idx = self._need_monster(state, data.get("monster"))
            monster = state["monsters"][idx]
            act = state["activation"]
            if act is None or norm(act["monster"]) != norm(monster["name"]):
                raise _v(
                    "monster_not_activated",
                    f"{monster['name']} attacks during its activation: record monster_activated first.",
                    R_TURN,
                )
            if act["skipped"]:
                raise _v(
                    "monster_skipped",
                    f"{monster['name']} was Stunned and skips this activation: it does nothing.",
                    R_STUNNED,
                )
            conditions = monster["conditions"]
            who = monster["name"]
        need = 2 if ("advantage" in conditions or "disadvantage" in conditions) else 1
        if len(data["rolls"]) != need:
            why = "has Advantage or Disadvantage: roll twice" if need == 2 else "rolls once"
            rule = R_ADVANTAGE if "advantage" in conditions else R_DISADVANTAGE
            raise _v("wrong_roll_count", f"{who} {why}.", rule)
        if any(not (1 <= r <= 20) for r in data["rolls"]):
            raise _v("bad_roll", "A d20 shows 1 to 20.", R_TURN)

    def _check_poison_roll_made(self, state: State, event: Event) -> None:
        self._own_hero_phase(state, event, "The poison roll")
        if "poisoned" not in state["heroes"][event.seat]["conditions"]:
            raise _v("not_poisoned", f"{state['heroes'][event.seat]['name']} is not Poisoned.", R_POISONED)

    def _check_hero_phase_ended(self, state: State, event: Event) -> None:
        self._need_phase(state, HERO, "Ending the Hero Phase")
        self._need_turn(state, event.seat)
        hero = state["heroes"][event.seat]
        if "poisoned" in hero["conditions"] and not state["poison_rolled"]:
            raise _v(
                "poison_roll_needed",
                f"{hero['name']} is Poisoned: roll the die at the end of the Hero Phase (poison_roll_made) first.",
                R_POISONED,
            )

    def _check_villain_phase_ended(self, state: State, event: Event) -> None:
        self._need_phase(state, VILLAIN, "Ending the Villain Phase")
        self._need_turn(state, event.seat)

    def _check_damage_taken(self, state: State, event: Event) -> None:
        return None

    def _check_hp_healed(self, state: State, event: Event) -> None:
        return None

    def _condition_target(self, state: State, event: Event, rule: str) -> list[str]:
        data = event.data
        if data["target"] == "hero":
            if event.seat is None:
                raise _v("seat_required", "Say which hero (choose a seat).", rule)
            return state["heroes"][event.seat]["conditions"]
        if data["condition"] == "poisoned":
            raise _v("monster_not_poisonable", "Only Heroes can be Poisoned.", R_POISONED)
        return state["monsters"][self._need_monster(state, data.get("monster"))]["conditions"]

    def _check_condition_gained(self, state: State, event: Event) -> None:
        self._condition_target(state, event, R_CONDITIONS)

    def _check_condition_lost(self, state: State, event: Event) -> None:
        held = self._condition_target(state, event, R_CONDITIONS)
        if event.data["condition"] not in held:
            raise _v(
                "condition_absent",
                f"There is no {event.data['condition'].capitalize()} marker to discard.",
                R_CONDITIONS,
            )

    def _need_monster(self, state: State, name: str | None) -> int:
        if not name:
            raise _v("monster_required", "Name the monster.", R_MONSTERS)
        idx = _find_monster(state, name)
        if idx is None:
            raise _v("unknown_monster", f"No monster called {name} is in play.", R_MONSTERS)
        return idx

    def _check_monster_placed(self, state: State, event: Event) -> None:
        if _find_monster(state, event.data["monster"]) is not None:
            raise _v(
                "duplicate_monster",
                f"A monster called {event.data['monster']} is already in play; number the figures (e.g. 'Kobold 2').",
                R_MONSTERS,
            )

    def _check_monster_activated(self, state: State, event: Event) -> None:
        self._need_phase(state, VILLAIN, "A monster activation")
        self._need_monster(state, event.data["monster"])

    def _check_monster_defeated(self, state: State, event: Event) -> None:
        self._need_monster(state, event.data["monster"])

    def _check_encounter_cancelled(self, state: State, event: Event) -> None:
        self._need_phase(state, VILLAIN, "Drawing (and cancelling) an Encounter card")
        cost = state["encounter_cancel_xp"]
        if state["xp"] < cost:
            raise _v("not_enough_xp", f"Cancelling an Encounter costs {cost} XP; the party has {state['xp']}.", R_XP)

    def _check_treasure_found(self, state: State, event: Event) -> None:
        return None

    def _check_treasure_used(self, state: State, event: Event) -> None:
        hero = state["heroes"][event.seat]
        key = norm(event.data["item"])
        if not any(norm(i["name"]) == key for i in hero["items"]):
            raise _v("item_not_held", f"{hero['name']} holds no {event.data['item']}.", R_TREASURE)

    def _check_gold_found(self, state: State, event: Event) -> None:
        return None

    def _check_adventure_won(self, state: State, event: Event) -> None:
        return None

    def _check_adventure_lost(self, state: State, event: Event) -> None:
        if not event.data["reason"].strip():
            raise _v("reason_required", "Say why the adventure was lost.", R_END)

    # -- reducer --------------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        """The state after ``event`` (consequences such as poison damage and healing surges are derived)."""
        s = copy.deepcopy(state)
        s["notices"] = []
        getattr(self, f"_apply_{event.type}")(s, event)
        return s

    def _hero(self, s: State, event: Event) -> dict[str, Any]:
        seat = event.seat if event.seat is not None else s["active"]
        return s["heroes"][seat]

    def _apply_hero_phase_started(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        if "poisoned" in hero["conditions"]:
            hero["hp"] = max(0, hero["hp"] - 1)
            s["notices"].append(f"{hero['name']} took 1 poison damage.")
        if hero["hp"] == 0:
            if s["healing_surges"] > 0:
                s["healing_surges"] -= 1
                hero["hp"] = min(hero["max_hp"], hero["surge_hp"])
                s["notices"].append(
                    f"{hero['name']} spent a healing surge and is back to {hero['hp']} HP ({s['healing_surges']} left)."
                )
            else:
                self._end(s, "lost", f"{hero['name']} began a Hero Phase at 0 HP with no healing surge left.")
                return
        s["phase"] = HERO
        s["actions"] = []
        s["poison_rolled"] = False
        s["activation"] = None

    def _apply_hero_moved(self, s: State, event: Event) -> None:
        s["actions"] = [*s.get("actions", []), "move"]

    def _apply_attack_rolled(self, s: State, event: Event) -> None:
        data = event.data
        if data["attacker"] == "hero":
            holder = self._hero(s, event)
            monster_name = None
        else:
            idx = _find_monster(s, data.get("monster"))
            if idx is None:
                raise ValueError(f"no monster {data.get('monster')} in play")
            holder = s["monsters"][idx]
            monster_name = holder["name"]
        if data["attacker"] == "hero" and s["phase"] == HERO and not data.get("same_attack"):
            s["actions"] = [*s.get("actions", []), "attack"]
        rolls = list(data["rolls"])
        mode = "normal"
        result = rolls[0]
        if "advantage" in holder["conditions"]:
            mode, result = "advantage", max(rolls)
        elif "disadvantage" in holder["conditions"]:
            mode, result = "disadvantage", min(rolls)
        holder["conditions"] = [c for c in holder["conditions"] if c not in OPPOSITE]
        s["last_attack"] = {
            "attacker": data["attacker"],
            "seat": event.seat if data["attacker"] == "hero" else None,
            "monster": monster_name,
            "rolls": rolls,
            "mode": mode,
            "result": result,
        }

    def _apply_poison_roll_made(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        s["poison_rolled"] = True
        if event.data["roll"] >= 10:
            hero["conditions"] = [c for c in hero["conditions"] if c != "poisoned"]
            s["notices"].append(f"{hero['name']} shook off the poison.")

    def _apply_hero_phase_ended(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        if "stunned" in hero["conditions"]:
            hero["conditions"] = [c for c in hero["conditions"] if c != "stunned"]
            s["notices"].append(f"{hero['name']} is no longer Stunned.")
        s["phase"] = VILLAIN
        s["actions"] = []
        s["poison_rolled"] = False

    def _apply_villain_phase_ended(self, s: State, event: Event) -> None:
        nxt = (s["active"] + 1) % len(s["heroes"])
        if nxt == 0:
            s["round"] += 1
        s["active"] = nxt
        s["phase"] = START
        s["activation"] = None

    def _apply_damage_taken(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        hero["hp"] = max(0, hero["hp"] - event.data["amount"])

    def _apply_hp_healed(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        hero["hp"] = min(hero["max_hp"], hero["hp"] + event.data["amount"])

    def _target(self, s: State, event: Event) -> dict[str, Any]:
        if event.data["target"] == "hero":
            return self._hero(s, event)
        idx = _find_monster(s, event.data.get("monster"))
        if idx is None:
            raise ValueError(f"no monster {event.data.get('monster')} in play")
        return s["monsters"][idx]

    def _apply_condition_gained(self, s: State, event: Event) -> None:
        holder = self._target(s, event)
        holder["conditions"] = gain_condition(holder["conditions"], event.data["condition"])

    def _apply_condition_lost(self, s: State, event: Event) -> None:
        holder = self._target(s, event)
        holder["conditions"] = [c for c in holder["conditions"] if c != event.data["condition"]]

    def _apply_monster_placed(self, s: State, event: Event) -> None:
        s["monsters"].append({"name": " ".join(event.data["monster"].split()), "conditions": []})

    def _apply_monster_activated(self, s: State, event: Event) -> None:
        idx = _find_monster(s, event.data["monster"])
        if idx is None:
            raise ValueError(f"no monster {event.data['monster']} in play")
        monster = s["monsters"][idx]
        skipped = "stunned" in monster["conditions"]
        if skipped:
            monster["conditions"] = [c for c in monster["conditions"] if c != "stunned"]
            s["notices"].append(f"{monster['name']} was Stunned: it skips this activation.")
        s["activation"] = {"monster": monster["name"], "skipped": skipped}

    def _apply_monster_defeated(self, s: State, event: Event) -> None:
        idx = _find_monster(s, event.data["monster"])
        if idx is None:
            raise ValueError(f"no monster {event.data['monster']} in play")
        monster = s["monsters"].pop(idx)
        s["xp"] += event.data["xp"]
        s["defeated"].append({"monster": monster["name"], "xp": event.data["xp"]})
        if s["activation"] is not None and norm(s["activation"]["monster"]) == norm(monster["name"]):
            s["activation"] = None

    def _apply_encounter_cancelled(self, s: State, event: Event) -> None:
        lacking = s["xp"] < s["encounter_cancel_xp"]
        if lacking and not recorded_before(s, 3):  # only under an override: the party cannot spend XP it lacks
            raise ValueError(f"cancelling costs {s['encounter_cancel_xp']} XP and the party has {s['xp']}")
        s["xp"] = max(0, s["xp"] - s["encounter_cancel_xp"])  # versions 1-2 (matches recorded under them): XP to 0
        s["encounters_cancelled"].append(event.data["encounter"])

    def _apply_treasure_found(self, s: State, event: Event) -> None:
        self._hero(s, event)["items"].append({**treasure_card(event.data["item"]), "carried": False})

    def _apply_treasure_used(self, s: State, event: Event) -> None:
        hero = self._hero(s, event)
        key = norm(event.data["item"])
        held = [i for i, item in enumerate(hero["items"]) if norm(item["name"]) == key]
        if not held:
            raise ValueError(f"{hero['name']} holds no {event.data['item']}")
        # a card found here goes first: the campaign's own copy then still carries over
        found = [i for i in held if not hero["items"][i].get("carried")]
        hero["items"].pop((found or held)[0])

    def _apply_gold_found(self, s: State, event: Event) -> None:
        self._hero(s, event)["gold"] += event.data["amount"]

    def _apply_adventure_won(self, s: State, event: Event) -> None:
        self._end(s, "won", f"The party completed {s['adventure']}.")

    def _apply_adventure_lost(self, s: State, event: Event) -> None:
        self._end(s, "lost", event.data["reason"])

    @staticmethod
    def _end(s: State, result: str, reason: str) -> None:
        s["result"] = result
        s["reason"] = reason
        s["phase"] = OVER
        s["activation"] = None

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
            words = self._end_words(state)
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
        d = event.data
        t = event.type
        if t == "hero_phase_started":
            return f"{who} started the Hero Phase."
        if t == "hero_moved":
            return f"{who} moved."
        if t == "attack_rolled":
            attacker = who if d.get("attacker") == "hero" else d.get("monster")
            return f"{attacker} attacked, rolling {', '.join(str(r) for r in d.get('rolls', []))}."
        if t == "poison_roll_made":
            return f"{who} rolled {d.get('roll')} against poison."
        if t == "hero_phase_ended":
            return f"{who} ended the Hero Phase."
        if t == "villain_phase_ended":
            return f"{who} ended the Villain Phase."
        if t == "damage_taken":
            return f"{who} took {d.get('amount')} damage."
        if t == "hp_healed":
            return f"{who} healed {d.get('amount')} HP."
        if t in ("condition_gained", "condition_lost"):
            target = who if d.get("target") == "hero" else d.get("monster")
            verb = "became" if t == "condition_gained" else "is no longer"
            return f"{target} {verb} {str(d.get('condition')).capitalize()}."
        if t == "monster_placed":
            return f"{d.get('monster')} entered play."
        if t == "monster_activated":
            return f"{d.get('monster')} activated."
        if t == "monster_defeated":
            return f"{d.get('monster')} was defeated ({d.get('xp')} XP)."
        if t == "encounter_cancelled":
            return f"The party spent experience to cancel {d.get('encounter')}."
        if t == "treasure_found":
            return f"{who} found {d.get('item', {}).get('name')}."
        if t == "treasure_used":
            return f"{who} used up {d.get('item')}."
        if t == "gold_found":
            return f"{who} found {d.get('amount')} gp."
        if t == "adventure_won":
            return "The party won the adventure."
        if t == "adventure_lost":
            return f"The party lost the adventure: {d.get('reason')}"
        return super().describe(event, seat_names)
