"""Checking one entry of a match exactly as the server does before it appends, with no server at all.

This is the one pure entry point for "may this entry be recorded here, and what follows": the server's
append path calls its parts (``clean_entry`` from ``matches.services.event_clean``, ``step``/``void_refusal``/
``void_broken`` from ``matches.store``, ``refusal_body`` from ``matches.errors``), and the match page runs
the very same file in the browser (Pyodide, ``frontend/static/frontend/offline/rules.js``) through
:func:`record_json`. So a refusal offline has the code, message and rule the server would answer, by
construction.

Positions travel as plain JSON (``position``): ``{game, options, version, state, override_pending,
seat_names, complete?, viewer?}``. ``state`` is the reducer's own state (seats as "Seat N"); ``complete``
is False when the state is a reader's view with something hidden from them (then only the entry's shape can
be checked here, and the rules are left to the server: the answer is ``{"ok": None, ...}``); ``viewer``
``{everything, seat, revealed?}`` is who reads it (the legal moves are listed as that reader may know them;
``revealed``: a seat shown on a shared device until the next entry).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.base import Event, Ruleset, RuleViolation, State, TurnInfo
from rulesets.names import name_all, name_seats, turn_line
from rulesets.registry import UnknownGame, get_ruleset
from rulesets.replay import (
    CORRECTIONS_RULE,
    EVENT_VOIDED,
    FIRST_PLAYER_DRAWN,
    PHOTO_TYPES,
    RESULT_KEY,
    RESULT_RECORDED,
    RULE_OVERRIDDEN,
    UNDO_REASON,
    Position,
    ReplayError,
    describe_entry,
    event_types_with_meta,
    fold,
    house_rule_offered,
    outcome_of,
    random_start_refusal,
    result_problems,
    step,
    voided_versions,
)
from rulesets.schema import RANDOM, SchemaError, check_payload, explain
from rulesets.versions import RULES_UPGRADED, initial_state, rules_of

INVALID = "invalid"
RULE_VIOLATION = "rule_violation"
HIDDEN_REASON = (
    "Something on this match is hidden from this device (a secret card or origin), so only the server can "
    "check this entry; it will when the phone is back online."
)
SPENT_REASON = (
    "Even the house rule cannot place this move: the server will refuse it and withdraw the house rule, so this "
    "phone leaves it to the server."
)
VOID_NEEDS_LOG = (
    "Undoing an entry is checked against the whole log up to this position; without it only the server can check it."
)


class EntryInvalid(Exception):
    """An entry that does not fit its type: unknown type, a bad seat, data that does not fit the fields.

    ``errors``: field path → messages; ``rule``: the rulebook section when the broken bound is a rulebook
    line. :meth:`body` is the server's 400 body (``{code: "invalid", detail, errors, rule?}``).
    """

    def __init__(self, errors: dict[str, list[str]], detail: str = "", rule: str = "") -> None:
        self.errors = errors
        self.detail = invalid_detail(errors, detail)
        self.rule = rule
        super().__init__(self.detail)

    def body(self) -> dict[str, Any]:
        return invalid_body(self.errors, self.detail, self.rule)


# an entry's envelope as a player reads it, when a phone shows why the server would not take an entry
ENVELOPE_WORDS = {
    "type": "The kind of move",
    "seat": "The player",
    "data": "The move's details",
    "version": "The move number",
    "reason": "The reason",
}
_MISSING = ("This field may not be blank.", "This field is required.", "This field may not be null.")


def invalid_detail(errors: dict[str, list[str]], detail: str = "") -> str:
    """The ``detail`` of an ``invalid`` answer: ``detail`` when given, else the first field's messages; the
    envelope's fields in players' words ("The kind of move is missing."), others by their path."""
    if detail:
        return detail
    path, messages = next(iter(errors.items()), ("", [""]))
    said = " ".join(messages)
    if path in ENVELOPE_WORDS:
        if said in _MISSING:
            return f"{ENVELOPE_WORDS[path]} is missing."
        return f"{ENVELOPE_WORDS[path]}: {said[:1].lower()}{said[1:]}"
    return f"Invalid {path}: {said}"


def invalid_body(errors: dict[str, list[str]], detail: str, rule: str = "") -> dict[str, Any]:
    """The 400 body of an entry that does not fit (``matches.errors.InvalidInput.body`` is this)."""
    body: dict[str, Any] = {"code": INVALID, "detail": detail, "errors": errors}
    if rule:
        body["rule"] = rule
    return body


def refusal_body(
    code: str, message: str, rule: str, seat_names: Sequence[str] = (), *, overridable: bool = True
) -> dict[str, Any]:
    """The 400 body of an entry the rules refuse, "Seat N" named (``matches.errors.RuleBroken.body``);
    ``overridable`` says whether it may be recorded anyway as a house rule (``replay.house_rule_offered``)."""
    detail = name_seats(message, seat_names) if seat_names else message
    offered = house_rule_offered(rule, overridable)
    return {"code": RULE_VIOLATION, "violation": code, "rule": rule, "detail": detail, "overridable": offered}


def clean_entry(ruleset: Ruleset, seat_count: int, type_: Any, seat: Any, data: Any, *, photo: bool = False) -> Event:
    """Check an entry's envelope and payload against the ruleset's event types; the cleaned event.

    Raises :class:`EntryInvalid` for an unknown type, a missing/extra/out-of-range seat, or a payload that does
    not fit the type's fields. Corrections and results are the table's: their seat is dropped. A photo entry
    is refused unless ``photo`` (only ``matches.photos`` writes one: it names files it stored).
    """
    types = event_types_with_meta(ruleset)
    if type_ == FIRST_PLAYER_DRAWN:
        raise EntryInvalid(
            {"type": ["Who starts is drawn by Chronicle itself: create the match with who starts set to random."]}
        )
    if type_ in PHOTO_TYPES and not photo:
        raise EntryInvalid(
            {"type": [f"'{type_}' is recorded by uploading or removing a photo (…/photos/), not typed."]}
        )
    if not isinstance(type_, str) or type_ not in types:
        known = ", ".join(sorted(types))
        raise EntryInvalid({"type": [f"Unknown event type {type_!r} for {ruleset.name}. Known: {known}."]})
    spec = types[type_]
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise EntryInvalid({"seat": ["Must be a seat index (0, 1, …) or null."]})
    if spec.seat_required and seat is None:
        raise EntryInvalid({"seat": [f"'{type_}' needs the acting seat."]})
    if seat is not None and not 0 <= seat < seat_count:
        where = f"seats 0 to {seat_count - 1}" if seat_count else "no seats (name heroes in the data instead)"
        raise EntryInvalid({"seat": [f"No seat {seat}: this stream has {where}."]})
    if type_ in (EVENT_VOIDED, RULE_OVERRIDDEN, RESULT_RECORDED) or type_ in PHOTO_TYPES:
        seat = None  # corrections, results and photos are the table's, whoever typed them
    try:
        cleaned = check_payload(spec.fields, data if data is not None else {})
    except SchemaError as exc:
        errors = {f"data.{k}" if k != "data" else "data": v for k, v in exc.errors.items()}
        sentence, rule = explain(spec.fields, data, exc)  # a bound that is a rulebook line names its rule
        raise EntryInvalid(errors, detail=sentence, rule=rule) from None
    if type_ == RESULT_RECORDED:
        problems = result_problems(cleaned, seat_count)
        if problems:
            raise EntryInvalid(problems)
    return Event(type=type_, seat=seat, data=cleaned)


MATCH_KIND = "match"  # matches.models.Stream.KIND_MATCH
SEAT_NAME_MAX = 80  # matches.api.serializers.SeatInput


def clean_options(ruleset: Ruleset, options: Any, seat_count: int | None = None) -> dict[str, Any]:
    """``options`` checked against the ruleset's schema (and ``seat_count`` when given), defaults filled in.

    Raises :class:`EntryInvalid` (``options.<field>`` errors; a rulebook bound names its rule)."""
    try:
        cleaned = check_payload(ruleset.options_schema, options if options is not None else {})
    except SchemaError as exc:
        errors = {f"options.{k}" if k != "data" else "options": v for k, v in exc.errors.items()}
        sentence, rule = explain(ruleset.options_schema, options, exc)
        raise EntryInvalid(errors, detail=sentence if rule else "", rule=rule) from None
    problems = ruleset.check_options(cleaned)
    if seat_count is not None:
        problems = [*problems, *ruleset.check_setup(cleaned, seat_count)]
    if problems:
        raise EntryInvalid({"options": problems})
    return cleaned


def clean_setup(ruleset: Ruleset, seats: Any, options: Any) -> tuple[list[str], dict[str, Any]]:
    """Everything the server checks about a new match before it creates it (``services.match_create``): a
    match game, a seat count the game allows, named seats (at most 80 characters, no two alike), a random
    start only where the game has one, and the options. Returns the seat names (spaces folded) and the cleaned
    options; raises :class:`EntryInvalid` with the server's errors."""
    if ruleset.kind != MATCH_KIND:
        raise EntryInvalid({"game": [f"{ruleset.name} is a {ruleset.kind} game: start it as a {ruleset.kind}."]})
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise EntryInvalid({"seats": ["Must be a list of seats."]})
    if len(seats) not in ruleset.seats:
        allowed = ", ".join(str(n) for n in ruleset.seats)
        raise EntryInvalid({"seats": [f"{ruleset.name} is played by {allowed} seat(s); got {len(seats)}."]})
    names = [" ".join(str(s.get("name", "")).split()) for s in seats]
    errors = {f"seats[{i}].name": ["A seat needs a name."] for i, n in enumerate(names) if not n}
    errors.update(
        {
            f"seats[{i}].name": [f"At most {SEAT_NAME_MAX} characters."]
            for i, n in enumerate(names)
            if len(n) > SEAT_NAME_MAX
        }
    )
    lowered = [n.lower() for n in names]
    errors.update(
        {
            f"seats[{i}].name": ["Two seats have the same name."]
            for i, n in enumerate(lowered)
            if n and lowered.count(n) > 1
        }
    )
    if errors:
        raise EntryInvalid(errors)
    key = ruleset.start_option or "first_seat"
    if isinstance(options, dict) and options.get(key) == RANDOM:
        refusal = random_start_refusal(ruleset)
        if refusal is not None:
            raise EntryInvalid({f"options.{key}": [refusal]})
    return names, clean_options(ruleset, options, len(seats))


