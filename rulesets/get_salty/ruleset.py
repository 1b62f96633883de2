"""The Get Salty ruleset: event types, validation, the reducer, outcome, legal moves and hints."""

from __future__ import annotations

from typing import Any

from rulesets.base import (
    ENTRIES_RULE,
    Event,
    EventType,
    Outcome,
    Ruleset,
    RuleViolation,
    State,
    TurnInfo,
    unknown_event,
    unknown_seat,
)
from rulesets.cells import xy_words
from rulesets.get_salty.board import (
    ATTRIBUTE_WORDS,
    ATTRIBUTES,
    COLORS,
    CONTAINER,
    CRACKER_ATTRS,
    CRACKER_WORDS,
    CRACKERS,
    MAX_SPAN,
    SHAPES,
    Cell,
    Placement,
    winning_combinations,
)
from rulesets.names import plural, seat_ref
from rulesets.schema import Field, start_field
from rulesets.versions import recorded_before

RULE_SETUP = "Get Salty › Setup"
RULE_GAMEPLAY = "Get Salty › Gameplay"
RULE_A = "Get Salty › Player Turn › A"
RULE_B = "Get Salty › Player Turn › B"
RULE_LOCK = "Get Salty › Player Turn › A and B"
RULE_C = "Get Salty › Player Turn › C"
RULE_D = "Get Salty › Player Turn › D"
RULE_AREA = "Get Salty › Key Concepts › Contiguous Play Area"
RULE_VICTORY = "Get Salty › Victory"

ATTRIBUTE_CHOSEN = "victory_attribute_chosen"
CONTAINER_FLIPPED = "salt_container_flipped"
CONTAINER_MOVED = "salt_container_moved"
CRACKER_FLIPPED = "cracker_flipped"
CRACKER_MOVED = "cracker_moved"

_PAYLOAD_KEYS: dict[str, frozenset[str]] = {
    ATTRIBUTE_CHOSEN: frozenset({"attribute"}),
    CONTAINER_FLIPPED: frozenset(),
    CONTAINER_MOVED: frozenset({"to"}),
    CRACKER_FLIPPED: frozenset({"cracker"}),
    CRACKER_MOVED: frozenset({"cracker", "to"}),
}

_NUMBER_WORDS = {3: "three", 4: "four"}
# a neighbour at (dx, dy) of a cell, and where the cell is from it (rows grow downwards, as drawn)
_SIDES = (((0, 1), "above"), ((0, -1), "below"), ((-1, 0), "right of"), ((1, 0), "left of"))
_GERUNDS = {"flip": "flipping", "move": "moving", "place": "placing"}


def _moving(event: Event) -> str | None:
    """The token a move puts somewhere else (so its old cell is not a neighbour of the new one)."""
    if event.type == CONTAINER_MOVED:
        return CONTAINER
    name = event.data.get("cracker") if isinstance(event.data, dict) else None
    return name if event.type == CRACKER_MOVED and isinstance(name, str) else None


def _names_field(name: str, keys: tuple[str, ...], label: str) -> Field:
    return Field(
        name,
        "object",
        required=False,
        nullable=True,
        label=label,
        help="Optional display labels; they never change the rules.",
        fields=tuple(Field(k, "str", required=False, max_length=40, label=k) for k in keys),
    )


