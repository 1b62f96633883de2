"""Bone Wars board: each seat's player board (slots, loyalty tracks, money, RP), the bookshelf, the scorings,
the sittings, a printable "Set up the table" panel, and the moves of the seat on turn.

Everything works without JavaScript. Finite moves (passes, turn end, papers, patron flip, pause) are one-tap
buttons posting a complete event from the ruleset's ``legal_moves``; cards and the effects with values the
table decides (money, loyalty, species, slot upgrades, RP, circumference) are small forms built from the
ruleset's schema, pre-filled with what the state allows (the seat on turn, the next slot and its cost).
"""

from __future__ import annotations

import re
from typing import Any

from frontend.boards.shared import TableFacts, move_json
from frontend.forms.inputs import Input, build_inputs
from rulesets.base import Event
from rulesets.bone_wars.engine import money_text, next_slot, products
from rulesets.bone_wars.fields import (
    CARD_PLAYED,
    CARD_UPGRADED,
    CRANIUM_RECORDED,
    EVENT_TYPES,
    GAME_CONCLUDED,
    LOYALTY_GAINED,
    MONEY_CHANGED,
    PAPER_DEBUNKED,
    PAPER_PUBLISHED,
    PASSED,
    PATRON_FLIPPED,
    PATRON_NAMES,
    ROUNDS,
    RP_GAINED,
    SIDES,
    SLOT_UPGRADED,
    SPECIES_ARCHIVED,
    TABLE_PAUSED,
    TURN_ENDED,
)

TEMPLATE = "frontend/boards/bone-wars.html"

# the effects drawn as forms, in the order a turn usually records them
EFFECT_FORMS = (MONEY_CHANGED, LOYALTY_GAINED, SPECIES_ARCHIVED, SLOT_UPGRADED, CARD_UPGRADED, RP_GAINED)


def _button_label(event: Event) -> str:
    side = PATRON_NAMES.get(event.data.get("side") or event.data.get("patron") or "", "")
    return {
        PASSED: f"Pass → {side}",
        TURN_ENDED: "End turn",
        PATRON_FLIPPED: "Flip patron tile",
        PAPER_PUBLISHED: f"Publish for {side}",
        PAPER_DEBUNKED: f"Debunk {side}",
        TABLE_PAUSED: "Pause the table (end of sitting)",
        GAME_CONCLUDED: "Confirm the end of the game (the awards are recorded)",
    }.get(event.type, event.type)


def _seat_boards(state: dict[str, Any], names: list[str], turn: int | None, winners: list[int]) -> list[dict[str, Any]]:
    cred = state["credibility"]
    longest = max(max(p["loyalty"].values()) for p in state["players"]) or 1
    seats = []
    for seat, p in enumerate(state["players"]):
        upcoming = None if p["passed"] or state["finished"] else next_slot(p)
        seats.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else f"Seat {seat}",
                "patron": p["patron"],
                "patron_name": PATRON_NAMES[p["patron"]],
                "money": p["money"],
                "money_text": money_text(p["money"]),  # a debt after an override reads −$2, never $-2
                "rp": p["rp"],
                "rp_text": str(p["rp"]) if p["rp"] >= 0 else f"\u2212{-p['rp']}",
                "passed": p["passed"],
                "on_turn": seat == turn,
                "winner": seat in winners,
                "archive": p["archive"],
                "cm": p["cranial_circumference"],
                "loyalty": [
                    {
                        "side": side,
                        "name": PATRON_NAMES[side],
                        "value": p["loyalty"][side],
                        "current": p["patron"] == side,
                        "width": round(100 * p["loyalty"][side] / longest),
                    }
                    for side in SIDES
                ],
                "would_score": products(p, cred)["gain"],
                "slots": [
                    {**slot, "n": i + 1, "next": i == upcoming, "extra": i >= 5} for i, slot in enumerate(p["slots"])
                ],
                "filled": sum(1 for slot in p["slots"] if slot["card"] is not None),
                "upgrades": [{**slot, "n": i + 1} for i, slot in enumerate(p["slots"]) if i >= 5],
            }
        )
    return seats


