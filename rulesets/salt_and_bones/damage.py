"""Salt & Bones damage: the reaction window of an Attack card, resolved again from its snapshot after every
INSTINCT played into it (damage instances, automatic triggers, negation, the combat log)."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import State
from rulesets.cells import row_col_words
from rulesets.names import seat_ref
from rulesets.salt_and_bones.board import (
    automatic_cards,
    cap_log,
    field_card,
    gambits,
    refresh_grid,
    see,
    strategy_def,
)


def open_window(state: State) -> None:
    """Close the current reaction window (its results stay) and open an empty one.

    An Overwhelm played in the closing window while its player had no attack of its own open is *armed*:
    it carries over to that player's next Attack card (``combat.armed``).
    """
    cap_log(state)
    c = state["combat"]
    old = c["window"]
    if old is not None:
        for r in old["reactions"]:
            if r.get("arming") and r["effective"]:
                c["armed"][r["seat"]].append(r["card"])
    c["window"] = {
        "strike": None,
        "reactions": [],
        "triggered": [],
        "snapshot": {
            "health": list(state["health"]),
            "boards": copy.deepcopy(state["boards"]),
            "seen": copy.deepcopy(state["seen"]),
            "discarded": state["discards"]["strategy"],
            "log_start": len(state["log"]),
        },
    }


def effective_reactions(reactions: list[dict[str, Any]], will: bool) -> list[bool]:
    """Which reactions take effect: Test of Will negates all; a Condescend negates its target if effective."""
    eff = [not will] * len(reactions)
    for j in range(len(reactions) - 1, -1, -1):
        r = reactions[j]
        if eff[j] and r["effect"] == "negate_card" and _negates(r, "reaction"):
            eff[r["negates"]["index"]] = False
    return eff


def _negates(reaction: dict[str, Any], kind: str) -> bool:
    """Whether a Condescend ``reaction`` is aimed at a target of ``kind`` (chain, reaction, auto)."""
    target = reaction.get("negates")
    return isinstance(target, dict) and target.get("kind") == kind


def resolve_window(state: State) -> None:
    """Recompute everything the open window decides from its snapshot: damage, triggers, negation, log."""
    c = state["combat"]
    w = c["window"]
    snap = w["snapshot"]
    boards = copy.deepcopy(snap["boards"])
    health = list(snap["health"])
    seen = copy.deepcopy(snap["seen"])
    lines: list[str] = []
    g = gambits(state)
    reactions = w["reactions"]
    eff = effective_reactions(reactions, g["will"])
    for r, ok in zip(reactions, eff, strict=True):
        r["effective"] = ok
        boards[r["seat"]]["instinct"] = [x for x in boards[r["seat"]]["instinct"] if x["uid"] != r["uid"]]
        see(seen, "strategy", r["card"])
    results = ["" for _ in reactions]
    for j, r in enumerate(reactions):
        if eff[j] and r["effect"] == "negate_card" and _negates(r, "reaction"):
            target = reactions[r["negates"]["index"]]
            results[j] = f"{seat_ref(target['seat'])}'s {target['card']} is negated and discarded"
    strike = w["strike"]
    w["triggered"] = []
    if strike is not None:
        lines.extend(_resolve_strike(state, strike, boards, health, seen, reactions, eff, g, results))
    else:
        for j, r in enumerate(reactions):
            r["result"] = _reaction_result(r, eff[j], g, results[j])
            lines.append(_reaction_line(r))
    gone = _card_count(snap["boards"]) - _card_count(boards)  # played or triggered: discarded
    state["discards"]["strategy"] = snap["discarded"] + gone
    state["boards"] = boards
    state["health"] = health
    state["seen"] = seen
    state["log"] = state["log"][: snap["log_start"]] + lines
    refresh_grid(state)


def _card_count(boards: list[dict[str, list[Any]]]) -> int:
    return sum(len(cards) for board in boards for cards in board.values())


def _reaction_result(r: dict[str, Any], ok: bool, g: dict[str, Any], default: str) -> str:
    if not ok:
        return "negated by Test of Will and discarded" if g["will"] else "negated by Condescend and discarded"
    return default


def _reaction_line(r: dict[str, Any]) -> str:
    what = {
        "negate_chosen_instance": "against a damage instance",
        "unnegatable": "for their next Attack card" if r.get("arming") else "on their attack",
        "negate_card": "against a Chain card" if _negates(r, "chain") else "against an INSTINCT card",
        "extra_instance": "(triggered)",
        "negate_first_instance": "(triggered)",
    }.get(r["effect"], "")
    line = f"{seat_ref(r['seat'])} played {r['card']}" + (f" {what}" if what else "")
    return line + (f": {r['result']}." if r["result"] else ".")


def _resolve_strike(
    state: State,
    strike: dict[str, Any],
    boards: list[dict[str, Any]],
    health: list[int],
    seen: dict[str, dict[str, int]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
) -> list[str]:
    """Resolve the open strike into ``boards``/``health``/``seen``; returns its log lines."""
    card = field_card(state, strike["card"])
    a, d = strike["attacker"], strike["defender"]
    chain = " as a Chain" if strike["as_chain"] else ""
    lines = [
        f"{seat_ref(a)} played {card['name']}{chain} (attack on {_tile(card['attack_tile'])}; "
        f"opportunity on {_tile(card['opportunity_tile'])})."
    ]
    chain_negated = None
    if strike["as_chain"]:
        if g["will"]:
            chain_negated = "Test of Will"
        else:
            for j, r in enumerate(reactions):
                if eff[j] and _negates(r, "chain"):
                    chain_negated = f"{seat_ref(r['seat'])}'s {r['card']}"
                    results[j] = f"{card['name']} is negated and discarded"
    tail: list[str] = []
    if chain_negated:
        card.update(negated=True, instances=[], damage=0)
        lines.append(f"{card['name']} was negated by {chain_negated}: it is discarded and deals no damage.")
    else:
        lines.extend(strike["notes"])
        instances = _strike_instances(state, strike, boards, seen, reactions, eff, g, results, lines)
        overwhelm = [
            j
            for j, r in enumerate(reactions)
            if eff[j] and r["seat"] == a and r["effect"] == "unnegatable" and not r.get("arming")
        ]
        for j in overwhelm:
            results[j] = "its damage cannot be negated"
        armed = strike.get("armed") or []
        if armed:
            lines.append(f"{armed[0]} ({seat_ref(a)}, played before this card): its damage cannot be negated.")
        overwhelmed = armed[0] if armed else (reactions[overwhelm[0]]["card"] if overwhelm else None)
        blocker = "Test of Pain" if g["pain"] else overwhelmed
        _automatic_negation(state, instances, boards, d, seen, g, blocker, reactions, eff, results)
        _chosen_negation(instances, reactions, eff, d, blocker, results)
        total = sum(i["amount"] for i in instances if not i["negated"])
        lines.extend(_instance_line(i) for i in instances)
        keys = ("id", "label", "amount", "negated", "negated_by")
        card.update(negated=False, instances=[{k: i[k] for k in keys} for i in instances], damage=total)
        before = health[d]
        health[d] = max(0, before - total)
        tail.append(f"{seat_ref(d)} takes {total} damage: Health {before} → {health[d]}.")
    for j, r in enumerate(reactions):
        r["result"] = _reaction_result(r, eff[j], g, results[j])
        lines.append(_reaction_line(r))
    return lines + tail


def _instance(ident: str, label: str, amount: int, parts: list[str] | None = None) -> dict[str, Any]:
    return {
        "id": ident,
        "label": label,
        "amount": amount,
        "parts": parts or [str(amount)],
        "notes": [],
        "negated": False,
        "negated_by": None,
    }


def _strike_instances(
    state: State,
    strike: dict[str, Any],
    boards: list[dict[str, Any]],
    seen: dict[str, dict[str, int]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
    lines: list[str],
) -> list[dict[str, Any]]:
    """The strike's damage instances: the card's own, automatic extra instances, revealed ones, Test of Skill."""
    a = strike["attacker"]
    instances = [_instance(i["id"], i["label"], i["amount"], list(i["parts"])) for i in strike["base"]]
    for slot, oil in automatic_cards(state, boards[a], "extra_instance"):
        boards[a][slot] = [x for x in boards[a][slot] if x["uid"] != oil["uid"]]
        if slot == "instinct":
            see(seen, "strategy", oil["name"])
            negated_by = _auto_negated_by(state, oil, a, reactions, eff, g, results)
            if negated_by:
                lines.append(f"{oil['name']} ({seat_ref(a)}) triggered but was negated by {negated_by}.")
                continue
        instances.append(_instance(f"auto{oil['uid']}", oil["name"], strategy_def(state, oil["name"])["amount"]))
    for j, r in enumerate(reactions):
        if eff[j] and r["seat"] == a and r["effect"] == "extra_instance":
            amount = strategy_def(state, r["card"])["amount"]
            instances.append(_instance(f"react{j}", r["card"], amount))
            results[j] = f"an extra damage instance of {amount}"
    if g["skill"]:
        for inst in instances:
            inst["amount"] += g["skill"]
            inst["parts"].append(f"{g['skill']} (Test of Skill)")
    return instances


def _auto_negated_by(
    state: State,
    card: dict[str, Any],
    seat: int,
    reactions: list[dict[str, Any]],
    eff: list[bool],
    g: dict[str, Any],
    results: list[str],
) -> str | None:
    """An automatic INSTINCT of ``seat`` triggers: note it, and say what negates it (Test of Will, Condescend)."""
    state["combat"]["window"]["triggered"].append({"uid": card["uid"], "seat": seat, "card": card["name"]})
    if g["will"]:
        return "Test of Will"
    for j, r in enumerate(reactions):
        if eff[j] and _negates(r, "auto") and r["negates"]["uid"] == card["uid"]:
            results[j] = f"{seat_ref(seat)}'s {card['name']} is negated and discarded"
            return f"{seat_ref(r['seat'])}'s {r['card']}"
    return None


def _automatic_negation(
    state: State,
    instances: list[dict[str, Any]],
    boards: list[dict[str, Any]],
    d: int,
    seen: dict[str, dict[str, int]],
    g: dict[str, Any],
    blocker: str | None,
    reactions: list[dict[str, Any]],
    eff: list[bool],
    results: list[str],
) -> None:
    """Bracer-like cards of the defender: each instance in turn activates the next one until it is negated."""
    for inst in instances:
        for slot, bracer in automatic_cards(state, boards[d], "negate_first_instance"):
            boards[d][slot] = [x for x in boards[d][slot] if x["uid"] != bracer["uid"]]
            if slot == "instinct":
                see(seen, "strategy", bracer["name"])
                negated_by = _auto_negated_by(state, bracer, d, reactions, eff, g, results)
                if negated_by:
                    inst["notes"].append(f"{bracer['name']} triggered but was negated by {negated_by}")
                    continue
            if blocker:
                inst["notes"].append(f"{bracer['name']} triggered but could not negate it ({blocker})")
                continue
            inst.update(negated=True, negated_by=bracer["name"])
            inst["notes"].append(f"{bracer['name']} negated it")
            break


def _chosen_negation(
    instances: list[dict[str, Any]],
    reactions: list[dict[str, Any]],
    eff: list[bool],
    d: int,
    blocker: str | None,
    results: list[str],
) -> None:
    """The defender's played negations (Anticipation, revealed automatic ones), in the order played."""
    for j, r in enumerate(reactions):
        if not eff[j] or r["seat"] != d:
            continue
        if r["effect"] == "negate_first_instance":
            target = next((i for i in instances if not i["negated"]), None)
        elif r["effect"] == "negate_chosen_instance":
            target = next((i for i in instances if i["id"] == r["instance"]), None)
        else:
            continue
        if target is None or target["negated"]:
            results[j] = "no effect (nothing left to negate)"
        elif blocker:
            target["notes"].append(f"{r['card']} could not negate it ({blocker})")
            results[j] = f"no effect ({blocker})"
        else:
            target.update(negated=True, negated_by=r["card"])
            target["notes"].append(f"{r['card']} negated it")
            results[j] = f"negated {target['label']} ({target['amount']})"


def _instance_line(inst: dict[str, Any]) -> str:
    if len(inst["parts"]) > 1:
        line = f"{inst['label']}: {' + '.join(inst['parts'])} = {inst['amount']}"
    else:
        line = f"{inst['label']}: {inst['amount']}"
    if inst["notes"]:
        line += ", " + "; ".join(inst["notes"])
    return line + "."


def _tile(cell: list[int]) -> str:
    return row_col_words(cell)
