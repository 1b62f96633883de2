"""Town actions: swap, sell, buy from the display, trade, level up, advancement tokens."""

from __future__ import annotations

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET
from rulesets.schema import SchemaError, check_payload

pytestmark = pytest.mark.pure

SHOP = [
    {"name": "Plate Armor", "item": True, "buy": 800, "sell": 400},
    {"name": "Amulet", "item": True, "buy": 300, "sell": None},
    {"name": "Blessing", "item": False, "buy": None, "sell": None},
    {"name": "Lantern", "item": True, "buy": None, "sell": 10},
]

TOWN_ACTIONS = [
    Event("powers_swapped", None, {"hero": "Ana", "powers": []}),
    Event("item_sold", None, {"hero": "Ana", "item": "Potion of Healing"}),
    Event("shop_revealed", None, {"cards": SHOP}),
    Event("item_bought", None, {"hero": "Ana", "item": "Amulet"}),
    Event("trade_made", None, {"from": "Ana", "to": "Bo", "items": [], "gold": 10}),
    Event("leveled_up", None, {"hero": "Ana"}),
    Event("advancement_token_bought", None, {"hero": "Ana", "token": "Fleet", "cost": 10}),
]


@pytest.mark.parametrize("event", TOWN_ACTIONS, ids=lambda e: e.type)
def test_no_town_action_during_an_adventure(on_adventure, rejected, event) -> None:
    assert rejected(on_adventure, event) == "adventure_in_progress"


# -- selling -------------------------------------------------------------------------------------------


def test_selling_gains_the_sell_value(after, play, ev) -> None:
    state = play(after, ev("item_sold", hero="Ana", item="potion of healing"))
    assert state["heroes"][0]["gold"] == 1100
    assert state["heroes"][0]["items"] == []


def test_selling_without_a_sell_value_gains_half_the_buy_value(on_adventure, play, ev, item) -> None:
    state = play(
        on_adventure,
        ev("treasure_gained", hero="Bo", item=item("Cloak", buy=125)),
        ev("adventure_failed"),
        ev("item_sold", hero="Bo", item="Cloak"),
    )
    assert state["heroes"][1]["gold"] == 62


def test_sell_only_what_the_hero_holds(after, ev, rejected) -> None:
    assert rejected(after, ev("item_sold", hero="Bo", item="Potion of Healing")) == "item_not_held"


def test_a_card_without_values_cannot_be_sold(on_adventure, play, ev, item, rejected) -> None:
    state = play(on_adventure, ev("treasure_gained", hero="Bo", item=item("Blessing")), ev("adventure_failed"))
    assert rejected(state, ev("item_sold", hero="Bo", item="Blessing")) == "not_an_item"


def test_a_sold_card_is_gone(after, play, ev, rejected) -> None:
    state = play(after, ev("item_sold", hero="Ana", item="Potion of Healing"))
    assert rejected(state, ev("item_sold", hero="Ana", item="Potion of Healing")) == "item_not_held"


# -- buying --------------------------------------------------------------------------------------------


def test_buying_from_the_display(after, play, ev) -> None:
    state = play(after, ev("shop_revealed", cards=SHOP), ev("item_bought", hero="Bo", item="Plate Armor"))
    bo = state["heroes"][1]
    assert bo["gold"] == 200
    assert bo["items"] == [{"name": "Plate Armor", "buy": 800, "sell": 400, "item": True}]
    assert [c["name"] for c in state["display"]] == ["Amulet", "Blessing", "Lantern"]


def test_a_bought_item_leaves_the_display(after, play, ev, rejected) -> None:
    state = play(after, ev("shop_revealed", cards=SHOP), ev("item_bought", hero="Bo", item="Amulet"))
    assert rejected(state, ev("item_bought", hero="Ana", item="Amulet")) == "not_on_display"


def test_buy_only_from_the_current_display(after, play, ev, rejected) -> None:
    assert rejected(after, ev("item_bought", hero="Ana", item="Amulet")) == "not_on_display"
    state = play(after, ev("shop_revealed", cards=SHOP))
    assert rejected(state, ev("item_bought", hero="Ana", item="Sword")) == "not_on_display"


def test_a_new_reveal_replaces_the_display(after, play, ev, card, rejected) -> None:
    fresh = [card("Sword", 50, 25), card("Rope", 5, 2), card("Gem", None, 30, is_item=False), card("Torch", 1, 0)]
    state = play(after, ev("shop_revealed", cards=SHOP), ev("shop_revealed", cards=fresh))
    assert rejected(state, ev("item_bought", hero="Ana", item="Amulet")) == "not_on_display"
    state = play(state, ev("item_bought", hero="Ana", item="Sword"))
    assert state["heroes"][0]["gold"] == 1000


