"""Random campaigns keep the sheet's invariants."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.base import Event
from rulesets.replay import Position, step
from rulesets.saltmarsh import RULESET
from rulesets.saltmarsh.fields import BRIDGE_EVENTS
from rulesets.saltmarsh.sheet import norm
from tests.rulesets.scenario import try_step

pytestmark = pytest.mark.pure

NAMES = ["Ana", "Bo", "Cy", "Di"]
ITEMS = ["Potion", "Wand", "Cloak", "Blessing"]
CLASSES = ["Fighter", "Wizard"]


def _value(draw: Any) -> int | None:
    return draw(st.one_of(st.none(), st.integers(0, 900)))


ADVENTURE_KINDS = [
    "treasure_gained", "treasure_used", "gold_gained", "gold_gained", "adventure_completed", "adventure_failed"
]  # fmt: skip
TOWN_KINDS = [
    *sorted(set(RULESET.event_types) - set(ADVENTURE_KINDS) - BRIDGE_EVENTS),
    *("trade_made", "trade_made", "item_bought", "item_sold", "leveled_up", "adventure_started"),
]
START = [Event("hero_joined", None, {"hero": n, "class": "Fighter"}) for n in NAMES[:3]]


def candidate(draw: Any, state: dict[str, Any]) -> Event:
    """A plausible entry for the current state: mostly legal, sometimes not (wrong phase, names, amounts)."""
    active = [h for h in state["heroes"] if not h["retired"]]
    pool = [h["name"] for h in active] if active else NAMES
    name = draw(st.sampled_from([*pool, "Zed"])) if draw(st.integers(0, 9)) == 0 else draw(st.sampled_from(pool))
    in_adventure = state["phase"] == "adventure"
    if in_adventure and draw(st.integers(0, 4)):
        name = draw(st.sampled_from(state["adventures"][-1]["heroes"]))
    kinds = ADVENTURE_KINDS if draw(st.integers(0, 9)) < (8 if in_adventure else 1) else TOWN_KINDS
    kind = draw(st.sampled_from(kinds))
    if kind == "hero_retired" and draw(st.integers(0, 3)):
        kind = "item_sold"  # retirements are rare at a real table
    held = [i["name"] for h in active for i in h["items"]] + ["Blessing"]
    item_name = draw(st.sampled_from(held))
    if kind == "hero_joined":
        data: dict[str, Any] = {"hero": draw(st.sampled_from(NAMES)), "class": draw(st.sampled_from(CLASSES))}
    elif kind == "adventure_started":
        data = {
            "adventure": draw(st.sampled_from(["A", "B"])),
            "heroes": draw(st.lists(st.sampled_from(pool), max_size=3)),
        }
    elif kind == "treasure_gained":
        item = {"name": draw(st.sampled_from(ITEMS)), "buy": _value(draw), "sell": _value(draw)}
        if draw(st.booleans()):
            item["item"] = draw(st.booleans())
        data = {"hero": name, "item": item}
    elif kind == "treasure_used":
        data = {"hero": name, "item": item_name}
    elif kind == "gold_gained":
        data = {"hero": name, "amount": draw(st.integers(1, 3000))}
    elif kind == "adventure_completed":
        data = {"reward": draw(st.integers(0, 2500))}
    elif kind == "powers_swapped":
        data = {"hero": name, "powers": draw(st.lists(st.sampled_from(["Cleave", "Shield"]), max_size=2))}
    elif kind == "item_sold":
        owners = [h for h in active if h["items"]]
        if owners and draw(st.booleans()):
            owner = draw(st.sampled_from(owners))
            name, item_name = owner["name"], draw(st.sampled_from(owner["items"]))["name"]
        data = {"hero": name, "item": item_name}
    elif kind == "item_bought":
        shown = [c["name"] for c in state["display"]] + ["Cloak"]
        rich = sorted(active, key=lambda h: -h["gold"])[:1]
        data = {"hero": rich[0]["name"] if rich else name, "item": draw(st.sampled_from(shown))}
    elif kind == "shop_revealed":
        cards = st.fixed_dictionaries(
            {"name": st.sampled_from(ITEMS), "item": st.booleans(), "buy": st.none() | st.integers(0, 900),
             "sell": st.none() | st.integers(0, 900)}
        )  # fmt: skip
        data = {"cards": draw(st.lists(cards, min_size=3, max_size=4))}
    elif kind == "trade_made":
        party = active
        giver = draw(st.sampled_from(party)) if party else {"name": name, "items": [], "gold": 0}
        gifts = draw(st.lists(st.sampled_from([i["name"] for i in giver["items"]] or ITEMS), max_size=2))
        data = {
            "from": giver["name"],
            "to": draw(st.sampled_from([h["name"] for h in party] or pool)),
            "items": gifts,
            "gold": draw(st.integers(0, giver["gold"] + 10)),
        }
    elif kind == "advancement_token_bought":
        data = {"hero": name, "token": "Fleet", "cost": draw(st.integers(0, 1500))}
    elif kind == "leveled_up":
        rich = sorted(active, key=lambda h: -h["gold"])[:1]
        data = {"hero": rich[0]["name"] if rich and draw(st.booleans()) else name}
    elif kind == "hero_retired":
        data = {"hero": name}
    else:
        data = {}
    return Event(kind, None, data)


def check_invariants(state: dict[str, Any], applied: int, *, house_rules: bool = False) -> None:
    """The sheet's invariants; ``house_rules``: overrides were used, so levels and the shop may be bent."""
    opts = state["options"]
    assert state["events_applied"] == applied
    active = [norm(h["name"]) for h in state["heroes"] if not h["retired"]]
    assert len(active) == len(set(active)), "active hero names are unique"
    for hero in state["heroes"]:
        assert hero["gold"] >= 0, "gold never below zero"
        assert 1 <= hero["level"] <= (99 if house_rules else opts["max_level"])
        balance = 0
        last_version = 0
        for row in hero["ledger"]:
            balance += row["delta"]
            assert row["delta"] != 0 and row["balance"] == balance and row["balance"] >= 0
            assert last_version <= row["version"] <= applied
            last_version = row["version"]
        assert balance == hero["gold"]
    in_progress = [a for a in state["adventures"] if a["result"] == "in progress"]
    assert len(in_progress) <= 1
    assert (state["phase"] == "adventure") == bool(in_progress)
    if in_progress:
        assert state["adventures"][-1] is in_progress[0]
        assert state["display"] == [] or house_rules
        assert all(not state["heroes"][i]["retired"] for i in in_progress[0]["hero_ids"])
    assert len(state["display"]) <= 4
    assert all("xp" not in k for k in json.dumps(state).split('"') if k.isidentifier())


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from([{}, {"level_up_cost": 300, "max_level": 3, "missed_adventure_gold": 0}]))
def test_random_campaigns_keep_the_invariants(data: Any, options: dict[str, Any]) -> None:
    state = RULESET.initial_state(options, 0)
    for event in START:
        state = RULESET.apply(state, event)
    applied = len(START)
    for _ in range(40):
        event = candidate(data.draw, state)
        new = try_step(RULESET, state, event)
        if new is None:
            continue
        state = new
        applied += 1
        check_invariants(state, applied)
        assert RULESET.outcome(state) is None
        assert RULESET.turn(state).phase == state["phase"]