RANDOM_START_OFFLINE = (
    "Who starts is drawn by the server when the match reaches it, so it cannot be drawn on this phone: pick who "
    "starts, or start the match when the network is back."
)


def start_json(body: dict[str, Any]) -> dict[str, Any]:
    """A match started on a device with no network (``{game, seats: [{name}], options?}``, the API's create
    body): ``{"ok": True, "position", "turn", "legal"}`` (version 0, the whole table's view), or ``{"ok":
    False, "status": 400, "body"}`` with the server's body. A random start is refused here (the server draws
    it, as the match's first entry, only when it creates the match)."""
    if not isinstance(body, dict):
        return {"ok": False, "status": 400, "body": invalid_body({"body": ["Send a JSON object."]}, "")}
    try:
        ruleset = get_ruleset(str(body.get("game", "")))
    except UnknownGame:
        errors = {"game": [f"Unknown game {body.get('game')!r}."]}
        return {"ok": False, "status": 400, "body": invalid_body(errors, invalid_detail(errors))}
    try:
        names, options = clean_setup(ruleset, body.get("seats"), body.get("options"))
    except EntryInvalid as exc:
        return {"ok": False, "status": 400, "body": exc.body()}
    if ruleset.start_option and options.get(ruleset.start_option) == RANDOM:
        errors = {f"options.{ruleset.start_option}": [RANDOM_START_OFFLINE]}
        return {"ok": False, "status": 400, "body": invalid_body(errors, RANDOM_START_OFFLINE)}
    position = {
        "game": ruleset.slug, "options": options, "version": 0,
        "state": ruleset.initial_state(options, len(names)), "override_pending": False, "seat_names": names,
        "complete": True, "viewer": {"everything": True, "seat": None, "revealed": False},
    }  # fmt: skip
    return {"ok": True, "position": position, "turn": turn_json(position), "legal": legal_json(position)}


