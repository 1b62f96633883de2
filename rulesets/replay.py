"""Folding an event sequence into a state, with the table-level entries every game shares.

``event_voided {version, reason}`` hides an earlier event from the reducer (the log keeps both),
``rule_overridden {reason}`` lets the next game event through without the rules check, (matches only)
``result_recorded {winners, draw, scores, note}`` ends a match played without move entry, and
``first_player_drawn {seat}`` is the server's random draw of who starts, recorded as the first entry of a
match created with "who starts: random" (``Ruleset.start_with`` puts the seat into the state). All four are
handled here, once, for every ruleset; :func:`outcome_of` is the one way to ask how a match ended.

``photo_added {photo, caption, at, ...}`` and ``photo_removed {photo, reason, file}`` are photos of the table
(``matches.photos``): entries of the log that every game accepts, at any point (after the end too), and that
leave the game state as it is (a pending override still waits for its move).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State
from rulesets.names import name_seats, seat_ref
from rulesets.schema import Field
from rulesets.versions import RULES_UPGRADED, initial_state, upgrade_words

EVENT_VOIDED = "event_voided"
UNDO_REASON = "Undone at the table"  # the reason the pages' undo records when none is typed
RULE_OVERRIDDEN = "rule_overridden"
RESULT_RECORDED = "result_recorded"
FIRST_PLAYER_DRAWN = "first_player_drawn"
PHOTO_ADDED = "photo_added"
PHOTO_REMOVED = "photo_removed"
PHOTO_TYPES = frozenset({PHOTO_ADDED, PHOTO_REMOVED})
RESULT_KEY = "recorded_result"  # reserved state key holding a table-recorded result
MAX_SEATS = 12

META_EVENT_TYPES: dict[str, EventType] = {
    EVENT_VOIDED: EventType(
        name=EVENT_VOIDED,
        label="Entry voided",
        seat_required=False,
        fields=(
            Field("version", "int", minimum=1, label="Version to void"),
            Field("reason", "str", max_length=500, label="Reason"),
        ),
        description="Corrects a mistake: the entry at `version` no longer counts; the log keeps both.",
    ),
    RULE_OVERRIDDEN: EventType(
        name=RULE_OVERRIDDEN,
        label="Rule overridden",
        seat_required=False,
        fields=(Field("reason", "str", max_length=500, label="Reason (house rule)"),),
        description="The table deliberately lets the next move through without the rules check.",
    ),
    PHOTO_ADDED: EventType(
        name=PHOTO_ADDED,
        label="Photo added",
        seat_required=False,
        fields=(
            Field("photo", "str", max_length=40, label="Photo id"),
            Field("caption", "str", required=False, default="", max_length=300, label="Caption"),
            Field("at", "int", minimum=0, label="Taken at entry"),
            Field("display", "str", max_length=200, label="Stored display picture"),
            Field("thumb", "str", max_length=200, label="Stored thumbnail"),
            Field("width", "int", minimum=1, label="Width"),
            Field("height", "int", minimum=1, label="Height"),
            Field("bytes", "int", minimum=0, label="Bytes stored"),
            Field("source", "str", required=False, default="", max_length=20, label="Uploaded as"),
        ),
        description="A photo of the table, taken at entry `at`; the files are stored, the entry holds their keys.",
    ),
    PHOTO_REMOVED: EventType(
        name=PHOTO_REMOVED,
        label="Photo removed",
        seat_required=False,
        fields=(
            Field("photo", "str", max_length=40, label="Photo id"),
            Field("reason", "str", max_length=500, label="Reason"),
            Field("file", "choice", choices=("deleted", "kept"), label="The stored file"),
        ),
        description="A photo no longer shown; its file was deleted or kept, as the owner chose.",
    ),
}

RESULT_EVENT_TYPE = EventType(
    name=RESULT_RECORDED,
    label="Result recorded",
    seat_required=False,
    fields=(
        Field(
            "winners",
            "list",
            required=False,
            default=[],
            item=Field("seat", "int", minimum=0, maximum=MAX_SEATS - 1),
            max_items=MAX_SEATS,
            label="Winning seats",
        ),
        Field("draw", "bool", required=False, default=False, label="Draw (nobody won)"),
        Field("scores", "any", required=False, nullable=True, label="Scores by seat", help='{"0": 12, "1": 9}'),
        Field("note", "str", required=False, default="", max_length=500, label="Note"),
    ),
    description="Ends the match with the result the table played out (no move entry needed).",
)

CORRECTIONS_RULE = "Chronicle › Corrections"
HIDDEN_RULE = "Chronicle › Hidden information"  # the rule of sight: who may record what a seat hides
RESULT_RULE = "Chronicle › Recording a result"
START_RULE = "Chronicle › Who starts"
# entries that are the table's or the server's, not a player's move
TABLE_LEVEL_TYPES = frozenset(
    {EVENT_VOIDED, RULE_OVERRIDDEN, RESULT_RECORDED, FIRST_PLAYER_DRAWN, RULES_UPGRADED, *PHOTO_TYPES}
)
# entries the fold passes over (only the version moves): a void hides another entry; a rules upgrade changes
# the rules the whole stream is judged under, which the store puts in the initial state (rulesets.versions)
PASSED_OVER = frozenset({EVENT_VOIDED, RULES_UPGRADED})


@dataclass(frozen=True)
class Position:
    """A stream's folded state at ``version``; ``override_pending`` when the last entry was an override."""

    state: State
    version: int = 0
    override_pending: bool = False


