"""Rule versions (issue 32, item 6): a Get Salty match recorded under version 1 keeps its overridden move onto
an occupied cell (version 1 stacked the two tokens; version 2 refuses it as unplayable)."""

from __future__ import annotations

import pytest

from rulesets.base import RuleViolation
from rulesets.replay import Position, step
from rulesets.versions import stamp

pytestmark = pytest.mark.pure


def test_version_1_stacks_an_overridden_move_onto_an_occupied_cell(gs):
    onto = gs.ev("cracker_moved", 1, cracker="circle-blue", to=[1, 0])
    state = gs.play(gs.started(), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    with pytest.raises(RuleViolation) as info:
        step(gs.R, Position(state, 3, True), onto)
    assert info.value.code == "unplayable"
    old = gs.play(stamp(gs.R, gs.started(), 1), gs.ev("cracker_moved", 0, cracker="circle-red", to=[1, 0]))
    after = step(gs.R, Position(old, 3, True), onto).state
    assert after["tokens"]["circle-blue"]["cell"] == after["tokens"]["circle-red"]["cell"] == [1, 0]
    assert after["rules_version"] == 1
