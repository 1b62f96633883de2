"""A Saltmarsh adventure's reducer: the state, its helpers, and one effect per entry type (poison damage, healing
surges and the surge loss are derived here, never entered)."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, State
from rulesets.names import plural
from rulesets.saltmarsh.cards import treasure_card
from rulesets.saltmarsh_adventure.fields import (
    ADVENTURE_LOST,
    ADVENTURE_WON,
    ATTACK_ROLLED,
    CONDITION_GAINED,
    CONDITION_LOST,
    CONDITIONS,
    DAMAGE_TAKEN,
    DEFAULT_MAX_HP,
    ENCOUNTER_CANCELLED,
    GOLD_FOUND,
    HERO,
    HERO_MOVED,
    HERO_PHASE_ENDED,
    HERO_PHASE_STARTED,
    HP_HEALED,
    MONSTER_ACTIVATED,
    MONSTER_DEFEATED,
    MONSTER_PLACED,
    OVER,
    POISON_ROLL_MADE,
    START,
    TREASURE_FOUND,
    TREASURE_USED,
    VILLAIN,
    VILLAIN_PHASE_ENDED,
)
from rulesets.versions import recorded_before

OPPOSITE = {"advantage": "disadvantage", "disadvantage": "advantage"}


# -- the state --------------------------------------------------------------------------------------
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


def new_state(options: dict[str, Any], seat_count: int) -> State:
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


def find_monster(state: State, name: str | None) -> int | None:
    """The index of the monster in play called ``name`` (case and spaces aside), or None."""
    if not name:
        return None
    key = norm(name)
    for i, m in enumerate(state["monsters"]):
        if norm(m["name"]) == key:
            return i
    return None


def end_words(state: State) -> str:
    """How the adventure ended, as a sentence in lower case first ("the party completed Dunwater.")."""
    return f"the party completed {state['adventure']}." if state["result"] == "won" else state["reason"]


def _hero(s: State, event: Event) -> dict[str, Any]:
    """The hero an entry is about: its seat's, else the active seat's."""
    seat = event.seat if event.seat is not None else s["active"]
    return s["heroes"][seat]


def _monster(s: State, name: str | None) -> dict[str, Any]:
    """The monster in play called ``name``; ValueError (the move cannot be placed) when there is none."""
    idx = find_monster(s, name)
    if idx is None:
        raise ValueError(f"no monster {name} in play")
    return s["monsters"][idx]


def _target(s: State, event: Event) -> dict[str, Any]:
    """What a condition entry puts a marker on or takes one off: the hero, or the named monster."""
    if event.data["target"] == "hero":
        return _hero(s, event)
    return _monster(s, event.data.get("monster"))


def _end(s: State, result: str, reason: str) -> None:
    s["result"] = result
    s["reason"] = reason
    s["phase"] = OVER
    s["activation"] = None


# -- one effect per entry type ----------------------------------------------------------------------
def start_hero_phase(s: State, event: Event) -> None:
    """Poison damage first, then a hero at 0 HP spends a healing surge, or the party loses without one."""
    hero = _hero(s, event)
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
            _end(s, "lost", f"{hero['name']} began a Hero Phase at 0 HP with no healing surge left.")
            return
    s["phase"] = HERO
    s["actions"] = []
    s["poison_rolled"] = False
    s["activation"] = None


def move_hero(s: State, event: Event) -> None:
    """A move spends one of the Hero Phase's actions."""
    s["actions"] = [*s.get("actions", []), "move"]


def roll_attack(s: State, event: Event) -> None:
    """The result is derived from the rolls (higher with Advantage, lower with Disadvantage); the marker goes."""
    data = event.data
    if data["attacker"] == "hero":
        holder = _hero(s, event)
        monster_name = None
    else:
        holder = _monster(s, data.get("monster"))
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


def roll_poison(s: State, event: Event) -> None:
    """10 or more discards the Poisoned marker; the roll closes the Hero Phase."""
    hero = _hero(s, event)
    s["poison_rolled"] = True
    if event.data["roll"] >= 10:
        hero["conditions"] = [c for c in hero["conditions"] if c != "poisoned"]
        s["notices"].append(f"{hero['name']} shook off the poison.")


def end_hero_phase(s: State, event: Event) -> None:
    """Stunned is discarded; the exploration and villain phase follows."""
    hero = _hero(s, event)
    if "stunned" in hero["conditions"]:
        hero["conditions"] = [c for c in hero["conditions"] if c != "stunned"]
        s["notices"].append(f"{hero['name']} is no longer Stunned.")
    s["phase"] = VILLAIN
    s["actions"] = []
    s["poison_rolled"] = False


def end_villain_phase(s: State, event: Event) -> None:
    """The next seat's turn begins (a new round after the last seat)."""
    nxt = (s["active"] + 1) % len(s["heroes"])
    if nxt == 0:
        s["round"] += 1
    s["active"] = nxt
    s["phase"] = START
    s["activation"] = None


