"""Treasure cards as both Saltmarsh rulesets record them: name, buy and sell values, and the Item flag."""

from __future__ import annotations

from typing import Any

from rulesets.schema import Field

NAME = 60  # longest card name

CARD_FIELDS: tuple[Field, ...] = (
    Field("name", "str", max_length=NAME, label="Card name"),
    Field("buy", "int", required=False, nullable=True, minimum=0, label="Buy value (gp)"),
    Field("sell", "int", required=False, nullable=True, minimum=0, label="Sell value (gp)"),
    Field(
        "item",
        "bool",
        required=False,
        nullable=True,
        label="Is an Item",
        help="Empty: an Item when the card has a buy or sell value (Blessings, Fortunes and the like have none).",
    ),
)


def card_field(name: str = "item", label: str = "Treasure card") -> Field:
    """An object field holding one Treasure card."""
    return Field(name, "object", label=label, fields=CARD_FIELDS)


def treasure_card(raw: dict[str, Any]) -> dict[str, Any]:
    """The card as kept in a state: ``{"name", "buy", "sell", "item"}`` with the Item flag resolved.

    A card without an explicit flag is an Item when it has a buy or a sell value ("Item Treasure cards"
    carry prices; a card with neither is not an Item).
    """
    buy, sell = raw.get("buy"), raw.get("sell")
    flag = raw.get("item")
    item = bool(flag) if flag is not None else (buy is not None or sell is not None)
    return {"name": " ".join(str(raw["name"]).split()), "buy": buy, "sell": sell, "item": item}


def is_item(card: dict[str, Any]) -> bool:
    """Whether a held card is an Item (cards stored before the flag existed: when it has a value)."""
    if "item" in card:
        return bool(card["item"])
    return card.get("buy") is not None or card.get("sell") is not None
