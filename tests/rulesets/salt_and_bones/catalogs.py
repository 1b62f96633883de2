"""Test catalogs for Salt & Bones: the default strategy cards plus two automatic INSTINCTs."""

from __future__ import annotations

from typing import Any

from rulesets.salt_and_bones.catalog import default_strategy_cards


def with_automatic_instincts(copies: int) -> list[dict[str, Any]]:
    """The default strategy cards plus ``copies`` of Iron Skin (negates the first instance) and of Venom
    (one extra instance): both trigger on their own, without being played."""
    auto = {"copies": copies, "type": "INSTINCT", "activation": "automatic"}
    return [
        *default_strategy_cards(),
        {"name": "Iron Skin", **auto, "effect": "negate_first_instance"},
        {"name": "Venom", **auto, "effect": "extra_instance", "amount": 1},
    ]
