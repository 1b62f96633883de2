"""The installation is played once (issue 32, item 1): a setup entry under a house rule after setup neither deals
the hands again nor rewinds the turn; it is ``unplayable``, and so no page offers the override for it."""

from __future__ import annotations

import pytest

from rulesets.base import Event, RuleViolation
from rulesets.replay import Position, ReplayError, replay, step
from rulesets.schema import check_payload
from rulesets.the_first_spine import RULESET

pytestmark = pytest.mark.pure

OVERRIDE = Event("rule_overridden", None, {"reason": "we choose again"})


def issue_repro_start() -> list[Event]:
    """The issue's repro up to the override: board 4 × 5, both seats set up, Seat 0 draws and plays a Squire."""
    return [
        Event("destiny_chosen", 0, {"destiny": "conjurer"}),
        Event("origin_chosen", 0, {"origin": "healer"}),
        Event("destiny_chosen", 1, {"destiny": "sorcerer"}),
        Event("origin_chosen", 1, {"origin": "architect"}),
        Event("hand_refilled", 0, {"discarded": 0}),
        Event("card_placed", 0, {"card": "Squire", "at": [2, 2]}),
    ]


def position(events: list[Event]) -> Position:
    return replay(RULESET, check_payload(RULESET.options_schema, {"board": [4, 5]}), 2, events, check=True)


def refused_under_override(pos: Position, event: Event) -> RuleViolation:
    pending = step(RULESET, pos, OVERRIDE)
    with pytest.raises(RuleViolation) as info:
        step(RULESET, pending, event)
    return info.value


def counts(pos: Position) -> list[tuple[int, int]]:
    return [(p["hand"], p["deck"]) for p in pos.state["players"]]


def test_an_overridden_destiny_after_setup_deals_nothing_and_rewinds_nothing():
    pos = position(issue_repro_start())
    assert counts(pos) == [(5, 24), (6, 24)]
    turn = dict(pos.state["turn"])
    v = refused_under_override(pos, Event("destiny_chosen", 0, {"destiny": "hunter"}))
    assert v.code == "unplayable" and v.rule == "Chronicle › Corrections"
    assert "the installation is over: the starting hands were drawn once" in v.message, v.message
    assert counts(pos) == [(5, 24), (6, 24)] and pos.state["turn"] == turn  # nothing was written
    assert pos.state["players"][0]["destiny"] == "conjurer"


def test_an_overridden_origin_on_the_next_turn_is_refused_too():
    events = [*issue_repro_start(), Event("turn_ended", 0, {})]
    pos = position(events)
    assert (pos.state["turn"]["number"], pos.state["turn"]["seat"]) == (2, 1)
    v = refused_under_override(pos, Event("origin_chosen", 1, {"origin": "priest"}))
    assert v.code == "unplayable" and "the installation is over" in v.message
    assert (pos.state["turn"]["number"], pos.state["turn"]["seat"], pos.state["turn"]["phase"]) == (2, 1, "start")
    assert counts(pos) == [(5, 24), (6, 24)]


def test_a_stored_override_of_a_setup_entry_no_longer_replays():
    """A history that holds such an entry (recorded before version 4) is reported, not replayed into a re-deal."""
    events = [*issue_repro_start(), OVERRIDE, Event("destiny_chosen", 0, {"destiny": "hunter"})]
    with pytest.raises(ReplayError) as info:
        position(events)
    assert info.value.version == 8 and info.value.violation.code == "unplayable"


@pytest.mark.parametrize(
    "event",
    [
        Event("hand_refilled", 0, {"discarded": 0}),
        Event("hp_changed", 0, {"at": [3, 2], "amount": -2, "note": ""}),
        Event("turn_ended", 0, {}),
    ],
)
def test_no_turn_entry_is_played_during_setup_even_under_an_override(event):
    """Before every seat has chosen, a turn entry would skip the installation (a hand drawn, the turn begun)."""
    pos = position([Event("destiny_chosen", 0, {"destiny": "conjurer"})])
    v = refused_under_override(pos, event)
    assert v.code == "unplayable" and "no turn has begun yet" in v.message, v.message


def test_a_setup_choice_may_still_be_changed_during_setup_under_a_house_rule():
    """During setup nothing has been dealt: an overridden second destiny is recorded as the table said."""
    pos = position([Event("destiny_chosen", 0, {"destiny": "conjurer"})])
    pos = step(RULESET, step(RULESET, pos, OVERRIDE), Event("destiny_chosen", 0, {"destiny": "hunter"}))
    assert pos.state["players"][0]["destiny"] == "hunter" and pos.state["turn"]["phase"] == "setup"


def test_the_refusal_says_no_override_can_record_it():
    """The page offers a house rule only for a refusal whose move an override could record (``overridable``)."""
    pos = position(issue_repro_start())
    with pytest.raises(RuleViolation) as info:
        step(RULESET, pos, Event("destiny_chosen", 0, {"destiny": "hunter"}))
    v = info.value
    assert v.code == "setup_finished" and v.rule == "The First Spine › Installation › 3 Start-up"
    assert not v.overridable
    with pytest.raises(RuleViolation) as info:  # a card away from one's own: a house rule may place it
        step(RULESET, pos, Event("card_placed", 0, {"card": "Squire", "at": [0, 0]}))
    assert info.value.code == "not_next_to_yours" and info.value.overridable
    with pytest.raises(RuleViolation) as info:  # a card onto a wizard: not even a house rule
        step(RULESET, pos, Event("card_placed", 0, {"card": "Squire", "at": [0, 2]}))
    assert info.value.code == "cell_occupied" and not info.value.overridable
