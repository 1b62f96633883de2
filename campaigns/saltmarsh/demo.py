"""The Saltmarsh campaign's part of the demo data (``matches.demo``): a campaign with an adventure played as a
match, registered when the app is ready."""

from __future__ import annotations

from typing import Any

from campaigns.saltmarsh.services import campaign_adventure_start, campaign_create, campaign_event_record
from matches.demo import demo_register
from matches.services import match_event_record


def _saltmarsh_demo(user: Any) -> list[str]:
    """A campaign with a failed adventure, a sale, a retry played as a match, a shop and a purchase."""
    campaign = campaign_create(owner=user, name="Demo: Saltmarsh campaign", is_public=True)

    def rec(type_: str, **data: object) -> None:
        campaign_event_record(campaign=campaign, user=user, type=type_, data=data)

    for hero, cls in [("Ana", "Fighter"), ("Bo", "Wizard"), ("Cy", "Rogue")]:
        rec("hero_joined", hero=hero, **{"class": cls})
    rec("adventure_started", adventure="The Sinister Secret", heroes=["Ana", "Bo"])
    rec("treasure_gained", hero="Ana", item={"name": "Cloak of Protection", "buy": 800, "sell": None})
    rec("gold_gained", hero="Bo", amount=150)
    rec("adventure_failed")
    rec("item_sold", hero="Ana", item="Cloak of Protection")
    match = campaign_adventure_start(
        campaign=campaign, user=user, adventure="The Sinister Secret", reward=1200,
        heroes=[{"name": "Ana", "max_hp": 10}, {"name": "Bo", "max_hp": 8}],
    )  # fmt: skip
    for type_, seat, data in [
        ("hero_phase_started", 0, {}),
        ("damage_taken", 0, {"amount": 3}),
        ("treasure_found", 0, {"item": {"name": "Potion of Healing", "buy": 100, "sell": 50}}),
        ("gold_found", 1, {"amount": 90}),
        ("adventure_won", None, {}),
    ]:
        match_event_record(match=match, user=user, type=type_, seat=seat, data=data)
    rec("shop_revealed", cards=[
        {"name": "Flame Tongue", "item": True, "buy": 1400, "sell": 700},
        {"name": "Rope of Climbing", "item": True, "buy": 200, "sell": 100},
        {"name": "Trap!", "item": False, "buy": None, "sell": None},
        {"name": "Wand of Magic Missiles", "item": True, "buy": 900, "sell": 450},
    ])  # fmt: skip
    rec("item_bought", hero="Ana", item="Flame Tongue")
    rec("trade_made", **{"from": "Bo", "to": "Ana", "items": [], "gold": 100})
    return [campaign.name, match.title]


demo_register(_saltmarsh_demo, game="saltmarsh-adventure")
