"""The board partial of a Ghosts of Saltmarsh adventure: heroes' HP and conditions, party surges and XP, monsters."""

from __future__ import annotations

from typing import Any

from frontend.boards.shared import TableFacts
from rulesets.saltmarsh_adventure.fields import CONDITION_WORDS, CONDITIONS

CONDITION_LABELS = dict(zip(CONDITIONS, CONDITION_WORDS, strict=True))  # as the condition cards print them


def board(*, ruleset: Any, ms: Any, legal: Any, can_record: bool, facts: TableFacts) -> dict[str, Any]:
    """Hero cards (HP bar, conditions, treasure), the party's pool, the monsters in play and the latest notices."""

    state = ms.state
    players = list(facts.seat_names)
    heroes = []
    for seat, hero in enumerate(state["heroes"]):
        max_hp = max(1, int(hero["max_hp"]))
        heroes.append(
            {
                **hero,
                "seat": seat,
                "player": players[seat] if seat < len(players) else "",
                "percent": round(100 * int(hero["hp"]) / max_hp),
                "conditions": [CONDITION_LABELS.get(c, c) for c in hero["conditions"]],
                "active": seat == state.get("active") and state.get("result") is None,
            }
        )
    monsters = [
        {"name": m["name"], "conditions": [CONDITION_LABELS.get(c, c) for c in m.get("conditions", [])]}
        for m in state.get("monsters", [])
    ]
    return {
        "template": "frontend/boards/saltmarsh-adventure.html",
        "heroes": heroes,
        "monsters": monsters,
        "state": state,
        "actions": ", ".join(state.get("actions", [])),  # what the active hero did this Hero Phase
    }
