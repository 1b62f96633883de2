"""Salt & Bones: INSTINCTs aimed at a named card (Anticipation, Condescend), Overwhelm before its attack, and
refusals that say what they mean (issue 9)."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.replay import describe_entry
from tests.rulesets.salt_and_bones.catalogs import with_automatic_instincts

pytestmark = pytest.mark.pure

AUTOMATIC = with_automatic_instincts(3)


# -- Anticipation: "You can choose which damage instance to negate" ---------------------------------------------
def test_anticipation_names_the_card_and_the_instance(table, rs) -> None:
    t = table().to_combat(boards={1: [("instinct", "Anticipation")]})
    t.attack(0, "Flourish", [2, 2], [2, 3])  # 3 instances: the card's own and 2 bonus instances
    flourish = t.state["combat"]["window"]["strike"]["card"]
    refusal = t.bad(
        "bad_target", "strategy_card_played", 1, card="Anticipation", target={"card": flourish, "instance": 3}
    )
    assert "has 3 damage instances, numbered 0 to 2; there is no instance 3" in refusal.message
    t.instinct(1, "Anticipation", {"card": flourish, "instance": 2})
    instances = t.card_at([2, 2])["instances"]
    assert [i["negated"] for i in instances] == [False, False, True]
    listed = [m.data["target"] for m in rs.legal_moves(t.state) if m.type == "strategy_card_played" and m.seat == 1]
    assert listed == []  # the only Anticipation is spent


def test_anticipation_aimed_at_an_earlier_card_is_refused_not_re_aimed(table, rs) -> None:
    t = table().to_combat(boards={1: [("instinct", "Anticipation")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    slash = t.on(0)
    t.attack(0, "Feint", [1, 2], [1, 1])  # a chain: the Slash's damage is settled
    t.bad("no_target", "strategy_card_played", 1, card="Anticipation", target=slash)
    targets = [m.data["target"] for m in rs.legal_moves(t.state) if m.seat == 1 and m.type == "strategy_card_played"]
    assert targets == [t.on(0)]  # only the Feint's instance is listed


# -- Condescend: "against a specific Chain or INSTINCT card" ------------------------------------------------------
def test_condescend_names_which_instinct_it_negates(table) -> None:
    t = table().to_combat(
        boards={0: [("instinct", "Condescend")], 1: [("instinct", "Anticipation"), ("instinct", "Anticipation")]}
    )
    t.attack(0, "Flourish", [2, 2], [2, 3])
    t.instinct(1, "Anticipation", t.on(0))
    first = t.latest_instinct(1)
    t.instinct(1, "Anticipation", t.on(1))
    assert t.health()[1] == 20 - 1  # two of the three instances negated
    t.instinct(0, "Condescend", first)  # the first Anticipation, not the latest
    reactions = t.state["combat"]["window"]["reactions"]
    assert [r["effective"] for r in reactions] == [False, True, True]
    assert [i["negated"] for i in t.card_at([2, 2])["instances"]] == [False, True, False]


def test_condescend_negates_an_automatic_instinct_that_triggered(table, rs) -> None:
    t = table(strategy_cards=AUTOMATIC).to_combat(
        boards={0: [("instinct", "Condescend")], 1: [("instinct", "Iron Skin"), ("instinct", "Iron Skin")]}
    )
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 20  # the first Iron Skin negated the Slash
    triggered = t.state["combat"]["window"]["triggered"]
    assert len(triggered) == 1 and triggered[0]["card"] == "Iron Skin" and triggered[0]["seat"] == 1
    target = {"card": triggered[0]["uid"]}
    assert any(m.data.get("target") == target for m in rs.legal_moves(t.state) if m.seat == 0)
    t.instinct(0, "Condescend", target)
    # negated and discarded; the second Iron Skin then tries the same instance and negates it
    assert t.health()[1] == 20 and t.state["boards"][1]["instinct"] == []
    assert any("Iron Skin triggered but was negated by Seat 0's Condescend" in line for line in t.state["log"])


def test_condescend_negates_the_attackers_triggered_venom(table) -> None:
    t = table(strategy_cards=AUTOMATIC).to_combat(boards={0: [("instinct", "Venom")], 1: [("instinct", "Condescend")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 20 - 3 - 1
    venom = t.state["combat"]["window"]["triggered"][0]["uid"]
    t.bad("no_target", "strategy_card_played", 1, card="Condescend", target={"card": venom + 100})
    t.instinct(1, "Condescend", {"card": venom})
    assert t.health()[1] == 20 - 3
    t.replayed()


# -- Overwhelm "played at any time" -------------------------------------------------------------------------------
def test_overwhelm_recorded_before_the_attack_card_it_boosts(table) -> None:
    t = table().to_combat(boards={0: [("instinct", "Overwhelm")], 1: [("equipment", "Bracer")]})
    t.instinct(0, "Overwhelm")  # before the first card of the combat
    assert t.state["combat"]["armed"] == [[], []]  # armed when its window closes
    t.attack(0, "Slash", [2, 2], [2, 3])
    assert t.health()[1] == 17  # the Bracer triggered but could not negate it
    assert t.state["boards"][1]["equipment"] == []
    assert any("played before this card" in line for line in t.state["log"])
    t.attack(1, "Thrust", [3, 2], [3, 3])
    assert t.state["combat"]["armed"] == [[], []]  # spent on one card only
    t.replayed()


def test_an_armed_overwhelm_waits_for_its_players_next_card_and_can_be_condescended(table) -> None:
    t = table(momentum_seat=1).to_combat(
        boards={0: [("instinct", "Overwhelm")], 1: [("equipment", "Bracer"), ("instinct", "Condescend")]}
    )
    t.attack(1, "Slash", [2, 2], [2, 3])
    t.instinct(0, "Overwhelm")  # during the opponent's turn: armed for seat 0's next card
    t.instinct(1, "Condescend", t.latest_instinct(0))
    t.attack(0, "Thrust", [3, 2], [3, 3])
    assert t.health()[1] == 20  # the negated Overwhelm never armed: the Bracer works
    t.replayed()


# -- messages -----------------------------------------------------------------------------------------------------
def test_wrong_slot_reads_with_the_right_articles(table) -> None:
    t = table().field().draw({0: (5, 2), 1: (7, 0)})
    refusal = t.bad("wrong_slot", "strategy_card_placed", 0, slot="gambit", card="Bracer")
    assert refusal.message == "Bracer is an EQUIPMENT card; it cannot go in a GAMBIT slot."
    refusal = t.bad("wrong_slot", "strategy_card_placed", 0, slot="equipment", card="Test of Will")
    assert refusal.message == "Test of Will is a GAMBIT card; it cannot go in an EQUIPMENT slot."


def test_must_disengage_names_the_card_that_forces_it(table) -> None:
    t = table().to_combat()
    t.attack(0, "Disarm", [2, 2], [2, 3])
    refusal = t.bad(
        "must_disengage", "attack_card_played", 1, card="Thrust", attack_tile=[3, 2], opportunity_tile=[3, 3]
    )
    assert refusal.message.startswith("Disarm (Seat 0's Attack card) forces Seat 1 to disengage")


# -- history names the card a target number stands for -------------------------------------------------------------
def test_history_names_the_targeted_cards_from_the_state_they_were_played_on(table, rs) -> None:
    t = table().to_combat(boards={0: [("instinct", "Condescend")], 1: [("instinct", "Anticipation")]})
    t.attack(0, "Flourish", [2, 2], [2, 3])
    flourish = t.on(0)
    anticipation = Event("strategy_card_played", 1, {"card": "Anticipation", "target": flourish})
    assert describe_entry(rs, anticipation, ["Anne", "Bart"], t.state) == (
        f"Bart played Anticipation against damage instance 0 of Flourish (card {flourish['card']})."
    )
    t.instinct(1, "Anticipation", flourish)
    target = t.latest_instinct(1)
    condescend = Event("strategy_card_played", 0, {"card": "Condescend", "target": target})
    assert describe_entry(rs, condescend, ["Anne", "Bart"], t.state) == (
        f"Anne played Condescend against Anticipation (card {target['card']})."
    )
    # without the state (or with a number the state does not know) the number alone is said
    assert describe_entry(rs, condescend, ["Anne", "Bart"]) == f"Anne played Condescend against card {target['card']}."
    unknown = Event("strategy_card_played", 0, {"card": "Condescend", "target": {"card": 999}})
    assert describe_entry(rs, unknown, ["Anne", "Bart"], t.state) == "Anne played Condescend against card 999."


def test_history_names_a_condescended_chain_card_and_automatic_instinct(table, rs) -> None:
    t = table(strategy_cards=AUTOMATIC).to_combat(boards={0: [("instinct", "Venom")], 1: [("instinct", "Condescend")]})
    t.attack(0, "Slash", [2, 2], [2, 3])
    venom = t.state["combat"]["window"]["triggered"][0]["uid"]
    event = Event("strategy_card_played", 1, {"card": "Condescend", "target": {"card": venom}})
    assert (
        describe_entry(rs, event, ["Anne", "Bart"], t.state) == f"Bart played Condescend against Venom (card {venom})."
    )
    strike = t.state["combat"]["window"]["strike"]["card"]
    event = Event("strategy_card_played", 1, {"card": "Condescend", "target": {"card": strike}})
    assert (
        describe_entry(rs, event, ["Anne", "Bart"], t.state) == f"Bart played Condescend against Slash (card {strike})."
    )