TYPE_MAX_LENGTH = 64  # matches.api.serializers.EventInput
SEAT_MAX = 99


def envelope(entry: Any) -> tuple[str, int | None, Any]:
    """``(type, seat, data)`` of an API body ``{type, seat?, data?}`` as ``matches.api.serializers.EventInput`` reads
    it (DRF and ``config.api.JsonInput``), with its very words on a refusal (:class:`EntryInvalid`):
    ``tests/matches/test_offline_entry.py`` holds the two equal. The envelope's other fields (versions,
    keys, times) are the sync's, not the rules'."""
    if not isinstance(entry, dict):
        raise EntryInvalid({"body": ["Send a JSON object."]})
    type_, seat, data = entry.get("type"), entry.get("seat"), entry.get("data")
    shapes = {}
    if type_ is not None and not isinstance(type_, str):
        shapes["type"] = ["Must be a string."]
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        shapes["seat"] = ["Must be a whole number."]
    if shapes:
        raise EntryInvalid(shapes)
    errors: dict[str, list[str]] = {}
    if "type" not in entry:
        errors["type"] = ["This field is required."]
    elif type_ is None:
        errors["type"] = ["This field may not be null."]
    else:
        type_ = type_.strip()
        if not type_:
            errors["type"] = ["This field may not be blank."]
        elif len(type_) > TYPE_MAX_LENGTH:
            errors["type"] = [f"Ensure this field has no more than {TYPE_MAX_LENGTH} characters."]
    if seat is not None and seat < 0:
        errors["seat"] = ["Ensure this value is greater than or equal to 0."]
    elif seat is not None and seat > SEAT_MAX:
        errors["seat"] = [f"Ensure this value is less than or equal to {SEAT_MAX}."]
    if "data" in entry and data is None:
        errors["data"] = ["This field may not be null."]
    if errors:
        raise EntryInvalid(errors)
    return type_, seat, data if "data" in entry else {}


