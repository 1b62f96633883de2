"""Shared helpers for the Saltmarsh adventure ruleset tests."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.base import Event
from rulesets.saltmarsh_adventure import RULESET
from tests.rulesets.scenario import helper_fixtures, play_with, rejected_with

HEROES = [
    {"name": "Ana", "class": "Fighter", "max_hp": 10, "surges": 4},
    {"name": "Bo", "class": "Wizard", "max_hp": 7},
    {"name": "Cy", "class": "Rogue", "max_hp": 8},
]


def ev(type_: str, seat: int | None = None, **data: Any) -> Event:
    return Event(type_, seat, data)


play = play_with(RULESET)
rejected = rejected_with(RULESET)


def start(options: dict[str, Any] | None = None, seats: int = 3) -> dict[str, Any]:
    opts = {"heroes": HEROES[:seats], "adventure": "Sinister Secret", "campaign_reward": 250}
    opts.update(options or {})
    return RULESET.initial_state(opts, seats)


def to_villain(state: dict[str, Any]) -> dict[str, Any]:
    """Finish the active hero's phase (no poison) so the Villain Phase begins."""
    seat = state["active"]
    if state["phase"] == "start":
        state = play(state, ev("hero_phase_started", seat))
    return play(state, ev("hero_phase_ended", seat))


@pytest.fixture
def fresh() -> dict[str, Any]:
    """Three heroes; seat 0 (Ana) is about to start her Hero Phase."""
    return start()


@pytest.fixture
def ana_phase(fresh: dict[str, Any]) -> dict[str, Any]:
    """Ana's Hero Phase is under way."""
    return play(fresh, ev("hero_phase_started", 0))


@pytest.fixture
def villain(fresh: dict[str, Any]) -> dict[str, Any]:
    """Ana's Villain Phase, with a Kobold and a Sahuagin in play."""
    return play(
        to_villain(fresh),
        ev("monster_placed", monster="Kobold"),
        ev("monster_placed", monster="Sahuagin"),
    )


globals().update(helper_fixtures(ev=ev, play=play, rejected=rejected, start=start, to_villain=to_villain))
