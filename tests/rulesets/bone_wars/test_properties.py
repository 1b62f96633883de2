"""Property tests: random play never crashes, refusals change nothing, listed moves are legal, invariants hold."""

from __future__ import annotations

import copy
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.base import Event, RuleViolation
from rulesets.bone_wars import RULESET
from rulesets.bone_wars.fields import ICONS, KINDS, SIDES
from rulesets.replay import replay
from rulesets.schema import check_payload

pytestmark = pytest.mark.pure

FINITE = (
    "passed",
    "turn_ended",
    "paper_published",
    "paper_debunked",
    "patron_flipped",
    "slot_upgraded",
    "table_paused",
    "game_concluded",
)


def _key(event: Event) -> str:
    return json.dumps(event.to_dict(), sort_keys=True)


TYPES = sorted(RULESET.event_types)


@st.composite
def entries(draw, state) -> Event:
    """Any Bone Wars entry with a payload that fits the schema (the API refuses the rest), any seat; the
    seat on turn, cards, turn ends and passes are drawn more often, so that games get somewhere."""
    type_ = draw(st.one_of(st.sampled_from(TYPES), st.sampled_from(["card_played", "turn_ended", "passed"])))
    seats = len(state["players"])
    any_seat = st.integers(min_value=0, max_value=seats - 1)
    seat = (
        None
        if type_ in ("table_paused", "game_concluded")
        else draw(any_seat if state["turn"] is None else st.one_of(any_seat, st.just(state["turn"])))
    )
    side = st.sampled_from(SIDES)
    data = {
        "card_played": lambda: {
            "card": {
                "kind": draw(st.sampled_from(KINDS)),
                "name": draw(st.sampled_from(["Team", "Cope", "Raptor"])),
                "cost": draw(st.integers(0, 3)),
                "minor_find": draw(st.one_of(st.none(), st.sampled_from(ICONS))),
            }
        },
        "money_changed": lambda: {"amount": draw(st.integers(-6, 6))},
        "loyalty_gained": lambda: {"amount": draw(st.integers(1, 4))},
        "paper_published": lambda: {"side": draw(side)},
        "paper_debunked": lambda: {"side": draw(side)},
        "patron_flipped": dict,
        "species_archived": lambda: {"name": draw(st.sampled_from(["Hadrosaurus", "Dryptosaurus"]))},
        "slot_upgraded": lambda: {"cost": draw(st.integers(0, 3)), "icon": draw(st.sampled_from(ICONS))},
        "card_upgraded": lambda: {
            "slot": draw(st.integers(1, 7)),
            "card": {"kind": draw(st.sampled_from(KINDS)), "name": "Advanced Team", "cost": draw(st.integers(0, 3))},
        },
        "game_concluded": dict,
        "rp_gained": lambda: {"amount": draw(st.integers(-3, 5)), "reason": "award"},
        "turn_ended": dict,
        "passed": lambda: {"patron": draw(side)},
        "cranial_circumference_recorded": lambda: {"cm": draw(st.sampled_from([0, 50, 55.5, 60]))},
        "table_paused": dict,
    }[type_]()
    return Event(type_, seat, check_payload(RULESET.event_types[type_].fields, data))


setups = st.fixed_dictionaries(
    {
        "seats": st.integers(1, 4),
        "first_seat": st.integers(0, 3),
        "starting_money": st.integers(0, 12),
        "shelves": st.integers(1, 4),
    }
)


def _options(setup):
    options = {"first_seat": setup["first_seat"] % setup["seats"], "starting_money": setup["starting_money"]}
    options["shelves"] = setup["shelves"]
    return check_payload(RULESET.options_schema, options)


