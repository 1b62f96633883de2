"""Get Salty's rules: one check per entry type (the common checks come first, in ``rulesets.base``), the checks
the ruleset's hooks make (payload keys, phase, turn), the legal moves and the table's hints."""

from __future__ import annotations

from typing import Any

from rulesets.base import ENTRIES_RULE, Event, RuleViolation, State
from rulesets.cells import xy_words
from rulesets.get_salty.board import ATTRIBUTES, CONTAINER, CRACKER_ATTRS, CRACKERS, MAX_SPAN, Cell, Placement
from rulesets.get_salty.engine import locked, occupied, read_cell, seat_ok, tally, token_label, winner_of
from rulesets.get_salty.fields import (
    ATTRIBUTE_CHOSEN,
    CONTAINER_FLIPPED,
    CONTAINER_MOVED,
    CRACKER_FLIPPED,
    CRACKER_MOVED,
    PAYLOAD_KEYS,
    RULE_AREA,
    RULE_B,
    RULE_C,
    RULE_D,
    RULE_GAMEPLAY,
    RULE_LOCK,
    RULE_SETUP,
)
from rulesets.names import seat_ref


# -- the checks the hooks make, in the base's order ---------------------------------------------------------
def check_keys(event: Event) -> None:
    """The entry's data holds exactly its keys (``invalid_payload``); checked with its type and seat."""
    data = event.data
    if not isinstance(data, dict) or set(data) != PAYLOAD_KEYS[event.type]:
        keys = ", ".join(sorted(PAYLOAD_KEYS[event.type])) or "nothing"
        raise RuleViolation("invalid_payload", f"This action takes exactly: {keys}.", ENTRIES_RULE)


def check_phase(state: State, event: Event) -> None:
    """The victory attribute is chosen first, and once."""
    if state["attributes"] is None:
        if event.type != ATTRIBUTE_CHOSEN:
            raise RuleViolation(
                "attribute_not_chosen",
                "The starting player must first choose the victory attribute (shape or color).",
                RULE_SETUP,
            )
    elif event.type == ATTRIBUTE_CHOSEN:
        raise RuleViolation("attribute_already_chosen", "The victory attributes have already been chosen.", RULE_SETUP)


def check_turn(state: State, event: Event) -> None:
    """Only the seat on turn acts (the starting seat chooses the attribute: Setup; a move: Gameplay)."""
    if event.seat != state["turn"]:
        rule = RULE_SETUP if event.type == ATTRIBUTE_CHOSEN else RULE_GAMEPLAY
        raise RuleViolation("not_your_turn", f"It is {seat_ref(state['turn'])}'s turn.", rule)


# -- one check per entry type ----------------------------------------------------------------------------
def check_attribute(state: State, event: Event) -> None:
    """Shape or color."""
    if event.data["attribute"] not in ATTRIBUTES:
        raise RuleViolation("unknown_attribute", "The victory attribute is either shape or color.", RULE_SETUP)


def check_container_flip(state: State, event: Event) -> None:
    """A: not when the container was used on the previous turn."""
    _check_lock(state)


def check_container_move(state: State, event: Event) -> None:
    """B: not when locked; next to a cracker in play, on a free cell that keeps the play area whole."""
    _check_lock(state)
    to = _cell(event.data["to"])
    occ = occupied(state)
    if not any(n != CONTAINER for n in occ.values()):
        raise RuleViolation(
            "no_cracker_in_play",
            "The Salt Container can only be moved next to a cracker in play, and none is in play yet.",
            RULE_B,
        )
    cell = state["tokens"][CONTAINER]["cell"]
    _check_place(state, occ, "the Salt Container", None if cell is None else tuple(cell), to, RULE_B)


def check_cracker_flip(state: State, event: Event) -> None:
    """C: a cracker in play showing the opposite salt condition to the container."""
    name = _cracker(event.data["cracker"], RULE_C)
    tok = state["tokens"][name]
    if tok["cell"] is None:
        raise RuleViolation(
            "cracker_in_reserve",
            f"The {token_label(state, name)} is in the reserve; only crackers in play can be flipped in place.",
            RULE_C,
        )
    _check_condition(state, name, RULE_C)