class ReplayError(Exception):
    """A stored entry could not be applied on replay (the rules changed under it)."""

    def __init__(self, version: int, violation: RuleViolation | None, detail: str) -> None:
        super().__init__(detail)
        self.version = version
        self.violation = violation
        self.detail = detail


def event_types_with_meta(ruleset: Ruleset) -> dict[str, EventType]:
    """The ruleset's own event types plus the table-level ones (``result_recorded`` for match games)."""
    extra = {RESULT_RECORDED: RESULT_EVENT_TYPE} if ruleset.kind == "match" else {}
    return {**ruleset.event_types, **META_EVENT_TYPES, **extra}


def result_problems(data: dict[str, Any], seat_count: int) -> dict[str, list[str]]:
    """What is wrong with a (schema-checked) ``result_recorded`` payload for ``seat_count`` seats."""
    errors: dict[str, list[str]] = {}
    winners = data.get("winners") or []
    bad = [w for w in winners if not 0 <= w < seat_count]
    if bad:
        errors["data.winners"] = [f"No seat {bad[0]}: this match has seats 0 to {seat_count - 1}."]
    elif len(set(winners)) != len(winners):
        errors["data.winners"] = ["A seat is listed twice."]
    if data.get("draw") and winners:
        errors["data.draw"] = ["A draw has no winners; for a shared win list the winners and leave draw false."]
    scores = data.get("scores")
    if scores is not None:
        if not isinstance(scores, dict):
            errors["data.scores"] = ['Must be an object mapping seat to points, e.g. {"0": 12, "1": 9}.']
        else:
            for key, value in scores.items():
                if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < seat_count):
                    errors["data.scores"] = [f"'{key}' is not a seat of this match (0 to {seat_count - 1})."]
                    break
                if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                    errors["data.scores"] = [f"The score of seat {key} must be a number."]
                    break
                if abs(value) > 1e9:
                    errors["data.scores"] = [f"The score of seat {key} is out of range."]
                    break
    return errors


