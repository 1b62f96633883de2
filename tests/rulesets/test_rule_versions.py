"""Rule versions (issue 32, item 6): a stream judged under an older rules version replays as it did then,
in the rulesets themselves (pure): Bone Wars version 1 (the last pass ends the game, the result is final),
versions 1-2 (an overridden card onto a full board adds a slot), The First Spine version 1 (a turn end read
while destroying, an overridden discard larger than the hand). A state without the stamp is under the current rules."""

from __future__ import annotations

import pytest

from rulesets import get_ruleset
from rulesets.base import Event, RuleViolation
from rulesets.names import name_seats
from rulesets.replay import Position, describe_entry, fold, replay, step, walk
from rulesets.schema import check_payload
from rulesets.versions import RULES_KEY, RULES_UPGRADED, initial_state, recorded_before, rules_of, stamp

pytestmark = pytest.mark.pure

BW = get_ruleset("bone-wars")
SPINE = get_ruleset("the-first-spine")


def bw(type_: str, seat: int | None = None, **data) -> Event:
    return Event(type_, seat, check_payload(BW.event_types[type_].fields, data))


def bone_wars_played_out() -> list[Event]:
    """Ana gains 3 RP and Bo 1 in round 1, then every round is passed out: the final scoring is made."""
    events = []
    for seat, rp in ((0, 3), (1, 1)):
        events += [
            bw("card_played", seat, card={"kind": "team", "name": "Field Team", "cost": 0}),
            bw("rp_gained", seat, amount=rp, reason="bonus"),
            bw("turn_ended", seat),
        ]
    for _ in range(4):
        events += [bw("passed", 0, patron="marsh"), bw("passed", 1, patron="cope")]
    return events


def options() -> dict:
    return check_payload(BW.options_schema, {"starting_money": 99})


def test_the_stamp_is_only_for_older_rules():
    state = BW.initial_state(options(), 2)
    assert stamp(BW, state, None) is state and stamp(BW, state, BW.version) is state
    assert RULES_KEY not in initial_state(BW, options(), 2, BW.version)
    old = initial_state(BW, options(), 2, 1)
    assert old[RULES_KEY] == 1 and rules_of(BW, old) == 1 and rules_of(BW, state) == BW.version
    assert recorded_before(old, 2) and not recorded_before(old, 1) and not recorded_before(state, 99)


def test_bone_wars_version_1_ends_the_game_at_the_last_pass_with_a_final_result():
    events = bone_wars_played_out()
    now = replay(BW, options(), 2, events, check=True)
    then = replay(BW, options(), 2, events, check=True, rules_version=1)
    assert BW.outcome(now.state).provisional and BW.outcome(now.state).winners == (0,)
    result = BW.outcome(then.state)
    assert not result.provisional and result.winners == (0,) and result.scores == {0: 3, 1: 1}
    assert then.state[RULES_KEY] == 1  # the stamp is carried through every entry
    # version 1 has no awards: the last pass ended the game, and the refusal says how to reach the awards
    with pytest.raises(RuleViolation) as info:
        step(BW, then, bw("rp_gained", 1, amount=4, reason="discoverer award"))
    v = info.value
    assert v.code == "game_over" and v.rule == "Chronicle › Rule versions"
    assert name_seats(v.message, ["Ana", "Bo"]).startswith("The game is over: Ana won with 3 RP")
    assert "replay it under the current rules" in v.message
    with pytest.raises(RuleViolation):
        step(BW, then, bw("game_concluded"))
    assert BW.legal_moves(then.state) == []
    # the tie-break is still recorded at any time
    after = step(BW, then, bw("cranial_circumference_recorded", 0, cm=57))
    assert not BW.outcome(after.state).provisional


def _full_board_then_override() -> list[Event]:
    events = []
    for _ in range(5):
        events += [bw("card_played", 0, card={"kind": "team", "name": "Field Team", "cost": 0}), bw("turn_ended", 0)]
    return [*events, Event("rule_overridden", None, {"reason": "house rule"}), bw("card_played", 0, card={
        "kind": "team", "name": "Sixth", "cost": 0})]  # fmt: skip


