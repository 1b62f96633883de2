"""One page of a stream's history, whatever the stream's length (issue 23 item 16).

A page reads at most ``limit + 1`` event rows by the ``(stream, version)`` key, the voids that name them
(the partial index of voids), and folds states only across the page's span, starting from the newest usable
snapshot before it (``store.position_at``): its cost depends on the page and the snapshot interval, not on how
many entries the stream holds. Hidden information goes through the reader's :class:`~matches.store.visibility.Viewer`
(``Viewer.log`` / ``Viewer.state``), the one filter every read passes through.

The state an entry is told against is the one it was recorded on, as the store judged it then (an entry voided
later still counts for the entries recorded before its void); the whole-log reader ``selectors.stream_log``
folds every void at once, so the two may word an entry differently only between an entry and its later void.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.errors import InvalidInput
from matches.models import MAX_VERSION
from matches.models import Event as EventRow
from matches.store import events as store
from matches.store.visibility import Viewer
from rulesets import Event, Ruleset, get_ruleset
from rulesets.replay import EVENT_VOIDED, UNDO_REASON, Position, describe_entry, step, void_words

HISTORY_LIMIT = 50  # entries per page by default (the history page and the events API)
HISTORY_LIMIT_MAX = 200  # the most one page may ask for


@dataclass(frozen=True)
class HistoryLine:
    """A :class:`LogLine` with the round or turn it belongs to (``group``, in words; "" when unknown)."""

    line: LogLine
    group: str


@dataclass(frozen=True)
class HistoryPage:
    """One page of a log: ``lines`` in the order asked; ``next`` the cursor of the following page (the last
    version shown), None when this page is the last one."""

    lines: list[HistoryLine]
    next: int | None


def cursor_clean(value: Any, name: str) -> int | None:
    """A cursor or limit from a query string: None when absent, else a whole number 0..MAX_VERSION, or
    :class:`InvalidInput` saying what is wrong."""
    if value is None or value == "":
        return None
    text = str(value).strip()
    if not text.isdigit() or int(text) > MAX_VERSION:
        raise InvalidInput(
            {name: [f"Must be a whole number from 0 to {MAX_VERSION} (a version number); got {str(value)[:40]!r}."]}
        )
    return int(text)


def limit_clean(value: Any) -> int:
    """The page size asked for: :data:`HISTORY_LIMIT` when absent; 1..:data:`HISTORY_LIMIT_MAX`, else 400."""
    if value is None or value == "":
        return HISTORY_LIMIT
    text = str(value).strip()
    if not text.isdigit() or not 1 <= int(text) <= HISTORY_LIMIT_MAX:
        raise InvalidInput(
            {
                "limit": [
                    f"Must be a whole number from 1 to {HISTORY_LIMIT_MAX} (entries per page); got {str(value)[:40]!r}."
                ]
            }
        )
    return int(text)


def history_page(
    *,
    stream_id: int,
    game: str,
    seat_names: list[str],
    viewer: Viewer,
    after: int | None = None,
    before: int | None = None,
    limit: int = HISTORY_LIMIT,
    newest_first: bool = False,
    seat: int | None = None,
    groups: bool = False,
) -> HistoryPage:
    """Entries with ``after < version < before`` (either bound optional), at most ``limit``, oldest first or
    ``newest_first``; ``seat``: only that seat's entries. ``groups``: label each line with its round or turn
    (:func:`group_labels`). Every line is as ``viewer`` may read it."""
    ruleset = get_ruleset(game)
    qs = EventRow.objects.filter(stream_id=stream_id).select_related("recorded_by")
    if after is not None:
        qs = qs.filter(version__gt=after)
    if before is not None:
        qs = qs.filter(version__lt=before)
    if seat is not None:
        qs = qs.filter(seat=seat)
    rows = list(qs.order_by("-version" if newest_first else "version")[: limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    ordered = sorted(rows, key=lambda r: r.version)
    redacting = not viewer.everything and ruleset.hides_information
    before_states = (
        _states_before(ruleset, stream_id, ordered)
        if ordered and ((groups and ruleset.history_needs_state) or redacting or ruleset.describe_uses_state)
        else {}
    )
    shown = dict(
        zip(
            (r.version for r in ordered),
            viewer.log(ruleset, [(r.version, Event(r.type, r.seat, r.data)) for r in ordered], before_states),
            strict=True,
        )
    )
    voided = _voids_of(stream_id, [r.version for r in ordered])
    lines = []
    for r in rows:
        ev = shown[r.version]
        state = before_states.get(r.version)
        text = describe_entry(ruleset, ev, seat_names, None if state is None else viewer.state(ruleset, state))
        by, why = voided.get(r.version, (None, ""))
        lines.append(LogLine(row=r, event=ev, text=text, voided_by=by, void_reason=why))
    lines = _voids_worded(lines, ruleset, stream_id, seat_names, viewer)
    labels = group_labels(ruleset, lines, before_states, seat_names) if groups else [""] * len(lines)
    return HistoryPage(
        lines=[HistoryLine(line, label) for line, label in zip(lines, labels, strict=True)],
        next=rows[-1].version if more and rows else None,
    )


def _voids_worded(
    lines: list[LogLine], ruleset: Ruleset, stream_id: int, seat_names: list[str], viewer: Viewer
) -> list[LogLine]:
    """``lines`` with each void told with the entry it undid ("Ana's move 4 (took 2 stones) was undone at the
    table"): the undone entry's line when it is on the page, else its row read as ``viewer`` may read it."""
    said = {line.row.version: line for line in lines}
    out = []
    for line in lines:
        data = line.row.data if isinstance(line.row.data, dict) else {}
        target = data.get("version")
        if line.row.type != EVENT_VOIDED or not isinstance(target, int):
            out.append(line)
            continue
        undone = said.get(target)
        if undone is not None:
            seat, words = undone.event.seat, undone.text
        else:
            seat, words = _entry_words(ruleset, stream_id, target, seat_names, viewer)
        who = seat_names[seat] if isinstance(seat, int) and 0 <= seat < len(seat_names) else ""
        text = void_words(target, str(data.get("reason") or ""), words, who)
        out.append(
            LogLine(row=line.row, event=line.event, text=text, voided_by=line.voided_by, void_reason=line.void_reason)
        )
    return out


def _entry_words(
    ruleset: Ruleset, stream_id: int, version: int, seat_names: list[str], viewer: Viewer
) -> tuple[int | None, str]:
    """The seat and sentence of one entry as ``viewer`` may read it ((None, "") when there is none)."""
    row = EventRow.objects.filter(stream_id=stream_id, version=version).first()
    if row is None:
        return None, ""
    event = Event(row.type, row.seat, row.data)
    needs_state = ruleset.describe_uses_state or (not viewer.everything and ruleset.hides_information)
    before = store.position_at(stream_id, version - 1).state if needs_state else None
    if before is not None:
        event = viewer.event(ruleset, event, before)
    return event.seat, describe_entry(
        ruleset, event, seat_names, None if before is None else viewer.state(ruleset, before)
    )


def _voids_of(stream_id: int, versions: list[int]) -> dict[int, tuple[int, str]]:
    """``target → (void's version, reason)`` for the voids naming one of ``versions`` (they come after them:
    read through the partial index of voids, from the first version on)."""
    if not versions:
        return {}
    wanted = set(versions)
    rows = EventRow.objects.filter(stream_id=stream_id, type=EVENT_VOIDED, version__gt=min(versions))
    out = {}
    for version, data in rows.values_list("version", "data"):
        target = data.get("version") if isinstance(data, dict) else None
        if target in wanted:
            out[int(target)] = (version, data.get("reason", ""))
    return out


def _states_before(ruleset: Ruleset, stream_id: int, rows: list[EventRow]) -> dict[int, Any]:
    """The full state each of ``rows`` (oldest first) was recorded on: from the position just before the first
    (a snapshot and its tail), folded across the span; a void inside it re-reads the position it made."""
    first, last = rows[0].version, rows[-1].version
    pos = store.position_at(stream_id, first - 1)
    wanted = {r.version for r in rows}
    span = rows if len(rows) == last - first + 1 else list(store.events_iter(stream_id, after=first - 1, upto=last))
    out: dict[int, Any] = {}
    for r in span:
        if r.version in wanted:
            out[r.version] = pos.state
        if r.type == EVENT_VOIDED:
            pos = store.position_at(stream_id, r.version)
            continue
        try:
            pos = step(
                ruleset,
                Position(pos.state, r.version - 1, pos.override_pending),
                Event(r.type, r.seat, r.data),
                check=False,
            )
        except Exception:  # a history page never breaks on an entry that no longer folds
            pos = Position(pos.state, r.version, pos.override_pending)
    return out


def group_labels(ruleset: Ruleset, lines: list[LogLine], states: dict[int, Any], seat_names: list[str]) -> list[str]:
    """Each line's group, in words: the round the game was in when it was recorded ("Round 2",
    ``Ruleset.history_group``) where the game has rounds, else the player's turn: a run of one seat's entries
    ("Ana's turn"), table-level entries (seat None) staying in the run they fall in ("The table" alone)."""
    labels: list[str] = []
    current = ""
    for line in lines:
        label = ruleset.history_group(states.get(line.row.version) or {}, line.event)
        if not label:
            seat = line.event.seat
            if seat is not None and 0 <= seat < len(seat_names):
                label = f"{seat_names[seat]}'s turn"
            elif seat is not None:
                label = f"Seat {seat + 1}'s turn"
            else:
                label = current or "The table"
        labels.append(label)
        current = label
    return labels


@dataclass(frozen=True)
class LogLine:
    """One entry of a stream's history as the viewer may read it (``event``), who recorded it, whether it counts."""

    row: EventRow
    event: Event
    text: str
    voided_by: int | None
    void_reason: str

    @property
    def void_note(self) -> str:
        """The reason of the void that undid this entry, unless it is the pages' plain undo ("" then)."""
        return "" if self.void_reason.strip() in ("", UNDO_REASON) else self.void_reason.strip()


def stream_log(*, stream_id: int, game: str, seat_names: list[str], viewer: Viewer) -> list[LogLine]:
    """Every event of a stream, oldest first, as ``viewer`` may read it, in plain words, voided entries marked."""
    from rulesets.replay import EVENT_VOIDED, describe_entry

    ruleset = get_ruleset(game)
    rows = list(EventRow.objects.filter(stream_id=stream_id).select_related("recorded_by").order_by("version"))
    entries = [(r.version, Event(r.type, r.seat, r.data)) for r in rows]
    redacting = not viewer.everything and ruleset.hides_information
    before = _log_states_before(ruleset, stream_id, rows) if ruleset.describe_uses_state or redacting else {}
    shown = viewer.log(ruleset, entries, before)
    voided = {int(r.data["version"]): (r.version, r.data.get("reason", "")) for r in rows if r.type == EVENT_VOIDED}
    lines = []
    for r, ev in zip(rows, shown, strict=True):
        state = before.get(r.version)
        text = describe_entry(ruleset, ev, seat_names, None if state is None else viewer.state(ruleset, state))
        by, why = voided.get(r.version, (None, ""))
        lines.append(LogLine(row=r, event=ev, text=text, voided_by=by, void_reason=why))
    return _voids_worded(lines, ruleset, stream_id, seat_names, viewer)


def _log_states_before(ruleset: Any, stream_id: int, rows: list[EventRow]) -> dict[int, Any]:
    """The state each row was recorded on (one fold of the log), for rulesets that describe with it."""
    from matches.models import Stream
    from rulesets.replay import Position, states_before
    from rulesets.versions import initial_state

    stream = Stream.objects.only("options", "seat_count", "rules_version").get(pk=stream_id)
    start = Position(initial_state(ruleset, stream.options, stream.seat_count, stream.rules_version))
    return states_before(ruleset, start, ((r.version, Event(r.type, r.seat, r.data)) for r in rows))