def test_the_display_is_cleared_when_an_adventure_starts(after, play, ev, rejected) -> None:
    state = play(
        after,
        ev("shop_revealed", cards=SHOP),
        ev("adventure_started", adventure="Danger at Dunwater", heroes=["Ana"]),
        ev("adventure_failed"),
    )
    assert state["display"] == []
    assert rejected(state, ev("item_bought", hero="Ana", item="Amulet")) == "not_on_display"


def test_only_items_with_a_buy_cost_can_be_bought(after, play, ev, rejected) -> None:
    state = play(after, ev("shop_revealed", cards=SHOP))
    assert rejected(state, ev("item_bought", hero="Ana", item="Blessing")) == "not_for_sale"
    assert rejected(state, ev("item_bought", hero="Ana", item="Lantern")) == "not_for_sale"


def test_buying_needs_enough_gold(after, play, ev, rejected) -> None:
    state = play(after, ev("shop_revealed", cards=SHOP))
    assert rejected(state, ev("item_bought", hero="Cy", item="Amulet")) == "not_enough_gold"
    assert state["heroes"][2]["gold"] == 200
    state = play(state, ev("item_bought", hero="Bo", item="Plate Armor"))
    assert state["heroes"][1]["gold"] == 200
    assert rejected(state, ev("item_bought", hero="Bo", item="Amulet")) == "not_enough_gold"


def test_the_display_is_four_cards(after, rejected) -> None:
    assert rejected(after, Event("shop_revealed", None, {"cards": SHOP[:3]})) == "four_cards"
    with pytest.raises(SchemaError):
        check_payload(RULESET.event_types["shop_revealed"].fields, {"cards": SHOP[:3]})


# -- trading -------------------------------------------------------------------------------------------


def trade(frm: str, to: str, items: list[str] | None = None, gold: int = 0) -> Event:
    return Event("trade_made", None, {"from": frm, "to": to, "items": items or [], "gold": gold})


def test_trade_between_heroes_of_the_adventure(after, play) -> None:
    state = play(after, trade("Ana", "Bo", ["Potion of Healing"], 50))
    ana, bo = state["heroes"][0], state["heroes"][1]
    assert (ana["gold"], ana["items"]) == (1000, [])
    assert (bo["gold"], [i["name"] for i in bo["items"]]) == (1050, ["Potion of Healing"])
    assert ana["ledger"][-1]["cause"] == bo["ledger"][-1]["cause"] == "trade"


def test_trade_between_any_active_heroes_preparing_the_next_adventure(after, play, ev, rejected) -> None:
    """Item 9.7: Cy sat the last adventure out, Di just joined: both may receive (and give)."""
    state = play(
        after, trade("Ana", "Cy", ["Potion of Healing"], gold=10), ev("hero_joined", hero="Di", **{"class": "Cleric"})
    )
    state = play(state, trade("Bo", "Di", gold=100), trade("Cy", "Di", ["Potion of Healing"]))
    assert [i["name"] for i in state["heroes"][3]["items"]] == ["Potion of Healing"]
    assert rejected(state, trade("Ana", "Nobody", gold=1)) == "unknown_hero"
    retired = play(state, ev("hero_retired", hero="Bo"))
    assert rejected(retired, trade("Ana", "Bo", gold=1)) == "hero_retired"


def test_only_item_cards_change_hands(after, play, ev, item, rejected) -> None:
    """Item 9.6: "give another player an Item Treasure card or gold pieces"; a Blessing is not an Item."""
    state = play(
        after,
        ev("adventure_started", adventure="B", heroes=["Ana"]),
        ev("treasure_gained", hero="Ana", item={"name": "Blessing", "buy": None, "sell": None}),
        ev("treasure_gained", hero="Ana", item={"name": "Idol", "sell": None, "item": False, "buy": 40}),
        ev("adventure_failed"),
    )
    assert rejected(state, trade("Ana", "Bo", ["Blessing"])) == "not_an_item"
    assert rejected(state, trade("Ana", "Bo", ["Idol"])) == "not_an_item"  # flagged: not an Item despite a price
    assert rejected(state, ev("item_sold", hero="Ana", item="Idol")) == "not_an_item"


def test_trade_checks_what_the_giver_holds(after, rejected) -> None:
    assert rejected(after, trade("Bo", "Ana", ["Potion of Healing"])) == "item_not_held"
    assert rejected(after, trade("Ana", "Bo", ["Potion of Healing", "Potion of Healing"])) == "item_not_held"
    assert rejected(after, trade("Ana", "Bo", gold=1051)) == "not_enough_gold"