@pytest.mark.parametrize("rules", [1, 2])
def test_bone_wars_versions_1_and_2_add_a_slot_for_an_overridden_card_onto_a_full_board(rules):
    opts = check_payload(BW.options_schema, {"starting_money": 50})
    pos = replay(BW, opts, 1, _full_board_then_override(), check=True, rules_version=rules)
    player = pos.state["players"][0]
    assert len(player["slots"]) == 6 and player["slots"][5]["card"]["name"] == "Sixth"
    assert player["slots"][5]["cost"] == player["slots"][4]["cost"]  # a copy of the rightmost slot, paid
    assert player["money"] == 50 - sum(s["cost"] for s in player["slots"])


def test_bone_wars_version_3_refuses_the_same_entry():
    opts = check_payload(BW.options_schema, {"starting_money": 50})
    with pytest.raises(Exception) as info:
        replay(BW, opts, 1, _full_board_then_override(), check=True)
    assert "Entry 12 (card_played)" in str(info.value)


def test_a_rules_upgrade_entry_is_passed_over_by_the_fold_and_described():
    events = [*bone_wars_played_out(), Event(RULES_UPGRADED, None, {"from": 1, "to": BW.version})]
    numbered = list(enumerate(events, start=1))
    start = Position(initial_state(BW, options(), 2, None), 0, False)
    pos = fold(BW, start, numbered, set(), check=True)
    assert pos.version == len(events) and BW.outcome(pos.state).provisional
    assert describe_entry(BW, events[-1], ["Ana", "Bo"]) == (
        f"Replayed under the current rules of Bone Wars (version 1 → {BW.version}), at the owner's request."
    )
    with pytest.raises(ValueError):
        step(BW, pos, events[-1])
    # statistics walk the stream under its rules too, and pass the entry over
    assert len(list(walk(BW, options(), 2, numbered, rules_version=1))) == len(events) - 1


# -- The First Spine, version 1: a turn end read while destroying, in placement order -----------------


def test_the_first_spine_version_1_reads_each_destroyer_while_destroying(table_spine):
    """Two Turncoats destroy each other. Version 2 reads both destroyers from one board state: they swap.
    Version 1 read the second destroyer after the first had already changed sides: Ana's Turncoat (placed
    first) returns for Bo, then Bo's is judged destroyed by a card Bo now controls, so it goes to Bo's discard."""
    now = table_spine(None)
    then = table_spine(1)
    assert (now[0]["controller"], now[1]["controller"]) == (1, 0)
    assert then[0]["controller"] == 1 and then[1] is None


@pytest.fixture
def table_spine():
    from tests.rulesets.the_first_spine.conftest import Table

    def play(rules: int | None) -> list[dict]:
        t = Table(2, board=[4, 5])
        t.state = stamp(SPINE, t.state, rules)
        t.setup()
        t.put("Turncoat", [2, 2], 0).put("Turncoat", [1, 2], 1)
        t.refill().do("hp_changed", at=[2, 2], amount=-2).do("hp_changed", at=[1, 2], amount=-2)
        t.end()
        assert recorded_before(t.state, 2) == (rules == 1)
        return [t.card([2, 2]), t.card([1, 2])]

    return play


def test_the_first_spine_version_1_has_no_origin_card_limit():
    """Version 2 refuses a 7th card of one's origin; a match recorded under version 1 (which did not) keeps it."""
    from tests.rulesets.the_first_spine.conftest import Table

    def six_played(rules: int | None) -> Table:
        t = Table(2)
        t.state = stamp(SPINE, t.state, rules)
        t.setup().refill()
        for _ in range(4):
            t.place("Healing Light", [6, 3])
        t.end().pass_turns(1)
        t.refill().place("Shield Maiden", [5, 3]).place("Healing Light", [6, 3])
        return t

    now = six_played(None)
    now.bad("origin_cards_spent", "card_placed", card="Healing Light", at=[6, 3])
    then = six_played(1)
    then.place("Healing Light", [6, 3])  # a 7th, as version 1 accepted it
    assert then.state["players"][0]["origin_played"] == 7
    pos = replay(SPINE, then.options, 2, then.events, check=True, rules_version=1)
    assert pos.state == then.state
    with pytest.raises(Exception, match="already played the 6 cards"):
        replay(SPINE, then.options, 2, then.events, check=True)