def outcome_of(ruleset: Ruleset, state: State) -> Outcome | None:
    """How the match in ``state`` ended: a table-recorded result wins over the rules' own outcome."""
    recorded = state.get(RESULT_KEY) if isinstance(state, dict) else None
    if recorded is not None:
        scores = recorded.get("scores")
        return Outcome(
            winners=tuple(recorded["winners"]),
            draw=recorded["draw"],
            reason=recorded.get("note") or "result recorded by the table",
            scores=None if scores is None else {int(k): v for k, v in scores.items()},
        )
    return ruleset.outcome(state)


def final_outcome_of(ruleset: Ruleset, state: State) -> Outcome | None:
    """:func:`outcome_of`, but None while that outcome is provisional (the table may still add to the final
    scoring): what match status, statistics, series and exports count."""
    outcome = outcome_of(ruleset, state)
    return None if outcome is None or outcome.provisional else outcome


def describe_entry(ruleset: Ruleset, event: Event, seat_names: list[str], before: State | None = None) -> str:
    """One plain sentence for any entry of a stream, table-level ones included; never raises. ``before``: the
    state the entry was recorded on, passed on to rulesets that describe with it (``describe_uses_state``).
    Seat tokens in the ruleset's sentence are rendered with ``seat_names`` (:mod:`rulesets.names`)."""
    data = event.data
    if event.type == EVENT_VOIDED:
        return void_words(data.get("version"), str(data.get("reason") or ""))
    if event.type == RULE_OVERRIDDEN:
        return f"House rule: the next move is let through ({data.get('reason', '')})"
    if event.type == RESULT_RECORDED:
        return "Result recorded: " + _result_sentence(data, seat_names)
    if event.type == RULES_UPGRADED:
        return upgrade_words(ruleset, data)
    if event.type == FIRST_PLAYER_DRAWN:
        seat = data.get("seat")
        who = seat_ref(seat) if isinstance(seat, int) and not isinstance(seat, bool) else "A player"
        return name_seats(f"{who} was drawn to start.", seat_names)
    if event.type == PHOTO_ADDED:
        caption = data.get("caption") or ""
        return f"Photo added: {caption}" if caption else "Photo added"
    if event.type == PHOTO_REMOVED:
        kept = "file kept" if data.get("file") == "kept" else "file deleted"
        return f"Photo removed ({kept}): {data.get('reason', '')}"
    try:
        text = ruleset.describe(event, seat_names, before)
    except Exception:  # a description must never break a page
        return event.type.replace("_", " ")
    return name_seats(text, seat_names)


def void_words(version: Any, reason: str, undone: str = "", who: str = "") -> str:
    """A void in players' words: "Ana's move 4 (took 2 stones) was undone at the table" when the undone entry's
    sentence (``undone``) and its seat's name (``who``) are known, "Move 4 was undone at the table" when not;
    a reason other than the pages' undo is quoted ("… was undone: wrong pile")."""
    how = " at the table" if reason.strip() in ("", UNDO_REASON) else f": {reason.strip()}"
    text = undone.strip().rstrip(".")
    if text and who and text.startswith(who + " "):
        return f"{who}'s move {version} ({text[len(who) + 1 :]}) was undone{how}"
    if text:
        return f"Move {version} ({text}) was undone{how}"
    return f"Move {version} was undone{how}"


def _result_sentence(data: dict[str, Any], seat_names: list[str]) -> str:
    def name(seat: int | str) -> str:
        i = int(seat)
        return name_seats(seat_ref(i), seat_names)

    winners = [name(w) for w in data.get("winners") or []]
    if data.get("draw"):
        text = "a draw"
    elif not winners:
        text = "nobody won"
    else:
        text = " and ".join(winners) + (" won" if len(winners) == 1 else " shared the win")
    scores = data.get("scores") or {}
    if scores:
        text += " (" + ", ".join(f"{name(k)} {v}" for k, v in sorted(scores.items(), key=lambda kv: int(kv[0]))) + ")"
    if data.get("note"):
        text += f"; {data['note']}"
    return text


