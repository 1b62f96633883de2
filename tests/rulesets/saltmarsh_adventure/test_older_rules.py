"""Rule versions (issue 32, item 6): a Saltmarsh adventure recorded under version 1 or 2 keeps its overridden
Encounter cancel without the XP (those versions set the party's XP to 0; version 3 refuses it)."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, step
from rulesets.saltmarsh_adventure import RULESET
from rulesets.versions import stamp

pytestmark = pytest.mark.pure

CANCEL = Event("encounter_cancelled", None, {"encounter": "Gust"})


@pytest.mark.parametrize("version", [1, 2])
def test_versions_1_and_2_set_the_xp_to_0(villain, version) -> None:
    assert villain["xp"] < villain["encounter_cancel_xp"]
    with pytest.raises(RuleViolation):
        step(RULESET, Position(villain, 9, True), CANCEL)
    after = step(RULESET, Position(stamp(RULESET, villain, version), 9, True), CANCEL).state
    assert after["xp"] == 0 and after["encounters_cancelled"] == ["Gust"]
