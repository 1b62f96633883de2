"""The ruleset interface every game implements: pure data and functions, no Django, no I/O."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulesets.names import name_seats, seat_ref
from rulesets.schema import RANDOM, Field, SchemaError, check_payload, explain

State = dict[str, Any]

__all__ = ["name_seats"]  # players by name: see rulesets.names (kept importable from here)

# Refusals that are Chronicle's own, not a rulebook's (docs/ARCHITECTURE.md › Entries): an entry type the
# game does not have, data that does not fit the entry's fields, a seat the match does not have, an entry
# that changes nothing. A limit the rulebook itself sets cites the rulebook instead (``Field.rule``).
ENTRIES_RULE = "Chronicle › Entries"


class RuleViolation(Exception):
    """A move the rules forbid.

    ``code`` is a stable machine name (``not_your_turn``), ``message`` a plain-words explanation for the
    people at the table, ``rule`` the rulebook section it comes from (``"Get Salty › Player Turn › B"``).
    The message names a seat as "Seat N" (``f"It is Seat {turn}'s turn."``, see :mod:`rulesets.names`);
    the server shows it as "It is Bo's turn." before anyone reads it. ``overridable`` is False when even a
    house rule could not record the move (``rulesets.replay.step`` finds out by trying): pages then offer
    no override for it.
    """

    def __init__(self, code: str, message: str, rule: str, *, overridable: bool = True) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.overridable = overridable

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


def unknown_event(game: str, type_: str, known: Iterable[str] = ()) -> RuleViolation:
    """The refusal of an entry type ``game`` does not have (Chronicle's own rule, not the rulebook's); the
    ``known`` types, when given, are listed ("…; it knows a, b.")."""
    listed = ", ".join(known)
    return RuleViolation(
        "unknown_event", f"{game} has no '{type_}' entry" + (f"; it knows {listed}." if listed else "."), ENTRIES_RULE
    )


def unknown_seat(seat: Any, seat_count: int) -> RuleViolation:
    """The refusal of an entry whose acting seat is missing (None) or not a seat of a ``seat_count``-seat match."""
    if seat is None:
        return RuleViolation("unknown_seat", "This entry is a player's: say which seat made it.", ENTRIES_RULE)
    return RuleViolation(
        "unknown_seat",
        f"This match has seats 0 to {seat_count - 1}; {seat!r} is not one of them.",
        ENTRIES_RULE,
    )


def payload_refusal(fields: tuple[Field, ...], data: Any, exc: SchemaError) -> RuleViolation:
    """The refusal of data that does not fit ``fields`` (``invalid_payload``), in plain words: it cites the
    rulebook when the broken bound is a rulebook line (``Field.rule``), else "Chronicle › Entries"."""
    sentence, rule = explain(fields, data, exc)
    return RuleViolation("invalid_payload", sentence, rule or ENTRIES_RULE)


@dataclass(frozen=True)
class Event:
    """One recorded action as a ruleset sees it: ``type``, acting ``seat`` (or None) and ``data``.

    ``version`` is the stream version the entry is recorded at, set by ``rulesets.replay.step`` when the
    event is folded (None when a test plays events by hand); it is not part of the event's identity.
    """

    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    version: int | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "data": copy.deepcopy(self.data)}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` are seat indexes; ``scores`` maps seat → points or is None.

    ``reason`` is words for people; it names seats as "Seat N" (shown with the players' names).
    ``provisional``: the rules are played out but the table may still record what the final scoring adds
    (Bone Wars' awards after the last pass) until it confirms the end; the winners are who leads now. A
    provisional outcome is shown, never counted: the match stays in progress for lists, statistics, series
    and exports (:func:`rulesets.replay.final_outcome_of`).
    """

    winners: tuple[int, ...] = ()
    draw: bool = False
    reason: str = ""
    scores: dict[int, int | float] | None = None
    provisional: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "reason": self.reason,
            "scores": None if self.scores is None else {str(k): v for k, v in self.scores.items()},
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class EventType:
    """A kind of recorded action: its wire name, a label for forms, its payload fields.

    ``seat_required``: the event names the acting seat (most moves); False for table-level facts.
    ``seat_optional`` (with ``seat_required`` False): the entry names a seat in some cases only (a hero's
    attack, not a monster's); forms then offer the seat with a "none" choice, labelled ``seat_label``.
    ``secret``: what of the acting seat's hidden information the entry sets or depends on, in players' words
    ("secret origin", "face-down cards"); "" (the default) when it depends on nothing hidden. Only whoever may
    see that seat's secrets may record such an entry (docs/ARCHITECTURE.md › Hidden information): the
    declaration sits next to the entry's fields so that a new game cannot forget it.
    """

    name: str
    label: str
    fields: tuple[Field, ...] = ()
    seat_required: bool = True
    description: str = ""
    seat_optional: bool = False
    seat_label: str = ""
    secret: str = ""


