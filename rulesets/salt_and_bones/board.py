"""Salt & Bones state reads: the seats, the Field Board's geometry, the cards, the game log, who acts next."""

from __future__ import annotations

from typing import Any

from rulesets.base import State
from rulesets.names import seat_ref

LOG_CAP = 200  # the game log keeps at most this many lines (oldest dropped first)
SEATS = (0, 1)


def other(seat: int) -> int:
    """The opponent of ``seat``."""
    return 1 - seat


def cell_key(cell: list[int]) -> tuple[int, int]:
    """A ``[row, col]`` cell as a hashable tuple."""
    return (int(cell[0]), int(cell[1]))


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The four orthogonal neighbours (up, down, left, right), on the board or not."""
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def on_board(state: State, cell: tuple[int, int]) -> bool:
    """Whether ``cell`` lies inside the Field Board."""
    f = state["field"]
    return 0 <= cell[0] < f["rows"] and 0 <= cell[1] < f["cols"]


def live_cards(state: State) -> list[dict[str, Any]]:
    """Attack cards on the Field Board that still occupy tiles (a negated Chain card does not)."""
    return [c for c in state["field"]["cards"] if not c["negated"]]


def occupancy(state: State) -> dict[tuple[int, int], tuple[dict[str, Any], str]]:
    """Occupied tile → (card, "attack" | "opportunity")."""
    occ: dict[tuple[int, int], tuple[dict[str, Any], str]] = {}
    for card in live_cards(state):
        occ[cell_key(card["attack_tile"])] = (card, "attack")
        occ[cell_key(card["opportunity_tile"])] = (card, "opportunity")
    return occ


def tile_state(state: State, cell: tuple[int, int]) -> str:
    """``off`` | ``grey`` | ``destroyed`` | ``open`` (ignores occupancy)."""
    if not on_board(state, cell):
        return "off"
    f = state["field"]
    if list(cell) in f["grey"]:
        return "grey"
    if list(cell) in f["destroyed"]:
        return "destroyed"
    return "open"


def refresh_grid(state: State) -> None:
    """Rebuild ``field.grid``: rows of ``{"tile", "card", "half", "seat"}`` for drawing the board."""
    f = state["field"]
    occ = occupancy(state)
    grid = []
    for r in range(f["rows"]):
        row = []
        for c in range(f["cols"]):
            held = occ.get((r, c))
            row.append(
                {
                    "tile": tile_state(state, (r, c)),
                    "centre": [r, c] in f["centre"],
                    "card": held[0]["uid"] if held else None,
                    "half": held[1] if held else None,
                    "seat": held[0]["seat"] if held else None,
                }
            )
        grid.append(row)
    f["grid"] = grid


def strategy_def(state: State, name: str | None) -> dict[str, Any] | None:
    """The catalog entry of a Strategy card, or None (unknown or face-down)."""
    return state["catalog"]["strategy"].get(name) if name is not None else None


def copies_left(state: State, kind: str, name: str, seat: int | None = None) -> int:
    """Copies of a catalog card not yet seen this game (public plays plus named cards on Player Boards) by
    ``seat``: another seat's face-down cards are hidden from it and never count against it (issue 41: a refusal
    must not tell a seat what the other holds face-down). None: every board counts (the whole table's count)."""
    card = state["catalog"][kind].get(name)
    if card is None:
        return 0
    used = state["seen"][kind].get(name, 0)
    if kind == "strategy":
        boards = state["boards"] if seat is None else [state["boards"][seat]]
        used += sum(1 for b in boards for c in b["instinct"] if c["name"] == name)
    return card["copies"] - used


def see(seen: dict[str, dict[str, int]], kind: str, name: str) -> None:
    seen[kind][name] = seen[kind].get(name, 0) + 1


def gambits(state: State) -> dict[str, Any]:
    """The GAMBIT effects in force (both Player Boards): ``will``, ``pain``, ``courage`` flags, ``skill`` sum."""
    out = {"will": False, "pain": False, "courage": False, "skill": 0, "names": []}
    for board in state["boards"]:
        for card in board["gambit"]:
            d = strategy_def(state, card["name"])
            if d is None:
                continue
            out["names"].append(card["name"])
            effect = d["effect"]
            if effect == "negate_chains_and_instincts":
                out["will"] = True
            elif effect == "no_negation":
                out["pain"] = True
            elif effect == "extra_turn_on_disengage":
                out["courage"] = True
            elif effect == "increase_instances":
                out["skill"] += d["amount"]
    return out


def automatic_cards(state: State, board: dict[str, list[Any]], effect: str) -> list[tuple[str, dict[str, Any]]]:
    """(slot, card) of named cards on ``board`` that trigger by themselves with ``effect``; EQUIPMENT first."""
    found = []
    for slot in ("equipment", "instinct"):
        for card in board[slot]:
            d = strategy_def(state, card["name"])
            if d and d["activation"] == "automatic" and d["effect"] == effect:
                found.append((slot, card))
    return found


def resolve_card(state: State, spec: Any) -> dict[str, Any] | None:
    """The attack card an ``attack_card_played`` payload names (catalog name or inline object), or None."""
    if isinstance(spec, str):
        d = state["catalog"]["attack"].get(spec)
        return dict(d) if d else None
    if isinstance(spec, dict):
        return {"bonus_damage": 0, "bonus_instances": 0, "copies": 0, "text": "", **spec}
    return None


def log(state: State, line: str) -> None:
    """Append a line to the game log (outside a reaction window, which rewrites its own lines)."""
    state["log"].append(line)


def cap_log(state: State) -> None:
    if len(state["log"]) > LOG_CAP:
        del state["log"][: len(state["log"]) - LOG_CAP]


def next_drawer(state: State) -> int | None:
    """Who draws next (Momentum first), or None when both have drawn."""
    drawn = state["draw"]["drawn"]
    m = state["momentum"]
    if not drawn[m]:
        return m
    if not drawn[other(m)]:
        return other(m)
    return None


def hand_total(state: State, seat: int) -> int:
    """Cards in ``seat``'s hand, both kinds."""
    h = state["hands"][seat]
    return h["attack"] + h["strategy"]


def draw_shares(state: State) -> list[int]:
    """How many cards each seat draws this Draw Phase, given what the decks still hold.

    "Starting with the player with Momentum, take turns drawing a card until both players are holding 7
    cards": one card at a time, alternately, Momentum first; a seat whose hand is full stops and the other
    goes on. With enough cards each seat simply fills its hand; when the decks run short the cards are
    shared out in that order. A seat that has already drawn gets 0.
    """
    drawn = state["draw"]["drawn"]
    size = state["settings"]["hand_size"]
    need = [0 if drawn[s] else max(0, size - hand_total(state, s)) for s in SEATS]
    left = state["decks"]["attack"] + state["decks"]["strategy"]
    got = [0, 0]
    order = (state["momentum"], other(state["momentum"]))
    while left > 0 and any(got[s] < need[s] for s in SEATS):
        for s in order:
            if got[s] < need[s] and left > 0:
                got[s] += 1
                left -= 1
    return got


def preparing_seat(state: State) -> int | None:
    """Who places Strategy cards now (Momentum first), or None when both are done."""
    fin = state["preparation"]["finished"]
    m = state["momentum"]
    if not fin[m]:
        return m
    if not fin[other(m)]:
        return other(m)
    return None


def may_chain(state: State, seat: int, last_card: dict[str, Any]) -> bool:
    """Whether ``seat`` could still follow ``last_card`` with a Chain card this turn."""
    return seat == state["momentum"] and last_card["bonus"] != "stops_chain" and state["hands"][seat]["attack"] > 0


def field_card(state: State, uid: int) -> dict[str, Any]:
    """The Attack card ``uid`` on the Field Board (KeyError if absent)."""
    for card in state["field"]["cards"]:
        if card["uid"] == uid:
            return card
    raise KeyError(uid)


def turn_open_for_chain(state: State) -> bool:
    """The turn seat has played a card this turn and may still chain (so its opponent may start a turn)."""
    c = state["combat"]
    if not c["turn_cards"]:
        return False
    return may_chain(state, c["turn"], field_card(state, c["turn_cards"][-1]))


def find_instinct_slot(state: State, seat: int, name: str) -> dict[str, Any] | None:
    """The INSTINCT slot card a ``strategy_card_played`` naming ``name`` comes from: named first, else hidden."""
    slots = state["boards"][seat]["instinct"]
    for card in slots:
        if card["name"] == name:
            return card
    for card in slots:
        if card["name"] is None:
            return card
    return None


def latest_reaction_of(state: State, seat: int) -> int | None:
    """Index of ``seat``'s most recent INSTINCT played in the open window, or None."""
    reactions = state["combat"]["window"]["reactions"]
    for i in range(len(reactions) - 1, -1, -1):
        if reactions[i]["seat"] == seat:
            return i
    return None


def v1_target(state: State, seat: int, target: Any) -> Any:
    """A version-1 target (``{"instance": i}``, ``"chain"``, ``"instinct"``: before commit daad728, version 3)
    named by card number as version 3 names it, so the same checks judge it: the open strike's card, or the
    opponent's latest INSTINCT in the window. Any other target is returned as it is."""
    w = state["combat"]["window"]
    strike = w["strike"] if w else None
    if isinstance(target, dict) and set(target) == {"instance"} and strike is not None:
        return {"card": strike["card"], "instance": target["instance"]}
    if target == "chain" and strike is not None:
        return {"card": strike["card"]}
    latest = latest_reaction_of(state, other(seat)) if w and target == "instinct" else None
    return {"card": w["reactions"][latest]["uid"]} if latest is not None else target


def card_negation_target(state: State, seat: int, target: Any) -> dict[str, Any] | None:
    """What a Condescend of ``seat`` aimed at ``target`` negates in the open window, or None.

    ``{"card": uid}`` names the opponent's Chain card (the open strike), an INSTINCT it played in the window,
    or an automatic INSTINCT of its that triggered in the window. Entries recorded before version 2 name
    ``"chain"`` or ``"instinct"`` (the latest one); they are read the same way.
    """
    w = state["combat"]["window"]
    strike = w["strike"]
    opponent = other(seat)
    if target == "chain":
        return {"kind": "chain", "uid": strike["card"]} if strike else None
    if target == "instinct":
        idx = latest_reaction_of(state, opponent)
        return None if idx is None else {"kind": "reaction", "index": idx, "uid": w["reactions"][idx]["uid"]}
    if not isinstance(target, dict) or not isinstance(target.get("card"), int):
        return None
    uid = target["card"]
    if strike is not None and strike["card"] == uid and strike["attacker"] == opponent:
        return {"kind": "chain", "uid": uid}
    for i, r in enumerate(w["reactions"]):
        if r["uid"] == uid and r["seat"] == opponent:
            return {"kind": "reaction", "index": i, "uid": uid}
    for t in w.get("triggered", []):
        if t["uid"] == uid and t["seat"] == opponent:
            return {"kind": "auto", "uid": uid}
    return None


def current_instances(state: State) -> list[dict[str, Any]]:
    """The damage instances of the open strike as last resolved (empty without one)."""
    w = state["combat"]["window"]
    if w is None or w["strike"] is None:
        return []
    return field_card(state, w["strike"]["card"])["instances"]


def additional_turn_done(state: State) -> bool:
    """Test of Courage: the opponent of the disengaging seat has had its additional turn (or passed it)."""
    c = state["combat"]
    pending = c["pending_disengage"]
    return pending is not None and (c["turn"] == pending or bool(c["turn_cards"]))


def final_blow(cards: list[dict[str, Any]], winner: int, loser_health: int) -> dict[str, Any] | None:
    """The winner's Attack card among ``cards`` (a combat's, in the order played) whose damage brought the
    loser from ``loser_health`` (at the start of that combat) to 0; None if their damage never got there."""
    dealt = 0
    for card in cards:
        if card["seat"] != winner or card["damage"] <= 0:
            continue
        dealt += card["damage"]
        if dealt >= loser_health:
            return card
    return None


def result_line(result: dict[str, Any], health: list[int]) -> str:
    """The end of the game in one sentence naming the winner: "Seat 0 wins with 5 Health left (Seat 1 is at
    0 Health at the end of combat)."; a draw says so with its reason."""
    if result["draw"] or not result["winners"]:
        return f"The game is a draw. {result['reason']}"
    winner = result["winners"][0]
    return f"{seat_ref(winner)} wins with {health[winner]} Health left ({result['reason'].rstrip('.')})."
