"""The games Chronicle knows, by slug."""

from __future__ import annotations

import importlib
import importlib.util

from rulesets.base import Ruleset

# Each module exposes a module-level ``RULESET``. Listed explicitly so adding a game is one line here.
_MODULES = (
    "rulesets.last_stone",
    "rulesets.get_salty",
    "rulesets.salt_and_bones",
    "rulesets.saltmarsh",
    "rulesets.saltmarsh_adventure",
    "rulesets.bone_wars",
    "rulesets.scoresheet",
    "rulesets.the_first_spine",
    "rulesets.series",
)

_registry: dict[str, Ruleset] | None = None


class UnknownGame(KeyError):
    """No ruleset has this slug."""


def _load() -> dict[str, Ruleset]:
    global _registry
    if _registry is None:
        found: dict[str, Ruleset] = {}
        for name in _MODULES:
            if importlib.util.find_spec(name) is None:
                continue  # a game whose package is not written yet
            ruleset = importlib.import_module(name).RULESET
            found[ruleset.slug] = ruleset
        _registry = found
    return _registry


def get_ruleset(slug: str) -> Ruleset:
    """The ruleset for ``slug``; raises :class:`UnknownGame`."""
    try:
        return _load()[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all_rulesets(kind: str | None = None) -> list[Ruleset]:
    """Every registered ruleset (optionally only those driving ``kind`` streams), by name."""
    return sorted((r for r in _load().values() if kind is None or r.kind == kind), key=lambda r: r.name)