@dataclass(frozen=True)
class TurnInfo:
    """Whose turn it is (``seats`` may hold several when any of them may act) and the phase name.

    ``phase`` is a machine name (for code, never shown as such). ``prompt`` says what the seats on turn
    do now, in the imperative, without naming the seats on turn ("move or flip an unsalted cracker");
    other seats it mentions are "Seat N". The server shows "Bo to play — move or flip an unsalted
    cracker" (:func:`rulesets.names.turn_line`); an empty prompt reads "Bo to play".

    The prompt says what the table must do *next*, including how the turn ends ("finish the action (record
    its effects), then end the turn"), and never offers a move the seat cannot make (a slot it cannot pay
    for). With nobody on turn (``seats == ()``) the prompt is the whole line: once the game is over it names
    the winner and why ("Seat 1 wins with 14 RP (most RP)."); while the outcome is provisional, what is left
    to record and who leads.
    """

    seats: tuple[int, ...]
    phase: str
    prompt: str = ""


class Ruleset:
    """Base class of a game's rules. Subclasses set the attributes and override the methods.

    Contract (DESIGN.md §2): every method is pure and deterministic; ``apply`` never mutates its input and
    never fails on an event ``validate`` accepted; ``validate`` checks in the order game over → phase →
    whose turn → the move itself, raising :class:`RuleViolation`.

    **Naming seats.** A ruleset does not know the players' names. Every text it writes for people
    (violation messages, turn prompts, ``describe`` sentences, log lines kept in the state, outcome
    reasons, warnings) names a seat as ``"Seat N"`` (``rulesets.names.seat_ref(seat)``), never by a bare
    number; the server replaces it with the player's name in one function
    (``rulesets.names.name_seats``), so every game says "It is Bo's turn" for free::

        raise RuleViolation("not_your_turn", f"It is Seat {state['turn']}'s turn.", RULE_TURN)
        return TurnInfo(seats=(s,), phase="play", prompt="take 1 to 3 stones")  # "Bo to play — take …"
        log.append(f"Seat {d} takes {n} damage.")   # a combat log line stored in the state
    """

    slug: str = ""
    name: str = ""
    seats: tuple[int, ...] = (2,)
    version: int = 1  # the current rules; a stored stream keeps the version it was recorded under (rulesets.versions)
    # what each version changed that a stored match replays differently, in players' words ("the result is
    # withheld until the awards are confirmed"): said by check_rulesets and the match page's upgrade preview
    rule_changes: dict[int, str] = {}
    # how check_rulesets says that the current rules would only withhold a stored result (a provisional outcome)
    provisional_words: str = "the result would be withheld until the table confirms the end"
    score_unit: str = ""  # what a score counts, said after it where scores are put in words ("RP": "−4 RP")
    kind: str = "match"  # "match" or "campaign": which kind of stream the ruleset drives
    rulebook: str = ""  # file name under shared/rulebooks
    # the rulebook's own heading words for a citation whose last part is only a step's letter or number
    # ("Get Salty › Player Turn › D": "Move & Flip Cracker"), what a page shows of it (the citation stays the
    # reference: the API's ``rule``, the page's link title)
    rule_headings: dict[str, str] = {}
    # readers fold the state each entry was played on for describe(before=) only when this is set (a cost hint)
    describe_uses_state: bool = False
    history_needs_state: bool = True  # history_group() reads the state (False: the entries say their round)
    secret_noun: str = "secrets"  # what a seat keeps hidden, for "Show Ana's …" (games with hidden information)
    # violation codes (besides ``wrong_phase``) that mean "this kind of entry does not belong to the phase":
    # pages file such entry types under "Other entries" (``frontend.forms.recording.types_now``)
    phase_codes: frozenset[str] = frozenset()
    options_schema: tuple[Field, ...] = ()
    example_options: dict[str, Any] = {}  # the required options of an example match (checks run over every game)
    event_types: dict[str, EventType] = {}
    # Who starts (``first_player_drawn``, rulesets.replay): ``start_option`` names the option choosing the
    # starting seat ("" when the game has none); it may be ``"random"`` when its field offers that
    # (``rulesets.schema.start_field``; see ``random_start``): the server draws once at creation and records
    # the draw as the first entry. ``start_rule`` is what the rulebook says about choosing who starts, quoted
    # when a random start is refused.
    start_option: str = ""
    start_rule: str = ""
    # options every match sets though they have defaults (Saltmarsh's heroes): the new-match form shows them
    # with who starts, not folded under "More options"
    main_options: tuple[str, ...] = ()

    # -- one shape (docs/ARCHITECTURE.md › How to add a game) -----------------------------------------
    # A game fills two tables and a few hooks; the base class keeps the order of the checks and the reducer's
    # frame. ``rules`` (the game's ``rules.py``: ``RULES``): entry type → ``check(state, event)``, raising
    # :class:`RuleViolation` when the move itself is illegal (called after the common checks, with the
    # entry's data cleaned by its fields). ``effects`` (the game's ``engine.py``: ``EFFECTS``): entry type →
    # ``effect(new, event)``, editing ``new`` (a :meth:`clone` of the state) in place; :meth:`settle` then
    # derives what follows from it (scores, the next turn, the winner).
    rules: Mapping[str, Callable[[State, Event], None]] = {}
    effects: Mapping[str, Callable[[State, Event], None]] = {}
    over_rule: str = ""  # the rulebook section that ends the game, cited by the ``game_over`` refusal
    turn_rule: str = ""  # the rulebook section saying whose turn it is, cited by the ``not_your_turn`` refusal

    # -- the interface ----------------------------------------------------------------------------
    def initial_state(self, options: dict[str, Any], seat_count: int) -> State:
        """The state before the first event; JSON-serialisable. ``options`` are already validated."""
        raise NotImplementedError

    def validate(self, state: State, event: Event) -> None:
        """Raise :class:`RuleViolation` if ``event`` may not be recorded now; return None otherwise.

        The order is kept here, once for every game: game over (:meth:`check_over`) → the entry itself: its
        type and seat (:meth:`check_entry`) → the phase (:meth:`check_phase`) → whose turn
        (:meth:`check_turn`) → the data against the entry's fields (:meth:`check_data`) → the move
        (``rules[event.type]``). A game overrides the hooks, not this method.
        """
        self.check_over(state)
        spec = self.check_entry(state, event)
        self.check_phase(state, event)
        self.check_turn(state, event)
        data = self.check_data(spec, event)
        self.rules[event.type](
            state, event if data is event.data else Event(event.type, event.seat, data, event.version)
        )

    def apply(self, state: State, event: Event) -> State:
        """Return the state after ``event``; the input is left untouched.

        The frame is kept here: a :meth:`clone` of ``state``, the entry's effect on it
        (``effects[event.type]``), then :meth:`settle`. An effect that cannot place an entry (only under a
        house rule: ``validate`` refused it) raises any exception; the replay reports it as ``unplayable``.
        """
        effect = self.effects.get(event.type)
        if effect is None:
            raise ValueError(f"unknown event type {event.type!r}")
        new = self.clone(state)
        effect(new, event)
        return self.settle(new, event)

    # -- the hooks of the one shape -----------------------------------------------------------------
    def check_over(self, state: State) -> None:
        """Refuse every entry once the outcome is final (``game_over``, never overridable: no house rule
        reopens a finished game; a correction of an earlier entry does, through the replay). A provisional
        outcome (the table still records the final scoring) does not stop entries."""
        ended = self.outcome(state)
        if ended is not None and not ended.provisional:
            raise RuleViolation("game_over", self.over_words(state, ended), self.over_rule, overridable=False)

    def over_words(self, state: State, ended: Outcome) -> str:
        """The ``game_over`` refusal's sentence (names seats as "Seat N")."""
        return f"The game is over: {ended.reason}." if ended.reason else "The game is over."

    def seat_count(self, state: State) -> int:
        """How many seats the match in ``state`` has. Default: the ``players`` list of the state, else the one
        count the game allows; a game keeping its seats elsewhere overrides it."""
        players = state.get("players") if isinstance(state, dict) else None
        if isinstance(players, list):
            return len(players)
        return self.seats[0]

    def check_entry(self, state: State, event: Event) -> EventType:
        """The entry's type is one of the game's (``unknown_event``) and its seat one of the match's
        (``unknown_seat``: required for a player's entry, optional for the table's); returns its type."""
        spec = self.event_types.get(event.type)
        if spec is None or event.type not in self.rules:
            raise unknown_event(self.name, event.type, self.event_types)
        seat, count = event.seat, self.seat_count(state)
        valid = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < count
        if (spec.seat_required and not valid) or (seat is not None and not valid):
            raise unknown_seat(seat, count)
        return spec

    def check_phase(self, state: State, event: Event) -> None:
        """Refuse an entry that does not belong to the phase the game is in. Default: no phases."""

    def check_turn(self, state: State, event: Event) -> None:
        """Refuse a player's entry made out of turn (``not_your_turn``). Default: a seat's entry must come from
        one of the seats :meth:`turn` names, when it names any."""
        spec = self.event_types[event.type]
        on_turn = self.turn(state).seats
        if spec.seat_required and on_turn and event.seat not in on_turn:
            raise RuleViolation("not_your_turn", f"It is {seat_ref(on_turn[0])}'s turn.", self.turn_rule)

    def check_data(self, spec: EventType, event: Event) -> dict[str, Any]:
        """The entry's data checked against its fields (defaults filled in); ``invalid_payload`` in plain words
        otherwise, citing the rulebook when the broken bound is a rulebook line."""
        try:
            return check_payload(spec.fields, event.data)
        except SchemaError as exc:
            raise payload_refusal(spec.fields, event.data, exc) from None

    def clone(self, state: State) -> State:
        """A copy of ``state`` that an effect may edit in place. Default: a deep copy; a game whose states
        are large copies only what its effects change."""
        return copy.deepcopy(state)

    def settle(self, new: State, event: Event) -> State:
        """What follows from an entry's effect (scores, the next turn, the winner), derived on ``new`` (the
        edited clone); returns the state. Default: nothing more."""
        return new

    def outcome(self, state: State) -> Outcome | None:
        """None while the game goes on, else how it ended."""
        raise NotImplementedError

    def legal_moves(self, state: State) -> list[Event] | None:
        """Every complete event ``validate`` accepts now, or None where the game cannot list them."""
        return None

    def view(self, state: State, seat: int | None) -> State:
        """The state as ``seat`` may see it (None: a spectator). Default: everything is public."""
        return state

    def redact_event(self, event: Event, state_before: State, viewer_seat: int | None) -> Event:
        """A recorded entry as ``viewer_seat`` may read it in the log (None: a spectator).

        ``state_before`` is the full state the entry was applied to. Return the event with whatever that
        viewer could not have seen at the table removed (e.g. the name of a card placed face-down by another
        seat); return it unchanged when everything is public (the default). Never called for the whole table
        (``matches.store.visibility.TABLE``).
        """
        return event

    def visible_moves(self, state: State, viewer_seat: int | None) -> list[Event] | None:
        """The legal moves as ``viewer_seat`` may know them (None: a spectator); never called for the table.

        Default: :meth:`legal_moves` of what the viewer sees (:meth:`view`, so a move that only the hidden
        information makes legal is not listed as such), each move shown as :meth:`redact_event` would show
        it in the log, without repeats. ``view`` must therefore return a state ``legal_moves`` accepts.
        """
        if not self.hides_information:
            return self.legal_moves(state)
        moves = self.legal_moves(self.view(state, viewer_seat))
        if moves is None:
            return None
        out: dict[str, Event] = {}
        for move in moves:
            shown = self.redact_event(move, state, viewer_seat)
            out.setdefault(json.dumps(shown.to_dict(), sort_keys=True), shown)
        return list(out.values())

    def hidden_from(self, state: State, seat: int | None) -> bool:
        """Whether anything of ``state`` may be hidden from ``seat`` (None: a spectator) right now, judged only
        from what that seat sees (``state`` may be its view): a face-down card on another seat's board, another
        seat's unrevealed origin. Never from the secret itself (whether the card was named, which origin): the
        offline page checks moves itself only when nothing may be hidden. Default: whether the game hides
        anything at all; a game with hidden information says when it starts and stops."""
        return self.hides_information

    @property
    def hides_information(self) -> bool:
        """Whether this game has hidden information: it overrides :meth:`view` or :meth:`redact_event`.

        Readers skip the redaction work (folding the log to give ``state_before``) when it is False.
        """
        cls = type(self)
        return cls.view is not Ruleset.view or cls.redact_event is not Ruleset.redact_event

    def turn(self, state: State) -> TurnInfo:
        """Who may act now and in which phase; used to preselect the seat in forms."""
        return TurnInfo(seats=(), phase="")

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One plain sentence for the history timeline (names seats as "Seat N").

        ``before``: the state the entry was recorded on, when the caller has it (always, for a game that sets
        ``describe_uses_state``); a sentence must still be written without it. Callers show it through
        ``rulesets.replay.describe_entry``, which puts the players' names in.
        """
        who = seat_names[event.seat] if event.seat is not None and event.seat < len(seat_names) else "Table"
        label = self.event_types[event.type].label if event.type in self.event_types else event.type
        return f"{who}: {label}"

    def history_group(self, state: State, event: Event) -> str:
        """The round an entry belongs to, in words, from the state it was recorded on ("Round 2"), for the
        grouped history; "" where the game counts no rounds (the history then groups by players' turns).
        The default reads a whole-number ``round`` from the state, else from the entry's data (a score sheet)."""
        for source in (state, event.data):
            n = source.get("round") if isinstance(source, dict) else None
            if isinstance(n, int) and not isinstance(n, bool):
                return f"Round {n}"
        return ""

    @property
    def random_start(self) -> bool:
        """Whether who starts may be drawn at random: the start option's field offers ``"random"``."""
        return any(f.name == self.start_option and RANDOM in f.choices for f in self.options_schema)

    def start_seat(self, options: dict[str, Any]) -> int:
        """The seat ``options`` name to start (0 while a random start is not drawn yet, or without the option)."""
        value = options.get(self.start_option) if self.start_option else None
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def start_with(self, state: State, seat: int) -> State:
        """The state before the first move with ``seat`` starting instead (the drawn first player); the input
        is untouched. Raises :class:`RuleViolation` for a seat the game does not have. Games with
        ``random_start`` override it."""
        raise NotImplementedError

    def seat_words(self, state: State, seat_names: list[str]) -> list[str]:
        """The seats as the game's entries name them, in seat order, for a form's seat choice: the players'
        names by default; a game whose seats stand for characters (a Saltmarsh hero) names those."""
        return list(seat_names)

    def names(self, state: State, seat: int | None) -> dict[str, list[str]]:
        """Lists of names the forms offer for fields that declare ``Field.names`` (e.g. ``"hand"``: the cards
        ``seat`` may play), where the legal moves cannot list them. Default: none."""
        return {}

    def board_size(self, state: State) -> tuple[int, int] | None:
        """``(rows, columns)`` of a fixed rectangular board, so a form can draw a list of tiles as a grid to tick
        (cells ``[row, column]`` from 0); None (the default) for games without one."""
        return None

    def catalog_defaults(self) -> dict[str, Any]:
        """Fresh data a new card catalog of this game starts from (``matches.catalogs``), keyed by option name.
        Default: a copy of each option's default; a game whose catalog starts elsewhere overrides it."""
        return {f.name: copy.deepcopy(f.default) for f in self.options_schema}

    def check_options(self, options: dict[str, Any]) -> list[str]:
        """Cross-field checks on options beyond their schema; returns human-readable problems."""
        return []

    def insights(self, state: State) -> dict[str, Any]:
        """Facts of a finished game worth counting across many games (e.g. the winning line's kind), as flat
        JSON values keyed by a stable name; shown on the game's statistics page. Default: none."""
        return {}

    # insight keys whose values are numbers (one per combat, per seat…): shown as a distribution, not a tally
    numeric_insights: frozenset[str] = frozenset()

    def log_insights(self, steps: Iterable[tuple[Event, State, State]]) -> dict[str, Any]:
        """Facts of a finished game drawn from its event log, in the shape of :meth:`insights` (merged with it).

        ``steps`` lazily replays the match (``rulesets.replay.walk``: each counted entry with the states
        before and after it); a game that does not iterate it costs nothing. The states hold hidden
        information: a fact must be something a spectator at the table could have counted. Default: none."""
        return {}

    def check_setup(self, options: dict[str, Any], seat_count: int) -> list[str]:
        """Checks of options against the number of seats (a seat index, one value per seat)."""
        return []

    def warnings(self, state: State) -> list[str]:
        """Advice to show beside the state (e.g. a house rule the rulebook advises against)."""
        return []