def check_cracker_move(state: State, event: Event) -> None:
    """D: a cracker of the opposite salt condition, onto a free cell next to a token that keeps the area whole."""
    name = _cracker(event.data["cracker"], RULE_D)
    to = _cell(event.data["to"])
    _check_condition(state, name, RULE_D)
    cell = state["tokens"][name]["cell"]
    from_cell = None if cell is None else (cell[0], cell[1])
    _check_place(state, occupied(state), f"the {token_label(state, name)}", from_cell, to, RULE_D)


RULES = {
    ATTRIBUTE_CHOSEN: check_attribute,
    CONTAINER_FLIPPED: check_container_flip,
    CONTAINER_MOVED: check_container_move,
    CRACKER_FLIPPED: check_cracker_flip,
    CRACKER_MOVED: check_cracker_move,
}


# -- check helpers ------------------------------------------------------------------------------------------
def _check_lock(state: State) -> None:
    if locked(state):
        raise RuleViolation(
            "container_locked",
            "The Salt Container was flipped or moved on the previous turn; it cannot be flipped or moved now.",
            RULE_LOCK,
        )


def _cell(value: Any) -> Cell:
    cell = read_cell(value)
    if cell is None:
        raise RuleViolation("invalid_cell", "A cell is a list of two whole numbers, e.g. [0, 1].", ENTRIES_RULE)
    return cell


