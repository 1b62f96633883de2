"""Salt & Bones: damage instances, Opportunity Values, negation, EQUIPMENT/INSTINCT/GAMBIT effects, Parry."""

from __future__ import annotations

import pytest

from rulesets.names import seat_ref
from tests.rulesets.salt_and_bones.catalogs import with_automatic_instincts

pytestmark = pytest.mark.pure

CUSTOM_INSTINCTS = with_automatic_instincts(3)


# -- 4.4.1 Damage: Attack Value plus adjacent Opportunity Values -------------------------------------------------
def test_attack_value_plus_every_adjacent_opportunity_half(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health() == [20, 17]  # 3, nothing adjacent yet
    t.attack(1, "Thrust", [3, 3], [3, 4])
    assert t.health() == [17, 17]  # 2 + 1 (Slash's opportunity at [2, 3]); its own half does not count
    t.attack(0, "Slash", [2, 4], [1, 4])
    assert t.health() == [17, 11]  # 3 + 1 (Slash) + 2 (Thrust, the opponent's card): either player's
    assert t.card_at([2, 4])["damage"] == 6
    assert "Slash: 3 + 2 (Thrust's opportunity) + 1 (Slash's opportunity) = 6." in t.state["log"]


def test_attack_halves_do_not_boost_each_other(table) -> None:
    t = table().to_combat()
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    t.attack(1, "Slash", [3, 2], [4, 2])  # attack half next to Heavy Blow's attack half only
    assert t.health() == [17, 16]


def test_opportunity_values_do_not_add_to_old_cards(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 3], [3, 2])  # its opportunity half touches Slash's attack half: no retroactive damage
    assert t.health() == [17, 17]


def test_health_never_goes_below_zero(table) -> None:
    t = table(starting_health=3).to_combat()
    t.attack(0, "Heavy Blow", [2, 2], [2, 3])
    assert t.health() == [3, 0]
    t.attack(1, "Slash", [3, 2], [4, 2])
    t.attack(0, "Heavy Blow", [1, 2], [1, 3])
    assert t.health() == [0, 0]  # combat goes on at 0 Health until a disengage


def test_the_rulebook_example_line(table) -> None:
    t = table().to_combat(boards={0: [("equipment", "Bracer")]})
    t.attack(0, "Feint", [2, 2], [2, 3])
    t.attack(1, "Lunge/Riposte", [3, 3], [3, 2])
    assert "Lunge/Riposte: 3 + 2 (Feint's opportunity) = 5, Bracer negated it." in t.state["log"]
    assert t.health() == [20, 19]


