"""Get Salty's reducer: the state, its derived keys (lines, scores, winner), one effect per entry type, and the
end of a turn (the next seat, or a skipped turn when it has no move)."""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, State
from rulesets.cells import xy_words
from rulesets.get_salty.board import (
    COLORS,
    CONTAINER,
    CRACKER_ATTRS,
    CRACKERS,
    SHAPES,
    Cell,
    Placement,
    winning_combinations,
)
from rulesets.get_salty.fields import (
    ATTRIBUTE_CHOSEN,
    CONTAINER_FLIPPED,
    CONTAINER_MOVED,
    CRACKER_FLIPPED,
    CRACKER_MOVED,
)
from rulesets.versions import recorded_before


def seat_ok(seat: Any) -> bool:
    """Whether ``seat`` is one of the two seats (0 or 1)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and seat in (0, 1)


def read_cell(value: Any) -> Cell | None:
    """``value`` as an ``(x, y)`` cell when it is two whole numbers, else None."""
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def occupied(state: State) -> dict[Cell, str]:
    """The tokens in play by cell."""
    occ: dict[Cell, str] = {}
    for name, tok in state["tokens"].items():
        cell = tok["cell"]
        if cell is not None:
            occ[(cell[0], cell[1])] = name
    return occ


def locked(state: State) -> bool:
    """The Salt Container was flipped (A) or moved & flipped (B) during the previous turn."""
    ct = state["container_turn"]
    return ct is not None and ct == state["turns_played"]


def token_label(state: State, name: str) -> str:
    """A token in the match's words: "Salt Container", "red circle" (display names applied)."""
    if name == CONTAINER:
        return "Salt Container"
    shape, color = CRACKER_ATTRS[name]
    labels = state.get("labels") or {}
    return f"{labels.get('color', {}).get(color, color)} {labels.get('shape', {}).get(shape, shape)}"


def _wildcard(tokens: dict[str, Any]) -> bool:
    return all(tokens[n]["cell"] is not None for n in CRACKERS)


def tally(occupied: dict[Cell, str], wildcard: bool, attributes: dict[str, str]) -> tuple[list[dict], dict[str, int]]:
    """The winning combinations on the table, each with its seat, and how many each seat has."""
    combos = winning_combinations(occupied, wildcard)
    by_attr = {a: s for s, a in attributes.items()}
    scores = {"0": 0, "1": 0}
    for combo in combos:
        seat = by_attr[combo["attribute"]]
        combo["seat"] = int(seat)
        scores[seat] += 1
    return combos, scores


def winner_of(scores: dict[str, int]) -> int | None:
    """The seat with more winning combinations; None when nobody has a line, or on a tie (play continues)."""
    a, b = scores["0"], scores["1"]
    if a == b:
        return None
    return 0 if a > b else 1