def _record_result(ruleset: Ruleset, pos: Position, event: Event, check: bool) -> Position:
    if check:
        if pos.state.get(RESULT_KEY) is not None:
            raise RuleViolation(
                "game_over", "A result is already recorded; void it first to record another.", RESULT_RULE
            )
        ended = ruleset.outcome(pos.state)
        if ended is not None:
            raise RuleViolation(
                "game_over", f"The game is already over by its rules ({ended.reason}); nothing to record.", RESULT_RULE
            )
    data = event.data
    result = {
        "winners": list(data.get("winners") or []),
        "draw": bool(data.get("draw")),
        "scores": data.get("scores"),
        "note": data.get("note") or "",
    }
    return Position({**pos.state, RESULT_KEY: result}, pos.version + 1, False)


def random_start_refusal(ruleset: Ruleset) -> str | None:
    """Why ``ruleset`` cannot draw who starts at random (in words for people), or None when it can."""
    if ruleset.random_start:
        return None
    if not ruleset.start_option:
        return f"{ruleset.name} has no choice of who starts, so there is nothing to draw."
    return f"{ruleset.name} does not pick who starts at random: {ruleset.start_rule}"


def _draw_first_player(ruleset: Ruleset, pos: Position, event: Event, check: bool) -> Position:
    if check:
        refusal = random_start_refusal(ruleset)
        if refusal is not None:
            raise RuleViolation("no_random_start", refusal, START_RULE)
        if pos.version != 0:
            raise RuleViolation(
                "draw_after_start",
                "Who starts is drawn once, when the match is created, before the first entry.",
                START_RULE,
            )
    return Position(ruleset.start_with(pos.state, int(event.data["seat"])), pos.version + 1, False)


def step(
    ruleset: Ruleset, pos: Position, event: Event, *, check: bool = True, sight: frozenset[int] | None = None
) -> Position:
    """The position after recording one entry that is not a void.

    With ``check`` the rules are enforced unless an override is pending. An overridden event that the
    reducer still cannot apply raises :class:`RuleViolation` (``unplayable``); a refusal says whether an
    override could record the move (``RuleViolation.overridable``: False when the reducer cannot place it).

    ``sight``: the seats whose hidden information the writer may see (None: all of them, the whole table).
    The entry is then judged from the writer's sight (:func:`judged_state`), overrides included: it is
    refused before anything hidden is read when it sets or depends on a seat's secrets the writer cannot
    see, and otherwise judged on what the acting seat's view shows, so that neither the answer nor its
    ``overridable`` flag can differ with what the writer cannot see.
    """
    new_version = pos.version + 1
    if event.type == RULE_OVERRIDDEN:
        if check and pos.override_pending:
            raise RuleViolation(
                "override_pending",
                "An override is already waiting for the next move; record that move first.",
                CORRECTIONS_RULE,
            )
        ended = outcome_of(ruleset, pos.state) if check else None
        if ended is not None and not ended.provisional:  # the end is final: a correction reopens it, no house rule
            raise RuleViolation(
                "game_over",
                "The game is over and its result is final: no house rule reopens it (undo an entry to correct it).",
                ruleset.over_rule or CORRECTIONS_RULE,
                overridable=False,
            )
        return Position(pos.state, new_version, True)
    if event.type in PASSED_OVER:
        raise ValueError("voids and rules upgrades are folded by fold(), not step()")
    if event.type == RESULT_RECORDED:
        return _record_result(ruleset, pos, event, check)
    if event.type == FIRST_PLAYER_DRAWN:
        return _draw_first_player(ruleset, pos, event, check)
    if event.type in PHOTO_TYPES:  # a photo leaves the game as it is, and an override waiting for its move
        return Position(pos.state, new_version, pos.override_pending)
    if pos.state.get(RESULT_KEY) is not None:
        raise RuleViolation(
            "game_over", "The table recorded the result; void it to go on recording moves.", RESULT_RULE
        )
    event = replace(event, version=new_version)
    judged = judged_state(ruleset, pos.state, event, sight) if check else pos.state
    if check and not pos.override_pending:
        try:
            ruleset.validate(judged, event)
        except RuleViolation as violation:
            violation.overridable = violation.overridable and _placeable(ruleset, judged, event)
            raise
    try:
        new_state = ruleset.apply(pos.state, event)
    except RuleViolation:
        raise
    except Exception as exc:  # an overridden move the reducer cannot make sense of
        if not pos.override_pending and judged is pos.state:
            raise
        # or a move judged from the writer's sight that the whole state cannot take: a ruleset that forgot to
        # declare an entry's secret (EventType.secret); refused, never a server error
        raise RuleViolation(
            "unplayable",
            f"Even with the rule overridden this move cannot be placed in the game state ({exc}).",
            CORRECTIONS_RULE,
        ) from exc
    return Position(new_state, new_version, False)