def _seat_ok(seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and seat in (0, 1)


def _read_cell(value: Any) -> Cell | None:
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    return None


def _occupied(state: State) -> dict[Cell, str]:
    occ: dict[Cell, str] = {}
    for name, tok in state["tokens"].items():
        cell = tok["cell"]
        if cell is not None:
            occ[(cell[0], cell[1])] = name
    return occ


def _locked(state: State) -> bool:
    """The Salt Container was flipped (A) or moved & flipped (B) during the previous turn."""
    ct = state["container_turn"]
    return ct is not None and ct == state["turns_played"]


def _wildcard(tokens: dict[str, Any]) -> bool:
    return all(tokens[n]["cell"] is not None for n in CRACKERS)


def _tally(occupied: dict[Cell, str], wildcard: bool, attributes: dict[str, str]) -> tuple[list[dict], dict[str, int]]:
    combos = winning_combinations(occupied, wildcard)
    by_attr = {a: s for s, a in attributes.items()}
    scores = {"0": 0, "1": 0}
    for combo in combos:
        seat = by_attr[combo["attribute"]]
        combo["seat"] = int(seat)
        scores[seat] += 1
    return combos, scores


def _winner(scores: dict[str, int]) -> int | None:
    a, b = scores["0"], scores["1"]
    if a == b:
        return None  # nobody has a line, or a tie: play continues
    return 0 if a > b else 1


def _labels(options: dict[str, Any]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for attr, key, values in (("shape", "shape_names", SHAPES), ("color", "color_names", COLORS)):
        given = options.get(key) or {}
        out[attr] = {v: (given.get(v) or "").strip() or v for v in values}
    return out


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
        combos, scores = _tally(_occupied(state), wild, state["attributes"])
        state["combinations"], state["scores"], state["winner"] = combos, scores, _winner(scores)
    state["container_locked"] = _locked(state)
    return state


def settle(state: State, mover: int) -> State:
    """Finish ``mover``'s turn on ``state`` (edited in place): derive victory, pass the turn.

    If the game goes on and the next seat has no legal move, its turn is skipped (recorded in
    ``skipped``); the skipped turn counts as a turn, so the Salt Container is unlocked for ``mover``.
    """
    derive(state)
    state["turn"] = mover if state["winner"] is not None else 1 - mover
    if state["winner"] is None and state["attributes"] is not None and not _has_move(state, _occupied(state)):
        state["skipped"] = [*state["skipped"], {"turn": state["turns_played"] + 1, "seat": state["turn"]}]
        state["turns_played"] += 1
        state["turn"] = mover
        state["container_locked"] = _locked(state)
    return state


def _has_move(state: State, occ: dict[Cell, str]) -> bool:
    """Whether the seat on turn has any legal move (cheap: stops at the first one found)."""
    if not _locked(state):
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


def _clone(state: State) -> State:
    new = dict(state)
    new["tokens"] = {n: dict(t) for n, t in state["tokens"].items()}
    new["attributes"] = None if state["attributes"] is None else dict(state["attributes"])
    new["skipped"] = [dict(s) for s in state["skipped"]]
    return new


class GetSalty(Ruleset):
    slug = "get-salty"
    name = "Get Salty"
    seats = (2,)
    version = 2  # 2: an overridden move onto an occupied cell is unplayable (issue 22)
    # kept by version for matches recorded under it (docs/rules/get-salty.md › Rule versions)
    rule_changes = {2: "a token moved under a house rule onto another token's cell would be refused"}
    rulebook = "get-salty.txt"
    describe_uses_state = True  # history sentences place a move next to a token ("above the red circle")
    start_option = "first_seat"
    start_rule = "Get Salty › Setup: “Randomly select a starting player.”"
    options_schema = (
        start_field(
            "first_seat",
            2,
            label="Who starts",
            help="Player 1 or 2, or random: Chronicle draws the starting player and records the draw.",
        ),
        _names_field("shape_names", SHAPES, "Display names for the shapes"),
        _names_field("color_names", COLORS, "Display names for the colors"),
    )
    event_types = {
        ATTRIBUTE_CHOSEN: EventType(
            name=ATTRIBUTE_CHOSEN,
            label="Chose a victory attribute",
            fields=(
                Field(
                    "attribute",
                    "choice",
                    choices=ATTRIBUTES,
                    choice_labels=ATTRIBUTE_WORDS,
                    label="Victory attribute",
                    rule=RULE_SETUP,
                    rule_text="the victory attribute is “either shape or color”",
                ),
            ),
            description="The starting player picks shape or color; the opponent takes the other.",
        ),
        CONTAINER_FLIPPED: EventType(
            name=CONTAINER_FLIPPED,
            label="Flipped the Salt Container (A)",
            description="Action A: flip the Salt Container in place.",
        ),
        CONTAINER_MOVED: EventType(
            name=CONTAINER_MOVED,
            label="Moved & flipped the Salt Container (B)",
            fields=(
                Field(
                    "to",
                    "cell",
                    label="To cell",
                    help="The numbers along the board's top and left edges; or tap the cell on the board.",
                ),
            ),
            description="Action B: put the Salt Container next to a cracker in play, then flip it.",
        ),
        CRACKER_FLIPPED: EventType(
            name=CRACKER_FLIPPED,
            label="Flipped a cracker (C)",
            fields=(Field("cracker", "choice", choices=CRACKERS, choice_labels=CRACKER_WORDS, label="Cracker"),),
            description="Action C: flip a cracker in play showing the opposite salt condition to the container.",
        ),
        CRACKER_MOVED: EventType(
            name=CRACKER_MOVED,
            label="Moved & flipped a cracker (D)",
            fields=(
                Field("cracker", "choice", choices=CRACKERS, choice_labels=CRACKER_WORDS, label="Cracker"),
                Field(
                    "to",
                    "cell",
                    label="To cell",
                    help="The numbers along the board's top and left edges; or tap the cell on the board.",
                ),
            ),
            description="Action D: place a cracker (from the reserve or from play) next to a token, then flip it.",
        ),
    }

    # -- setup -------------------------------------------------------------------------------------
    def check_options(self, options: dict[str, Any]) -> list[str]:
        """Display labels must stay distinguishable."""
        problems = []
        labels = _labels(options)
        for attr in ATTRIBUTES:
            shown = [v.casefold() for v in labels[attr].values()]
            if len(set(shown)) != len(shown):
                problems.append(f"Two {attr}s would be shown with the same name.")
        return problems

    def initial_state(self, options: dict[str, Any], seat_count: int = 2) -> State:
        """Container on [0, 0] salty side up, every cracker in the reserve unsalted, no attribute chosen."""
        first = self.start_seat(options)
        tokens: dict[str, Any] = {CONTAINER: {"cell": [0, 0], "salty": True}}
        for n in CRACKERS:
            tokens[n] = {"cell": None, "salty": False}
        state: State = {
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
            "labels": _labels(options),
        }
        return state

    def start_with(self, state: State, seat: int) -> State:
        """The starting player is ``seat``: they choose the victory attribute first."""
        if not _seat_ok(seat):
            raise unknown_seat(seat, 2)
        return {**state, "first_seat": seat, "turn": seat}

    # -- the rules ---------------------------------------------------------------------------------
    def validate(self, state: State, event: Event) -> None:
        """Raise RuleViolation unless ``event`` is legal now (game over → phase → turn → the move)."""
        if state["winner"] is not None:
            raise RuleViolation(
                "game_over", f"The game is over: {seat_ref(state['winner'])} has won. No more moves.", RULE_VICTORY
            )
        if event.type not in self.event_types:
            raise unknown_event(self.name, event.type)
        if not _seat_ok(event.seat):
            raise unknown_seat(event.seat, 2)
        data = event.data
        if not isinstance(data, dict) or set(data) != _PAYLOAD_KEYS[event.type]:
            keys = ", ".join(sorted(_PAYLOAD_KEYS[event.type])) or "nothing"
            raise RuleViolation("invalid_payload", f"This action takes exactly: {keys}.", ENTRIES_RULE)
        if state["attributes"] is None:
            if event.type != ATTRIBUTE_CHOSEN:
                raise RuleViolation(
                    "attribute_not_chosen",
                    "The starting player must first choose the victory attribute (shape or color).",
                    RULE_SETUP,
                )
        elif event.type == ATTRIBUTE_CHOSEN:
            raise RuleViolation(
                "attribute_already_chosen", "The victory attributes have already been chosen.", RULE_SETUP
            )
        if event.seat != state["turn"]:
            rule = RULE_SETUP if event.type == ATTRIBUTE_CHOSEN else RULE_GAMEPLAY
            raise RuleViolation("not_your_turn", f"It is {seat_ref(state['turn'])}'s turn.", rule)
        getattr(self, "_check_" + event.type)(state, data)

    def _check_victory_attribute_chosen(self, state: State, data: dict[str, Any]) -> None:
        if data["attribute"] not in ATTRIBUTES:
            raise RuleViolation("unknown_attribute", "The victory attribute is either shape or color.", RULE_SETUP)

    @staticmethod
    def _check_lock(state: State) -> None:
        if _locked(state):
            raise RuleViolation(
                "container_locked",
                "The Salt Container was flipped or moved on the previous turn; it cannot be flipped or moved now.",
                RULE_LOCK,
            )

    def _check_salt_container_flipped(self, state: State, data: dict[str, Any]) -> None:
        self._check_lock(state)

    def _check_salt_container_moved(self, state: State, data: dict[str, Any]) -> None:
        self._check_lock(state)
        to = self._cell(data["to"], RULE_B)
        occ = _occupied(state)
        if not any(n != CONTAINER for n in occ.values()):
            raise RuleViolation(
                "no_cracker_in_play",
                "The Salt Container can only be moved next to a cracker in play, and none is in play yet.",
                RULE_B,
            )
        cell = state["tokens"][CONTAINER]["cell"]
        self._check_place(state, occ, "the Salt Container", None if cell is None else tuple(cell), to, RULE_B)

    def _check_cracker_flipped(self, state: State, data: dict[str, Any]) -> None:
        name = self._cracker(data["cracker"], RULE_C)
        tok = state["tokens"][name]
        if tok["cell"] is None:
            raise RuleViolation(
                "cracker_in_reserve",
                f"The {self._label(state, name)} is in the reserve; only crackers in play can be flipped in place.",
                RULE_C,
            )
        self._check_condition(state, name, RULE_C)

    def _check_cracker_moved(self, state: State, data: dict[str, Any]) -> None:
        name = self._cracker(data["cracker"], RULE_D)
        to = self._cell(data["to"], RULE_D)
        self._check_condition(state, name, RULE_D)
        cell = state["tokens"][name]["cell"]
        from_cell = None if cell is None else (cell[0], cell[1])
        self._check_place(state, _occupied(state), f"the {self._label(state, name)}", from_cell, to, RULE_D)

    # -- check helpers ------------------------------------------------------------------------------
    @staticmethod
    def _cell(value: Any, rule: str) -> Cell:
        cell = _read_cell(value)
        if cell is None:
            raise RuleViolation("invalid_cell", "A cell is a list of two whole numbers, e.g. [0, 1].", ENTRIES_RULE)
        return cell

    @staticmethod
    def _cracker(value: Any, rule: str) -> str:
        if not isinstance(value, str) or value not in CRACKER_ATTRS:
            raise RuleViolation(
                "unknown_cracker",
                f"There is no cracker called {value!r}; crackers are named shape-color, e.g. circle-red.",
                rule,
            )
        return value

    @staticmethod
    def _label(state: State, name: str) -> str:
        if name == CONTAINER:
            return "Salt Container"
        shape, color = CRACKER_ATTRS[name]
        labels = state.get("labels") or {}
        return f"{labels.get('color', {}).get(color, color)} {labels.get('shape', {}).get(shape, shape)}"

    def _check_condition(self, state: State, name: str, rule: str) -> None:
        tokens = state["tokens"]
        salty = tokens[CONTAINER]["salty"]
        if tokens[name]["salty"] == salty:
            want = "unsalted" if salty else "salty"
            box = "filled (salty)" if salty else "empty (unsalted)"
            raise RuleViolation(
                "wrong_salt_condition",
                f"The Salt Container is {box}, so only {want} crackers may be flipped or moved; "
                f"the {self._label(state, name)} is {'salty' if tokens[name]['salty'] else 'unsalted'}.",
                rule,
            )

    @staticmethod
    def _check_place(
        state: State, occ: dict[Cell, str], what: str, from_cell: Cell | None, to: Cell, rule: str
    ) -> None:
        problem = Placement(occ, from_cell).problem(to)
        if problem is None:
            return
        where = xy_words(to)
        if problem == "invalid_cell":
            msg, rule = f"The cell at {where} is off the table (coordinates go from -1000 to 1000).", rule
        elif problem == "same_cell":
            msg = f"{what.capitalize()} is already on {where}: a move must put it on another cell."
        elif problem == "cell_occupied":
            other = GetSalty._label(state, occ[to])
            msg = f"The cell at {where} already holds the {other}; tokens may never be placed on top of other tokens."
        elif problem == "not_adjacent":
            if rule == RULE_B:
                msg = f"The Salt Container must be placed orthogonally next to a cracker in play; {where} is not."
            else:
                msg = f"A cracker must be placed orthogonally next to another cracker or the Salt Container; {where} is not."
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

    # -- the reducer --------------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        """The state after ``event`` (input untouched); derives victory, the next turn and forced passes."""
        new = _clone(state)
        seat = event.seat if _seat_ok(event.seat) else state["turn"]
        data = event.data
        if event.type == ATTRIBUTE_CHOSEN:
            chosen = data["attribute"]
            other = "color" if chosen == "shape" else "shape"
            new["attributes"] = {str(seat): chosen, str(1 - seat): other}
            new["turn"] = seat
            return new
        tokens = new["tokens"]
        to = data.get("to") if event.type in (CONTAINER_MOVED, CRACKER_MOVED) else None
        moving = CONTAINER if event.type == CONTAINER_MOVED else data.get("cracker")
        stacked = to is not None and any(t["cell"] == list(to) and n != moving for n, t in tokens.items())
        if stacked and not recorded_before(state, 2):  # version 1 (a match recorded under it) stacked them
            # only under an override: two tokens cannot share a cell (refused as unplayable, never stacked)
            raise ValueError(f"cell {list(to)} already holds a token")
        if event.type in (CONTAINER_FLIPPED, CONTAINER_MOVED):
            box = tokens[CONTAINER]
            if event.type == CONTAINER_MOVED:
                box["cell"] = list(data["to"])
            box["salty"] = not box["salty"]
            new["container_turn"] = state["turns_played"] + 1
        elif event.type in (CRACKER_FLIPPED, CRACKER_MOVED):
            tok = tokens[data["cracker"]]
            if event.type == CRACKER_MOVED:
                tok["cell"] = list(data["to"])
            tok["salty"] = not tok["salty"]
        else:
            raise ValueError(f"unknown event type {event.type!r}")
        new["turns_played"] = state["turns_played"] + 1
        return settle(new, seat)

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on; else the winner, winning combinations per seat and the lines in words."""
        winner = state["winner"]
        if winner is None:
            return None
        scores = {0: state["scores"]["0"], 1: state["scores"]["1"]}
        mine = [c for c in state["combinations"] if c["seat"] == winner]
        parts = [self._combo_words(state, c) for c in mine]
        reason = " and ".join(parts) if parts else "more winning combinations"
        loser = 1 - winner
        if scores[loser]:
            reason += f" ({scores[winner]} winning combinations against {scores[loser]})"
        return Outcome(winners=(winner,), draw=False, reason=reason, scores=scores)

    @staticmethod
    def _combo_words(state: State, combo: dict[str, Any]) -> str:
        labels = state.get("labels") or {}
        value = labels.get(combo["attribute"], {}).get(combo["value"], combo["value"])
        n = len(combo["cells"])
        text = f"{_NUMBER_WORDS.get(n, str(n))} {value} crackers in a {combo['kind']}"
        wild = any(state["tokens"][CONTAINER]["cell"] == c for c in combo["cells"])
        return text + (" (counting the Salt Container)" if wild else "")

    # -- listing moves --------------------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Event]:
        """Every event ``validate`` accepts now, in a fixed order (A, B by cell, C, D by cracker then cell)."""
        if state["winner"] is not None:
            return []
        seat = state["turn"]
        if state["attributes"] is None:
            return [Event(ATTRIBUTE_CHOSEN, seat, {"attribute": a}) for a in ATTRIBUTES]
        tokens = state["tokens"]
        occ = _occupied(state)
        moves: list[Event] = []
        if not _locked(state):
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

    def winner_after(self, state: State, event: Event) -> int | None:
        """Who has won once the legal ``event`` is played (None: the game goes on)."""
        if event.type == ATTRIBUTE_CHOSEN or state["attributes"] is None:
            return None
        occ = _occupied(state)
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
        _, scores = _tally(occ, wild, state["attributes"])
        return _winner(scores)

    def hints(self, state: State, seat: int) -> dict[str, list[Event]]:
        """Table talk for ``seat``: ``winning_moves`` and ``opponent_threats`` (lists of legal Events).

        ``winning_moves``: when ``seat`` is on turn, its legal moves after which it has won.
        ``opponent_threats``: the opponent's moves that would make the opponent win on its next turn.
        If the opponent is on turn these are its real winning moves; if ``seat`` is on turn, they are
        computed on the position as it stands with the opponent to move and the Salt Container unlocked
        (as if ``seat`` passed). Both lists are empty before the attributes are chosen and once the
        game is over.
        """
        empty: dict[str, list[Event]] = {"winning_moves": [], "opponent_threats": []}
        if state["winner"] is not None or state["attributes"] is None or not _seat_ok(seat):
            return empty
        opponent = 1 - seat
        if state["turn"] == seat:
            wins = [e for e in self.legal_moves(state) if self.winner_after(state, e) == seat]
            passed = dict(state)
            passed["turn"] = opponent
            passed["turns_played"] = state["turns_played"] + 1
            passed["container_locked"] = False
            threats_from = passed
        else:
            wins = []
            threats_from = state
        threats = [e for e in self.legal_moves(threats_from) if self.winner_after(threats_from, e) == opponent]
        return {"winning_moves": wins, "opponent_threats": threats}

    # -- presentation ----------------------------------------------------------------------------------
    def turn(self, state: State) -> TurnInfo:
        result = self.outcome(state)
        if result is not None:  # the winner's line: "Bo wins with three red crackers in a row."
            return TurnInfo(seats=(), phase="over", prompt=f"{seat_ref(state['winner'])} wins with {result.reason}.")
        seat = state["turn"]
        if state["attributes"] is None:
            what = "choose the victory attribute: shape or color"
            return TurnInfo(seats=(seat,), phase="choose_attribute", prompt=what)
        salty = state["tokens"][CONTAINER]["salty"]
        what = (
            "move or flip an unsalted cracker (the Salt Container is filled)"
            if salty
            else "move or flip a salty cracker (the Salt Container is empty)"
        )
        if _locked(state):
            what += "; the container was used last turn and cannot be flipped or moved"
        else:
            what += ", or flip or move the Salt Container"
        return TurnInfo(seats=(seat,), phase="play", prompt=what + ".")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """The entry in the past tense; with ``before`` (the state it was played on) a destination is also
        placed next to a token ("to [0, -1], above the Salt Container"), as on the board."""
        who = seat_ref(event.seat) if _seat_ok(event.seat) else "The table"
        data = event.data if isinstance(event.data, dict) else {}

        def cracker() -> str:
            name = data.get("cracker")
            if isinstance(name, str) and name in CRACKER_ATTRS:
                shape, color = CRACKER_ATTRS[name]
                return f"the {color} {shape}"
            return f"cracker {name!r}"

        def cell() -> str:
            c = _read_cell(data.get("to"))
            if c is None:
                return "?"
            near = self.neighbour_words(before, c, _moving(event)) if before is not None else ""
            return xy_words(c) + (f", {near}," if near else "")

        if event.type == ATTRIBUTE_CHOSEN:
            return f"{who} chose {data.get('attribute')} as their victory attribute."
        if event.type == CONTAINER_FLIPPED:
            return f"{who} flipped the Salt Container."
        if event.type == CONTAINER_MOVED:
            return f"{who} moved the Salt Container to {cell()} and flipped it."
        if event.type == CRACKER_FLIPPED:
            return f"{who} flipped {cracker()}."
        if event.type == CRACKER_MOVED:
            return f"{who} moved {cracker()} to {cell()} and flipped it."
        return super().describe(event, seat_names)

    # -- words for the table (present tense: what a move does, for hints) -------------------------------
    def neighbour_words(self, state: State, cell: Cell, moving: str | None = None) -> str:
        """Where ``cell`` is, by a token next to it in ``state``: "above the Salt Container", "left of the red
        circle" ("" when no other token touches it). ``moving`` (the token being moved) does not count. Rows
        grow downwards as on the board: row -1 is above row 0. Looked at in a fixed order: below, above,
        right, left of the cell."""
        occupied = {c: n for c, n in _occupied(state).items() if n != moving}
        x, y = cell
        for (dx, dy), words in _SIDES:
            name = occupied.get((x + dx, y + dy))
            if name is not None:
                return f"{words} the {self._label(state, name)}"
        return ""

    def move_words(self, state: State, event: Event, *, gerund: bool = False) -> str:
        """What the legal ``event`` does on ``state``, in the present: "move the red circle from column 1, row 0
        to column 0, row -1, above the Salt Container, and flip it" (``gerund``: "moving … and flipping it")."""
        verb = _GERUNDS.get if gerund else (lambda word: word)
        data = event.data
        if event.type == CONTAINER_FLIPPED:
            return f"{verb('flip')} the Salt Container"
        name = CONTAINER if event.type == CONTAINER_MOVED else data["cracker"]
        what = f"the {self._label(state, name)}"
        if event.type == CRACKER_FLIPPED:
            return f"{verb('flip')} {what}"
        to = (data["to"][0], data["to"][1])
        near = self.neighbour_words(state, to, name)
        where = xy_words(to) + (f", {near}," if near else "")
        cell = state["tokens"][name]["cell"]
        if cell is None:
            return f"{verb('place')} {what} from the reserve on {where} and {verb('flip')} it"
        return f"{verb('move')} {what} from {xy_words(cell)} to {where} and {verb('flip')} it"

    def insights(self, state: State) -> dict[str, Any]:
        """The winner's combinations: which attribute and which kind of line won the game."""
        winner = state.get("winner")
        if winner is None:
            return {}
        mine = [c for c in state["combinations"] if c["seat"] == winner]
        return {
            "winning attribute": sorted({c["attribute"] for c in mine}),
            "winning line": sorted({c["kind"] for c in mine}),
        }

    def warnings(self, state: State) -> list[str]:
        out = []
        skipped = state["skipped"]
        if skipped and skipped[-1]["turn"] == state["turns_played"]:
            out.append(f"{seat_ref(skipped[-1]['seat'])} had no legal move, so their turn was skipped.")
        s0, s1 = state["scores"]["0"], state["scores"]["1"]
        if state["winner"] is None and s0 and s0 == s1:
            out.append(f"Both players have {plural(s0, 'winning combination')}: a tie, so play continues.")
        return out


def position(
    placed: dict[str, tuple[int, int] | list[int]],
    *,
    container: tuple[int, int] | list[int] = (0, 0),
    container_salty: bool = True,
    salty: tuple[str, ...] | list[str] | set[str] = (),
    turn: int = 0,
    attributes: dict[str, str] | None = None,
    locked: bool = False,
    turns_played: int = 10,
    options: dict[str, Any] | None = None,
) -> State:
    """A play-phase state with the given arrangement, for tests, demos and puzzles.

    ``placed`` maps cracker names to cells (others stay in the reserve); ``salty`` names the salty
    crackers; ``attributes`` defaults to seat 0 shape, seat 1 color; ``locked`` means the container was
    used on the previous turn. Derived keys (winner, combinations, ...) are computed, not checked.
    """
    state = GetSalty().initial_state(options or {}, 2)
    state["tokens"][CONTAINER] = {"cell": list(container), "salty": container_salty}
    for name in CRACKERS:
        cell = placed.get(name)
        state["tokens"][name] = {"cell": None if cell is None else list(cell), "salty": name in salty}
    state["attributes"] = dict(attributes) if attributes is not None else {"0": "shape", "1": "color"}
    state["turn"] = turn
    state["turns_played"] = turns_played
    state["container_turn"] = turns_played if locked else None
    return derive(state)


RULESET = GetSalty()
