"""An adventure match's result flowing into the campaign stream as one ``adventure_concluded`` entry."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET, conclusion_from_adventure, sheet
from rulesets.saltmarsh_adventure import RULESET as ADVENTURE

pytestmark = pytest.mark.pure

MATCH = 7
PARTY = [
    {"name": "Ana", "class": "Fighter", "max_hp": 10},
    {"name": "Bo", "class": "Wizard", "max_hp": 7},
]


def adventure(
    finish: Event | None, party: list[dict[str, Any]] = PARTY, extra: tuple[Event, ...] = ()
) -> dict[str, Any]:
    """Ana and Bo play 'Sinister Secret': treasure, gold, 6 XP gained, an encounter cancelled."""
    options = {"heroes": party, "adventure": "Sinister Secret", "campaign_reward": 300}
    state = ADVENTURE.initial_state(options, 2)
    events = [
        Event("hero_phase_started", 0),
        Event("monster_placed", None, {"monster": "Kobold"}),
        Event("monster_defeated", None, {"monster": "Kobold", "xp": 6}),
        Event("treasure_found", 0, {"item": {"name": "Potion", "buy": 100, "sell": 50}}),
        Event("treasure_found", 0, {"item": {"name": "Rope", "buy": 10, "sell": None}}),
        Event("treasure_found", 1, {"item": {"name": "Wand", "buy": None, "sell": 200}}),
        Event("treasure_found", 1, {"item": {"name": "Blessing"}}),
        Event("gold_found", 1, {"amount": 100}),
        Event("gold_found", 1, {"amount": 25}),
        Event("treasure_used", 0, {"item": "Rope"}),
        *extra,
        Event("hero_phase_ended", 0),
        Event("encounter_cancelled", None, {"encounter": "Gust"}),
    ]
    if finish is not None:
        events.append(finish)
    for e in events:
        ADVENTURE.validate(state, e)
        state = ADVENTURE.apply(state, e)
    return state


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def started(town, play, ev, heroes=("Ana", "Bo")):
    return play(town, ev("adventure_started", adventure="Sinister Secret", heroes=list(heroes), match=MATCH))


def test_a_won_adventure_becomes_one_conclusion_naming_match_and_adventure(town, play, ev) -> None:
    won = adventure(Event("adventure_won", None, {}))
    assert won["xp"] == 1  # the adventure had experience ...
    entry = conclusion_from_adventure(won, MATCH)
    assert entry is not None and entry.to_dict() == {
        "type": "adventure_concluded", "seat": None,
        "data": {"match": MATCH, "adventure": "Sinister Secret", "result": "won", "reward": 300, "heroes": [
            {"hero": "Ana", "found": [{"name": "Potion", "buy": 100, "sell": 50, "item": True}], "used": [], "gold": 0},
            {"hero": "Bo", "found": [{"name": "Wand", "buy": None, "sell": 200, "item": True},
                                     {"name": "Blessing", "buy": None, "sell": None, "item": False}],
             "used": [], "gold": 125},
        ]},
    }  # fmt: skip
    state = play(started(town, play, ev), entry)
    got = {h["name"]: (h["gold"], [i["name"] for i in h["items"]]) for h in sheet(state)["heroes"]}
    assert got == {"Ana": (300, ["Potion"]), "Bo": (425, ["Wand", "Blessing"]), "Cy": (200, [])}
    assert sheet(state)["adventures"][-1] == {
        "adventure": "Sinister Secret", "heroes": ["Ana", "Bo"], "result": "completed", "match": MATCH
    }  # fmt: skip
    # ... and no experience reaches the campaign
    assert not {k for k in keys(state) if "xp" in k.casefold() or "experience" in k.casefold()}
    assert RULESET.conclusion_from_adventure(won, MATCH) == entry


def test_a_lost_adventure_keeps_treasure_and_fails(town, play, ev) -> None:
    lost = adventure(Event("adventure_lost", None, {"reason": "The smugglers escaped."}))
    entry = conclusion_from_adventure(lost, MATCH)
    assert entry is not None and entry.data["result"] == "lost"
    state = play(started(town, play, ev), entry)
    assert [h["gold"] for h in state["heroes"]] == [0, 125, 0]
    assert state["adventures"][-1]["result"] == "failed"


def test_an_unfinished_adventure_has_no_conclusion() -> None:
    assert conclusion_from_adventure(adventure(None), MATCH) is None


def test_campaign_items_carried_into_the_match_and_used_there_leave_the_sheet(town, play, ev) -> None:
    """Item 3: a Potion bought in town is drunk in the adventure and is gone from the campaign afterwards."""
    potion = {"name": "Potion", "buy": 100, "sell": 50, "item": True}
    party = [{**PARTY[0], "items": [potion, {"name": "Cloak", "buy": 600}]}, PARTY[1]]
    drunk = (Event("treasure_used", 0, {"item": "Potion"}), Event("treasure_used", 0, {"item": "Potion"}))
    won = adventure(Event("adventure_won", None, {}), party, drunk)  # the found Potion goes first, then the own
    entry = conclusion_from_adventure(won, MATCH)
    assert entry is not None
    assert entry.data["heroes"][0] == {"hero": "Ana", "found": [], "used": ["Potion"], "gold": 0}
    # give Ana the cards on the campaign first (a paper adventure), then play the match adventure
    state = play(
        town,
        ev("adventure_started", adventure="Earlier", heroes=["Ana"]),
        ev("treasure_gained", hero="Ana", item=potion),
        ev("treasure_gained", hero="Ana", item={"name": "Cloak", "buy": 600, "sell": None}),
        ev("adventure_failed"),
    )
    state = play(state, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "Bo"], match=MATCH), entry)
    assert [i["name"] for i in sheet(state)["heroes"][0]["items"]] == ["Cloak"]


def test_the_campaign_checks_the_conclusion(town, play, ev, rejected) -> None:
    entry = conclusion_from_adventure(adventure(Event("adventure_won", None, {})), MATCH)
    assert entry is not None
    assert rejected(town, entry) == "unknown_match"
    assert rejected(play(town, ev("adventure_started", adventure="Other", heroes=["Ana", "Bo"])), entry) == (
        "unknown_match"
    )
    state = started(town, play, ev, heroes=("Ana",))
    assert rejected(state, entry) == "not_in_adventure"  # Bo's wand, but Bo was not sent
    renamed = Event(entry.type, None, {**entry.data, "adventure": "Danger at Dunwater"})
    assert rejected(started(town, play, ev), renamed) == "other_adventure"


def test_an_adventure_played_as_a_match_takes_no_hand_entries_even_overridden(town, play, ev, rejected) -> None:
    import pytest

    from rulesets.replay import Position, step

    state = started(town, play, ev)
    for entry in (
        ev("adventure_completed", reward=500),
        ev("adventure_failed"),
        ev("treasure_gained", hero="Ana", item={"name": "Ring", "buy": 50}),
        ev("gold_gained", hero="Ana", amount=5),
    ):
        assert rejected(state, entry) == "played_as_match"
        overridden = step(RULESET, Position(state, 4, False), ev("rule_overridden", reason="x"))
        with pytest.raises(Exception) as info:
            step(RULESET, overridden, entry)
        assert getattr(info.value, "code", "") == "unplayable" and "match #7" in str(info.value)


def test_a_stale_match_cannot_land_on_a_later_adventure(town, play, ev, rejected) -> None:
    """Item 2: match 7 (Sinister Secret) lost, Dunwater started as match 8; match 7's win does not reach it."""
    lost = conclusion_from_adventure(adventure(Event("adventure_lost", None, {"reason": "x"})), MATCH)
    won = conclusion_from_adventure(adventure(Event("adventure_won", None, {})), MATCH)
    assert lost is not None and won is not None
    state = play(
        started(town, play, ev),
        lost,
        ev("adventure_started", adventure="Danger at Dunwater", heroes=["Ana", "Bo"], match=8),
    )
    assert rejected(state, won) == "adventure_closed"
