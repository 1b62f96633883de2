"""Salt & Bones: options, the default catalog, the initial state and the interface basics."""

from __future__ import annotations

import json

import pytest

from rulesets.base import Event
from rulesets.salt_and_bones import RULESET, default_catalog
from rulesets.salt_and_bones.catalog import SLOTS
from rulesets.schema import check_payload, json_schema

pytestmark = pytest.mark.pure


def test_identity() -> None:
    assert RULESET.slug == "salt-and-bones"
    assert RULESET.seats == (2,)
    assert set(RULESET.event_types) == {
        "field_card_flipped",
        "hand_card_discarded",
        "cards_drawn",
        "strategy_card_placed",
        "preparation_finished",
        "attack_card_played",
        "strategy_card_played",
        "disengaged",
        "additional_turn_passed",
    }


def test_default_catalog_names_every_rulebook_card() -> None:
    cat = default_catalog()
    attack = {c["name"]: c for c in cat["attack_cards"]}
    strategy = {c["name"]: c for c in cat["strategy_cards"]}
    for name in ("Flourish", "Advance Into Parry", "Lunge/Riposte"):
        assert name in attack
    expected_types = {
        "Bracer": "EQUIPMENT",
        "Razor Oil": "EQUIPMENT",
        "Anticipation": "INSTINCT",
        "Overwhelm": "INSTINCT",
        "Condescend": "INSTINCT",
        "Test of Will": "GAMBIT",
        "Test of Pain": "GAMBIT",
        "Test of Skill": "GAMBIT",
        "Test of Courage": "GAMBIT",
    }
    for name, kind in expected_types.items():
        assert strategy[name]["type"] == kind
    assert attack["Flourish"]["bonus"] == "extra_instances" and attack["Flourish"]["bonus_instances"] == 2
    assert {c["bonus"] for c in attack.values()} >= {"chain", "stops_chain", "forced_disengage"}
    assert sum(c["copies"] for c in cat["attack_cards"]) == cat["decks"]["attack"] == 40
    assert sum(c["copies"] for c in cat["strategy_cards"]) == cat["decks"]["strategy"] == 40
    assert cat["board"]["grey"] == [[0, 0], [0, 5], [5, 0], [5, 5]]
    assert cat["board"]["centre"] == [[2, 2], [2, 3], [3, 2], [3, 3]]
    # fresh data each call: editing one does not change the next
    cat["attack_cards"][0]["attack"] = 99
    assert default_catalog()["attack_cards"][0]["attack"] != 99
    json.dumps(default_catalog())


def test_default_catalog_passes_its_own_option_schema() -> None:
    cat = default_catalog()
    options = {"board": cat["board"], "attack_cards": cat["attack_cards"], "strategy_cards": cat["strategy_cards"]}
    cleaned = check_payload(RULESET.options_schema, options)
    assert RULESET.check_options(cleaned) == []
    filled = check_payload(RULESET.options_schema, {})
    assert filled["momentum_seat"] == 0
    assert filled["starting_health"] == 20
    assert filled["hand_size"] == 7
    assert (filled["attack_deck"], filled["strategy_deck"], filled["field_deck"]) == (40, 40, 10)
    assert filled["attack_cards"] == cat["attack_cards"]
    json_schema(RULESET.options_schema)  # renders for OpenAPI


def test_option_schema_rejects_a_malformed_card() -> None:
    bad = default_catalog()["attack_cards"]
    bad[0]["bonus"] = "teleport"
    try:
        check_payload(RULESET.options_schema, {"attack_cards": bad})
    except Exception as exc:
        assert "attack_cards[0].bonus" in str(exc)
    else:
        raise AssertionError("an unknown bonus must be rejected")


def test_check_options_finds_cross_field_problems() -> None:
    cat = default_catalog()
    board = {"rows": 4, "cols": 4, "grey": [[0, 0], [9, 9]], "centre": [[0, 0], [7, 1]]}
    strategy = cat["strategy_cards"] + [dict(cat["strategy_cards"][0])]
    strategy.append(
        {
            "name": "Odd Gambit",
            "copies": 1,
            "type": "GAMBIT",
            "activation": "choice",
            "effect": "negate_card",
            "amount": 0,
            "destroyed_at_round_end": False,
            "text": "",
        }
    )
    strategy.append({**cat["strategy_cards"][0], "name": "Choosy Bracer", "activation": "choice"})
    problems = RULESET.check_options({"board": board, "strategy_cards": strategy})
    text = " ".join(problems)
    assert (
        "column 10, row 10" in text and "column 2, row 8" in text and "Centre tile at column 1, row 1 is grey" in text
    )
    assert "'Bracer' is used twice" in text
    assert "Odd Gambit" in text and "Choosy Bracer" in text


def test_initial_state_is_json_and_ready_to_draw_the_board(rs) -> None:
    s = rs.initial_state({}, 2)
    assert json.loads(json.dumps(s)) == s
    assert s["phase"] == "field" and s["round"] == 1 and s["momentum"] == 0
    assert s["health"] == [20, 20]
    assert s["hands"] == [{"attack": 0, "strategy": 0}, {"attack": 0, "strategy": 0}]
    assert s["decks"] == {"attack": 40, "strategy": 40, "field": 10}
    grid = s["field"]["grid"]
    assert len(grid) == 6 and all(len(row) == 6 for row in grid)
    assert grid[0][0]["tile"] == "grey" and grid[5][5]["tile"] == "grey" and grid[0][1]["tile"] == "open"
    assert grid[2][3]["centre"] and not grid[1][1]["centre"]
    assert all(s["boards"][seat][slot] == [] for seat in (0, 1) for slot in SLOTS)
    assert rs.outcome(s) is None


def test_options_change_the_start(rs) -> None:
    s = rs.initial_state({"momentum_seat": 1, "starting_health": 12, "field_deck": 0}, 2)
    assert s["momentum"] == 1 and s["health"] == [12, 12]
    assert s["phase"] == "draw"  # an empty Field Deck skips the Field Phase
    assert rs.turn(s).seats[0] == 1


def test_unknown_event_and_unknown_seat_are_rejected(table) -> None:
    t = table()
    t.bad("unknown_event", "cracker_moved", 0)
    t.bad("unknown_seat", "field_card_flipped", 2, tiles=[[0, 1]])
    t.field()
    t.bad("unknown_seat", "cards_drawn", 5, attack=7, strategy=0)
    t.bad("unknown_seat", "cards_drawn", None, attack=7, strategy=0)


def test_apply_leaves_its_input_alone(rs) -> None:
    s = rs.initial_state({}, 2)
    before = json.dumps(s, sort_keys=True)
    rs.apply(s, Event("field_card_flipped", None, {"tiles": [[1, 1]]}))
    assert json.dumps(s, sort_keys=True) == before