# -- voids ------------------------------------------------------------------------------------------------


def void_refusal(target: int, latest: int, target_type: str | None, already_voided: bool) -> RuleViolation | None:
    """Why entry ``target`` may not be voided on a stream at version ``latest`` (``target_type``: that entry's
    type, None when there is none; ``already_voided``: a void names it already), or None when it may so far
    (the replay without it decides the rest: :func:`void_broken`)."""
    if target > latest:
        return RuleViolation(
            "no_such_entry", f"There is no entry {target} to void; the latest is {latest}.", CORRECTIONS_RULE
        )
    if target_type is None:
        return RuleViolation("no_such_entry", f"There is no entry {target} to void.", CORRECTIONS_RULE)
    if target_type == EVENT_VOIDED:
        return RuleViolation(
            "cannot_void_void", "A void cannot itself be voided; record the entry again instead.", CORRECTIONS_RULE
        )
    if target_type == FIRST_PLAYER_DRAWN:
        return RuleViolation(
            "cannot_void_draw",
            "The draw of who starts is what chance decided and cannot be voided; start a rematch to draw again.",
            CORRECTIONS_RULE,
        )
    if target_type == RULES_UPGRADED:
        return RuleViolation(
            "cannot_void_upgrade",
            "Replaying a match under the current rules is not undone: the older rules are kept only for matches "
            "recorded under them (Chronicle › Rule versions).",
            CORRECTIONS_RULE,
        )
    if already_voided:
        return RuleViolation("already_voided", f"Entry {target} is already voided.", CORRECTIONS_RULE)
    return None


