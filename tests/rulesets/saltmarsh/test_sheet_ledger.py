"""The campaign sheet, the gold ledger and the reducer's bookkeeping."""

from __future__ import annotations

import copy
import json

import pytest

from rulesets.base import Event
from rulesets.replay import replay
from rulesets.saltmarsh import LEDGER_CAUSES, RULESET, gold_ledger, sheet

pytestmark = pytest.mark.pure


def test_sheet_shape(after, play, ev) -> None:
    state = play(after, ev("powers_swapped", hero="Cy", powers=["Sneak Attack"]), ev("hero_retired", hero="Bo"))
    got = sheet(state)
    assert got["heroes"] == [
        {
            "name": "Ana",
            "class": "Fighter",
            "level": 1,
            "gold": 1050,
            "items": [{"name": "Potion of Healing", "buy": 100, "sell": 50, "item": True}],
            "powers": [],
            "advancement_tokens": [],
        },
        {
            "name": "Cy",
            "class": "Rogue",
            "level": 1,
            "gold": 200,
            "items": [],
            "powers": ["Sneak Attack"],
            "advancement_tokens": [],
        },
    ]
    assert [h["name"] for h in got["retired_heroes"]] == ["Bo"]
    assert got["adventures"] == [
        {"adventure": "Sinister Secret", "heroes": ["Ana", "Bo"], "result": "completed", "match": None}
    ]
    assert RULESET.sheet(state) == got
    json.dumps(got)


def test_sheet_lists_every_result(town, play, ev) -> None:
    state = play(
        town,
        ev("adventure_started", adventure="A", heroes=["Ana"]),
        ev("adventure_failed"),
        ev("adventure_started", adventure="A", heroes=["Ana"]),
        ev("adventure_completed", reward=1),
        ev("adventure_started", adventure="B", heroes=["Bo"]),
    )
    assert [a["result"] for a in sheet(state)["adventures"]] == ["failed", "completed", "in progress"]


def test_events_applied_counts_every_entry(town, after) -> None:
    assert town["events_applied"] == 3
    assert after["events_applied"] == 7


def test_ledger_rows_carry_the_entry_ordinal_and_running_balance(after, play, ev) -> None:
    state = play(after, ev("item_sold", hero="Ana", item="Potion of Healing"))
    assert gold_ledger(state, "ana") == [
        {
            "hero": "Ana",
            "version": 6,
            "delta": 50,
            "cause": "treasure",
            "note": "Gold found in Sinister Secret",
            "balance": 50,
        },
        {
            "hero": "Ana",
            "version": 7,
            "delta": 1000,
            "cause": "adventure",
            "note": "Aftermath of Sinister Secret",
            "balance": 1050,
        },
        {"hero": "Ana", "version": 8, "delta": 50, "cause": "sale", "note": "Sold Potion of Healing", "balance": 1100},
    ]
    assert [(r["hero"], r["cause"]) for r in gold_ledger(state) if r["version"] == 7] == [
        ("Ana", "adventure"),
        ("Bo", "adventure"),
        ("Cy", "missed_adventure"),
    ]
    assert RULESET.gold_ledger(state, "Cy") == gold_ledger(state, "Cy")


def test_ledger_causes_cover_every_gold_change(after, play, ev) -> None:
    shop = [{"name": n, "item": True, "buy": 10, "sell": 5} for n in ("A", "B", "C", "D")]
    state = play(
        after,
        ev("item_sold", hero="Ana", item="Potion of Healing"),
        ev("shop_revealed", cards=shop),
        ev("item_bought", hero="Ana", item="A"),
        Event("trade_made", None, {"from": "Bo", "to": "Ana", "items": [], "gold": 1000}),
        ev("leveled_up", hero="Ana"),
        ev("advancement_token_bought", hero="Cy", token="T", cost=20),
    )
    causes = {r["cause"] for r in gold_ledger(state)}
    assert causes == set(LEDGER_CAUSES)
    for hero in state["heroes"]:
        assert sum(r["delta"] for r in hero["ledger"]) == hero["gold"]
        assert hero["ledger"][-1]["balance"] == hero["gold"]


def test_zero_changes_write_no_row(on_adventure, play, ev) -> None:
    state = play(on_adventure, ev("adventure_completed", reward=0))
    assert [r["hero"] for r in gold_ledger(state)] == ["Cy"]


def test_unknown_hero_ledger_raises_key_error(town) -> None:
    with pytest.raises(KeyError):
        gold_ledger(town, "Zed")


def test_a_voided_entry_shifts_ordinals_not_versions() -> None:
    joined = [Event("hero_joined", None, {"hero": n, "class": "Fighter"}) for n in ("Ana", "Bo")]
    events = [
        *joined,
        Event("adventure_started", None, {"adventure": "A", "heroes": ["Ana"]}),
        Event("gold_gained", None, {"hero": "Ana", "amount": 999}),
        Event("event_voided", None, {"version": 4, "reason": "typo"}),
        Event("gold_gained", None, {"hero": "Ana", "amount": 9}),
    ]
    pos = replay(RULESET, {}, 0, events, check=True)
    assert pos.version == 6
    assert pos.state["events_applied"] == 4
    assert gold_ledger(pos.state) == [
        {"hero": "Ana", "version": 4, "delta": 9, "cause": "treasure", "note": "Gold found in A", "balance": 9}
    ]


def test_apply_does_not_mutate_and_state_is_json(after, ev) -> None:
    before = copy.deepcopy(after)
    RULESET.apply(after, ev("item_sold", hero="Ana", item="Potion of Healing"))
    assert after == before
    assert json.loads(json.dumps(after)) == after


@pytest.mark.parametrize("name", sorted(RULESET.event_types))
def test_every_entry_has_a_sentence(name, after) -> None:
    sample = {
        "hero_joined": {"hero": "Di", "class": "Cleric"},
        "hero_retired": {"hero": "Cy"},
        "adventure_started": {"adventure": "A", "heroes": ["Ana", "Bo"]},
        "treasure_gained": {"hero": "Ana", "item": {"name": "Gem", "buy": None, "sell": 5}},
        "gold_gained": {"hero": "Ana", "amount": 1200},
        "adventure_completed": {"reward": 100},
        "adventure_failed": {},
        "powers_swapped": {"hero": "Ana", "powers": ["Cleave"]},
        "item_sold": {"hero": "Ana", "item": "Gem"},
        "shop_revealed": {"cards": [{"name": "X", "item": True, "buy": 1, "sell": 1}] * 4},
        "item_bought": {"hero": "Ana", "item": "X"},
        "trade_made": {"from": "Ana", "to": "Bo", "items": ["Gem"], "gold": 3},
        "leveled_up": {"hero": "Ana"},
        "advancement_token_bought": {"hero": "Ana", "token": "T", "cost": 5},
        "treasure_used": {"hero": "Ana", "item": "Gem"},
        "adventure_concluded": {
            "match": 3,
            "adventure": "A",
            "result": "won",
            "reward": 5,
            "heroes": [
                {
                    "hero": "Ana",
                    "found": [{"name": "Gem", "buy": None, "sell": 5, "item": True}],
                    "used": ["Rope"],
                    "gold": 4,
                }
            ],
        },
    }[name]
    sentence = RULESET.describe(Event(name, None, sample), [])
    assert sentence.endswith(".") and len(sentence) > 10
