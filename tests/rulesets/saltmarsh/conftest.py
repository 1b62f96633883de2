"""Shared helpers for the Saltmarsh campaign ruleset tests."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.base import Event
from rulesets.saltmarsh import RULESET
from tests.rulesets.scenario import helper_fixtures, play_with, rejected_with


def ev(type_: str, **data: Any) -> Event:
    """A campaign entry (seat None). Use ``ev("trade_made", **{"from": ...})`` for the ``from`` key."""
    return Event(type_, None, data)


play = play_with(RULESET)
rejected = rejected_with(RULESET)


def item(name: str, buy: int | None = None, sell: int | None = None) -> dict[str, Any]:
    return {"name": name, "buy": buy, "sell": sell}


def card(name: str, buy: int | None = None, sell: int | None = None, is_item: bool = True) -> dict[str, Any]:
    return {"name": name, "item": is_item, "buy": buy, "sell": sell}


@pytest.fixture
def new() -> dict[str, Any]:
    """A campaign with default options and no heroes."""
    return RULESET.initial_state({}, 0)


@pytest.fixture
def town(new: dict[str, Any]) -> dict[str, Any]:
    """Three heroes in town, no adventure yet."""
    return play(
        new,
        ev("hero_joined", hero="Ana", **{"class": "Fighter"}),
        ev("hero_joined", hero="Bo", **{"class": "Wizard"}),
        ev("hero_joined", hero="Cy", **{"class": "Rogue"}),
    )


@pytest.fixture
def on_adventure(town: dict[str, Any]) -> dict[str, Any]:
    """Ana and Bo are on 'Sinister Secret'; Cy stayed home."""
    return play(town, ev("adventure_started", adventure="Sinister Secret", heroes=["Ana", "Bo"]))


@pytest.fixture
def after(on_adventure: dict[str, Any]) -> dict[str, Any]:
    """Back in town after completing 'Sinister Secret': Ana 1,050 gp and a Potion, Bo 1,000, Cy 200."""
    return play(
        on_adventure,
        ev("treasure_gained", hero="Ana", item=item("Potion of Healing", buy=100, sell=50)),
        ev("gold_gained", hero="Ana", amount=50),
        ev("adventure_completed", reward=1000),
    )


globals().update(helper_fixtures(ev=ev, play=play, rejected=rejected, item=item, card=card))
