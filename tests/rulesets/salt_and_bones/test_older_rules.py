"""Rule versions (issue 46 item 1): a Salt & Bones match recorded under versions 1 to 3 keeps the overridden
moves the code of those versions placed (an Attack card on a covered tile, a hand or deck taken below 0);
version 4 refuses them as unplayable. The expected states are the version-3 code's own (git 5222d64^)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, step
from rulesets.salt_and_bones import RULESET
from rulesets.versions import RULES_KEY, initial_state

pytestmark = pytest.mark.pure

STREAM = json.loads((Path(__file__).parent / "streams" / "v3_stacked_attack_cards.json").read_text())
HOUSE_RULE = Event("rule_overridden", 1, {"rule": "Salt & Bones › 4.4 Combat Phase", "reason": "house rule"})


def _play(rules_version: int | None, events: list[dict[str, Any]], options: dict[str, Any]) -> Position:
    pos = Position(initial_state(RULESET, options, 2, rules_version), 0, False)
    for e in events:
        pos = step(RULESET, pos, Event(e["type"], e["seat"], e["data"]), check=True)
    return pos


def test_a_version_3_stream_with_stacked_attack_cards_replays_as_the_version_3_code_did():
    pos = _play(STREAM["rules_version"], STREAM["events"], STREAM["options"])
    state = {k: v for k, v in pos.state.items() if k not in ("log", RULES_KEY)}
    assert pos.state[RULES_KEY] == 3
    assert state == STREAM["state"]
    assert len(pos.state["log"]) == STREAM["log_lines"]  # version 5 reworded the tiles, nothing else
    outcome = RULESET.outcome(pos.state).to_dict()
    assert {k: v for k, v in outcome.items() if k != "provisional"} == STREAM["outcome"]


def test_under_the_current_rules_the_stacked_card_is_unplayable_in_players_words():
    with pytest.raises(RuleViolation) as info:
        _play(None, STREAM["events"][:8], STREAM["options"])
    assert info.value.code == "unplayable"
    assert "the tile at column 4, row 3 is not a free tile of the Field Board" in info.value.message
    assert "[" not in info.value.message


@pytest.mark.parametrize(("rules_version", "offered"), [(3, True), (None, False)])
def test_a_house_rule_is_offered_for_a_covered_tile_only_under_versions_1_to_3(rules_version, offered):
    pos = _play(rules_version, STREAM["events"][:6], STREAM["options"])
    onto = Event("attack_card_played", 1, {"card": "Heavy Blow", "attack_tile": [2, 3], "opportunity_tile": [3, 3]})
    with pytest.raises(RuleViolation) as info:
        step(RULESET, pos, onto, check=True)
    assert info.value.code == "occupied_tile" and info.value.overridable is offered


@pytest.mark.parametrize(
    ("entry", "seat", "data", "key"),
    [
        ("hand_card_discarded", 0, {"kind": "attack"}, ("hands", 0, "attack")),
        ("cards_drawn", 0, {"attack": 7, "strategy": 0}, ("decks", "attack")),
    ],
)
def test_versions_1_to_3_take_a_count_below_0_under_a_house_rule(entry, seat, data, key):
    options = {"attack_deck": 3}
    start = [{"type": "field_card_flipped", "seat": None, "data": {"tiles": [[0, 1]]}}]
    event = Event(entry, seat, data)
    old = _play(3, start, options)
    after = step(RULESET, step(RULESET, old, HOUSE_RULE, check=True), event, check=True).state
    value = after
    for k in key:
        value = value[k]
    assert value < 0
    new = _play(None, start, options)
    with pytest.raises(RuleViolation) as info:
        step(RULESET, step(RULESET, new, HOUSE_RULE, check=True), event, check=True)
    assert info.value.code == "unplayable"


def test_the_version_4_change_is_said_in_players_words():
    assert set(RULESET.rule_changes) == {3, 4}
    assert "would be refused" in RULESET.rule_changes[4]
