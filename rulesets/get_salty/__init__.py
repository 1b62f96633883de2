"""Get Salty: two players slide, place and flip salted crackers to line up their shape or color.

The game in the one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule
names), ``rules.py`` (one check per entry type, the legal moves, the hints), ``engine.py`` (the state and one
effect per entry type), ``board.py`` (the geometry: adjacency, the play area, winning lines), and this module,
the ruleset object that ties them together and says the game in words.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, State, TurnInfo, unknown_event, unknown_seat
from rulesets.cells import xy_words
from rulesets.get_salty import engine, rules
from rulesets.get_salty.board import ATTRIBUTES, CONTAINER, CRACKER_ATTRS, CRACKERS, Cell
from rulesets.get_salty.engine import EFFECTS, derive, occupied, seat_ok, token_label
from rulesets.get_salty.fields import (
    ATTRIBUTE_CHOSEN,
    CONTAINER_FLIPPED,
    CONTAINER_MOVED,
    CRACKER_FLIPPED,
    CRACKER_MOVED,
    EVENT_TYPES,
    OPTIONS_SCHEMA,
    RULE_GAMEPLAY,
    RULE_HEADINGS,
    RULE_VICTORY,
)
from rulesets.get_salty.rules import RULES, hints
from rulesets.names import plural, seat_ref

__all__ = ["RULESET", "GetSalty", "hints", "position"]

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


class GetSalty(Ruleset):
    slug = "get-salty"
    name = "Get Salty"
    seats = (2,)
    version = 2  # 2: an overridden move onto an occupied cell is unplayable (issue 22)
    # kept by version for matches recorded under it (docs/rules/get-salty.md › Rule versions)
    rule_changes = {2: "a token moved under a house rule onto another token's cell would be refused"}
    rulebook = "get-salty.txt"
    rule_headings = RULE_HEADINGS
    describe_uses_state = True  # history sentences place a move next to a token ("above the red circle")
    start_option = "first_seat"
    start_rule = "Get Salty › Setup: “Randomly select a starting player.”"
    options_schema = OPTIONS_SCHEMA
    event_types = EVENT_TYPES
    rules = RULES
    effects = EFFECTS
    over_rule = RULE_VICTORY
    turn_rule = RULE_GAMEPLAY

    # -- setup -------------------------------------------------------------------------------------
    def check_options(self, options: dict[str, Any]) -> list[str]:
        """Display labels must stay distinguishable."""
        problems = []
        labels = engine.labels_of(options)
        for attr in ATTRIBUTES:
            shown = [v.casefold() for v in labels[attr].values()]
            if len(set(shown)) != len(shown):
                problems.append(f"Two {attr}s would be shown with the same name.")
        return problems

    def initial_state(self, options: dict[str, Any], seat_count: int = 2) -> State:
        """Container on [0, 0] salty side up, every cracker in the reserve unsalted, no attribute chosen."""
        return engine.new_state(options, self.start_seat(options))

    def start_with(self, state: State, seat: int) -> State:
        """The starting player is ``seat``: they choose the victory attribute first."""
        if not seat_ok(seat):
            raise unknown_seat(seat, 2)
        return {**state, "first_seat": seat, "turn": seat}

    # -- the hooks of the one shape (the order is the base's) ------------------------------------------
    def over_words(self, state: State, ended: Outcome) -> str:
        return f"The game is over: {seat_ref(state['winner'])} has won. No more moves."

    def check_entry(self, state: State, event: Event) -> EventType:
        """The type (refused without listing the known ones) and seat, then the data's keys: a payload with
        the wrong keys is refused before the phase, as it always was (docs/rules/get-salty.md › Gameplay)."""
        if event.type not in self.event_types:
            raise unknown_event(self.name, event.type)
        spec = super().check_entry(state, event)
        rules.check_keys(event)
        return spec

    def check_phase(self, state: State, event: Event) -> None:
        rules.check_phase(state, event)

    def check_turn(self, state: State, event: Event) -> None:
        rules.check_turn(state, event)

    def check_data(self, spec: EventType, event: Event) -> dict[str, Any]:
        """The data as it came: its keys are checked with the entry, its values by the move's check, in the
        rulebook's words (an unknown cracker, a cell off the table)."""
        return event.data

    def clone(self, state: State) -> State:
        return engine.clone(state)

    def settle(self, new: State, event: Event) -> State:
        """After a move: victory, the next turn, a skipped turn. Choosing the attribute is not a turn."""
        if event.type == ATTRIBUTE_CHOSEN:
            return new
        return engine.end_turn(new, event.seat if seat_ok(event.seat) else new["turn"])

    # -- the end ---------------------------------------------------------------------------------------
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

    # -- listing moves ---------------------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Event]:
        """Every event ``validate`` accepts now, in a fixed order (A, B by cell, C, D by cracker then cell)."""
        return rules.legal_moves(state)

    def winner_after(self, state: State, event: Event) -> int | None:
        """Who has won once the legal ``event`` is played (None: the game goes on)."""
        return rules.winner_after(state, event)

    def hints(self, state: State, seat: int) -> dict[str, list[Event]]:
        """Table talk for ``seat``: ``winning_moves`` and ``opponent_threats``; see :func:`rules.hints`."""
        return rules.hints(state, seat)

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
        if engine.locked(state):
            what += "; the container was used last turn and cannot be flipped or moved"
        else:
            what += ", or flip or move the Salt Container"
        return TurnInfo(seats=(seat,), phase="play", prompt=what + ".")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """The entry in the past tense; with ``before`` (the state it was played on) a destination is also
        placed next to a token ("to [0, -1], above the Salt Container"), as on the board."""
        who = seat_ref(event.seat) if seat_ok(event.seat) else "The table"
        data = event.data if isinstance(event.data, dict) else {}

        def cracker() -> str:
            name = data.get("cracker")
            if isinstance(name, str) and name in CRACKER_ATTRS:
                shape, color = CRACKER_ATTRS[name]
                return f"the {color} {shape}"
            return f"cracker {name!r}"

        def cell() -> str:
            c = engine.read_cell(data.get("to"))
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
        others = {c: n for c, n in occupied(state).items() if n != moving}
        x, y = cell
        for (dx, dy), words in _SIDES:
            name = others.get((x + dx, y + dy))
            if name is not None:
                return f"{words} the {token_label(state, name)}"
        return ""

    def move_words(self, state: State, event: Event, *, gerund: bool = False) -> str:
        """What the legal ``event`` does on ``state``, in the present: "move the red circle from column 1, row 0
        to column 0, row -1, above the Salt Container, and flip it" (``gerund``: "moving … and flipping it")."""
        verb = _GERUNDS.get if gerund else (lambda word: word)
        data = event.data
        if event.type == CONTAINER_FLIPPED:
            return f"{verb('flip')} the Salt Container"
        name = CONTAINER if event.type == CONTAINER_MOVED else data["cracker"]
        what = f"the {token_label(state, name)}"
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


RULESET = GetSalty()


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
    state = RULESET.initial_state(options or {}, 2)
    state["tokens"][CONTAINER] = {"cell": list(container), "salty": container_salty}
    for name in CRACKERS:
        cell = placed.get(name)
        state["tokens"][name] = {"cell": None if cell is None else list(cell), "salty": name in salty}
    state["attributes"] = dict(attributes) if attributes is not None else {"0": "shape", "1": "color"}
    state["turn"] = turn
    state["turns_played"] = turns_played
    state["container_turn"] = turns_played if locked else None
    return derive(state)