def judged_state(ruleset: Ruleset, state: State, event: Event, sight: frozenset[int] | None) -> State:
    """The state an entry is judged on when its writer sees the secrets of the seats in ``sight`` only (None:
    every seat's; docs/ARCHITECTURE.md › Hidden information, the rule of sight).

    An entry that sets or depends on its acting seat's hidden information (``EventType.secret``) for a seat
    outside ``sight`` is refused (``not_your_secret``, never overridable), whatever the secret is. Any other
    entry is judged on the view of its acting seat when the writer may see that seat's secrets, else on a
    spectator's view: what the writer cannot see never decides the answer."""
    if sight is None or not ruleset.hides_information:
        return state
    seat = event.seat if isinstance(event.seat, int) and not isinstance(event.seat, bool) else None
    spec = ruleset.event_types.get(event.type)
    if spec is not None and spec.secret and seat not in sight:
        who = seat_ref(seat) if seat is not None else "the seat it is for"
        raise RuleViolation(
            "not_your_secret",
            f"Only {who} can record this, from their own phone: it depends on their {spec.secret}.",
            HIDDEN_RULE,
            overridable=False,
        )
    return ruleset.view(state, seat if seat in sight else None)


def house_rule_offered(rule: str, overridable: bool) -> bool:
    """Whether a refusal citing ``rule`` may be recorded anyway as a house rule (``rule_overridden``, then the
    entry): not when even the override could not record the move (``RuleViolation.overridable``), nor for
    Chronicle's own rules ("Chronicle › …": corrections, entries, streams), which no house rule bends."""
    return overridable and not rule.startswith("Chronicle ›")


def _placeable(ruleset: Ruleset, state: State, event: Event) -> bool:
    """Whether the reducer can put ``event`` in ``state`` unchecked, as it would under an override (a move
    it cannot place is refused as ``unplayable`` even then, so no page offers an override for it)."""
    try:
        ruleset.apply(state, event)
    except Exception:
        return False
    return True


def voided_versions(events: Iterable[tuple[int, Event]]) -> set[int]:
    """Versions hidden by the ``event_voided`` entries among ``events``."""
    return {int(e.data["version"]) for _, e in events if e.type == EVENT_VOIDED}


def fold(
    ruleset: Ruleset,
    start: Position,
    tail: Iterable[tuple[int, Event]],
    voided: set[int],
    *,
    check: bool = False,
) -> Position:
    """Fold ``tail`` (``(version, event)`` pairs following ``start.version``) onto ``start``.

    Entries whose version is in ``voided`` and the void entries themselves only advance the version.
    ``check`` re-validates each entry (used when a void is recorded, and by the ruleset-version check);
    a failure raises :class:`ReplayError` naming the version.
    """
    pos = start
    for version, event in tail:
        if version in voided or event.type in PASSED_OVER:
            pos = Position(pos.state, version, pos.override_pending)
            continue
        try:
            pos = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=check)
        except RuleViolation as exc:
            raise ReplayError(version, exc, f"Entry {version} ({event.type}) is no longer legal: {exc.message}")
        except Exception as exc:
            raise ReplayError(version, None, f"Entry {version} ({event.type}) cannot be applied: {exc}") from exc
    return pos