def _cracker(value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in CRACKER_ATTRS:
        raise RuleViolation(
            "unknown_cracker",
            f"There is no cracker called {value!r}; crackers are named shape-color, e.g. circle-red.",
            rule,
        )
    return value


def _check_condition(state: State, name: str, rule: str) -> None:
    tokens = state["tokens"]
    salty = tokens[CONTAINER]["salty"]
    if tokens[name]["salty"] == salty:
        want = "unsalted" if salty else "salty"
        box = "filled (salty)" if salty else "empty (unsalted)"
        raise RuleViolation(
            "wrong_salt_condition",
            f"The Salt Container is {box}, so only {want} crackers may be flipped or moved; "
            f"the {token_label(state, name)} is {'salty' if tokens[name]['salty'] else 'unsalted'}.",
            rule,
        )


def _check_place(state: State, occ: dict[Cell, str], what: str, from_cell: Cell | None, to: Cell, rule: str) -> None:
    problem = Placement(occ, from_cell).problem(to)
    if problem is None:
        return
    where = xy_words(to)
    if problem == "invalid_cell":
        msg = f"The cell at {where} is off the table (coordinates go from -1000 to 1000)."
    elif problem == "same_cell":
        msg = f"{what.capitalize()} is already on {where}: a move must put it on another cell."
    elif problem == "cell_occupied":
        other = token_label(state, occ[to])
        msg = f"The cell at {where} already holds the {other}; tokens may never be placed on top of other tokens."
    elif problem == "not_adjacent":
        if rule == RULE_B:
            msg = f"The Salt Container must be placed orthogonally next to a cracker in play; {where} is not."
        else:
            msg = (
                f"A cracker must be placed orthogonally next to another cracker or the Salt Container; {where} is not."
            )
    elif problem == "play_area_too_large":
        cells = [c for c in occ if c != from_cell] + [to]
        wide = max(c[0] for c in cells) - min(c[0] for c in cells) >= MAX_SPAN
        tall = max(c[1] for c in cells) - min(c[1] for c in cells) >= MAX_SPAN
        size = " and ".join(w for w, over in (("wide", wide), ("tall", tall)) if over)
        msg = f"Putting {what} on {where} would make the play area more than {MAX_SPAN} tokens {size}."
        rule = RULE_AREA
    else:  # not_contiguous
        msg, rule = f"After putting {what} on {where} the tokens would not form one connected group.", RULE_AREA
    raise RuleViolation(problem, msg, rule)


# -- listing moves ------------------------------------------------------------------------------------------
def legal_moves(state: State) -> list[Event]:
    """Every event ``validate`` accepts now, in a fixed order (A, B by cell, C, D by cracker then cell)."""
    if state["winner"] is not None:
        return []
    seat = state["turn"]
    if state["attributes"] is None:
        return [Event(ATTRIBUTE_CHOSEN, seat, {"attribute": a}) for a in ATTRIBUTES]
    tokens = state["tokens"]
    occ = occupied(state)
    moves: list[Event] = []
    if not locked(state):
        moves.append(Event(CONTAINER_FLIPPED, seat, {}))
        if any(n != CONTAINER for n in occ.values()):
            cell = tokens[CONTAINER]["cell"]
            place = Placement(occ, None if cell is None else (cell[0], cell[1]))
            moves.extend(Event(CONTAINER_MOVED, seat, {"to": [x, y]}) for x, y in place.cells())
    salty = tokens[CONTAINER]["salty"]
    eligible = [n for n in CRACKERS if tokens[n]["salty"] != salty]
    moves.extend(Event(CRACKER_FLIPPED, seat, {"cracker": n}) for n in eligible if tokens[n]["cell"] is not None)
    reserve_cells: list[Cell] | None = None
    for n in eligible:
        cell = tokens[n]["cell"]
        if cell is None:
            if reserve_cells is None:
                reserve_cells = Placement(occ, None).cells()
            cells = reserve_cells
        else:
            cells = Placement(occ, (cell[0], cell[1])).cells()
        moves.extend(Event(CRACKER_MOVED, seat, {"cracker": n, "to": [x, y]}) for x, y in cells)
    return moves


def winner_after(state: State, event: Event) -> int | None:
    """Who has won once the legal ``event`` is played (None: the game goes on)."""
    if event.type == ATTRIBUTE_CHOSEN or state["attributes"] is None:
        return None
    occ = occupied(state)
    data = event.data
    wild = state["container_wild"]
    if event.type == CONTAINER_MOVED:
        occ = {c: n for c, n in occ.items() if n != CONTAINER}
        occ[(data["to"][0], data["to"][1])] = CONTAINER
    elif event.type == CRACKER_MOVED:
        name = data["cracker"]
        if state["tokens"][name]["cell"] is None:
            wild = sum(1 for n in occ.values() if n != CONTAINER) == len(CRACKERS) - 1
        else:
            occ = {c: n for c, n in occ.items() if n != name}
        occ[(data["to"][0], data["to"][1])] = name
    else:
        return state["winner"]  # a flip changes no line
    _, scores = tally(occ, wild, state["attributes"])
    return winner_of(scores)


def hints(state: State, seat: int) -> dict[str, list[Event]]:
    """Table talk for ``seat``: ``winning_moves`` and ``opponent_threats`` (lists of legal Events).

    ``winning_moves``: when ``seat`` is on turn, its legal moves after which it has won.
    ``opponent_threats``: the opponent's moves that would make the opponent win on its next turn.
    If the opponent is on turn these are its real winning moves; if ``seat`` is on turn, they are
    computed on the position as it stands with the opponent to move and the Salt Container unlocked
    (as if ``seat`` passed). Both lists are empty before the attributes are chosen and once the
    game is over.
    """
    empty: dict[str, list[Event]] = {"winning_moves": [], "opponent_threats": []}
    if state["winner"] is not None or state["attributes"] is None or not seat_ok(seat):
        return empty
    opponent = 1 - seat
    if state["turn"] == seat:
        wins = [e for e in legal_moves(state) if winner_after(state, e) == seat]
        passed = dict(state)
        passed["turn"] = opponent
        passed["turns_played"] = state["turns_played"] + 1
        passed["container_locked"] = False
        threats_from = passed
    else:
        wins = []
        threats_from = state
    threats = [e for e in legal_moves(threats_from) if winner_after(threats_from, e) == opponent]
    return {"winning_moves": wins, "opponent_threats": threats}