def test_trade_needs_two_heroes_and_something_to_hand_over(after, rejected) -> None:
    assert rejected(after, trade("Ana", "ana", gold=5)) == "same_hero"
    assert rejected(after, trade("Ana", "Bo")) == "empty_trade"


# -- leveling up ---------------------------------------------------------------------------------------


def test_level_up_costs_2000_gold(after, play, ev, rejected) -> None:
    assert rejected(after, ev("leveled_up", hero="Ana")) == "not_enough_gold"
    state = play(after, Event("trade_made", None, {"from": "Bo", "to": "Ana", "items": [], "gold": 950}))
    state = play(state, ev("leveled_up", hero="Ana"))
    assert (state["heroes"][0]["level"], state["heroes"][0]["gold"]) == (2, 0)


def test_level_is_capped(play, ev, rejected) -> None:
    state = RULESET.initial_state({"level_up_cost": 100, "max_level": 2}, 0)
    state = play(
        state,
        ev("hero_joined", hero="Ana", **{"class": "Fighter"}),
        ev("adventure_started", adventure="A", heroes=["Ana"]),
        ev("adventure_completed", reward=500),
        ev("leveled_up", hero="Ana"),
    )
    assert state["heroes"][0]["level"] == 2
    assert rejected(state, ev("leveled_up", hero="Ana")) == "max_level"


def test_a_lower_level_up_cost_is_allowed_with_a_warning() -> None:
    assert RULESET.warnings(RULESET.initial_state({"level_up_cost": 1000}, 0)) == []
    (warning,) = RULESET.warnings(RULESET.initial_state({"level_up_cost": 999}, 0))
    assert "1,000" in warning
    with pytest.raises(SchemaError):
        check_payload(RULESET.options_schema, {"level_up_cost": 0})
    assert check_payload(RULESET.options_schema, {}) == {
        "level_up_cost": 2000,
        "missed_adventure_gold": 200,
        "max_level": 2,
        "advancement_tokens": True,
    }


# -- advancement tokens --------------------------------------------------------------------------------


def test_advancement_tokens_are_bought_with_gold(after, play, ev, rejected) -> None:
    state = play(after, ev("advancement_token_bought", hero="Cy", token="Fleet of Foot", cost=150))
    assert state["heroes"][2]["gold"] == 50
    assert state["heroes"][2]["advancement_tokens"] == ["Fleet of Foot"]
    assert rejected(state, ev("advancement_token_bought", hero="Cy", token="Tough", cost=51)) == "not_enough_gold"


def test_advancement_tokens_only_with_base_games_that_have_them(play, ev, rejected) -> None:
    state = RULESET.initial_state({"advancement_tokens": False}, 0)
    state = play(state, ev("hero_joined", hero="Ana", **{"class": "Fighter"}))
    assert rejected(state, ev("advancement_token_bought", hero="Ana", token="Fleet", cost=0)) == "no_advancement_tokens"


# -- overrides bend the rules, never the data (issue 9 items 4 and 5) ---------------------------------------


def overridden(state, event):
    from rulesets.replay import Position, step

    return step(RULESET, Position(state, 1, True), event, check=True)


def test_an_overridden_sale_of_a_card_not_held_is_unplayable(after, play, ev) -> None:
    import pytest

    from rulesets.base import RuleViolation

    state = play(after, ev("adventure_started", adventure="B", heroes=["Ana"]), ev("treasure_gained", hero="Ana", item={"name": "Rope", "buy": 20}), ev("adventure_failed"))  # fmt: skip
    with pytest.raises(RuleViolation) as info:
        overridden(state, ev("item_sold", hero="Ana", item="Sword"))  # used to sell the Rope, the last card
    assert info.value.code == "unplayable" and "does not hold Sword" in info.value.message
    sold = overridden(state, ev("item_sold", hero="Ana", item="Potion of Healing")).state  # a held card: fine
    assert [i["name"] for i in sold["heroes"][0]["items"]] == ["Rope"]


def test_an_overridden_payment_never_takes_gold_below_zero(after, ev) -> None:
    import pytest

    from rulesets.base import RuleViolation

    for event in (
        ev("leveled_up", hero="Cy"),  # 200 gp, level-up costs 2,000
        ev("advancement_token_bought", hero="Cy", token="Fleet", cost=500),
        trade("Cy", "Ana", gold=300),
    ):
        with pytest.raises(RuleViolation) as info:
            overridden(after, event)
        assert info.value.code == "unplayable" and "below zero" in info.value.message
    assert overridden(after, trade("Cy", "Ana", gold=200)).state["heroes"][2]["gold"] == 0  # all of it: fine


# -- barter (issue 46, item 4): "exchanging Item Treasure cards for other Treasure cards or GP" ---------------


