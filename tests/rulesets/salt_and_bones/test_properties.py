"""Salt & Bones: Hypothesis properties over random legal games and random candidate moves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.base import Event, RuleViolation
from rulesets.replay import replay, walk
from rulesets.salt_and_bones import RULESET as rs
from rulesets.salt_and_bones.board import LOG_CAP
from rulesets.salt_and_bones.catalog import SLOTS
from tests.rulesets.salt_and_bones.catalogs import with_automatic_instincts

pytestmark = pytest.mark.pure

AUTOMATIC = with_automatic_instincts(4)

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.fixed_dictionaries(
    {
        "momentum_seat": st.sampled_from([0, 1]),
        "starting_health": st.integers(min_value=3, max_value=20),
        "attack_deck": st.integers(min_value=8, max_value=40),
        "strategy_deck": st.integers(min_value=4, max_value=40),
        "field_deck": st.integers(min_value=0, max_value=10),
        # the default cards, or with automatic INSTINCTs too (they trigger by themselves; Condescend may negate them)
        "strategy_cards": st.sampled_from([None, AUTOMATIC]),
    }
)


def _field_event(data: Any, state: dict[str, Any]) -> Event:
    f = state["field"]
    cells = [[r, c] for r in range(f["rows"]) for c in range(f["cols"]) if [r, c] not in f["grey"]]
    tiles = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=2, unique_by=tuple), label="tiles")
    return Event("field_card_flipped", None, {"tiles": tiles})


def _pick(data: Any, state: dict[str, Any]) -> Event:
    moves = rs.legal_moves(state)
    if moves is None:
        assert state["phase"] == "field"
        return _field_event(data, state)
    assert moves, "a game that is not over always has a legal move"
    kinds = sorted({m.type for m in moves})
    kind = data.draw(st.sampled_from(kinds), label="kind")
    return data.draw(st.sampled_from([m for m in moves if m.type == kind]), label="move")


def _totals(options: dict[str, Any]) -> dict[str, int]:
    return {"attack": options["attack_deck"], "strategy": options["strategy_deck"], "field": options["field_deck"]}


def check_invariants(before: dict[str, Any], event: Event, state: dict[str, Any], options: dict[str, Any]) -> None:
    start = options["starting_health"]
    assert json.loads(json.dumps(state)) == state
    assert all(0 <= h <= start for h in state["health"])
    second_wind = before["health"] == [0, 0] and state["health"] == [1, 1]
    if event.type != "strategy_card_played" and not second_wind:
        assert all(n <= b for n, b in zip(state["health"], before["health"], strict=True)), "Health replenished"
    if state["momentum"] != before["momentum"]:
        assert event.type == "disengaged" and event.seat == before["momentum"]
    for board in state["boards"]:
        for slot, (kind, cap) in SLOTS.items():
            assert len(board[slot]) <= cap
            for card in board[slot]:
                if card["name"] is not None:
                    assert state["catalog"]["strategy"][card["name"]]["type"] == kind
    for seat in (0, 1):
        hand = state["hands"][seat]
        assert hand["attack"] >= 0 and hand["strategy"] >= 0
        assert hand["attack"] + hand["strategy"] <= state["settings"]["hand_size"]
    # tiles never double-occupied, never grey or destroyed
    f = state["field"]
    used: set[tuple[int, int]] = set()
    for card in f["cards"]:
        if card["negated"]:
            continue
        for cell in (card["attack_tile"], card["opportunity_tile"]):
            key = (cell[0], cell[1])
            assert key not in used
            used.add(key)
            assert cell not in f["grey"] and cell not in f["destroyed"]
    assert sum(1 for row in f["grid"] for cell in row if cell["card"] is not None) == len(used)
    # every card is somewhere: deck, hand, board, field or discard pile
    totals = _totals(options)
    assert state["decks"]["attack"] >= 0 and state["decks"]["strategy"] >= 0 and state["decks"]["field"] >= 0
    attack = state["decks"]["attack"] + sum(h["attack"] for h in state["hands"]) + len(f["cards"])
    assert attack + state["discards"]["attack"] == totals["attack"]
    on_boards = sum(len(cards) for b in state["boards"] for cards in b.values())
    strategy = state["decks"]["strategy"] + sum(h["strategy"] for h in state["hands"]) + on_boards
    assert strategy + state["discards"]["strategy"] == totals["strategy"]
    assert state["decks"]["field"] + state["discards"]["field"] == totals["field"]
    assert len(state["log"]) <= LOG_CAP + 40
    assert (state["combat"] is not None) == (state["phase"] == "combat")
    assert (state["result"] is not None) == (state["phase"] == "over")
    if state["result"] is not None and not state["result"]["draw"]:
        (winner,) = state["result"]["winners"]
        assert state["health"][winner] > 0 and state["health"][1 - winner] == 0
    # hidden information stays hidden
    for seat in (0, 1):
        seen = rs.view(state, seat)
        assert all(c["name"] is None for c in seen["boards"][1 - seat]["instinct"])
    assert all(c["name"] is None for b in rs.view(state, None)["boards"] for c in b["instinct"])


def play_random(data: Any, options: dict[str, Any], steps: int) -> tuple[dict[str, Any], list[Event]]:
    state = rs.initial_state(options, 2)
    events: list[Event] = []
    for _ in range(steps):
        if rs.outcome(state) is not None:
            break
        event = _pick(data, state)
        frozen = json.dumps(state, sort_keys=True)
        rs.validate(state, event)
        new = rs.apply(state, event)
        assert json.dumps(state, sort_keys=True) == frozen, "apply mutated its input"
        check_invariants(state, event, new, options)
        events.append(event)
        state = new
    return state, events


@SETTINGS
@given(options=OPTIONS, data=st.data())
def test_random_legal_games_keep_the_invariants(options: dict[str, Any], data: Any) -> None:
    state, events = play_random(data, options, 250)
    pos = replay(rs, options, 2, events, check=True)
    assert pos.state == state


def _candidates(state: dict[str, Any]) -> Any:
    cells = st.lists(st.integers(min_value=-1, max_value=6), min_size=2, max_size=2)
    attack_names = st.sampled_from([*state["catalog"]["attack"], "Cannon"])
    strategy_names = st.sampled_from([*state["catalog"]["strategy"], "Grog"])
    combat = state.get("combat") or {}
    window = combat.get("window") or {}
    uids = [c["uid"] for c in state["field"]["cards"]]
    uids += [r["uid"] for r in [*window.get("reactions", []), *window.get("triggered", [])]]
    uid = st.one_of(st.sampled_from(uids), st.integers(min_value=-1, max_value=60)) if uids else st.integers(-1, 60)
    target = st.one_of(
        st.none(),
        st.sampled_from(["chain", "instinct", "anything"]),
        st.builds(lambda i: {"instance": i}, st.integers(min_value=-1, max_value=4)),  # version 1's form
        st.builds(lambda u: {"card": u}, uid),
        st.builds(lambda u, i: {"card": u, "instance": i}, uid, st.integers(min_value=-1, max_value=4)),
    )
    seat = st.sampled_from([0, 1])
    return st.one_of(
        st.builds(
            lambda s, k: Event("hand_card_discarded", s, {"kind": k}), seat, st.sampled_from(["attack", "strategy"])
        ),
        st.builds(
            lambda s, a, b: Event("cards_drawn", s, {"attack": a, "strategy": b}),
            seat,
            st.integers(min_value=0, max_value=7),
            st.integers(min_value=0, max_value=7),
        ),
        st.builds(
            lambda s, slot, name: Event("strategy_card_placed", s, {"slot": slot, "card": name}),
            seat,
            st.sampled_from(list(SLOTS)),
            st.one_of(st.none(), strategy_names),
        ),
        st.builds(lambda s: Event("preparation_finished", s, {}), seat),
        st.builds(
            lambda s, n, a, o: Event("attack_card_played", s, {"card": n, "attack_tile": a, "opportunity_tile": o}),
            seat,
            attack_names,
            cells,
            cells,
        ),
        st.builds(
            lambda s, n, t: Event("strategy_card_played", s, {"card": n, "target": t}), seat, strategy_names, target
        ),
        st.builds(lambda s: Event("disengaged", s, {}), seat),
        st.builds(lambda s: Event("additional_turn_passed", s, {}), seat),
    )


def _key(event: Event) -> str:
    return json.dumps(event.to_dict(), sort_keys=True)


@SETTINGS
@given(options=OPTIONS, data=st.data())
def test_listed_moves_are_accepted_and_unlisted_ones_rejected(options: dict[str, Any], data: Any) -> None:
    state, _ = play_random(data, options, data.draw(st.integers(min_value=0, max_value=120), label="steps"))
    moves = rs.legal_moves(state)
    if moves is None:
        return
    for move in moves[:: max(1, len(moves) // 60)]:
        rs.validate(state, move)  # raises if a listed move is not accepted
    listed = {_key(m) for m in moves}
    for _ in range(40):
        candidate = data.draw(_candidates(state), label="candidate")
        if _key(candidate) in listed:
            rs.validate(state, candidate)
            continue
        frozen = json.dumps(state, sort_keys=True)
        try:
            rs.validate(state, candidate)
        except RuleViolation as refusal:
            entry = refusal.code in ("unknown_event", "unknown_seat", "unknown_card", "bad_card")
            assert refusal.message and refusal.rule.startswith("Chronicle › Entries" if entry else "Salt & Bones ›")
            assert json.dumps(state, sort_keys=True) == frozen, "a refusal changed the state"
            continue
        raise AssertionError(f"validate accepted a move legal_moves did not list: {candidate}")


@SETTINGS
@given(options=OPTIONS, data=st.data())
def test_log_insights_add_up_over_random_games(options: dict[str, Any], data: Any) -> None:
    """Damage per combat (what the cards dealt) is never less than the Health both seats lost in that combat,
    one figure per combat that ended; a game won at 0 Health always has its final blow."""
    state, events = play_random(data, options, 250)
    numbered = list(enumerate(events, start=1))
    facts = rs.log_insights(walk(rs, options, 2, numbered))
    lost: list[int] = []
    start: list[int] = []
    for _, before, after in walk(rs, options, 2, numbered):
        if before["combat"] is None and after["combat"] is not None:
            start = list(after["health"])
        if before["combat"] is not None and after["combat"] is None:
            lost.append(sum(start) - sum(before["health"]))
    assert len(facts["damage per combat"]) == len(lost)
    assert all(dealt >= health for dealt, health in zip(facts["damage per combat"], lost, strict=True))
    result = state["result"]
    if result is not None and result["winners"]:
        assert facts["final blow"] in ("a Chain card", "a regular Attack card")
    else:
        assert "final blow" not in facts
