"""Salt & Bones: two-player card combat on a shrinking Field Board (rules as code, cards as catalog data).

The one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options, rule names),
``rules.py`` (one check per entry type, the legal moves), ``engine.py`` (the state and one effect per entry
type), and this module, the ruleset object; beside them ``board.py`` (reads of the state), ``damage.py``
(the reaction window's damage) and ``catalog.py`` (the cards).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo
from rulesets.cells import cells_words, row_col_words
from rulesets.names import plural, seat_ref
from rulesets.salt_and_bones import board as E
from rulesets.salt_and_bones import moves as M
from rulesets.salt_and_bones import rules as R
from rulesets.salt_and_bones.catalog import default_catalog
from rulesets.salt_and_bones.engine import EFFECTS, new_state
from rulesets.salt_and_bones.fields import (
    ADDITIONAL_TURN_PASSED,
    ATTACK_CARD_PLAYED,
    CARDS_DRAWN,
    DISENGAGED,
    EVENT_TYPES,
    FIELD_CARD_FLIPPED,
    HAND_CARD_DISCARDED,
    OPTIONS_SCHEMA,
    PREPARATION_FINISHED,
    RULE_COMBAT,
    RULE_ENTRIES,
    RULE_WIN,
    STRATEGY_CARD_PLACED,
    STRATEGY_CARD_PLAYED,
    check_options,
)

__all__ = ["RULESET", "SaltAndBones", "default_catalog"]

DAMAGE_PER_COMBAT = "damage per combat"


class SaltAndBones(Ruleset):
    slug = "salt-and-bones"
    name = "Salt & Bones"
    seats = (2,)
    version = 5  # 5: cells named "column C, row R" as the board edges count them, in the combat log (docs/rules)
    # 4: an overridden move that would take a count below 0 or stack cards is unplayable (versions 1-3 kept:
    # engine.placeable); 3: Test of Courage's additional turn, targets by card number, Draw Phase shares
    rule_changes = {
        3: "a disengage could not be recorded again before Test of Courage's additional turn is taken or passed, "
        "Anticipation and Condescend would name their target card by its number, a short Draw Phase supply would "
        "be shared one card at a time from Momentum, and an Overwhelm played before its Attack card would carry "
        "over to it",
        4: "a move recorded under a house rule that takes a hand or a deck below 0, or puts an Attack card on a "
        "tile that already holds one or off the Field Board, would be refused",
    }
    rulebook = "salt-and-bones.txt"
    secret_noun = "face-down cards"
    describe_uses_state = True  # a targeted card is named from the state it was played on
    start_option = "momentum_seat"
    start_rule = (
        "Salt & Bones › 4. Detailed Gameplay: “At the start of the game, decide which player begins with Momentum.”"
    )
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES
    rules = R.RULES
    effects = EFFECTS
    over_rule = RULE_WIN
    turn_rule = RULE_COMBAT  # cited by each entry's own turn check (rules.TURN_CHECKS), not by the base's

    def initial_state(self, options: dict[str, Any], seat_count: int = 2) -> State:
        """Round 1, Field Phase (Draw Phase when the Field Deck is empty), both at starting Health."""
        return new_state({**options, "momentum_seat": self.start_seat(options)})

    def start_with(self, state: State, seat: int) -> State:
        """``seat`` begins with the Momentum Token (the opening log line says so)."""
        if seat not in (0, 1):
            raise RuleViolation("unknown_seat", f"Salt & Bones has seats 0 and 1 only, not {seat!r}.", RULE_ENTRIES)
        log = [f"Round 1 begins. {seat_ref(seat)} has Momentum.", *state["log"][1:]]
        return {**state, "momentum": seat, "log": log}

    # -- the hooks of the one shape (the order is the base's: game over → entry → phase → turn → data → move)
    def over_words(self, state: State, ended: Outcome) -> str:
        """The end of the game naming the winner and their Health."""
        return f"The game is over: {E.result_line(state['result'], state['health'])}"

    def check_entry(self, state: State, event: Event) -> EventType:
        """Seats 0 and 1 said in Salt & Bones' words."""
        return R.check_entry(state, event)

    def check_phase(self, state: State, event: Event) -> None:
        R.check_phase(state, event)

    def check_turn(self, state: State, event: Event) -> None:
        """Each entry's own turn words (Momentum draws first, the preparing seat, whose combat turn it is)."""
        R.check_turn(state, event)

    def outcome(self, state: State) -> Outcome | None:
        result = state.get("result")
        if result is None:
            return None
        return Outcome(winners=tuple(result["winners"]), draw=result["draw"], reason=result["reason"])

    def legal_moves(self, state: State) -> list[Event] | None:
        """Listed in the Draw, Preparation and Combat phases (catalog cards only); None in the Field Phase."""
        return M.legal_moves(state)

    def names(self, state: State, seat: int | None) -> dict[str, list[str]]:
        """The catalog's names: ``attack`` (Attack cards), ``strategy`` (Strategy cards), ``instinct`` (INSTINCTs)."""
        strategy = state["catalog"]["strategy"]
        return {
            "attack": list(state["catalog"]["attack"]),
            "strategy": list(strategy),
            "instinct": [n for n, c in strategy.items() if c["type"] == "INSTINCT"],
        }

    def board_size(self, state: State) -> tuple[int, int] | None:
        """The Field Board's rows and columns (tiles are ``[row, column]``)."""
        return state["field"]["rows"], state["field"]["cols"]

    def hidden_from(self, state: State, seat: int | None) -> bool:
        """Another seat has a face-down INSTINCT card on its board (named or not: a public fact)."""
        return any(board["instinct"] for owner, board in enumerate(state["boards"]) if owner != seat)

    def view(self, state: State, seat: int | None) -> State:
        """Face-down INSTINCT names of other seats (all seats for a spectator) become None."""
        out = copy.deepcopy(state)
        boards_lists = [out["boards"]]
        combat = out.get("combat")
        if combat and combat.get("window"):
            boards_lists.append(combat["window"]["snapshot"]["boards"])
        for boards in boards_lists:
            for owner, board in enumerate(boards):
                if owner == seat:
                    continue
                for card in board["instinct"]:
                    card["name"] = None
                    card["hidden"] = True
        return out

    def redact_event(self, event: Event, state_before: State, viewer_seat: int | None) -> Event:
        """A card placed face-down in an INSTINCT slot keeps its name only for its own seat (and the server's own reads)."""
        if (
            event.type == STRATEGY_CARD_PLACED
            and event.data.get("slot") == "instinct"
            and event.seat != viewer_seat
            and event.data.get("card") is not None
        ):
            return Event(event.type, event.seat, {**event.data, "card": None})
        return event

    def turn(self, state: State) -> TurnInfo:
        """Who acts now; the prompt says what they do ("Seat N" for anyone else it mentions)."""
        phase = state["phase"]
        if state["result"] is not None:
            return TurnInfo(seats=(), phase="over", prompt=E.result_line(state["result"], state["health"]))
        if phase == "field":
            left = state["decks"]["field"]
            what = f"round {state['round']}: flip the top Field card ({left} left) and mark its tiles."
            return TurnInfo(seats=(state["momentum"],), phase=phase, prompt=what)
        if phase == "draw":
            seats: list[int] = []
            nxt = E.next_drawer(state)
            if nxt is not None:
                seats.append(nxt)
            if not any(state["draw"]["drawn"]):  # the other seat may still discard, if it holds a card
                seats += [
                    s
                    for s in E.SEATS
                    if not state["draw"]["discarded"][s] and any(state["hands"][s].values()) and s not in seats
                ]
            what = f"draw up to {state['settings']['hand_size']} cards (one discard first is optional)."
            return TurnInfo(seats=tuple(seats), phase=phase, prompt=what)
        if phase == "preparation":
            prep = E.preparing_seat(state)
            seats_prep = (prep,) if prep is not None else ()
            return TurnInfo(seats=seats_prep, phase=phase, prompt="place Strategy cards, then finish preparing.")
        c = state["combat"]
        turn = c["turn"]
        if c["pending_disengage"] is not None:
            p = c["pending_disengage"]
            if turn == p:
                return TurnInfo(seats=(p,), phase=phase, prompt="record the disengage again: now it succeeds.")
            if not c["turn_cards"]:
                what = (
                    f"the additional turn Test of Courage gives: play an Attack card or pass it; "
                    f"then {seat_ref(p)}'s disengage succeeds."
                )
                return TurnInfo(seats=(turn,), phase=phase, prompt=what)
            # both seats on turn: the prompt names neither (the turn line names them once)
            what = "a Chain card may follow the Attack card just played, or the disengage is recorded again."
            return TurnInfo(seats=(turn, p), phase=phase, prompt=what)
        if E.turn_open_for_chain(state):
            what = (  # both seats on turn: the prompt names neither (the turn line names them once)
                "the player with Momentum may chain another Attack card, or the other player starts a turn "
                "(play or disengage)."
            )
            return TurnInfo(seats=(turn, E.other(turn)), phase=phase, prompt=what)
        if c["forced"][turn] or state["hands"][turn]["attack"] <= 0:
            return TurnInfo(seats=(turn,), phase=phase, prompt="disengage (no Attack card can be played).")
        return TurnInfo(seats=(turn,), phase=phase, prompt="play an Attack card or disengage.")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One sentence; with ``before`` (the state the entry was played on) a targeted card is named."""
        seat = event.seat
        who = seat_ref(seat) if seat is not None and 0 <= seat <= 1 else "The table"
        d = event.data
        kind = event.type
        if kind == FIELD_CARD_FLIPPED:
            tiles = cells_words(d.get("tiles", []))
            return f"{who} flipped a Field card: the tiles at {tiles} are destroyed."
        if kind == HAND_CARD_DISCARDED:
            return f"{who} discarded a{'n' if d.get('kind') == 'attack' else ''} {d.get('kind')} card before drawing."
        if kind == CARDS_DRAWN:
            return f"{who} drew {d.get('attack', 0)} attack and {plural(d.get('strategy', 0), 'strategy card')}."
        if kind == STRATEGY_CARD_PLACED:
            if d.get("slot") == "instinct":
                return f"{who} placed a card face-down in an INSTINCT slot."
            return f"{who} placed {d.get('card')} in a{'n' if d.get('slot') == 'equipment' else ''} {str(d.get('slot')).upper()} slot."
        if kind == PREPARATION_FINISHED:
            return f"{who} finished preparing."
        if kind == ATTACK_CARD_PLAYED:
            card = d.get("card")
            name = card.get("name") if isinstance(card, dict) else card
            a, o = d.get("attack_tile") or [0, 0], d.get("opportunity_tile") or [0, 0]
            return f"{who} played {name} (attack on {row_col_words(a)}; opportunity on {row_col_words(o)})."
        if kind == STRATEGY_CARD_PLAYED:
            target = d.get("target")
            if isinstance(target, dict) and "instance" in target:
                on = f" of {_card_ref(before, seat, target, field=True)}" if "card" in target else ""
                return f"{who} played {d.get('card')} against damage instance {target['instance']}{on}."
            if isinstance(target, dict) and "card" in target:
                return f"{who} played {d.get('card')} against {_card_ref(before, seat, target, field=False)}."
            if target in ("chain", "instinct"):
                return f"{who} played {d.get('card')} against the opponent's {'Chain' if target == 'chain' else 'INSTINCT'} card."
            return f"{who} played {d.get('card')}."
        if kind == DISENGAGED:
            return f"{who} disengaged."
        if kind == ADDITIONAL_TURN_PASSED:
            return f"{who} passed the additional turn (Test of Courage)."
        return super().describe(event, seat_names)

    def catalog_defaults(self) -> dict[str, Any]:
        """The default cards and board (catalog.py), which are also the options' defaults."""
        return default_catalog()

    def check_options(self, options: dict[str, Any]) -> list[str]:
        return check_options(options)

    def insights(self, state: State) -> dict[str, Any]:
        """How the game was decided (a knock-out or Exhaustion) and its length in rounds."""
        result = state.get("result")
        if result is None:
            return {}
        ending = "Exhaustion" if result.get("reason", "").startswith("Exhaustion") else "0 Health"
        return {"decided by": ending, "rounds": state.get("round")}

    numeric_insights = frozenset({DAMAGE_PER_COMBAT, "rounds"})

    def log_insights(self, steps: Iterable[tuple[Event, State, State]]) -> dict[str, Any]:
        """Replaying the log: the damage dealt in each combat, whether a Second Wind happened, and whether
        the final blow of a won game was a Chain card (definitions in docs/rules/salt-and-bones.md, "Statistics")."""
        damage: list[int] = []
        second_wind = False
        start_health: list[int] = []
        final_blow = None
        for _event, before, after in steps:
            if before.get("combat") is None and after.get("combat") is not None:
                start_health = list(after["health"])
            if before.get("combat") is None or after.get("combat") is not None:
                continue
            cards = before["field"]["cards"]  # the combat's Attack cards, in the order played, damage settled
            damage.append(sum(card["damage"] for card in cards))
            result = after.get("result")
            second_wind = second_wind or (before["health"] == [0, 0] and result is None)
            if result and len(result["winners"]) == 1 and start_health:
                final_blow = E.final_blow(cards, result["winners"][0], start_health[E.other(result["winners"][0])])
        facts: dict[str, Any] = {DAMAGE_PER_COMBAT: damage, "second wind": "yes" if second_wind else "no"}
        if final_blow is not None:
            facts["final blow"] = "a Chain card" if final_blow["as_chain"] else "a regular Attack card"
        return facts

    def warnings(self, state: State) -> list[str]:
        out = []
        if state["result"] is None and state["phase"] == "combat" and 0 in state["health"]:
            down = [seat_ref(s) for s in E.SEATS if state["health"][s] == 0]
            out.append(
                f"{' and '.join(down)} at 0 Health: nothing is decided until combat ends with a successful "
                "disengage (a win if only one player is at 0 then; Second Wind if both are)."
            )
        if state["result"] is None and state["last_round"]:
            out.append("A deck ran out: this is the last round. Without a winner at the end of combat it is a draw.")
        if state["phase"] == "combat" and not E.live_cards(state):
            open_centre = [c for c in state["field"]["centre"] if E.tile_state(state, E.cell_key(c)) == "open"]
            if not open_centre:
                out.append("Every centre tile is destroyed: the first Attack card cannot be placed, so disengage.")
        auto_instincts = [
            d["name"]
            for d in state["catalog"]["strategy"].values()
            if d["type"] == "INSTINCT" and d["activation"] == "automatic"
        ]
        hidden = any(c["name"] is None for b in state["boards"] for c in b["instinct"])
        if auto_instincts and hidden:
            out.append(
                "Unnamed face-down INSTINCT cards cannot trigger by themselves: when one of "
                f"{', '.join(auto_instincts)} triggers, record it as a played INSTINCT card."
            )
        return out


def _card_ref(before: State | None, seat: int | None, target: dict[str, Any], *, field: bool) -> str:
    """ "card N" named from ``before``: "Heavy Blow (card 4)"; just "card N" when it cannot be told.

    ``field``: the number is an Attack card on the Field Board (a damage-instance target); otherwise it is
    what a Condescend names (the opponent's Chain card, or an INSTINCT it played or that triggered).
    """
    uid = target.get("card")
    plain = f"card {uid}"
    if before is None or seat not in (0, 1) or not isinstance(uid, int):
        return plain
    try:
        if field:
            return f"{E.field_card(before, uid)['name']} ({plain})"
        hit = E.card_negation_target(before, seat, target)
    except (KeyError, TypeError):
        return plain
    if hit is None:
        return plain
    window = before["combat"]["window"]
    if hit["kind"] == "chain":
        name = E.field_card(before, uid)["name"]
    elif hit["kind"] == "reaction":
        name = window["reactions"][hit["index"]]["card"]
    else:
        name = next(t["card"] for t in window["triggered"] if t["uid"] == uid)
    return f"{name} ({plain})"


RULESET = SaltAndBones()