def held_cards(state: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((h["name"], i["name"]) for h in state["heroes"] for i in h["items"])


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_overridden_entries_bend_rules_never_the_data(data: Any) -> None:
    """Items 9.4 and 9.5: under an override an entry is placed honestly or refused ``unplayable``:
    gold never below zero, a sale only removes the card it names, every card moved is one that was held."""
    from rulesets.base import RuleViolation

    state = RULESET.initial_state({}, 0)
    for event in START:
        state = RULESET.apply(state, event)
    applied = len(START)
    bent = False
    for _ in range(40):
        event = candidate(data.draw, state)
        overridden = data.draw(st.integers(0, 2)) == 0
        if not overridden:
            new = try_step(RULESET, state, event)
            if new is None:
                continue
        else:
            try:
                new = step(RULESET, Position(state, 1, True), event, check=True).state
            except RuleViolation as exc:
                assert exc.code and exc.message
                continue
            before, after = held_cards(state), held_cards(new)
            if event.type == "item_sold":
                gone = list((Counter(before) - Counter(after)).elements())
                assert [norm(n) for _, n in gone] == [norm(event.data["item"])], "the sold card is the one named"
            if event.type in ("trade_made", "item_sold"):
                assert len(after) <= len(before)
        state = new
        applied += 1
        bent = bent or overridden
        check_invariants(state, applied, house_rules=bent)