def fold_judged(
    ruleset: Ruleset, start: Position, tail: Iterable[tuple[int, Event]], voided: set[int]
) -> tuple[Position, list[ReplayError]]:
    """Fold ``tail`` onto ``start`` re-checking every entry, as :func:`fold` with ``check`` does, but going on
    past an entry the rules refuse (left out, as if voided): the position it reaches and every refusal, oldest
    first. What a move to other rules would change (``matches.checks``: the upgrade preview, check_rulesets)."""
    pos = start
    refused: list[ReplayError] = []
    for version, event in tail:
        if version in voided or event.type in PASSED_OVER:
            pos = Position(pos.state, version, pos.override_pending)
            continue
        try:
            pos = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=True)
        except RuleViolation as exc:
            refused.append(
                ReplayError(version, exc, f"Entry {version} ({event.type}) is no longer legal: {exc.message}")
            )
            pos = Position(pos.state, version, False)
        except Exception as exc:
            refused.append(ReplayError(version, None, f"Entry {version} ({event.type}) cannot be applied: {exc}"))
            pos = Position(pos.state, version, False)
    return pos, refused


def states_before(ruleset: Ruleset, start: Position, tail: Iterable[tuple[int, Event]]) -> dict[int, State]:
    """The state each entry of ``tail`` was recorded on, by version (for rulesets whose history sentences
    depend on the position: ``Ruleset.describe_uses_state``). A voided entry gets the state it was played
    on, as if it counted; entries that no longer fold keep the last good state (history never fails)."""
    numbered = list(tail)
    voided = voided_versions(numbered)
    out: dict[int, State] = {}
    pos = start
    for version, event in numbered:
        out[version] = pos.state
        if version in voided or event.type in PASSED_OVER:
            continue
        try:
            pos = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=False)
        except Exception:  # a history page must never break on an entry that no longer folds
            continue
    return out


def walk(
    ruleset: Ruleset,
    options: dict[str, Any],
    seat_count: int,
    events: Iterable[tuple[int, Event]],
    rules_version: int | None = None,
) -> Iterator[tuple[Event, State, State]]:
    """Each game entry that counts, oldest first, as ``(event, state before, state after)`` from the initial
    state: voided entries, voids, overrides, photos and ``result_recorded`` are folded but not yielded. Rules are not
    re-checked; the walk stops quietly at an entry that no longer folds (statistics never fail a projector).
    States are the reducer's own (hidden information included): callers keep to what a spectator may see.
    ``rules_version``: the rules the stream is judged under (``Stream.rules_version``; None: the current)."""
    numbered = list(events)
    voided = voided_versions(numbered)
    pos = Position(initial_state(ruleset, options, seat_count, rules_version), 0, False)
    for version, event in numbered:
        if version in voided or event.type in PASSED_OVER:
            continue
        try:
            after = step(ruleset, Position(pos.state, version - 1, pos.override_pending), event, check=False)
        except Exception:
            return
        if event.type not in (RULE_OVERRIDDEN, RESULT_RECORDED) and event.type not in PHOTO_TYPES:
            yield replace(event, version=version), pos.state, after.state
        pos = after


def replay(
    ruleset: Ruleset,
    options: dict[str, Any],
    seat_count: int,
    events: list[Event],
    *,
    check: bool = False,
    rules_version: int | None = None,
) -> Position:
    """The position after all of ``events`` (version i+1 for index i), from the initial state judged under
    ``rules_version`` (None: the current rules)."""
    numbered = list(enumerate(events, start=1))
    start = Position(initial_state(ruleset, options, seat_count, rules_version), 0, False)
    return fold(ruleset, start, numbered, voided_versions(numbered), check=check)
