"""What the match page says about recording: the move forms (those that apply now first), the outcome of the
last submit, and what changed since a version the viewer saw."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from frontend.forms.inputs import Pick
from frontend.forms.schema import build_inputs, int_or_none
from matches import selectors
from matches.store.history import history_page
from matches.store.visibility import Viewer
from rulesets import Event, EventType, Ruleset, RuleViolation
from rulesets.replay import describe_entry
from rulesets.schema import Field

# validate checks game over → phase → whose turn → the move (DESIGN §2), so these codes on an entry with an
# empty payload mean "this kind of entry cannot be recorded at this moment", whatever its payload
_NOT_NOW = frozenset({"game_over", "wrong_phase", "unknown_event"})


def types_now(ruleset: Ruleset, state: dict[str, Any], legal: list[Event] | None, turn_seat: int | None) -> set[str]:
    """The entry types that may apply now: the types of the legal moves when the game can list them, else
    those whose empty entry is not refused for the phase (``wrong_phase``, the ruleset's ``phase_codes``, game
    over; the payload decides the rest)."""
    if legal is not None:
        return {m.type for m in legal}
    out = set()
    for name, spec in ruleset.event_types.items():
        try:
            ruleset.validate(state, Event(name, turn_seat if spec.seat_required else None, {}))
        except RuleViolation as exc:
            if exc.code in _NOT_NOW or exc.code in ruleset.phase_codes:
                continue
        except Exception:  # an empty payload may trip a check that expects its fields: the phase passed
            pass
        out.add(name)
    return out


def _words(value: Any) -> str:
    """A listed value that is not a name, in words: ``{"card": 3, "instance": 1}`` → "card 3, instance 1"."""
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_words(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_words(v) for v in value)
    return str(value)


def form_picks(
    ruleset: Ruleset, state: dict[str, Any], spec: EventType, legal: list[Event] | None, seat: int | None
) -> dict[str, Pick]:
    """What each name-like field (``str`` or ``any``) of ``spec`` is picked from: the values the legal moves of
    that type use (the seat on turn's first), else the ruleset's list for the field's ``names``; an ``any``
    field (a value that is not a name, such as an INSTINCT's target) that no legal move uses offers nothing,
    where the rules list their moves, rather than a box to type JSON in."""
    moves = sorted((m for m in legal or [] if m.type == spec.name), key=lambda m: m.seat != seat)
    lists = None
    picks: dict[str, Pick] = {}
    for f in spec.fields:
        if f.kind not in ("str", "any"):
            continue
        values = list(
            {json.dumps(m.data[f.name], sort_keys=True): m.data[f.name] for m in moves if f.name in m.data}.values()
        )
        if values:
            shown = [v for v in values if v is not None]
            names = [v if isinstance(v, str) else json.dumps(v) for v in shown]
            prompt = "— none / not known —" if None in values else "— choose —"
            picks[f.name] = Pick(names, prompt=prompt, labels=[_words(v) for v in shown])
        elif f.names:
            lists = ruleset.names(state, seat) if lists is None else lists
            if lists.get(f.names):
                picks[f.name] = Pick(lists[f.names])
        elif f.kind == "any" and legal is not None:  # the rules list every legal value, and none applies now
            picks[f.name] = Pick([], prompt="— none can be chosen now —")
    return picks


def event_form(
    spec: EventType, problem: dict[str, Any], *, fields: tuple[Field, ...] | None = None,
    picks: Mapping[str, Pick] | None = None, datalists: Mapping[str, str] | None = None,
    grid: tuple[int, int] | None = None, seat: int | None = None, explained_here: bool = True,
) -> dict[str, Any]:  # fmt: skip
    """The form of one entry type (``frontend/_event_form.html``): ``{type, spec, inputs, seat, open, refused}``,
    the inputs those of ``fields`` (default: all the type's) with ``picks``, ``datalists`` and the board's ``grid``.

    Every recording page's ``problem`` speaks one vocabulary: ``origin`` is the control that was used ("form"
    for these forms; "board", "legal", "override", "undo", "adventure", "photo" for others), ``type`` the entry,
    ``values`` what was posted, ``errors`` by input name, ``seat`` the seat posted. The refused form (origin
    "form", its type) shows what was typed and its errors again, with the seat posted, and is open; ``refused``
    also asks the template to explain the refusal inside it, unless the page explains it elsewhere
    (``explained_here`` False: the campaign sheet says it at the top)."""
    refused = problem.get("origin") == "form" and problem.get("type") == spec.name
    return {
        "type": spec.name,
        "spec": spec,
        "inputs": build_inputs(
            spec.fields if fields is None else fields,
            "data.",
            form=spec.name,
            values=problem.get("values") if refused else None,
            errors=problem.get("errors") if refused else None,
            expand=True,
            picks=picks,
            datalists=datalists,
            grid=grid,
        ),
        "seat": int_or_none(str(problem.get("seat"))) if refused else seat,
        "open": refused,
        "refused": refused and explained_here,
    }


def move_forms(
    ruleset: Ruleset,
    state: dict[str, Any],
    legal: list[Event] | None,
    turn_seat: int | None,
    problem: dict[str, Any],
    listed: list[Event] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(now, other)``: one form per entry type, split by :func:`types_now`; a refused form keeps what was
    typed, is opened and always counts as "now" (it is where the explanation is shown). ``listed``: the legal
    moves as the reader may know them, hidden values blanked (default ``legal``): their types apply now even
    where ``legal`` (what may be offered as it is) leaves them out."""
    now_types = types_now(ruleset, state, legal if listed is None else listed, turn_seat)
    grid = ruleset.board_size(state)
    now: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    for name, spec in ruleset.event_types.items():
        form = event_form(
            spec, problem, picks=form_picks(ruleset, state, spec, legal, turn_seat), grid=grid, seat=turn_seat
        )
        (now if form["refused"] or name in now_types else other).append(form)
    if now and not legal and not any(f["open"] for f in now):
        now[0]["open"] = True  # nothing to tap or pick: the first form that applies is ready to fill in
    return now, other


def entries_since(*, match: Any, version: int, seat_names: list[str], viewer: Viewer) -> list[str]:
    """The entries recorded after ``version``, as ``viewer`` may read them, with their numbers, oldest first (one
    page of the history: its cost does not grow with the match)."""
    page = history_page(stream_id=match.stream_id, game=match.game, seat_names=seat_names, viewer=viewer, after=version)
    lines = [f"{h.line.text} (move {h.line.row.version})" for h in page.lines]
    return lines + (["… and more: see the history."] if page.next is not None else [])


def rebased_words(match: Any, result: Any) -> str:
    """What the bar adds when a stale form's entry was recorded after newer ones (``store.Rebased``): " —
    recorded after Tomas's move 22, which came in while you were filling in the form."; "" otherwise."""
    rebased = getattr(result, "rebased", None)
    if rebased is None:
        return ""
    names = selectors.match_seat_names(match)
    seat = rebased.seat
    who = f"{names[seat]}'s" if seat is not None and 0 <= seat < len(names) else "the table's"
    came = "which came in" if len(rebased.over) == 1 else f"the last of {len(rebased.over)} moves that came in"
    return f" — recorded after {who} move {rebased.after}, {came} while you were filling in the form."


@dataclass
class Feedback:
    """The outcome of the last submit (or news from another phone) as the table bar shows it.

    ``kind``: ``ok`` (recorded), ``refused``, ``conflict`` (someone else recorded first) or ``news``.
    """

    kind: str
    text: str
    lines: list[str] = field(default_factory=list)

    @property
    def urgent(self) -> bool:
        """Refusals and conflicts interrupt a screen reader; the rest waits politely."""
        return self.kind in ("refused", "conflict")


def feedback_for(
    *,
    match: Any,
    problem: dict[str, Any],
    notes: list[str],
    seen: int | None,
    latest: int,
    seat_names: list[str],
    viewer: Viewer,
) -> Feedback | None:
    """What the bar says: a refusal or conflict from ``problem``, else the success ``notes`` (flash messages),
    else the entries recorded since version ``seen`` (a page reloaded by the live update)."""
    if problem.get("conflict"):
        expected = int_or_none(problem.get("expected_version"))
        changes = (
            entries_since(match=match, version=expected, seat_names=seat_names, viewer=viewer)
            if expected is not None
            else []
        )
        why = problem.get("rebase_why")
        first = "Not recorded: someone else recorded first" + (f" ({why.rstrip('.')})" if why else "")
        return Feedback(
            "conflict",
            f"{first}:",  # the bar's line; the advice is next to the control
            changes,
        )
    if problem.get("detail"):
        return Feedback("refused", f"Not recorded: {problem['detail']}")
    if notes:
        return Feedback("ok", " ".join(notes))
    if seen is not None and 0 <= seen < latest:
        changes = entries_since(match=match, version=seen, seat_names=seat_names, viewer=viewer)
        if changes:
            return Feedback("news", "New at the table:", changes)
    return None


def legal_move_choices(ruleset: Ruleset, legal: list[Event] | None, seat_names: list[str]) -> list[dict[str, str]]:
    """The legal moves as ``{json, text}`` options of the page's move list, in words. Moves the ruleset describes
    alike (a secret origin: "Ana chose an origin (kept secret).") are told apart by the payload values that
    differ between them, labelled as on the forms ("… — Origin: Healer"): only recorders get this list, and
    only the moves their viewer may know (``matches.store.visibility``), so a seat's secret is listed only on its
    own seat holder's phone, or on a shared phone while that seat reveals it."""
    options = [{"json": json.dumps(m.to_dict()), "text": describe_entry(ruleset, m, seat_names)} for m in legal or []]
    by_text: dict[str, list[int]] = {}
    for i, option in enumerate(options):
        by_text.setdefault(option["text"], []).append(i)
    for same in (ix for ix in by_text.values() if len(ix) > 1):
        moves = [legal[i] for i in same]  # type: ignore[index]
        keys = [k for k in moves[0].data if len({json.dumps(m.data.get(k), sort_keys=True) for m in moves}) > 1]
        spec = ruleset.event_types.get(moves[0].type)
        labels = {f.name: f.label or f.name for f in (spec.fields if spec else ())}
        said = {f.name: dict(zip(f.choices, f.choice_labels, strict=True)) for f in (spec.fields if spec else ())}
        for i, move in zip(same, moves, strict=True):
            parts = [f"{labels.get(k, k)}: {_worded(move.data.get(k), said.get(k))}" for k in keys]
            if parts:
                options[i]["text"] += " — " + ", ".join(parts)
    return options


def _worded(value: Any, words: dict[Any, str] | None = None) -> str:
    """A payload value for people: its field's label for it when it has one ("Red circle"), else a name
    capitalised, none as "not named", a list joined."""
    if words and isinstance(value, (str, int)) and value in words:
        return words[value]
    if value is None:
        return "not named"
    if isinstance(value, str):
        return value[:1].upper() + value[1:]
    if isinstance(value, list):
        return ", ".join(_worded(v) for v in value)
    return str(value)


def forms_in_sight(
    forms: list[dict[str, Any]], seats: list[tuple[int, str]], sight: frozenset[int] | None
) -> list[dict[str, Any]]:
    """``forms`` with the Player list of each entry that sets or depends on a seat's secrets (``spec.secret``)
    narrowed to the seats whose secrets the writer may record (``sight``: ``visibility.writer_sight``; None: the
    game hides nothing), so the page never offers what it would refuse; a refused form keeps the seat it was
    posted for (what was typed stays), and a form left with no seat is not offered."""
    if sight is None:
        return forms
    out = []
    for form in forms:
        if form["spec"].secret and form["spec"].seat_required:
            form = {
                **form,
                "seats": [(i, n) for i, n in seats if i in sight or (form["refused"] and i == form["seat"])],
            }
            if not form["seats"]:
                continue
        out.append(form)
    return out


def moves_in_sight(ruleset: Ruleset, moves: list[Event] | None, sight: frozenset[int] | None) -> list[Event] | None:
    """``moves`` without those that set or depend on a seat's secrets (``EventType.secret``) for a seat outside
    the writer's ``sight`` (``visibility.writer_sight``; None: the game hides nothing): the page never offers a
    move it would refuse ("Only Bo can record this, from their own phone")."""
    if sight is None or moves is None:
        return moves
    types = ruleset.event_types
    return [m for m in moves if not (m.type in types and types[m.type].secret and m.seat not in sight)]
