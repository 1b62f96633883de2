"""The games, moves and seeds ``manage.py bench offline`` plays (also the differential tests' made-up entries)."""

from __future__ import annotations

import json
import random
from typing import Any

GAMES = [  # every match game (tests/frontend/test_browser_offline_rules.py plays them all too)
    "get-salty",
    "salt-and-bones",
    "the-first-spine",
    "bone-wars",
    "saltmarsh-adventure",
    "scoresheet",
    "last-stone",
]


def board_seed(position: dict[str, Any]) -> dict[str, Any]:
    """A recorder's seed for ``position`` (what ``frontend.selectors.offline_seed`` gives a match page)."""
    from frontend.offline.bundle import offline_urls

    facts = {"title": "", "page_url": "/matches/1/", "record_url": "/matches/1/record/", "reader_seat": None,
             "reader_records": True, "times": {}, "moves": {}}  # fmt: skip
    return {**position, "match": 1, "can_record": True, "complete": True, "board": facts, **offline_urls()}


HEROES = [{"name": "Vistra", "class": "Fighter", "max_hp": 10}, {"name": "Quinn", "class": "Wizard", "max_hp": 6}]
# an adventure's turns, where made-up entries rarely fit (monsters must be in play, phases in order)
_TURN = [
    {"type": "monster_placed", "seat": None, "data": {"monster": "Sahuagin"}},
    {"type": "hero_phase_started", "seat": 0, "data": {}},
    {"type": "hero_moved", "seat": 0, "data": {}},
    {"type": "attack_rolled", "seat": 0, "data": {"attacker": "hero", "rolls": [7]}},
    {"type": "damage_taken", "seat": 0, "data": {"amount": 1}},
    {"type": "hp_healed", "seat": 0, "data": {"amount": 1}},
    {"type": "hero_phase_ended", "seat": 0, "data": {}},
    {"type": "monster_activated", "seat": None, "data": {"monster": "Sahuagin"}},
    {"type": "monster_defeated", "seat": None, "data": {"monster": "Sahuagin", "xp": 1}},
    {"type": "villain_phase_ended", "seat": 0, "data": {}},
]
SCRIPTS = {"saltmarsh-adventure": [{**e, "seat": 0 if e["seat"] == 0 else None} for e in _TURN] * 4}


def made_up_entry(rng: random.Random, ruleset: Any, state: dict[str, Any], seat_count: int) -> dict[str, Any]:
    """An entry of a random type of the game whose data fits its fields, by the seat on turn mostly (where the
    game lists no moves; the rules then judge it). Also the differential test's (tests/frontend)."""

    def value(f: Any, seat: int | None) -> Any:
        if f.kind in ("int", "number"):
            low = int(f.minimum) if f.minimum is not None else 0
            return rng.randint(low, int(f.maximum) if f.maximum is not None else low + 5)
        if f.kind == "choice":
            return rng.choice(list(f.choices))
        if f.kind == "bool":
            return rng.random() < 0.5
        if f.kind == "cell":
            rows, cols = ruleset.board_size(state) or (5, 5)
            return [rng.randrange(rows), rng.randrange(cols)]
        if f.kind == "object":
            return {g.name: value(g, seat) for g in f.fields}
        if f.kind == "list":
            return [value(f.item, seat) for _ in range(f.min_items)] if f.item else []
        names = ruleset.names(state, seat).get(f.names) if f.names else None
        return rng.choice(names) if names else rng.choice(["Ana", "Sahuagin", "Squire", "Potion of Healing", "x"])

    from rulesets.offline import turn_of

    name, spec = rng.choice(sorted(ruleset.event_types.items()))
    turn = turn_of(ruleset, state).seats
    seat = rng.choice(turn) if turn and rng.random() < 0.8 else rng.randrange(seat_count)
    seat = seat if spec.seat_required or (spec.seat_optional and rng.random() < 0.5) else None
    return {"type": name, "seat": seat, "data": {f.name: value(f, seat) for f in spec.fields}}


def sequence(slug: str, length: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A start position and ``length`` (at most) entries the rules accept one after the other, chosen at random
    (seeded by the game) from the legal moves where the game lists them, else from made-up entries."""
    from rulesets import get_ruleset
    from rulesets.offline import legal_of, record
    from rulesets.schema import check_payload

    ruleset = get_ruleset(slug)
    seats = 2 if 2 in ruleset.seats else ruleset.seats[0]
    options = check_payload(ruleset.options_schema, {"stones": 120} if slug == "last-stone" else {})
    if slug == "saltmarsh-adventure":
        options = check_payload(ruleset.options_schema, {"adventure": "Dunwater", "heroes": HEROES})
    start = {"game": slug, "options": options, "version": 0, "state": ruleset.initial_state(options, seats),
             "override_pending": False, "seat_names": ["Ana", "Bo", "Cy", "Di"][:seats]}  # fmt: skip
    start = json.loads(json.dumps(start))
    rng = random.Random(slug)
    position, entries = start, []
    script = list(SCRIPTS.get(slug, []))
    for _ in range(length * 40):
        if len(entries) >= length:
            break
        legal = legal_of(ruleset, position["state"])
        if script:
            entry = script.pop(0)
        else:
            entry = rng.choice(legal).to_dict() if legal else made_up_entry(rng, ruleset, position["state"], seats)
        answer = record(position, entry)
        if answer["ok"] is True:
            entries.append(entry)
            position = answer["position"]
        elif legal:
            break  # a listed move refused would be a bug the differential test reports; stop here
    return start, entries
