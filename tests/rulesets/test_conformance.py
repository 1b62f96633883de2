"""Every registered ruleset keeps the contract and the one shape (tests/rulesets/conformance.py); a planted
ruleset that breaks it is caught, so a sixth game is checked the day it is added to the registry."""

from __future__ import annotations

import pytest

from rulesets import all_rulesets
from rulesets.base import Event, State
from rulesets.last_stone import LastStone
from rulesets.last_stone.engine import take
from tests.rulesets.conformance import problems, shape_problems

pytestmark = pytest.mark.pure


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.slug)
def test_every_ruleset_keeps_the_contract(ruleset):
    assert problems(ruleset) == []


class _Mutating(LastStone):
    """Planted: an effect that edits the state it was given instead of the clone."""

    def clone(self, state: State) -> State:
        return state


class _ListsARefusedMove(LastStone):
    """Planted: lists taking 4 stones, which its own fields refuse."""

    def legal_moves(self, state: State) -> list[Event]:
        return [*super().legal_moves(state), Event("stones_taken", state["turn"], {"count": 4})]


class _OwnValidate(LastStone):
    """Planted: a game that writes its own validate instead of filling the table."""

    def validate(self, state: State, event: Event) -> None:
        take(dict(state), event)


def test_a_ruleset_whose_apply_mutates_its_input_fails():
    found = problems(_Mutating(), shaped=False)
    assert any("changed its input state" in p for p in found), found


def test_a_ruleset_listing_a_move_validate_refuses_fails():
    found = problems(_ListsARefusedMove(), shaped=False)
    assert any("validate refuses it: invalid_payload" in p for p in found), found


def test_a_ruleset_overriding_validate_is_not_in_the_shape():
    assert any("overrides validate()" in p for p in shape_problems(_OwnValidate()))