def _bookshelf(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "side": side,
            "name": PATRON_NAMES[side],
            "papers": state["credibility"][side],
            "shelves": [i < state["credibility"][side] for i in range(state["shelves"])],
        }
        for side in SIDES
    ]


def _round_words(rounds: list[int]) -> str:
    """The rounds a sitting covered; none: it only recorded what follows the last pass (the final awards)."""
    if not rounds:
        return f"after round {ROUNDS}: the final awards"
    return f"round {rounds[0]}" if len(rounds) == 1 else f"rounds {rounds[0]}–{rounds[-1]}"


def _sittings(facts: TableFacts, state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    sittings = state["sittings"]
    times = facts.times_of([s["from_version"] for s in sittings])
    out = []
    for n, s in enumerate(sittings):
        rounds = list(s["rounds"])
        playing = n == len(sittings) - 1 and not s["paused"] and not state["finished"]
        if playing and state["round"] not in rounds:  # the sitting under way is in the board's round now
            rounds.append(state["round"])
        out.append(
            {
                **s,
                "when": times.get(s["from_version"]),
                "round_words": _round_words(rounds),
                "gains": [(names[i] if i < len(names) else f"Seat {i}", rp) for i, rp in enumerate(s["rp"])],
            }
        )
    return out


def _scorings(state: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return [
        {
            **s,
            "rows": [{"name": names[i] if i < len(names) else f"Seat {i}", **got} for i, got in enumerate(s["seats"])],
        }
        for s in state["scorings"]
    ]


def _forms(state: dict[str, Any], turn: int, problem: dict[str, Any]) -> dict[str, Any]:
    """The card form and the effect forms for the seat on turn, pre-filled (or refilled after a refusal)."""
    player = state["players"][turn]
    index = next_slot(player)
    last = player["slots"][-1]
    filled = [i + 1 for i, slot in enumerate(player["slots"]) if slot["card"] is not None]
    prefill: dict[str, dict[str, str]] = {
        CARD_PLAYED: {"data.card.kind": "team", "data.card.cost": "0"},
        SLOT_UPGRADED: {"data.cost": str(last["cost"]), "data.icon": last["icon"]},
        CARD_UPGRADED: {"data.slot": str(filled[-1] if filled else 1), "data.card.kind": "team"},
    }

    def inputs(type_: str, expand: bool = False) -> list[Input]:
        again = problem.get("type") == type_ and problem.get("values") is not None
        values = problem["values"] if again else prefill.get(type_)
        return build_inputs(
            EVENT_TYPES[type_].fields,
            "data.",
            form=f"bw-{type_}",
            values=values,
            errors=problem.get("errors") if again else None,
            expand=expand,
        )

    card_inputs = inputs(CARD_PLAYED, expand=True)
    card_fields = card_inputs[0].children if card_inputs and card_inputs[0].widget == "group" else card_inputs
    slot = None if index is None else {"n": index + 1, **player["slots"][index]}
    return {
        "card": {
            "type": CARD_PLAYED,
            "inputs": card_fields,
            "slot": slot,
            "affordable": slot is not None and (slot["cost"] == 0 or slot["cost"] <= player["money"]),
            "money": player["money"],
            "holds": f"has ${player['money']}" if player["money"] >= 0 else f"owes ${-player['money']}",
            "open": problem.get("type") == CARD_PLAYED,
        },
        "effects": [
            {
                "type": t,
                "label": EVENT_TYPES[t].label,
                "inputs": inputs(t, expand=t == CARD_UPGRADED),
                "expand": t == CARD_UPGRADED,
                "open": problem.get("type") == t,
                "note": (
                    f"onto {PATRON_NAMES[player['patron']]}'s track"
                    if t == LOYALTY_GAINED
                    else "a card already in a slot; pays the new card's own cost"
                    if t == CARD_UPGRADED
                    else ""
                ),
            }
            for t in EFFECT_FORMS
        ],
    }


def _setup_photo(facts: TableFacts, state: dict[str, Any], version: int) -> dict[str, Any] | None:
    """The photo the "Set up the table" panel shows first: while the table is paused, the last photo of the
    sitting that ended (taken at one of its entries or after it was packed away), as of ``version``."""
    sittings = state["sittings"]
    if not sittings or not sittings[-1]["paused"]:
        return None
    start = sittings[-1]["from_version"]
    return next((p for p in facts.photo_list() if p["version"] <= version and p["at"] >= start), None)


def board(
    *,
    ruleset: Any,
    ms: Any,
    legal: list[Event] | None,
    can_record: bool,
    facts: TableFacts,
    problem: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context for ``frontend/boards/bone-wars.html``; ``problem``: a refused entry to show again."""
    state = ms.state
    names = list(facts.seat_names)
    winners = list((ms.outcome or {}).get("winners", []))
    turn = state["turn"]
    live = ms.version == ms.latest_version
    interactive = bool(can_record and live and not state["finished"])
    awarding = state["finished"] and not state.get("concluded", False)  # the outcome is provisional
    award = bool(can_record and live and awarding)
    moves = list(legal or []) if interactive or award else []
    problem = problem or {}
    again = problem.get("type") == RP_GAINED and problem.get("values") is not None
    context: dict[str, Any] = {
        "template": TEMPLATE,
        "round": state["round"],
        "rounds": ROUNDS,
        "finished": state["finished"],
        "awarding": awarding,
        "award": award,
        "award_inputs": build_inputs(
            EVENT_TYPES[RP_GAINED].fields,
            "data.",
            form="bw-award",
            values=problem["values"] if again else None,
            errors=problem.get("errors") if again else None,
        )
        if award
        else [],
        "award_open": again,
        "winners_provisional": awarding,
        "turn_name": names[turn] if isinstance(turn, int) and turn < len(names) else None,
        "turn_seat": turn,
        "card_played": state["card_played"],
        # the whole turn line ("Bo to play — finish the action …"), named by match_state; the round is shown apart
        "prompt": re.sub(r" \(round \d+ of \d+\)", "", ms.turn_line),
        "paused": bool(state["sittings"]) and state["sittings"][-1]["paused"] and not state.get("concluded", False),
        "seats": _seat_boards(state, names, turn, winners),
        "bookshelf": _bookshelf(state),
        "shelves": state["shelves"],
        "scorings": _scorings(state, names),
        "sittings": _sittings(facts, state, names),
        "setup_photo": _setup_photo(facts, state, ms.version),
        "version": ms.version,
        "interactive": interactive,
        "buttons": [
            {"label": _button_label(m), "move": move_json(m), "type": m.type} for m in moves if m.type != SLOT_UPGRADED
        ],
        "cm_seats": list(enumerate(names)),
        "cm_inputs": build_inputs(EVENT_TYPES[CRANIUM_RECORDED].fields, "data.", form="bw-cm") if can_record else [],
    }
    if interactive and isinstance(turn, int):
        context.update(_forms(state, turn, problem))
    context["problem_at"] = _problem_at(problem, interactive=interactive and isinstance(turn, int), award=award)
    return context


def _problem_at(problem: dict[str, Any], *, interactive: bool, award: bool) -> str | None:
    """Where the board explains a refusal of one of its own controls: just below the control tapped (in the panel
    under the drawing, not at the board's top, so the control keeps its place on screen): ``card`` (the card
    form), an effect's type (its form), ``moves`` (the turn's buttons), ``awards`` or ``cm``; None: the page puts
    it at the board's top."""
    if problem.get("origin") != "board" or not problem.get("detail"):
        return None
    type_ = problem.get("type")
    if type_ == CRANIUM_RECORDED:
        return "cm"
    if award:
        return "awards"
    if not interactive:
        return None
    if type_ == CARD_PLAYED:
        return "card"
    return type_ if type_ in EFFECT_FORMS else "moves"
