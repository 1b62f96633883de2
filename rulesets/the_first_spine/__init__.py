"""The First Spine: wizards, cards on a square board and confrontations the app computes (rules as code,
cards as match data).

The one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule names),
``rules.py`` (one check per entry type, the phase and turn checks, legal moves), ``engine.py`` (the state and
one effect per entry type), this module (the ruleset object); ``board.py`` and ``cards.py`` beside them.
"""

from __future__ import annotations

from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, State, TurnInfo, unknown_event
from rulesets.the_first_spine import engine as E
from rulesets.the_first_spine import rules as R
from rulesets.the_first_spine.cards import default_cards
from rulesets.the_first_spine.fields import (
    CARD_MOVED,
    CARD_PLACED,
    CONFRONTATION_TARGET_CHOSEN,
    DESTINY_CHOSEN,
    EVENT_TYPES,
    HAND_REFILLED,
    HP_CHANGED,
    OPTIONS_SCHEMA,
    ORIGIN_CHOSEN,
    RULE_OBJECTIVE,
    RULE_START,
    TURN_ENDED,
    check_options,
)

__all__ = ["RULESET", "TheFirstSpine", "default_cards"]


class TheFirstSpine(Ruleset):
    slug = "the-first-spine"
    name = "The First Spine"
    seats = (2, 3, 4)
    version = 4  # 4: the destiny share of the deck (deck_size - 6), setup entries unplayable out of setup (docs/rules)
    # 3: cells named "column C, row R" as the board edges count them, in the turn-end log (docs/rules)
    # 2: Treason from one board state, the origin-card limit, no discard beyond the hand, before-turn effects
    rulebook = "the-first-spine.txt"
    describe_uses_state = True  # a moved, hurt or confronting card is named from the state it was played on
    secret_noun = "origin"
    start_option = "first_seat"
    start_rule = (
        "the rulebook says who starts (The First Spine › Before playing): “The player who starts is the one who "
        "lost a previous game. If no game has been played before, the one who got up the earliest starts.”"
    )
    phase_codes = frozenset(
        {"setup_not_finished", "setup_finished", "draw_first", "already_refilled", "run_before_draw"}
    )
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES
    rules = R.RULES
    effects = E.EFFECTS
    over_rule = RULE_OBJECTIVE
    turn_rule = RULE_START
    # kept by version for matches recorded under it (docs/rules/the-first-spine.md › Rule versions)
    rule_changes = {
        2: "a turn end would be judged from one board state (Treason cards that destroy each other), a 7th card "
        "of a player's origin would be refused, and a house rule could no longer discard more cards than the hand "
        "holds, play a card from an empty hand, onto a held cell or off the board, move a card there, or choose a "
        "confrontation from an empty cell",
        4: "a destiny card beyond the deck's destiny share would be refused, a house rule could no longer play "
        "the installation again, and an eliminated player's cards would leave in reading order",
    }

    def initial_state(self, options: dict[str, Any], seat_count: int = 2) -> State:
        """Wizards on their cells, full decks, setup phase (destinies and origins to choose)."""
        return E.new_state(options, seat_count)

    def check_entry(self, state: State, event: Event) -> EventType:
        """The entry's type is the game's (``unknown_event``); every entry names one of the match's seats."""
        if event.type not in self.event_types:
            raise unknown_event(self.name, event.type, self.event_types)
        R.check_seat(state, event)
        return self.event_types[event.type]

    def check_phase(self, state: State, event: Event) -> None:
        R.check_phase(state, event)

    def check_turn(self, state: State, event: Event) -> None:
        R.check_turn(state, event)

    def over_words(self, state: State, ended: Outcome) -> str:
        return f"The game is over: {E.result_line(state['result'])}"

    def clone(self, state: State) -> State:
        return E.clone(state)

    def settle(self, new: State, event: Event) -> State:
        """Each card's facing, attack and defense (Aura) and each wizard's life, from the board."""
        return E.derive(new)

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(winners=tuple(result["winners"]), draw=result["draw"], reason=result["reason"])

    def legal_moves(self, state: State) -> list[Event] | None:
        """Listed during setup and at the start of a turn; None during actions (life changes are free data)."""
        return R.legal_moves(state)

    def names(self, state: State, seat: int | None) -> dict[str, list[str]]:
        """``hand``: the cards of ``seat``'s deck (the destiny cards and its origin's cards)."""
        return {"hand": [c["name"] for c in R.deck_cards(state, seat)] if seat is not None else []}

    def board_size(self, state: State) -> tuple[int, int] | None:
        """The board's rows and columns (cells are ``[row, column]``)."""
        return state["board"]["rows"], state["board"]["cols"]

    def hidden_from(self, state: State, seat: int | None) -> bool:
        """Another seat has chosen its origin and no card of it was played yet (public facts)."""
        return any(p["origin_chosen"] and not p["origin_revealed"] for p in state["players"] if p["seat"] != seat)

    def view(self, state: State, seat: int | None) -> State:
        """Other seats' origins (every seat's for a spectator) are None until a card of that origin is played."""
        # a new top level and new player dicts only: the rest is shared with ``state``, as the base class
        # shares all of it (a view is read, never changed)
        players = [p if p["seat"] == seat or p["origin_revealed"] else {**p, "origin": None} for p in state["players"]]
        return {**state, "players": players}

    def redact_event(self, event: Event, state_before: State, viewer_seat: int | None) -> Event:
        """An ``origin_chosen`` entry shows its origin only to the seat that chose it. The entry stays hidden
        after a reveal: the ``card_placed`` entry that revealed the origin says it by itself."""
        if event.type == ORIGIN_CHOSEN and event.seat != viewer_seat:
            return Event(event.type, event.seat, {**event.data, "origin": None})
        return event

    def turn(self, state: State) -> TurnInfo:
        """Who acts and what they must do next. The prompt never names the seats on turn (the turn line puts
        their names in front); once the game is over it names the winner: "Seat 0 wins with …"."""
        result = state["result"]
        if result is not None:
            return TurnInfo(seats=(), phase="over", prompt=E.result_line(result))
        t = state["turn"]
        seat = t["seat"]
        if t["phase"] == "setup":
            missing = E.setup_missing(state)
            return TurnInfo(seats=tuple(missing), phase="setup", prompt=_setup_prompt(missing))
        if t["phase"] == "start":
            runners = [
                c
                for c in state["cards"]
                if c["controller"] == seat and "run" in c["capacities"] and R.run_targets(state, c)
            ]
            draw = f"discard (the first is free, then 1 life each) and draw up to {state['settings']['hand_size']}"
            prompt = f"{draw}; “before your turn” effects are recorded first."
            if runners and not t["moved"]:
                prompt = f"first, a card with Run may move and “before your turn” effects are recorded; then {draw}."
            return TurnInfo(seats=(seat,), phase="start", prompt=prompt)
        pairs, missing = E.plan(state)
        prompt = "place cards and record spell effects, then end the turn."
        if missing:
            m = missing[0]
            prompt += f" Choose which card {m['name']} on {E.cell_word(m['from'])} confronts."
        if pairs:
            prompt += " Ending the turn resolves: " + "; ".join(E.pair_words(state, p) for p in pairs) + "."
        return TurnInfo(seats=(seat,), phase="actions", prompt=prompt)

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One sentence; with ``before`` (the state the entry was played on) the card on a cell is named
        ("Bo moved Grey Wolf on column 2, row 3 to …"), else it is "the card on column 2, row 3"."""
        seat = event.seat
        who = seat_names[seat] if isinstance(seat, int) and 0 <= seat < len(seat_names) else "The table"
        d = event.data if isinstance(event.data, dict) else {}

        def cell(key: str) -> str:
            c = d.get(key)
            return E.cell_word(c) if isinstance(c, list) and len(c) == 2 else "?"

        def piece(key: str) -> str:
            """The piece on the cell ``d[key]`` when the entry was played: "Squire on column 3, row 3"."""
            c = d.get(key)
            found = None
            if before is not None and isinstance(c, list) and len(c) == 2:
                found = next((p for p in before.get("cards", []) if p.get("at") == c), None)
            if found is None:
                return f"the card on {cell(key)}"
            return f"{E.label(before, found)} on {cell(key)}"

        kind = event.type
        if kind == DESTINY_CHOSEN:
            return f"{who} chose the {str(d.get('destiny', '?')).capitalize()} destiny."
        if kind == ORIGIN_CHOSEN:
            return f"{who} chose an origin (kept secret)."
        if kind == CARD_MOVED:
            return f"{who} moved {piece('from')} to {cell('to')} (Run)."
        if kind == HAND_REFILLED:
            n = d.get("discarded", 0)
            if not n:
                return f"{who} kept their hand and drew up to the hand size."
            return f"{who} discarded {n} card{'s' if n != 1 else ''} and drew up to the hand size."
        if kind == CARD_PLACED:
            return f"{who} played {d.get('card')} on {cell('at')}."
        if kind == HP_CHANGED:
            amount = d.get("amount", 0)
            verb = "gave" if isinstance(amount, int) and amount > 0 else "took"
            note = f" ({d['note']})" if d.get("note") else ""
            n = abs(amount) if isinstance(amount, int) else amount
            return f"{who} {verb} {n} life {'to' if verb == 'gave' else 'from'} {piece('at')}{note}."
        if kind == CONFRONTATION_TARGET_CHOSEN:
            return f"{who} chose: {piece('from')} confronts {piece('target')}."
        if kind == TURN_ENDED:
            return f"{who} ended their turn; the confrontations were resolved."
        return super().describe(event, seat_names)

    def check_options(self, options: dict[str, Any]) -> list[str]:
        return check_options(options)

    def warnings(self, state: State) -> list[str]:
        out = []
        s = state["settings"]
        if s["first_seat_asked"] != s["first_seat"]:
            out.append(f"Seat {s['first_seat_asked']} does not exist in this match, so Seat {s['first_seat']} starts.")
        return out


def _setup_prompt(missing: dict[int, list[str]]) -> str:
    """What the seats still setting up choose, without naming them (the turn line does)."""
    destinies = sum("destiny" in m for m in missing.values())
    origins = sum("origin" in m for m in missing.values())
    if not origins:
        return "choose a destiny."
    if not destinies:
        return "choose a secret origin."
    if destinies == origins == len(missing):
        return "choose a destiny and a secret origin."
    return f"choose a destiny and a secret origin, each what they still lack ({destinies} destiny, {origins} origin)."


RULESET = TheFirstSpine()