def void_broken(target: int, exc: ReplayError) -> RuleViolation:
    """The refusal of a void whose replay without entry ``target`` failed at a later entry (``exc``)."""
    reason = exc.violation.message if exc.violation else exc.detail
    return RuleViolation(
        "void_breaks_later_entry",
        f"Voiding entry {target} would make entry {exc.version} illegal: {reason} "
        f"Void the later entries first (newest first).",
        CORRECTIONS_RULE,
    )


def void_position(
    ruleset: Ruleset,
    options: dict[str, Any],
    seat_count: int,
    log: Sequence[tuple[int, Event]],
    target: int,
    rules_version: int | None = None,
) -> Position:
    """The position after voiding entry ``target`` of the whole ``log`` (every ``(version, event)`` from 1):
    replayed from the initial state (judged under ``rules_version``, None: the current rules) without it,
    every later entry checked again. Raises :class:`RuleViolation` as the server refuses the void."""
    latest = log[-1][0] if log else 0
    types = {version: event.type for version, event in log}
    voided = voided_versions(log)
    refusal = void_refusal(target, latest, types.get(target), target in voided)
    if refusal is not None:
        raise refusal
    start = Position(initial_state(ruleset, options, seat_count, rules_version), 0, False)
    try:
        pos = fold(ruleset, start, log, voided | {target}, check=True)
    except ReplayError as exc:
        raise void_broken(target, exc) from None
    return Position(pos.state, latest + 1, pos.override_pending)


# -- the turn banner --------------------------------------------------------------------------------------


def turn_of(ruleset: Ruleset, state: State) -> TurnInfo:
    """Whose turn it is in ``state``: nobody once the table recorded the result."""
    if state.get(RESULT_KEY) is not None:
        return TurnInfo(seats=(), phase="over")
    return ruleset.turn(state)


def legal_of(ruleset: Ruleset, state: State, everything: bool = True, seat: int | None = None) -> list[Event] | None:
    """The moves the rules accept in the full ``state`` as a reader may know them (``everything``: the whole
    table, else ``seat``'s view, None a spectator's); [] after a recorded result; None where the game cannot
    list them (``matches.selectors.match_legal_moves``)."""
    if state.get(RESULT_KEY) is not None:
        return []
    return ruleset.legal_moves(state) if everything else ruleset.visible_moves(state, seat)


def table_words(ruleset: Ruleset, state: State, seat_names: Sequence[str]) -> dict[str, Any]:
    """What the page's table bar says for ``state``: whose turn (seats, phase, the prompt and the whole turn
    line, players named), the outcome (wire shape, named) and the ruleset's warnings."""
    turn = turn_of(ruleset, state)
    outcome = outcome_of(ruleset, state)
    return {
        "seats": list(turn.seats),
        "phase": turn.phase,
        "prompt": name_seats(turn.prompt, seat_names),
        "line": turn_line(turn.seats, turn.prompt, seat_names),
        "outcome": name_all(outcome.to_dict(), list(seat_names)) if outcome else None,
        "warnings": [name_seats(w, seat_names) for w in ruleset.warnings(state)],
    }


# -- one entry, as JSON in and out ------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A match as the offline check needs it: its ruleset, options, seat names and who reads it."""

    ruleset: Ruleset
    options: dict[str, Any]
    seat_names: list[str]
    complete: bool = True
    everything: bool = True
    seat: int | None = None

    @property
    def seat_count(self) -> int:
        return len(self.seat_names)


def _table(position: dict[str, Any]) -> tuple[Table, Position]:
    viewer = position.get("viewer") or {}
    table = Table(
        ruleset=get_ruleset(position["game"]),
        options=position.get("options") or {},
        seat_names=list(position.get("seat_names") or []),
        complete=position.get("complete", True) is not False,
        everything=viewer.get("everything", True) is not False,
        seat=viewer.get("seat"),
    )
    pos = Position(position["state"], int(position.get("version") or 0), bool(position.get("override_pending")))
    return table, pos


