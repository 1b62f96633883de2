"""Ghosts of Saltmarsh campaign ruleset: the campaign sheet kept as an event stream.

The one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule names),
``rules.py`` (the phase of each entry and one check per entry type), ``engine.py`` (the state and one effect
per entry type), and this module, the ruleset object; beside them ``cards.py`` (Treasure cards), ``sheet.py``
(the Campaign Tracker and the gold ledger) and ``bridge.py`` (an adventure match's result as a campaign entry).
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo, unknown_event
from rulesets.saltmarsh import engine, rules
from rulesets.saltmarsh.bridge import conclusion_from_adventure
from rulesets.saltmarsh.engine import EFFECTS, gp, new_state
from rulesets.saltmarsh.fields import (
    ADVANCEMENT_TOKEN_BOUGHT,
    ADVENTURE,
    ADVENTURE_COMPLETED,
    ADVENTURE_CONCLUDED,
    ADVENTURE_FAILED,
    ADVENTURE_STARTED,
    EVENT_TYPES,
    GOLD_GAINED,
    HERO_JOINED,
    HERO_RETIRED,
    ITEM_BOUGHT,
    ITEM_SOLD,
    LEDGER_CAUSES,
    LEVELED_UP,
    OPTIONS_SCHEMA,
    POWERS_SWAPPED,
    RULE_STREAM,
    SHOP_REVEALED,
    TOWN,
    TRADE_MADE,
    TREASURE_GAINED,
    TREASURE_USED,
)
from rulesets.saltmarsh.rules import RULES
from rulesets.saltmarsh.sheet import gold_ledger, sheet

__all__ = ["LEDGER_CAUSES", "RULESET", "SaltmarshCampaign", "conclusion_from_adventure", "gold_ledger", "sheet"]


def _concluded_words(d: dict[str, Any]) -> str:
    verb = "won" if d.get("result") == "won" else "lost"
    parts = []
    for h in d.get("heroes", []):
        bits = [c.get("name", "?") for c in h.get("found", [])]
        if h.get("gold"):
            bits.append(gp(h["gold"]))
        if bits:
            parts.append(f"{h.get('hero')} brought back {', '.join(bits)}")
        if h.get("used"):
            parts.append(f"{h.get('hero')} used up {', '.join(h['used'])}")
    tail = f" {'; '.join(parts)}." if parts else ""
    return f"Match #{d.get('match')} {verb} {d.get('adventure')}.{tail}"


def _trade_words(d: dict[str, Any]) -> str:
    parts = [*d.get("items", [])]
    if d.get("gold"):
        parts.append(gp(d["gold"]))
    back = [*d.get("items_back", [])]
    if d.get("gold_back"):
        back.append(gp(d["gold_back"]))
    if back:
        return f"{d.get('from')} gave {', '.join(parts) or 'nothing'} to {d.get('to')} for {', '.join(back)}."
    return f"{d.get('from')} gave {', '.join(parts) or 'nothing'} to {d.get('to')}."


_SENTENCES = {
    HERO_JOINED: lambda d: f"{d.get('hero')} the {d.get('class')} joined the campaign.",
    HERO_RETIRED: lambda d: f"{d.get('hero')} retired.",
    ADVENTURE_STARTED: lambda d: f"{', '.join(d.get('heroes', []))} set out on {d.get('adventure')}.",
    TREASURE_GAINED: lambda d: f"{d.get('hero')} gained {d.get('item', {}).get('name')}.",
    TREASURE_USED: lambda d: f"{d.get('hero')} used up {d.get('item')}.",
    ADVENTURE_CONCLUDED: _concluded_words,
    GOLD_GAINED: lambda d: f"{d.get('hero')} found {gp(d.get('amount', 0))}.",
    ADVENTURE_COMPLETED: lambda d: f"The adventure was completed; {gp(d.get('reward', 0))} to each hero who took part.",
    ADVENTURE_FAILED: lambda d: "The adventure failed; the heroes keep their treasure.",
    POWERS_SWAPPED: lambda d: f"{d.get('hero')} now uses {', '.join(d.get('powers', [])) or 'no powers'}.",
    ITEM_SOLD: lambda d: f"{d.get('hero')} sold {d.get('item')}.",
    SHOP_REVEALED: lambda d: f"The shop shows {', '.join(c.get('name', '?') for c in d.get('cards', []))}.",
    ITEM_BOUGHT: lambda d: f"{d.get('hero')} bought {d.get('item')}.",
    TRADE_MADE: _trade_words,
    LEVELED_UP: lambda d: f"{d.get('hero')} leveled up.",
    ADVANCEMENT_TOKEN_BOUGHT: lambda d: (
        f"{d.get('hero')} bought the {d.get('token')} token for {gp(d.get('cost', 0))}."
    ),
}


class SaltmarshCampaign(Ruleset):
    """The campaign sheet as a stream: see docs/rules/ghosts-of-saltmarsh.md for every interpretation."""

    slug = "saltmarsh"
    name = "Ghosts of Saltmarsh (campaign)"
    seats = (0,)
    version = 2
    rule_changes = {
        2: "a payment made under a house rule that leaves a hero below 0 gp would be refused, and so would a "
        "second hero of the same name, retiring a hero on the adventure, a second adventure, a result with no "
        "adventure in progress and selling a card the hero does not hold; a shop card with a value would be an Item"
    }
    kind = "campaign"
    rulebook = "ghosts-of-saltmarsh.txt"
    options_schema = OPTIONS_SCHEMA
    event_types = EVENT_TYPES
    rules = RULES
    effects = EFFECTS

    def initial_state(self, options: dict[str, Any], seat_count: int = 0) -> State:
        """An empty campaign: no heroes, no adventures, in town."""
        return new_state(options)

    # -- the hooks of the one shape (campaigns never end: no game-over check) -------------------------
    def check_entry(self, state: State, event: Event) -> EventType:
        """A campaign entry type (``unknown_event``), recorded for the table: a campaign has no seats
        (``no_seats``)."""
        spec = self.event_types.get(event.type)
        if spec is None:
            raise unknown_event("A Saltmarsh campaign", event.type)
        if event.seat is not None:
            raise RuleViolation(
                "no_seats",
                "A campaign has no seats: record the entry for the table and name the hero in it.",
                RULE_STREAM,
            )
        return spec

    def check_phase(self, state: State, event: Event) -> None:
        rules.check_phase(state, event)

    def check_data(self, spec: EventType, event: Event) -> dict[str, Any]:
        """The data as recorded: the API checks it against the fields before the rules see it (so that a
        three-card display is refused here as ``four_cards``, the rule, as it always was)."""
        return event.data

    def clone(self, state: State) -> State:
        """A copy counting the entry about to be applied in ``events_applied`` (ledger rows carry it)."""
        return engine.clone(state)

    # -- reading the state ----------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """Campaigns do not end: always None."""
        return None

    def legal_moves(self, state: State) -> list[Event] | None:
        """None: entries carry free names, amounts and card values that cannot be listed."""
        return rules.legal_moves(state)

    def turn(self, state: State) -> TurnInfo:
        """Phase ``town`` between adventures, ``adventure`` while one is in progress; no seats."""
        current = engine.current_adventure(state)
        if current is not None:
            where = f" as match #{current['match']}" if current.get("match") is not None else ""
            if current.get("match") is not None:  # what the table does next, where it does it
                what = "play it there; its match brings the result here when it is won or lost"
            else:
                what = "record the treasure and gold found, then whether it was completed or failed"
            prompt = f"{current['adventure']} is in progress{where}: {what}."
            return TurnInfo(seats=(), phase=ADVENTURE, prompt=prompt)
        return TurnInfo(seats=(), phase=TOWN, prompt="In town: heroes may take town actions or set out.")

    def warnings(self, state: State) -> list[str]:
        """Advice: the rulebook recommends a level-up cost of at least 1,000 gp."""
        cost = state["options"]["level_up_cost"]
        if cost < 1000:
            return [f"Leveling up costs {gp(cost)}: the rulebook does not recommend going below 1,000 gp."]
        return []

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One plain sentence per entry."""
        sentence = _SENTENCES.get(event.type)
        return sentence(event.data) if sentence is not None else super().describe(event, seat_names)

    # -- campaign helpers exposed on the object ---------------------------------------------------
    def sheet(self, state: State) -> dict[str, Any]:
        """The campaign sheet (see :func:`rulesets.saltmarsh.sheet.sheet`)."""
        return sheet(state)

    def gold_ledger(self, state: State, hero: str | None = None) -> list[dict[str, Any]]:
        """Gold changes (see :func:`rulesets.saltmarsh.sheet.gold_ledger`)."""
        return gold_ledger(state, hero)

    def conclusion_from_adventure(self, adventure_state: State, match: int) -> Event | None:
        """The entry a finished adventure match writes (see :func:`rulesets.saltmarsh.bridge.conclusion_from_adventure`)."""
        return conclusion_from_adventure(adventure_state, match)


RULESET = SaltmarshCampaign()