def barter(frm: str, to: str, items: list[str], back: list[str] | None = None, gold_back: int = 0) -> Event:
    data = {"from": frm, "to": to, "items": items, "gold": 0, "items_back": back or [], "gold_back": gold_back}
    return Event("trade_made", None, data)


@pytest.fixture
def armed(after, play, ev):
    """Back from 'B': Ana holds a Sword (an Item) and a Blessing of Luck, Bo a Blessing of Tymora (not Items)."""
    return play(
        after,
        ev("adventure_started", adventure="B", heroes=["Ana", "Bo"]),
        ev("treasure_gained", hero="Ana", item={"name": "Sword", "buy": 1250, "sell": 600}),
        ev("treasure_gained", hero="Ana", item={"name": "Blessing of Luck", "buy": None, "sell": None}),
        ev("treasure_gained", hero="Bo", item={"name": "Blessing of Tymora", "buy": None, "sell": None}),
        ev("adventure_failed"),
    )


def names(hero) -> list[str]:
    return [i["name"] for i in hero["items"]]


def test_an_item_bartered_for_a_card_that_is_not_an_item(armed, play) -> None:
    """Ana's Sword for Bo's Blessing of Tymora, in one entry: both cards change hands."""
    state = play(armed, barter("Ana", "Bo", ["Sword"], ["Blessing of Tymora"]))
    ana, bo = state["heroes"][0], state["heroes"][1]
    assert names(ana) == ["Potion of Healing", "Blessing of Luck", "Blessing of Tymora"]
    assert names(bo) == ["Sword"]
    assert (ana["gold"], bo["gold"]) == (1050, 1000)
    assert RULESET.describe(barter("Ana", "Bo", ["Sword"], ["Blessing of Tymora"]), []) == (
        "Ana gave Sword to Bo for Blessing of Tymora."
    )


def test_a_card_that_is_not_an_item_bartered_for_an_item(armed, play) -> None:
    """The other way round: Ana's Blessing of Luck for an Item Bo holds (the Potion she gave him first)."""
    state = play(armed, trade("Ana", "Bo", ["Potion of Healing"]))
    state = play(state, barter("Ana", "Bo", ["Blessing of Luck"], ["Potion of Healing"]))
    assert names(state["heroes"][0]) == ["Sword", "Potion of Healing"]
    assert names(state["heroes"][1]) == ["Blessing of Tymora", "Blessing of Luck"]


def test_an_item_bartered_for_gold(armed, play) -> None:
    state = play(armed, barter("Ana", "Bo", ["Sword"], gold_back=700))
    ana, bo = state["heroes"][0], state["heroes"][1]
    assert (ana["gold"], bo["gold"], names(bo)) == (1750, 300, ["Blessing of Tymora", "Sword"])
    assert [(r["delta"], r["note"]) for r in ana["ledger"][-1:]] == [(700, "Received from Bo")]
    assert [(r["delta"], r["note"]) for r in bo["ledger"][-1:]] == [(-700, "Gave to Ana")]
    assert RULESET.describe(barter("Ana", "Bo", ["Sword"], gold_back=700), []) == "Ana gave Sword to Bo for 700 gp."


def test_cards_that_are_not_items_are_not_bartered_for_each_other_nor_for_gold(armed, play, rejected) -> None:
    assert rejected(armed, barter("Ana", "Bo", ["Blessing of Luck"], ["Blessing of Tymora"])) == "not_an_item"
    assert rejected(armed, barter("Ana", "Bo", ["Blessing of Luck"], gold_back=10)) == "not_an_item"
    gold_for_blessing = Event(
        "trade_made", None, {"from": "Ana", "to": "Bo", "items": [], "gold": 10, "items_back": ["Blessing of Tymora"]}
    )
    assert rejected(armed, gold_for_blessing) == "not_an_item"  # gold for a card that is not an Item: no Item
    assert rejected(armed, trade("Bo", "Ana", ["Blessing of Tymora"])) == "not_an_item"  # a gift: Items only


def test_a_barter_checks_what_the_other_hero_holds(armed, rejected) -> None:
    assert rejected(armed, barter("Ana", "Bo", ["Sword"], ["Plate Armor"])) == "item_not_held"
    assert rejected(armed, barter("Ana", "Bo", ["Sword"], gold_back=1001)) == "not_enough_gold"
    assert rejected(armed, barter("Ana", "Bo", [], ["Blessing of Tymora"])) == "empty_trade"  # Ana gives nothing


def test_the_barter_fields_may_be_left_out() -> None:
    fields = RULESET.event_types["trade_made"].fields
    data = check_payload(fields, {"from": "Ana", "to": "Bo", "items": ["Sword"], "gold": 0})
    assert (data["items_back"], data["gold_back"]) == ([], 0)