def test_the_first_spine_version_1_lets_an_override_discard_more_than_the_hand():
    """Version 2 made an overridden discard larger than the hand unplayable; version 1 took it (the hand went
    below 0 and the draw filled it up to the hand size from there), so a match recorded under it replays. The
    numbers are the version-1 code's (``git show 39ea50e^``, the same events replayed there)."""
    opts = check_payload(SPINE.options_schema, {"board": [4, 5]})
    events = [
        Event("destiny_chosen", 0, {"destiny": "conjurer"}),
        Event("origin_chosen", 0, {"origin": "healer"}),
        Event("destiny_chosen", 1, {"destiny": "conjurer"}),
        Event("origin_chosen", 1, {"origin": "architect"}),
        Event("rule_overridden", None, {"reason": "house rule"}),
        Event("hand_refilled", 0, {"discarded": 9}),  # Ana holds 6
        Event("turn_ended", 0, {}),
        Event("hand_refilled", 1, {"discarded": 0}),
    ]
    then = replay(SPINE, opts, 2, events, check=True, rules_version=1).state
    ana = then["players"][0]
    assert (ana["hand"], ana["deck"], ana["wizard_hp"], ana["hand_discards"]) == (6, 15, 12, 9)
    assert then["log"][0]["text"] == "Seat 0 discarded 9 (−8 life), drew 9."
    assert (then["turn"]["seat"], then["turn"]["phase"]) == (1, "actions")
    for rules in (None, 2):  # version 2 on: unplayable, as the current rules say
        with pytest.raises(Exception, match="Seat 0 holds 6 cards and cannot discard 9"):
            replay(SPINE, opts, 2, events, check=True, rules_version=rules)
    for rules, overridable in (
        (1, True),
        (None, False),
    ):  # the rule refuses it in both; only version 1 offers a house rule
        setup = replay(SPINE, opts, 2, events[:4], check=True, rules_version=rules)
        with pytest.raises(RuleViolation) as info:
            step(SPINE, setup, events[5])
        assert (info.value.code, info.value.overridable) == ("not_enough_cards", overridable)


def test_bone_wars_version_1_clamps_overridden_numbers_at_zero_and_takes_any_upgrade_cost():
    opts = check_payload(BW.options_schema, {"starting_money": 2})
    overridden = [
        bw("card_played", 0, card={"kind": "team", "name": "Field Team", "cost": 0}),
        Event("rule_overridden", None, {"reason": "house rule"}),
        bw("money_changed", 0, amount=-5),
        Event("rule_overridden", None, {"reason": "house rule"}),
        bw("rp_gained", 0, amount=-3, reason="penalty"),
        Event("rule_overridden", None, {"reason": "house rule"}),
        bw("paper_debunked", 0, side="marsh"),
        bw("slot_upgraded", 0, cost=0, icon="bug"),  # cheaper than the $3 slot to its left
    ]
    then = replay(BW, opts, 1, overridden, check=True, rules_version=1).state
    player = then["players"][0]
    assert (player["money"], player["rp"], then["credibility"]["marsh"]) == (0, 0, 0)
    assert player["slots"][-1]["cost"] == 0
    with pytest.raises(Exception, match=r"Entry 7 .*holds no paper to debunk"):
        replay(BW, opts, 1, overridden, check=True)  # the current rules: unplayable, not clamped
    with pytest.raises(Exception, match="Slot costs rise to the right"):
        replay(BW, opts, 1, overridden[:5] + overridden[7:], check=True)
    now = replay(BW, opts, 1, overridden[:5], check=True).state["players"][0]
    assert (now["money"], now["rp"]) == (-3, -3)  # the current rules keep the numbers as the table said them


def test_the_first_spine_versions_1_to_3_have_no_destiny_share_and_let_a_house_rule_replay_the_setup():
    from tests.rulesets.the_first_spine.conftest import Table

    def table(rules: int | None) -> Table:
        t = Table(2, board=[4, 5], deck_size=6, hand_size=6)
        t.state = stamp(SPINE, t.state, rules)
        return t.setup().refill()

    now = table(None)
    now.bad("destiny_cards_spent", "card_placed", card="Squire", at=[2, 2])
    then = table(3)
    then.place("Squire", [2, 2])  # a 6-card deck held only origin cards, but version 3 did not count them
    waiting = Position(then.state, len(then.events) + 1, True)
    with pytest.raises(RuleViolation) as info:
        step(SPINE, Position(now.state, len(now.events) + 1, True), Event("destiny_chosen", 0, {"destiny": "hunter"}))
    assert info.value.code == "unplayable"
    again = step(SPINE, waiting, Event("destiny_chosen", 0, {"destiny": "hunter"})).state
    assert again[RULES_KEY] == 3  # version 3 accepted it (and re-dealt, as it did then)
