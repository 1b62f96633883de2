"""Adventures in the campaign: who goes, what is gained, completion and failure."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET, sheet

pytestmark = pytest.mark.pure


def test_starting_an_adventure_moves_to_the_adventure_phase(town, play, ev) -> None:
    state = play(town, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "bo"]))
    assert RULESET.turn(state).phase == "adventure"
    assert sheet(state)["adventures"] == [
        {"adventure": "Sinister Secret", "heroes": ["Ana", "Bo"], "result": "in progress", "match": None}
    ]
    assert RULESET.turn(town).phase == "town"


def test_an_adventure_needs_at_least_one_hero(town, rejected) -> None:
    assert rejected(town, Event("adventure_started", None, {"adventure": "X", "heroes": []})) == "no_heroes"


def test_an_adventure_needs_active_heroes(town, play, ev, rejected) -> None:
    assert rejected(town, ev("adventure_started", adventure="X", heroes=["Ana", "Zed"])) == "unknown_hero"
    retired = play(town, ev("hero_retired", hero="Bo"))
    assert rejected(retired, ev("adventure_started", adventure="X", heroes=["Bo"])) == "hero_retired"


def test_a_hero_goes_once(town, ev, rejected) -> None:
    assert rejected(town, ev("adventure_started", adventure="X", heroes=["Ana", "ANA"])) == "duplicate_hero"


def test_one_adventure_at_a_time(on_adventure, ev, rejected) -> None:
    assert rejected(on_adventure, ev("adventure_started", adventure="Y", heroes=["Cy"])) == "adventure_in_progress"


def test_completion_pays_the_party_and_the_heroes_who_missed_it(after) -> None:
    gold = {h["name"]: h["gold"] for h in after["heroes"]}
    assert gold == {"Ana": 1050, "Bo": 1000, "Cy": 200}
    assert after["phase"] == "town"
    assert after["adventures"][-1]["result"] == "completed"


def test_missed_adventure_gold_is_an_option(play, ev) -> None:
    state = RULESET.initial_state({"missed_adventure_gold": 75}, 0)
    state = play(state, *[ev("hero_joined", hero=n, **{"class": "Fighter"}) for n in ("Ana", "Cy")])
    state = play(state, ev("adventure_started", adventure="A", heroes=["Ana"]), ev("adventure_completed", reward=0))
    assert [h["gold"] for h in state["heroes"]] == [0, 75]


def test_retired_heroes_get_no_missed_adventure_gold(town, play, ev) -> None:
    state = play(
        town,
        ev("hero_retired", hero="Cy"),
        ev("adventure_started", adventure="A", heroes=["Ana"]),
        ev("adventure_completed", reward=10),
    )
    assert [h["gold"] for h in state["heroes"]] == [10, 200, 0]  # Bo missed it; Cy retired


def test_failure_keeps_treasure_and_gold_and_pays_no_missed_gold(on_adventure, play, ev, item) -> None:
    state = play(
        on_adventure,
        ev("treasure_gained", hero="Bo", item=item("Wand", buy=400)),
        ev("gold_gained", hero="Bo", amount=30),
        ev("adventure_failed"),
    )
    bo, cy = state["heroes"][1], state["heroes"][2]
    assert (bo["gold"], [i["name"] for i in bo["items"]]) == (30, ["Wand"])
    assert cy["gold"] == 0
    assert state["adventures"][-1]["result"] == "failed"
    assert RULESET.turn(state).phase == "town"


def test_treasure_carries_into_the_retry(on_adventure, play, ev, item) -> None:
    state = play(
        on_adventure,
        ev("treasure_gained", hero="Ana", item=item("Shield", sell=20)),
        ev("adventure_failed"),
        ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "Bo"]),
        ev("gold_gained", hero="Ana", amount=5),
        ev("adventure_completed", reward=100),
    )
    assert state["heroes"][0]["gold"] == 105
    assert [i["name"] for i in state["heroes"][0]["items"]] == ["Shield"]


def test_adventure_entries_need_an_adventure_in_progress(town, after, ev, item, rejected) -> None:
    for state in (town, after):
        assert rejected(state, ev("adventure_completed", reward=5)) == "no_adventure"
        assert rejected(state, ev("adventure_failed")) == "no_adventure"
        assert rejected(state, ev("treasure_gained", hero="Ana", item=item("Gem", sell=5))) == "no_adventure"
        assert rejected(state, ev("gold_gained", hero="Ana", amount=5)) == "no_adventure"


def test_treasure_and_gold_only_for_heroes_of_the_adventure(on_adventure, play, ev, item, rejected) -> None:
    assert rejected(on_adventure, ev("treasure_gained", hero="Cy", item=item("Gem", sell=5))) == "not_in_adventure"
    assert rejected(on_adventure, ev("gold_gained", hero="Cy", amount=5)) == "not_in_adventure"
    state = play(on_adventure, ev("treasure_gained", hero="Bo", item=item("Gem", sell=5)))
    assert state["heroes"][1]["items"] == [{**item("Gem", sell=5), "item": True}]


def test_the_campaign_never_ends(after) -> None:
    assert RULESET.outcome(after) is None
    assert RULESET.legal_moves(after) is None