def _position_json(position: dict[str, Any], pos: Position) -> dict[str, Any]:
    """The position after an entry: a seat revealed on a shared device is hidden again by it, as on the server
    (``matches.store.visibility.revealed_seat``): the reader sees a spectator's view from then on."""
    out = {**position, "version": pos.version, "state": pos.state, "override_pending": pos.override_pending}
    if (position.get("viewer") or {}).get("revealed"):
        out["viewer"] = {"everything": False, "seat": None, "revealed": False}
    return out


def _log(log: Iterable[dict[str, Any]]) -> list[tuple[int, Event]]:
    return [(int(e["version"]), Event(e["type"], e.get("seat"), e.get("data") or {})) for e in log]


def _shown(table: Table, state: State) -> State:
    """``state`` as the reader may see it, players named (the append answer's ``state``)."""
    seen = state if table.everything else table.ruleset.view(state, table.seat)
    return name_all(seen, table.seat_names)


def _moves(table: Table, state: State) -> list[dict[str, Any]] | None:
    moves = legal_of(table.ruleset, state, table.everything, table.seat)
    return None if moves is None else [m.to_dict() for m in moves]


def record(position: dict[str, Any], entry: dict[str, Any], log: Sequence[dict[str, Any]] | None = None) -> dict:
    """Check ``entry`` (``{type, seat, data}``) on ``position`` as the server would and answer in JSON:

    - ``{"ok": True, "position", "outcome", "turn", "legal", "words", "state", "entry"}`` when the server would
      record it (``state``: the new state as the reader sees it, named; ``entry``: the cleaned entry);
    - ``{"ok": False, "status": 400, "body"}`` with exactly the server's 400 body when it would refuse it;
    - ``{"ok": None, "reason"}`` when this position cannot decide (something is hidden from the reader, a void
      without the ``log``, or a move even a pending house rule cannot place, which the server refuses and answers
      by withdrawing the house rule): the server will.

    ``log`` (``[{version, type, seat, data}]``, every entry up to ``position.version``) is needed for a void.
    """
    try:
        table, pos = _table(position)
    except (UnknownGame, KeyError, TypeError, ValueError) as exc:
        return {"ok": None, "reason": f"Not a position this page can check ({exc!r})."}
    ruleset = table.ruleset
    try:
        type_, seat, data = envelope(entry)
        event = clean_entry(ruleset, table.seat_count, type_, seat, data)
    except EntryInvalid as exc:
        return {"ok": False, "status": 400, "body": exc.body()}
    if not table.complete:
        return {"ok": None, "reason": HIDDEN_REASON}
    try:
        if event.type == EVENT_VOIDED:
            entries = None if log is None else _log(log)
            if entries is None or (entries[-1][0] if entries else 0) != pos.version:
                return {"ok": None, "reason": VOID_NEEDS_LOG}  # no log, or one that does not reach this position
            target = int(event.data["version"])
            rules = rules_of(ruleset, pos.state)  # the rules this match is judged under
            nxt = void_position(ruleset, table.options, table.seat_count, entries, target, rules)
        else:
            nxt = step(ruleset, pos, event, check=True)
    except RuleViolation as violation:
        if violation.code == "unplayable" and pos.override_pending:
            # the server spends the house rule (it records its void with the refusal): its answer, not ours
            return {"ok": None, "reason": SPENT_REASON}
        body = refusal_body(
            violation.code, violation.message, violation.rule, table.seat_names, overridable=violation.overridable
        )
        return {"ok": False, "status": 400, "body": body}
    words = describe_entry(ruleset, event, table.seat_names, before=pos.state)
    turn = table_words(ruleset, nxt.state, table.seat_names)
    after = _position_json(position, nxt)
    reader, _ = _table(after)  # who reads the answer: a reveal ends with the entry
    return {
        "ok": True,
        "position": after,
        "outcome": turn["outcome"],
        "turn": turn,
        "legal": _moves(reader, nxt.state),
        "words": words,
        "state": _shown(reader, nxt.state),
        "entry": event.to_dict(),
    }


