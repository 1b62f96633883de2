"""Ghosts of Saltmarsh adventure ruleset: one adventure played as a match, one seat per hero."""

from __future__ import annotations

from rulesets.saltmarsh_adventure.ruleset import CONDITIONS, SaltmarshAdventure, gain_condition, surge_value

RULESET = SaltmarshAdventure()

__all__ = ["CONDITIONS", "RULESET", "SaltmarshAdventure", "gain_condition", "surge_value"]
