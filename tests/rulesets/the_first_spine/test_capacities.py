"""Each capacity played legal and illegal: Death, Treason, Run, Burden earth, Growth, Threat, Aura, and the
rulebook's priority order between them."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.pure


@pytest.fixture
def cards(card_def):
    return [
        card_def("Brute", hp=5, attack=5, defense=0),
        card_def("Imp", hp=3, attack=1, defense=0),
        card_def("Post", kind="artifact", hp=20, attack=0, defense=0),
        card_def("Ghoul", hp=10, attack=1, defense=0, capacities=["death"]),
        card_def("Traitor", hp=2, attack=1, defense=0, capacities=["treason"]),
        card_def("Zealot", hp=2, attack=1, defense=0, capacities=["death", "treason"]),
        card_def("Runner", hp=3, attack=1, defense=0, capacities=["run"]),
        card_def("Golem", hp=2, attack=0, defense=0, capacities=["burden_earth"]),
        card_def("Seed", hp=1, attack=0, defense=0, capacities=["growth"]),
        card_def("Lancer", hp=9, attack=2, defense=0, side_capacities={"left": "threat", "right": "threat"}),
        card_def("Tower", kind="artifact", hp=9, attack=2, defense=0, side_capacities={"front": "threat"}),
        card_def("Banner", hp=4, attack=1, defense=1, side_capacities={"back": "aura"}),
        card_def("Zap", kind="spell", hp=1, attack=0, defense=0),
    ]


def test_death_a_card_that_loses_any_life_is_destroyed_and_takes_its_destroyer(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Ghoul", [1, 2], 1).put("Imp", [2, 2], 0)
    t.refill().end()  # Imp deals 1 to the Ghoul (10 hp): it is destroyed anyway, and takes the Imp with it
    assert t.card([1, 2]) is None and t.card([2, 2]) is None
    assert t.player(1)["discard"] == ["Ghoul"] and t.player(0)["discard"] == ["Imp"]
    texts = [e["text"] for e in t.state["log"] if e["kind"] == "capacity"]
    assert texts == ["Death: Ghoul lost life, so it is destroyed.", "Death: Ghoul takes Imp with it."]


def test_death_untouched_stays(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Ghoul", [1, 2], 1).put("Post", [2, 2], 0)
    t.refill().end()  # the Post has no attack and does not start confrontations: nothing happens
    t.refill().end()  # the Ghoul confronts the Post: deals 1, loses 0
    assert t.hp([1, 2]) == 10 and t.hp([2, 2]) == 19


def test_death_by_a_spell_destroys_only_the_card(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Ghoul", [1, 2], 1).put("Imp", [2, 2], 0)
    t.refill().place("Zap", [1, 2]).do("hp_changed", at=[1, 2], amount=-1, note="Zap")
    assert t.card([1, 2]) is None and t.hp([2, 2]) == 3


def test_treason_returns_under_the_destroyers_control_once(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Traitor", [1, 2], 1).put("Brute", [2, 2], 0)
    t.refill().end()
    traitor = t.card([1, 2])
    assert (traitor["controller"], traitor["owner"], traitor["hp"]) == (0, 1, 2)
    assert "treason" not in traitor["capacities"] and traitor["facing"] == "N"
    assert t.player(1)["discard"] == []
    # it now fights for seat 0: on seat 0's next turn it confronts seat 1's wizard to its north
    t.refill().end()
    t.refill().end()
    assert t.player(1)["wizard_hp"] == 19


def test_treason_card_destroyed_again_goes_to_its_original_owners_discard(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Traitor", [1, 2], 1).put("Brute", [2, 2], 0)
    t.refill().end()
    assert t.card([1, 2])["controller"] == 0
    t.refill().do("hp_changed", at=[1, 2], amount=-2, note="spell")  # seat 1 destroys it: no more Treason
    assert t.card([1, 2]) is None
    assert t.player(1)["discard"] == ["Traitor"] and t.player(0)["discard"] == []


def test_treason_does_not_trigger_on_ones_own_destruction(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Traitor", [2, 2], 0)
    t.refill().do("hp_changed", at=[2, 2], amount=-5)
    assert t.card([2, 2]) is None and t.player(0)["discard"] == ["Traitor"]


def test_priority_death_then_treason(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Zealot", [1, 2], 1).put("Post", [2, 2], 0).put("Imp", [1, 1], 0)
    t.refill().end()  # the Imp hurts the Zealot: Death destroys it (and the Imp), then Treason brings it back
    z = t.card([1, 2])
    assert (z["name"], z["controller"], z["hp"]) == ("Zealot", 0, 2)
    assert t.card([1, 1]) is None
    kinds = [e["text"].split(":")[0] for e in t.state["log"] if e["kind"] == "capacity"]
    assert kinds == ["Death", "Death", "Treason"]


def test_run_moves_one_card_before_the_draw(rs, table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Runner", [2, 2], 0).put("Imp", [2, 1], 0).put("Runner", [1, 1], 1)
    moves = {(tuple(m.data["from"]), tuple(m.data["to"])) for m in rs.legal_moves(t.state) if m.type == "card_moved"}
    assert moves == {((2, 2), (1, 2)), ((2, 2), (2, 3))}
    assert "a card with Run may move" in rs.turn(t.state).prompt
    t.bad("bad_run_cell", "card_moved", **{"from": [2, 2], "to": [2, 1]})  # occupied
    t.bad("bad_run_cell", "card_moved", **{"from": [2, 2], "to": [3, 2]})  # a wizard
    t.bad("bad_run_cell", "card_moved", **{"from": [2, 2], "to": [1, 3]})  # diagonal
    t.bad("bad_run_cell", "card_moved", **{"from": [2, 2], "to": [2, 4]})  # two cells
    t.bad("no_run", "card_moved", **{"from": [2, 1], "to": [1, 1]})
    t.bad("not_your_card", "card_moved", **{"from": [1, 1], "to": [1, 0]})
    t.bad("no_card_there", "card_moved", **{"from": [0, 0], "to": [1, 0]})
    t.do("card_moved", **{"from": [2, 2], "to": [2, 3]})
    assert t.card([2, 3])["name"] == "Runner" and t.card([2, 2]) is None
    t.bad("already_moved", "card_moved", **{"from": [2, 3], "to": [2, 2]})
    t.refill()
    t.bad("run_before_draw", "card_moved", **{"from": [2, 3], "to": [2, 2]})


def test_run_to_the_board_edge(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Runner", [2, 0], 0)
    t.bad("bad_run_cell", "card_moved", **{"from": [2, 0], "to": [2, -1]})


def test_burden_earth_blocks_the_cell_until_its_controllers_next_turn(table, cards):
    t = table(3, cards=cards).setup()  # 7 × 7: seat 0 bottom, seat 1 left, seat 2 top
    t.put("Golem", [3, 3], 2).put("Brute", [4, 3], 0).put("Imp", [3, 2], 1)
    t.refill().end()  # seat 0's Brute destroys seat 2's Golem
    assert t.card([3, 3]) is None
    assert t.state["blocked"] == [{"at": [3, 3], "until_seat": 2}]
    t.refill()  # seat 1 may not use the cell on its turn
    t.bad("cell_blocked", "card_placed", card="Imp", at=[3, 3])
    t.end()
    t.refill()  # seat 2's next turn: the cell is free again
    assert t.state["blocked"] == []


def test_burden_earth_of_the_active_players_own_card(table, cards, card_def):
    cards = [*cards, card_def("Spikes", kind="artifact", hp=9, attack=5, defense=5)]
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Golem", [2, 2], 0).put("Spikes", [1, 2], 1)
    t.refill().end()  # the Golem confronts the Spikes and is destroyed by their strike-back
    assert t.state["blocked"] == [{"at": [2, 2], "until_seat": 0}]
    t.refill()  # seat 1's Spikes touch [2, 2], but the cell stays empty until seat 0's next turn
    t.bad("cell_blocked", "card_placed", card="Imp", at=[2, 2])
    t.end().refill()
    assert t.state["blocked"] == []
    t.place("Imp", [2, 2])


def test_burden_earth_by_a_spell_and_not_when_out_of_the_game(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Golem", [1, 2], 1)
    t.refill().do("hp_changed", at=[1, 2], amount=-2, note="spell")
    assert t.state["blocked"] == [{"at": [1, 2], "until_seat": 1}]


def test_growth_one_life_on_each_of_its_controllers_turns_for_five_turns(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.refill().place("Seed", [2, 2]).end()
    hps = []
    for _ in range(7):
        t.pass_turns(1)  # seat 1
        t.refill()
        hps.append(t.hp([2, 2]))
        t.end()
    assert hps == [2, 3, 4, 5, 6, 6, 6]
    t.replayed()


def test_threat_confronts_the_cards_on_that_side_as_well(table, cards):
    t = table(2, cards=cards).setup()  # 7 × 7, seat 0's wizard on [6, 3]
    t.put("Lancer", [3, 3], 0).put("Post", [3, 2], 1).put("Post", [3, 4], 1).put("Post", [2, 3], 1)
    t.refill().end()  # front: the single ordinary target; left and right: Threat
    assert [t.hp(c) for c in ([3, 2], [2, 3], [3, 4])] == [18, 18, 18]
    assert sum(1 for e in t.state["log"] if e["kind"] == "confrontation") == 3


def test_threat_side_is_never_the_choice(table, cards):
    t = table(2, cards=cards).setup()
    t.put("Lancer", [3, 3], 0).put("Post", [3, 2], 1).put("Post", [2, 3], 1).put("Post", [4, 3], 1)
    t.refill()
    t.bad("threat_side", "confrontation_target_chosen", **{"from": [3, 3], "target": [3, 2]})
    t.bad("choose_target", "turn_ended")  # front and back are ordinary: choose one
    t.do("confrontation_target_chosen", **{"from": [3, 3], "target": [4, 3]}).end()
    assert [t.hp(c) for c in ([3, 2], [2, 3], [4, 3])] == [18, 20, 18]


def test_an_artifact_confronts_only_with_threat(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Tower", [2, 2], 0).put("Post", [1, 2], 1).put("Post", [2, 1], 1)
    t.refill()
    t.bad("threat_side", "confrontation_target_chosen", **{"from": [2, 2], "target": [1, 2]})
    t.bad("not_a_creature", "confrontation_target_chosen", **{"from": [2, 2], "target": [2, 1]})
    t.end()
    assert (t.hp([1, 2]), t.hp([2, 1])) == (18, 20)


def test_aura_adds_two_on_all_sides_to_the_same_players_card_on_that_side(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.refill().place("Imp", [2, 2]).place("Banner", [1, 2])  # the Banner's back (south) holds the Imp
    imp = t.card([2, 2])
    assert imp["attack"] == {"front": 3, "right": 3, "back": 3, "left": 3}
    assert imp["defense"] == {"front": 2, "right": 2, "back": 2, "left": 2} and imp["aura"] == 2
    assert t.card([1, 2])["aura"] == 0
    t.do("hp_changed", at=[1, 2], amount=-4, note="the Banner falls")
    assert t.card([2, 2])["attack"]["front"] == 1  # the aura ends with its card


def test_aura_never_helps_an_opponent(table, cards):
    t = table(2, board=[4, 5], cards=cards).setup()
    t.put("Banner", [2, 2], 1).put("Imp", [3, 2], 0)  # seat 1's Banner faces down: its back points north
    assert t.card([3, 2])["aura"] == 0
    t.put("Imp", [1, 2], 0)
    assert t.card([1, 2])["aura"] == 0
    t.put("Imp", [1, 3], 1).put("Banner", [2, 3], 1)
    assert t.card([1, 3])["aura"] == 2