def fold_entries(
    position: dict[str, Any], entries: Sequence[dict[str, Any]], log: Sequence[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """:func:`record` each of ``entries`` in turn; stops at the first that is not recorded.

    ``{"ok": True, "position", "results"}`` when all were; else ``{"ok": False | None, "position"`` (the last
    good one) ``, "refused_at"`` (index), ``"body"`` or ``"reason", "results"}``. ``log``: as for
    :func:`record`; entries recorded here are added to it for later voids."""
    current = position
    running = None if log is None else [dict(e) for e in log]
    results: list[dict[str, Any]] = []
    for i, entry in enumerate(entries):
        answer = record(current, entry, running)
        results.append(answer)
        if answer["ok"] is not True:
            out = {"ok": answer["ok"], "position": current, "refused_at": i, "results": results}
            out.update({k: answer[k] for k in ("body", "reason", "status") if k in answer})
            return out
        current = answer["position"]
        if running is not None:
            running.append({"version": current["version"], **answer["entry"]})
    return {"ok": True, "position": current, "results": results}


def turn_json(position: dict[str, Any]) -> dict[str, Any]:
    """The table bar's words for ``position`` (:func:`table_words`)."""
    table, pos = _table(position)
    return table_words(table.ruleset, pos.state, table.seat_names)


def legal_json(position: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The legal moves in ``position`` as its reader may know them (``[{type, seat, data}]``), None where the
    game cannot list them or the position is incomplete (the reader's view hides something)."""
    table, pos = _table(position)
    if not table.complete:
        return None
    return _moves(table, pos.state)


def reading_json(position: dict[str, Any]) -> dict[str, Any]:
    """What a page shows of ``position`` (``frontend/offline/board.py`` draws the board from it, as the server
    draws it from ``matches.selectors.match_state``): ``state`` as the reader may see it, players named;
    ``turn`` (:func:`table_words`); ``legal`` as :func:`legal_json`."""
    table, pos = _table(position)
    return {
        "state": _shown(table, pos.state),
        "turn": table_words(table.ruleset, pos.state, table.seat_names),
        "legal": _moves(table, pos.state) if table.complete else None,
    }


def describe_json(position: dict[str, Any], entry: dict[str, Any]) -> str:
    """The history sentence for ``entry`` recorded on ``position`` (``replay.describe_entry``)."""
    table, pos = _table(position)
    event = Event(entry.get("type", ""), entry.get("seat"), entry.get("data") or {})
    return describe_entry(table.ruleset, event, table.seat_names, before=pos.state)


def void_json(position: dict[str, Any], log: Sequence[dict[str, Any]] | None, version: int, reason: str = "") -> dict:
    """:func:`record` of ``event_voided {version, reason}`` on ``position`` with the whole ``log``, the pages'
    undo: a blank ``reason`` is theirs ("Undone at the table")."""
    data = {"version": version, "reason": reason.strip() or UNDO_REASON}
    return record(position, {"type": EVENT_VOIDED, "seat": None, "data": data}, log)


OPERATIONS = {
    "record": record,
    "fold": fold_entries,
    "legal": legal_json,
    "turn": turn_json,
    "describe": describe_json,
    "void": void_json,
    "start_match": start_json,
}


def handle(request: str) -> str:
    """The browser's one call into Python (``rules.js``): ``{"op", "args"}`` as JSON in, the answer as JSON
    out (``{"error": …}`` when the call itself fails: a bug, never a refusal)."""
    try:
        asked = json.loads(request)
        answer = OPERATIONS[asked["op"]](*asked.get("args", []))
    except Exception as exc:  # the page must get an answer it can show, never a Python traceback
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
    return json.dumps(answer)