def _check_invariants(state, events, seats):
    players = state["players"]
    assert json.loads(json.dumps(state)) == state
    assert len(players) == seats and 1 <= state["round"] <= 4
    assert all(p["money"] >= 0 and p["rp"] >= 0 for p in players)
    assert all(0 <= state["credibility"][s] <= state["shelves"] for s in SIDES)
    for seat, p in enumerate(players):
        awards = sum(e.data["amount"] for e in events if e.type == "rp_gained" and e.seat == seat)
        scored = sum(s["seats"][seat]["gain"] for s in state["scorings"])
        assert p["rp"] == awards + scored, "RP come only from the scorings and rp_gained"
        filled = [sl["card"] is not None for sl in p["slots"]]
        assert filled == sorted(filled, reverse=True), "cards fill the slots from the left"
        assert all(not sl["prize"] or sl["card"]["minor_find"] == sl["icon"] for sl in p["slots"])
    assert [s["round"] for s in state["scorings"]] == [2, 4][: len(state["scorings"])]
    assert state["finished"] == (len(state["scorings"]) == 2)
    if state["finished"]:
        pause = [Event("table_paused", None, {})] if not state["sittings"][-1]["paused"] else []
        concluded = [] if state["concluded"] else [Event("game_concluded", None, {}), *pause]
        assert state["turn"] is None and RULESET.legal_moves(state) == concluded
        outcome = RULESET.outcome(state)
        assert outcome.provisional is not state["concluded"]
        assert outcome.scores == {s: p["rp"] for s, p in enumerate(players)} and outcome.winners
    else:
        assert not players[state["turn"]]["passed"] and RULESET.outcome(state) is None
        assert not all(p["passed"] for p in players)
    versions = [(s["from_version"], s["to_version"]) for s in state["sittings"]]
    assert versions[0][0] == 1 and versions[-1][1] == len(events) if events else versions == []
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(versions)), "sittings are contiguous"
    for seat in range(seats):
        assert sum(s["rp"][seat] for s in state["sittings"]) == players[seat]["rp"]


@settings(max_examples=80, deadline=None)
@given(setups, st.data())
def test_random_play_keeps_the_invariants_and_refusals_change_nothing(setup, data):
    seats = setup["seats"]
    options = _options(setup)
    state = RULESET.initial_state(options, seats)
    events: list[Event] = []
    for _ in range(data.draw(st.integers(0, 250))):
        if state["finished"] and data.draw(st.booleans()):
            break
        event = data.draw(entries(state))
        before = copy.deepcopy(state)
        try:
            RULESET.validate(state, event)
        except RuleViolation as exc:
            assert exc.code and exc.message and exc.rule.startswith(("Bone Wars ›", "Chronicle ›"))
            assert state == before, "a refusal changed the state"
            assert _key(event) not in {_key(m) for m in RULESET.legal_moves(state)}
            continue
        new = RULESET.apply(state, event)
        assert state == before, "apply mutated its input"
        events.append(event)
        state = new
        _check_invariants(state, events, seats)
        for move in RULESET.legal_moves(state):
            RULESET.validate(state, move)
    pos = replay(RULESET, options, seats, events, check=True)
    assert pos.state == state


@settings(max_examples=60, deadline=None)
@given(setups, st.data())
def test_finite_entries_are_accepted_exactly_when_listed(setup, data):
    """For the entries with finitely many payloads, legal_moves is exactly what validate accepts."""
    seats = setup["seats"]
    state = RULESET.initial_state(_options(setup), seats)
    for _ in range(data.draw(st.integers(0, 120))):  # walk somewhere by playing the listed moves and cards
        moves = RULESET.legal_moves(state)
        if not moves:
            break
        if not state["finished"] and not state["card_played"] and data.draw(st.integers(0, 2)):
            move = Event("card_played", state["turn"], {"card": {"kind": "team", "name": "T", "cost": 0}})
            try:
                RULESET.validate(state, move)
            except RuleViolation:
                move = moves[0]
        else:
            move = data.draw(st.sampled_from(moves))
        state = RULESET.apply(state, move)
    listed = {_key(m) for m in RULESET.legal_moves(state)}
    candidates = [Event("table_paused", None, {}), Event("game_concluded", None, {})]
    for seat in range(seats):
        candidates += [Event("turn_ended", seat, {}), Event("patron_flipped", seat, {})]
        candidates += [Event(t, seat, {"side": s}) for t in ("paper_published", "paper_debunked") for s in SIDES]
        candidates += [Event("passed", seat, {"patron": s}) for s in SIDES]
        candidates += [Event("slot_upgraded", seat, {"cost": c, "icon": i}) for c in range(4) for i in ICONS]
    assert {c.type for c in candidates} == set(FINITE)
    accepted = set()
    for event in candidates:
        try:
            RULESET.validate(state, event)
        except RuleViolation:
            continue
        accepted.add(_key(event))
    assert accepted == listed