def take_damage(s: State, event: Event) -> None:
    """HP never goes below 0."""
    hero = _hero(s, event)
    hero["hp"] = max(0, hero["hp"] - event.data["amount"])


def heal(s: State, event: Event) -> None:
    """HP never goes above the hero's maximum."""
    hero = _hero(s, event)
    hero["hp"] = min(hero["max_hp"], hero["hp"] + event.data["amount"])


def gain(s: State, event: Event) -> None:
    """One marker of a kind; Advantage and Disadvantage cancel each other."""
    holder = _target(s, event)
    holder["conditions"] = gain_condition(holder["conditions"], event.data["condition"])


def lose(s: State, event: Event) -> None:
    """The marker is discarded."""
    holder = _target(s, event)
    holder["conditions"] = [c for c in holder["conditions"] if c != event.data["condition"]]


def place_monster(s: State, event: Event) -> None:
    """The figure enters play under its name (extra spaces dropped)."""
    s["monsters"].append({"name": " ".join(event.data["monster"].split()), "conditions": []})


def activate_monster(s: State, event: Event) -> None:
    """A stunned monster skips this activation and loses the marker."""
    monster = _monster(s, event.data["monster"])
    skipped = "stunned" in monster["conditions"]
    if skipped:
        monster["conditions"] = [c for c in monster["conditions"] if c != "stunned"]
        s["notices"].append(f"{monster['name']} was Stunned: it skips this activation.")
    s["activation"] = {"monster": monster["name"], "skipped": skipped}


def defeat_monster(s: State, event: Event) -> None:
    """The monster leaves play; its experience goes to the party."""
    idx = find_monster(s, event.data["monster"])
    if idx is None:
        raise ValueError(f"no monster {event.data['monster']} in play")
    monster = s["monsters"].pop(idx)
    s["xp"] += event.data["xp"]
    s["defeated"].append({"monster": monster["name"], "xp": event.data["xp"]})
    if s["activation"] is not None and norm(s["activation"]["monster"]) == norm(monster["name"]):
        s["activation"] = None


def cancel_encounter(s: State, event: Event) -> None:
    """The party spends the price in experience (rule version 3: not placeable without it; 1-2: XP to 0)."""
    lacking = s["xp"] < s["encounter_cancel_xp"]
    if lacking and not recorded_before(s, 3):  # only under an override: the party cannot spend XP it lacks
        raise ValueError(f"cancelling costs {s['encounter_cancel_xp']} XP and the party has {s['xp']}")
    s["xp"] = max(0, s["xp"] - s["encounter_cancel_xp"])  # versions 1-2 (matches recorded under them): XP to 0
    s["encounters_cancelled"].append(event.data["encounter"])


def find_treasure(s: State, event: Event) -> None:
    """The hero takes the card (found here: it is not one the hero brought)."""
    _hero(s, event)["items"].append({**treasure_card(event.data["item"]), "carried": False})


def use_treasure(s: State, event: Event) -> None:
    """The card leaves the hero; a card found here goes first, so the campaign's own copy still carries over."""
    hero = _hero(s, event)
    key = norm(event.data["item"])
    held = [i for i, item in enumerate(hero["items"]) if norm(item["name"]) == key]
    if not held:
        raise ValueError(f"{hero['name']} holds no {event.data['item']}")
    found = [i for i in held if not hero["items"][i].get("carried")]
    hero["items"].pop((found or held)[0])


def find_gold(s: State, event: Event) -> None:
    """Gold pieces add to the hero's total."""
    _hero(s, event)["gold"] += event.data["amount"]


def win(s: State, event: Event) -> None:
    """The party completed the adventure."""
    _end(s, "won", f"The party completed {s['adventure']}.")


def lose_adventure(s: State, event: Event) -> None:
    """The party lost, for the reason given."""
    _end(s, "lost", event.data["reason"])


EFFECTS = {
    HERO_PHASE_STARTED: start_hero_phase,
    HERO_MOVED: move_hero,
    ATTACK_ROLLED: roll_attack,
    POISON_ROLL_MADE: roll_poison,
    HERO_PHASE_ENDED: end_hero_phase,
    VILLAIN_PHASE_ENDED: end_villain_phase,
    DAMAGE_TAKEN: take_damage,
    HP_HEALED: heal,
    CONDITION_GAINED: gain,
    CONDITION_LOST: lose,
    MONSTER_PLACED: place_monster,
    MONSTER_ACTIVATED: activate_monster,
    MONSTER_DEFEATED: defeat_monster,
    ENCOUNTER_CANCELLED: cancel_encounter,
    TREASURE_FOUND: find_treasure,
    TREASURE_USED: use_treasure,
    GOLD_FOUND: find_gold,
    ADVENTURE_WON: win,
    ADVENTURE_LOST: lose_adventure,
}
