"""Pure game rules: one package per game, no Django, no I/O, no clock, no randomness."""

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, TurnInfo
from rulesets.registry import UnknownGame, all_rulesets, get_ruleset
from rulesets.schema import Field, SchemaError, check_payload

__all__ = [
    "Event",
    "EventType",
    "Field",
    "Outcome",
    "RuleViolation",
    "Ruleset",
    "SchemaError",
    "TurnInfo",
    "UnknownGame",
    "all_rulesets",
    "check_payload",
    "get_ruleset",
]