def labels_of(options: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The display names of the shapes and colors (a value's own name where none is given)."""
    out: dict[str, dict[str, str]] = {}
    for attr, key, values in (("shape", "shape_names", SHAPES), ("color", "color_names", COLORS)):
        given = options.get(key) or {}
        out[attr] = {v: (given.get(v) or "").strip() or v for v in values}
    return out


def new_state(options: dict[str, Any], first: int) -> State:
    """Container on [0, 0] salty side up, every cracker in the reserve unsalted, no attribute chosen."""
    tokens: dict[str, Any] = {CONTAINER: {"cell": [0, 0], "salty": True}}
    for n in CRACKERS:
        tokens[n] = {"cell": None, "salty": False}
    return {
        "tokens": tokens,
        "attributes": None,
        "first_seat": first,
        "turn": first,
        "turns_played": 0,
        "container_turn": None,
        "container_locked": False,
        "reserve": list(CRACKERS),
        "container_wild": False,
        "combinations": [],
        "scores": {"0": 0, "1": 0},
        "winner": None,
        "skipped": [],
        "labels": labels_of(options),
    }


def derive(state: State) -> State:
    """Recompute the derived keys of ``state`` in place (reserve, container_wild, combinations, scores,
    winner, container_locked) from the tokens, attributes and turn counters; returns ``state``."""
    tokens = state["tokens"]
    wild = _wildcard(tokens)
    state["reserve"] = [n for n in CRACKERS if tokens[n]["cell"] is None]
    state["container_wild"] = wild
    if state["attributes"] is None:
        state["combinations"], state["scores"], state["winner"] = [], {"0": 0, "1": 0}, None
    else:
        combos, scores = tally(occupied(state), wild, state["attributes"])
        state["combinations"], state["scores"], state["winner"] = combos, scores, winner_of(scores)
    state["container_locked"] = locked(state)
    return state


def has_move(state: State, occ: dict[Cell, str]) -> bool:
    """Whether the seat on turn has any legal move (cheap: stops at the first one found)."""
    if not locked(state):
        return True  # A is always available
    tokens = state["tokens"]
    salty = tokens[CONTAINER]["salty"]
    from_reserve = False
    for name in CRACKERS:
        tok = tokens[name]
        if tok["salty"] == salty:
            continue
        if tok["cell"] is not None:
            return True  # C: flip it
        from_reserve = True
    return from_reserve and Placement(occ, None).any_cell()


def end_turn(state: State, mover: int) -> State:
    """Finish ``mover``'s turn on ``state`` (edited in place): derive victory, pass the turn.

    If the game goes on and the next seat has no legal move, its turn is skipped (recorded in
    ``skipped``); the skipped turn counts as a turn, so the Salt Container is unlocked for ``mover``.
    """
    derive(state)
    state["turn"] = mover if state["winner"] is not None else 1 - mover
    if state["winner"] is None and state["attributes"] is not None and not has_move(state, occupied(state)):
        state["skipped"] = [*state["skipped"], {"turn": state["turns_played"] + 1, "seat": state["turn"]}]
        state["turns_played"] += 1
        state["turn"] = mover
        state["container_locked"] = locked(state)
    return state


def clone(state: State) -> State:
    """A copy of ``state`` the effects may edit: the tokens, attributes and skipped turns are copied."""
    new = dict(state)
    new["tokens"] = {n: dict(t) for n, t in state["tokens"].items()}
    new["attributes"] = None if state["attributes"] is None else dict(state["attributes"])
    new["skipped"] = [dict(s) for s in state["skipped"]]
    return new


# -- the effects: each edits the clone in place; the ruleset's settle then ends the turn ---------------------
def choose_attribute(new: State, event: Event) -> None:
    """The chooser takes the attribute, the other seat the other one; the chooser then plays first."""
    seat = event.seat if seat_ok(event.seat) else new["turn"]
    chosen = event.data["attribute"]
    other = "color" if chosen == "shape" else "shape"
    new["attributes"] = {str(seat): chosen, str(1 - seat): other}
    new["turn"] = seat


def _refuse_stacking(new: State, event: Event, moving: str) -> None:
    """Two tokens never share a cell (only an override gets here): refused as unplayable, never stacked;
    a match recorded under version 1 stacked them."""
    to = event.data.get("to")
    stacked = to is not None and any(t["cell"] == list(to) and n != moving for n, t in new["tokens"].items())
    if stacked and not recorded_before(new, 2):
        raise ValueError(f"the cell at {xy_words(to)} already holds a token")


def _turn_played(new: State) -> None:
    new["turns_played"] = new["turns_played"] + 1


def flip_container(new: State, event: Event) -> None:
    """A: the Salt Container shows its other side; it is locked for the next turn."""
    box = new["tokens"][CONTAINER]
    box["salty"] = not box["salty"]
    new["container_turn"] = new["turns_played"] + 1
    _turn_played(new)


def move_container(new: State, event: Event) -> None:
    """B: the Salt Container goes to its new cell and is flipped; it is locked for the next turn."""
    _refuse_stacking(new, event, CONTAINER)
    box = new["tokens"][CONTAINER]
    box["cell"] = list(event.data["to"])
    box["salty"] = not box["salty"]
    new["container_turn"] = new["turns_played"] + 1
    _turn_played(new)


def flip_cracker(new: State, event: Event) -> None:
    """C: the cracker shows its other side."""
    tok = new["tokens"][event.data["cracker"]]
    tok["salty"] = not tok["salty"]
    _turn_played(new)


def move_cracker(new: State, event: Event) -> None:
    """D: the cracker goes to its new cell (from the reserve or from play) and is flipped."""
    _refuse_stacking(new, event, event.data.get("cracker"))
    tok = new["tokens"][event.data["cracker"]]
    tok["cell"] = list(event.data["to"])
    tok["salty"] = not tok["salty"]
    _turn_played(new)


EFFECTS = {
    ATTRIBUTE_CHOSEN: choose_attribute,
    CONTAINER_FLIPPED: flip_container,
    CONTAINER_MOVED: move_container,
    CRACKER_FLIPPED: flip_cracker,
    CRACKER_MOVED: move_cracker,
}
