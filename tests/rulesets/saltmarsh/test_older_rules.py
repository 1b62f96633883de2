"""Rule versions (issue 46, item 1): a campaign recorded under version 1 keeps its overridden payments below 0 gp
(version 1 let them through; version 2 refuses them as ``unplayable``)."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, step
from rulesets.saltmarsh import RULESET, gold_ledger
from rulesets.versions import stamp

pytestmark = pytest.mark.pure

OVERRIDE = Event("rule_overridden", None, {"reason": "house rule: level up on credit"})


def _overridden(state, event):
    pos = step(RULESET, Position(state, 9), OVERRIDE)
    return step(RULESET, pos, event).state


def test_version_1_lets_an_overridden_level_up_leave_gold_below_zero(after, ev) -> None:
    """Cy has 200 gp and levels up for 2,000: -1,800 gp, level 2, as the version 1 code left it."""
    level_up = ev("leveled_up", hero="Cy")
    with pytest.raises(RuleViolation) as info:
        _overridden(after, level_up)
    assert info.value.code == "unplayable" and "below zero" in info.value.message
    state = _overridden(stamp(RULESET, after, 1), level_up)
    cy = state["heroes"][2]
    assert (cy["level"], cy["gold"]) == (2, -1800)
    assert gold_ledger(state, "Cy")[-1] == {
        "hero": "Cy", "version": 8, "delta": -2000, "cause": "level_up", "note": "Reached level 2", "balance": -1800
    }  # fmt: skip


def test_version_1_keeps_every_overridden_payment_below_zero(after, ev) -> None:
    old = stamp(RULESET, after, 1)
    token = _overridden(old, ev("advancement_token_bought", hero="Cy", token="Fleet", cost=500))
    assert token["heroes"][2]["gold"] == -300
    given = _overridden(old, ev("trade_made", **{"from": "Cy", "to": "Ana", "items": [], "gold": 300}))
    assert [h["gold"] for h in given["heroes"]] == [1350, 1000, -100]


def test_version_1_still_refuses_the_payment_without_an_override(after, ev, rejected) -> None:
    """Only an override reaches the reducer: the rules themselves refuse a payment the hero cannot make."""
    assert rejected(stamp(RULESET, after, 1), ev("leveled_up", hero="Cy")) == "not_enough_gold"


def test_the_version_2_change_is_said() -> None:
    assert RULESET.version == 2 and "below 0 gp" in RULESET.rule_changes[2]