# -- Glossary › Damage Instances: Flourish, Razor Oil, Test of Skill ---------------------------------------------
def test_flourish_creates_three_instances_and_opportunity_only_boosts_the_first(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(1, "Thrust", [3, 3], [4, 3])
    t.attack(0, "Flourish", [2, 4], [1, 4])
    amounts = [i["amount"] for i in t.card_at([2, 4])["instances"]]
    assert amounts == [3, 1, 1]  # 2 + 1 (Slash's opportunity); the two extra instances stay at 1
    assert t.health()[1] == 20 - 3 - 5


def test_flourish_needs_three_negations_to_block(table) -> None:
    t = table().to_combat(boards={1: [("equipment", "Bracer"), ("instinct", "Anticipation"), ("instinct", None)]})
    t.attack(0, "Flourish", [2, 2], [2, 3])
    assert t.health()[1] == 18  # the Bracer took the first instance
    t.instinct(1, "Anticipation", t.on(1))
    assert t.health()[1] == 19
    t.instinct(1, "Anticipation", t.on(2))  # the face-down card, revealed by playing it
    assert t.health()[1] == 20
    assert all(i["negated"] for i in t.card_at([2, 2])["instances"])
    assert t.state["boards"][1]["instinct"] == [] and t.state["boards"][1]["equipment"] == []


def test_razor_oil_adds_one_instance_once(table) -> None:
    t = table().to_combat(boards={0: [("equipment", "Razor Oil")], 1: [("equipment", "Bracer")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert [(i["label"], i["amount"], i["negated"]) for i in t.card_at([2, 2])["instances"]] == [
        ("Slash", 3, True),
        ("Razor Oil", 2, False),
    ]
    assert t.health() == [20, 18]
    assert t.state["boards"][0]["equipment"] == []  # triggered, then discarded
    t.attack(1, "Slash", [3, 2], [4, 2])
    t.attack(0, "Slash", [1, 2], [1, 1])
    assert t.health() == [17, 15]  # no more oil


def test_test_of_skill_increases_every_instance(table) -> None:
    t = table().to_combat(boards={0: [("equipment", "Razor Oil")], 1: [("gambit", "Test of Skill")]})
    t.attack(0, "Flourish", [2, 2], [2, 3])
    assert [i["amount"] for i in t.card_at([2, 2])["instances"]] == [3, 2, 2, 3]
    assert t.health() == [20, 10]
    t.attack(1, "Slash", [3, 2], [4, 2])  # the GAMBIT is for both players
    assert t.health() == [16, 10]


# -- Glossary › Damage Negation: Bracer, Anticipation, Test of Pain, Overwhelm -----------------------------------
def test_two_bracers_and_a_single_instance(table) -> None:
    t = table().to_combat(boards={1: [("equipment", "Bracer"), ("equipment", "Bracer")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 20
    assert [c["name"] for c in t.state["boards"][1]["equipment"]] == ["Bracer"]  # the second was not activated
    t.attack(1, "Slash", [3, 2], [4, 2])
    t.attack(0, "Slash", [1, 2], [1, 1])
    assert t.health()[1] == 20 and t.state["boards"][1]["equipment"] == []


def test_two_bracers_under_test_of_pain_both_fail_and_are_discarded(table) -> None:
    t = table().to_combat(
        boards={0: [("gambit", "Test of Pain")], 1: [("equipment", "Bracer"), ("equipment", "Bracer")]}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 17
    assert t.state["boards"][1]["equipment"] == []
    assert "Slash: 3, Bracer triggered but could not negate it (Test of Pain); " in t.state["log"][-2]


def test_overwhelm_beats_both_bracers_and_condescend_undoes_it(table) -> None:
    t = table().to_combat(
        boards={
            0: [("instinct", "Overwhelm"), ("instinct", "Condescend")],
            1: [("equipment", "Bracer"), ("equipment", "Bracer"), ("instinct", "Condescend")],
        }
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 20 and len(t.state["boards"][1]["equipment"]) == 1
    t.instinct(0, "Overwhelm")
    assert t.health()[1] == 17 and t.state["boards"][1]["equipment"] == []
    t.instinct(1, "Condescend", t.latest_instinct(0))  # negates Overwhelm: the first Bracer works again
    assert t.health()[1] == 20 and len(t.state["boards"][1]["equipment"]) == 1
    t.instinct(0, "Condescend", t.latest_instinct(1))  # negates that Condescend: Overwhelm stands
    assert t.health()[1] == 17 and t.state["boards"][1]["equipment"] == []
    assert t.state["discards"]["strategy"] == 5
    t.bad("card_not_on_board", "strategy_card_played", 1, card="Condescend", target=t.latest_instinct(0))


def test_anticipation_is_played_by_choice_against_a_chosen_instance(table) -> None:
    t = table().to_combat(boards={0: [("instinct", "Anticipation")], 1: [("instinct", "Anticipation")]})
    t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target={"card": 1, "instance": 0})  # none
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("no_target", "strategy_card_played", 0, card="Anticipation", target=t.on(0))  # not against you
    refusal = t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target=t.on(3))
    assert "has 1 damage instance, numbered 0 to 0; there is no instance 3" in refusal.message
    refusal = t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target="chain")
    assert refusal.message.startswith("Anticipation needs a target: the Attack card's number on the Field Board")
    assert "{" not in refusal.message  # players' words, not the API's shape
    t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target={"instance": 0})  # which card?
    t.instinct(1, "Anticipation", t.on(0))
    assert t.health() == [20, 20]
    assert t.card_at([2, 2])["instances"][0]["negated_by"] == "Anticipation"


def test_anticipation_cannot_negate_an_instance_twice(table) -> None:
    t = table().to_combat(boards={1: [("equipment", "Bracer"), ("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("already_negated", "strategy_card_played", 1, card="Anticipation", target=t.on(0))


def test_anticipation_under_test_of_pain_has_no_effect(table) -> None:
    t = table().to_combat(boards={0: [("gambit", "Test of Pain")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.instinct(1, "Anticipation", t.on(0))
    assert t.health()[1] == 17
    assert t.state["boards"][1]["instinct"] == []  # still played and discarded


def test_the_window_for_reacting_closes_with_the_next_attack_card(table) -> None:
    t = table().to_combat(boards={1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    slash = t.on(0)
    t.attack(0, "Feint", [1, 2], [1, 1])
    refusal = t.bad("no_target", "strategy_card_played", 1, card="Anticipation", target=slash)
    assert f"Card {slash['card']} (Slash)'s damage is settled" in refusal.message
    t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target=t.on(1))
    t.bad("bad_target", "strategy_card_played", 1, card="Anticipation", target={"card": 99, "instance": 0})
    t.instinct(1, "Anticipation", t.on(0))  # the Feint's instance, the latest attack
    assert t.health()[1] == 17


def test_equipment_and_gambits_are_not_played_by_choice(table) -> None:
    t = table().to_combat(boards={1: [("equipment", "Bracer"), ("gambit", "Test of Will")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("not_instinct", "strategy_card_played", 1, card="Bracer")
    t.bad("not_instinct", "strategy_card_played", 1, card="Test of Will")
    t.bad("unknown_card", "strategy_card_played", 1, card="Grog")
    t.bad("card_not_on_board", "strategy_card_played", 1, card="Anticipation", target=t.on(0))


# -- Glossary › Card Negation: Condescend and Test of Will -----------------------------------------------------
def test_condescend_negates_a_chain_card(table) -> None:
    t = table().to_combat(
        boards={0: [("instinct", "Condescend")], 1: [("instinct", "Condescend"), ("instinct", "Condescend")]}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("no_target", "strategy_card_played", 1, card="Condescend", target=t.latest_card())  # not a chain
    t.attack(0, "Feint", [1, 2], [1, 1])
    assert t.health()[1] == 16
    t.bad("no_target", "strategy_card_played", 0, card="Condescend", target=t.latest_card())  # your own chain
    t.bad("bad_target", "strategy_card_played", 1, card="Condescend", target=t.on(0))
    t.bad("bad_target", "strategy_card_played", 1, card="Condescend", target="chain")
    feint_target = t.latest_card()
    t.instinct(1, "Condescend", feint_target)
    assert t.health()[1] == 17
    feint = next(c for c in t.state["field"]["cards"] if c["name"] == "Feint")
    assert feint["negated"] and feint["damage"] == 0
    assert t.state["field"]["grid"][1][2]["card"] is None  # discarded: the tiles are free again
    t.bad("already_negated", "strategy_card_played", 1, card="Condescend", target=feint_target)
    t.attack(0, "Quick Cut", [1, 2], [1, 1])  # Momentum may keep chaining
    assert t.health()[1] == 15


def test_chain_card_played_as_a_normal_card_cannot_be_negated(table) -> None:
    t = table().to_combat(boards={0: [("instinct", "Condescend"), ("gambit", "Test of Will")]})
    t.attack(0, "Feint", [2, 2], [2, 3])  # first card of the turn: a normal card, not part of a chain
    assert t.health()[1] == 19 and not t.card_at([2, 2])["negated"]
    t.attack(1, "Feint", [3, 2], [4, 2])
    t.bad("no_target", "strategy_card_played", 0, card="Condescend", target=t.latest_card())
    assert t.health()[0] == 19


def test_test_of_will_negates_chain_and_instinct_cards(table) -> None:
    t = table().to_combat(boards={0: [("gambit", "Test of Will")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.attack(0, "Feint", [1, 2], [1, 1])  # part of a chain: negated and discarded
    assert t.health()[1] == 17
    assert t.state["field"]["grid"][1][2]["card"] is None
    assert t.state["hands"][0]["attack"] == 6 - 2  # both cards left the hand
    t.attack(1, "Slash", [3, 2], [4, 2])
    t.attack(0, "Slash", [1, 2], [1, 1])
    t.instinct(1, "Anticipation", t.on(0))  # negated by Test of Will and discarded
    assert t.health()[1] == 14 and t.state["boards"][1]["instinct"] == []
    assert any("negated by Test of Will" in line for line in t.state["log"])


def test_test_of_will_negates_an_automatic_instinct(table) -> None:
    t = table(strategy_cards=CUSTOM_INSTINCTS).to_combat(
        boards={0: [("gambit", "Test of Will")], 1: [("instinct", "Iron Skin")]}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 17 and t.state["boards"][1]["instinct"] == []


# -- Activation Rules: automatic INSTINCTs, known or face-down -------------------------------------------------
def test_named_automatic_instinct_triggers_by_itself(table) -> None:
    t = table(strategy_cards=CUSTOM_INSTINCTS).to_combat(
        boards={0: [("instinct", "Venom")], 1: [("instinct", "Iron Skin")]}
    )
    t.bad("automatic_card", "strategy_card_played", 1, card="Iron Skin")
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert [(i["label"], i["negated"]) for i in t.card_at([2, 2])["instances"]] == [("Slash", True), ("Venom", False)]
    assert t.health()[1] == 19


def test_face_down_automatic_instinct_is_recorded_when_it_triggers(table) -> None:
    t = table(strategy_cards=CUSTOM_INSTINCTS).to_combat(
        boards={0: [("instinct", None)], 1: [("instinct", None), ("instinct", None)]}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 17  # the recorder does not know the face-down cards yet
    t.instinct(0, "Venom")  # revealed: it adds its instance to the attack just played
    t.instinct(1, "Iron Skin")  # revealed: negates the first instance not yet negated
    assert t.health()[1] == 19
    assert len(t.state["boards"][1]["instinct"]) == 1
    t.bad("card_not_on_board", "strategy_card_played", 0, card="Venom")  # no face-down card left for seat 0


def test_a_face_down_card_is_revealed_only_as_an_instinct(table) -> None:
    t = table().to_combat(boards={1: [("instinct", None)]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("not_instinct", "strategy_card_played", 1, card="Bracer")
    t.instinct(1, "Anticipation", t.on(0))
    assert any(f"{seat_ref(1)} played Anticipation" in line for line in t.state["log"])


# -- Glossary › Parry ---------------------------------------------------------------------------------------------
def test_parry_powers_lunge_riposte_on_the_next_turn_only(table) -> None:
    t = table().to_combat()
    t.attack(0, "Advance Into Parry", [2, 2], [2, 3])
    assert t.state["combat"]["parry"] == ["pending", None]
    t.attack(1, "Lunge/Riposte", [3, 3], [3, 2])  # you cannot use your opponent's Parry
    assert t.health()[0] == 20 - 3 - 2
    assert t.state["combat"]["parry"] == ["active", None]
    t.attack(0, "Lunge/Riposte", [2, 4], [1, 4])
    assert t.card_at([2, 4])["instances"][0]["amount"] == 3 + 2 + 2  # + 2 (Advance Into Parry's opp.) + 2 Riposte
    t.attack(1, "Slash", [4, 2], [4, 1])
    assert t.state["combat"]["parry"] == [None, None]
    t.attack(0, "Lunge/Riposte", [1, 2], [1, 1])
    assert t.card_at([1, 2])["instances"][0]["amount"] == 3  # Parry is over: a normal Attack card


def test_parry_ends_with_the_combat(table) -> None:
    t = table().to_combat()
    t.attack(0, "Advance Into Parry", [2, 2], [2, 3])
    t.disengage(1)
    t.to_combat()
    assert t.state["combat"]["parry"] == [None, None]
    t.attack(0, "Lunge/Riposte", [2, 2], [2, 3])
    assert t.health()[1] == 20 - 1 - 3


# -- Health cannot be replenished -------------------------------------------------------------------------------
def test_health_carries_over_between_rounds(table) -> None:
    t = table().to_combat()
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.disengage(1)
    assert t.health() == [20, 17]
    t.to_combat()
    assert t.health() == [20, 17]


def test_overwhelm_also_stops_anticipation(table) -> None:
    t = table().to_combat(boards={0: [("instinct", "Overwhelm")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("bad_target", "strategy_card_played", 0, card="Overwhelm", target="chain")
    t.instinct(0, "Overwhelm")
    t.instinct(1, "Anticipation", t.on(0))
    assert t.health()[1] == 17
    assert f"{seat_ref(1)} played Anticipation against a damage instance: no effect (Overwhelm)." in t.state["log"]


def test_revealing_a_face_down_card_respects_copies(table) -> None:
    strategy = [
        {
            "name": "Anticipation",
            "copies": 1,
            "type": "INSTINCT",
            "activation": "choice",
            "effect": "negate_chosen_instance",
        },
        {"name": "Condescend", "copies": 2, "type": "INSTINCT", "activation": "choice", "effect": "negate_card"},
    ]
    t = table(strategy_cards=strategy).to_combat(boards={0: [("instinct", "Anticipation")], 1: [("instinct", None)]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    t.bad("no_target", "strategy_card_played", 1, card="Condescend", target={"card": 999})
    # seat 0's face-down Anticipation (the only copy) is hidden from seat 1: it does not count against seat 1,
    # whose own play of it is judged on what seat 1 can see (issue 41 item 4: a refusal must not tell seat 1 what
    # seat 0 holds face-down)
    t.instinct(1, "Anticipation", t.on(0))


def test_a_disengage_closes_the_reaction_window(table) -> None:
    t = table().to_combat(boards={0: [("gambit", "Test of Courage")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    slash = t.on(0)
    t.disengage(1)
    t.bad("no_target", "strategy_card_played", 1, card="Anticipation", target=slash)
