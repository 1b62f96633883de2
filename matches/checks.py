"""Re-checking stored streams (after a rules fix bumps a ruleset version) and what moving a match to the current
rules would change (docs/ARCHITECTURE.md › Rule versions), in players' words."""

from __future__ import annotations

from dataclasses import dataclass, field

from matches.errors import StreamUnreplayable
from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, Stream
from matches.selectors import match_seat_names
from matches.store import events as store
from rulesets import Ruleset, get_ruleset
from rulesets.base import Outcome
from rulesets.names import name_all, name_seats, seat_ref
from rulesets.replay import ReplayError, event_types_with_meta, final_outcome_of, outcome_of

MAX_LISTED = 3  # refused entries named one by one; more are counted


@dataclass(frozen=True)
class Refusal:
    """An entry the other rules would refuse: its version, its sentence (named) and why (named)."""

    version: int
    entry: str
    why: str


@dataclass(frozen=True)
class RulesDifference:
    """What moving a stream from the rules it is judged under (``recorded_version``) to the current ones would
    change: the outcome under each (``recorded``, ``current``: provisional ones included) and the entries the
    current rules would refuse (the replay goes on past them, as if voided)."""

    recorded_version: int
    current_version: int
    recorded: Outcome | None
    current: Outcome | None
    refused: list[Refusal] = field(default_factory=list)
    changes: list[str] = field(default_factory=list)  # what the versions in between changed (``rule_changes``)

    @property
    def movable(self) -> bool:
        """The match is under older rules and every entry holds under the current ones."""
        return self.recorded_version < self.current_version and not self.refused

    @property
    def same_result(self) -> bool:
        """Winners, draw, scores and finality are the same under both."""
        return _key(self.recorded) == _key(self.current)


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _key(outcome: Outcome | None) -> tuple[object, ...] | None:
    if outcome is None:
        return None
    return (sorted(outcome.winners), outcome.draw, outcome.scores, outcome.provisional)


def result_words(outcome: Outcome | None, seat_names: list[str]) -> str:
    """A result as players say it: "Ana won", "Ana and Bo won together", "a draw", "in progress"."""
    if outcome is None:
        return "no result yet (in progress)"
    if outcome.draw:
        text = "a draw"
    elif not outcome.winners:
        text = "nobody won"
    else:
        names = [name_seats(f"Seat {w}", seat_names) for w in outcome.winners]
        text = f"{names[0]} won" if len(names) == 1 else f"{_together(names)} won together"
    if outcome.provisional:
        text += " (not final: the table may still add to the final scoring)"
    return text


def points_words(value: int | float, unit: str = "") -> str:
    """A score as players write it: ``12``, ``−4`` (a minus sign, never a hyphen), with the game's ``unit``
    when it has one (``−4 RP``)."""
    text = f"{value:g}" if isinstance(value, float) else str(value)
    text = text.replace("-", "\u2212")
    return f"{text} {unit}" if unit else text


def scores_words(outcome: Outcome | None, seat_names: list[str], unit: str = "") -> str:
    """ "Ana 12, Bo −4", or "" when the outcome has no scores."""
    if outcome is None or not outcome.scores:
        return ""
    return ", ".join(
        f"{name_seats(f'Seat {s}', seat_names)} {points_words(v, unit)}" for s, v in sorted(outcome.scores.items())
    )


def score_changes_words(
    recorded: Outcome | None, current: Outcome | None, seat_names: list[str], unit: str = ""
) -> str:
    """The seats whose score differs between two outcomes, as "Bo 0 → −4, Cy — → 3" ("—": no score); ""
    when every score is the same."""
    before = (recorded.scores if recorded is not None else None) or {}
    after = (current.scores if current is not None else None) or {}

    def text(scores: dict[int, int | float], seat: int) -> str:
        return points_words(scores[seat], unit) if seat in scores else "\u2014"

    return ", ".join(
        f"{name_seats(f'Seat {s}', seat_names)} {text(before, s)} \u2192 {text(after, s)}"
        for s in sorted(set(before) | set(after))
        if before.get(s) != after.get(s) or (s in before) != (s in after)
    )


def rules_difference(stream_id: int, seat_names: list[str] | None = None) -> RulesDifference:
    """Replay ``stream_id`` under the current rules beside the rules it is judged under; writes nothing."""
    head = store.head_load(stream_id, fresh=True)
    ruleset = get_ruleset(head.game)
    names = seat_names or []
    recorded_version = head.rules_version or ruleset.version
    pos, refused = store.position_under(head, None)
    return RulesDifference(
        recorded_version=recorded_version,
        current_version=ruleset.version,
        recorded=outcome_of(ruleset, head.state),
        current=outcome_of(ruleset, pos.state),
        refused=_refusals(ruleset, stream_id, refused, names),
        changes=[text for v, text in sorted(ruleset.rule_changes.items()) if recorded_version < v <= ruleset.version],
    )


def _refusals(ruleset: Ruleset, stream_id: int, refused: list[ReplayError], names: list[str]) -> list[Refusal]:
    if not refused:
        return []
    # an entry is named by its kind and seat, never by its data: the owner may hold a seat of a game with
    # hidden information (an origin chosen in secret), and this is read outside the history's redaction
    rows = EventRow.objects.filter(stream_id=stream_id, version__in=[r.version for r in refused])
    events = {r.version: (r.type, r.seat) for r in rows}
    labels = {name: spec.label for name, spec in event_types_with_meta(ruleset).items()}
    out = []
    for r in refused:
        why = r.violation.message if r.violation is not None else r.detail
        type_, seat = events.get(r.version, ("", None))
        entry = labels.get(type_, type_.replace("_", " "))
        if seat is not None:
            entry += name_seats(f", {seat_ref(seat)}", names)
        out.append(Refusal(r.version, entry, name_seats(why, names)))
    return out


def difference_words(ruleset: Ruleset, diff: RulesDifference, seat_names: list[str]) -> str:
    """What the current rules would do to a match kept under older ones, then what is kept, in players' words:
    "under the current rules the result would be withheld until the awards are confirmed; recorded result
    kept: Ana won"."""
    if diff.refused:
        listed = [f"entry {r.version} ({r.entry}) would be refused: {r.why.rstrip('.')}" for r in diff.refused]
        more = len(listed) - MAX_LISTED
        said = "; ".join(listed[:MAX_LISTED]) + (f"; and {more} more" if more > 0 else "")
        change = f"under the current rules {said}"
    elif (
        diff.recorded is not None
        and diff.current is not None
        and diff.current.provisional
        and not (diff.recorded.provisional)
    ):
        change = f"under the current rules {ruleset.provisional_words}"
    else:
        change = _change_words(ruleset, diff, seat_names)
    kept = "recorded result kept" if diff.recorded is not None else "recorded position kept"
    return f"{change}; {kept}: {result_words(diff.recorded, seat_names)}"


def _change_words(ruleset: Ruleset, diff: RulesDifference, seat_names: list[str]) -> str:
    """What the current rules change in the outcome itself (no entry refused, no result withheld): the
    result, then the scores that move ("Bo 0 → −4"), or that nothing would change."""
    scores = score_changes_words(diff.recorded, diff.current, seat_names, ruleset.score_unit)
    same = (diff.recorded is None) == (diff.current is None) and (
        diff.recorded is None
        or diff.current is None
        or (_key(diff.recorded)[:2] == _key(diff.current)[:2] and diff.recorded.provisional == diff.current.provisional)
    )
    if same:
        return (
            f"under the current rules the scores would change: {scores}"
            if scores
            else ("under the current rules nothing would change")
        )
    result = f"under the current rules the result would be: {result_words(diff.current, seat_names)}"
    return f"{result} (scores: {scores})" if scores else result


def difference_json(ruleset: Ruleset, diff: RulesDifference, seat_names: list[str]) -> dict[str, object]:
    """The difference as the API and the match page show it, every text naming the players."""

    def outcome(o: Outcome | None) -> dict[str, object] | None:
        if o is None:
            return None
        words = {"words": result_words(o, seat_names), "scores_words": scores_words(o, seat_names, ruleset.score_unit)}
        return {**name_all(o.to_dict(), seat_names), **words}

    return {
        "game": ruleset.slug,
        "rules_version": diff.recorded_version,
        "current_version": diff.current_version,
        "under_older_rules": diff.recorded_version < diff.current_version,
        "movable": diff.movable,
        "same_result": diff.same_result,
        "recorded": outcome(diff.recorded),
        "current": outcome(diff.current),
        "refused": [{"version": r.version, "entry": r.entry, "why": r.why} for r in diff.refused],
        "changes": diff.changes,
        "words": difference_words(ruleset, diff, seat_names) if diff.recorded_version < diff.current_version else "",
    }


@dataclass(frozen=True)
class RecheckReport:
    """What a full, validated replay says of a stream; ``problem`` is empty when nothing changed. ``label``
    names it as players do ("Bone Wars #12 (Ana, Bo)")."""

    stream_id: int
    game: str
    problem: str
    label: str = ""
    broken: bool = False  # it does not replay as stored under the rules it is judged under (check_rulesets fails)


def stream_recheck(stream_id: int) -> RecheckReport:
    """Replay ``stream_id`` from its first event, validating each entry: under the rules it is judged under
    (which must still give its stored head and summary: else a rule changed without keeping its older version),
    then under the current rules when those are newer (what its owner's move to them would change)."""
    stream = Stream.objects.get(pk=stream_id)
    ruleset = get_ruleset(stream.game)
    match = Match.objects.filter(stream_id=stream_id).first()
    names = match_seat_names(match) if match is not None else []
    label = (
        f"{ruleset.name} #{match.pk} ({', '.join(names)})"
        if match is not None
        else (f"{stream.kind} stream {stream_id} ({stream.game})")
    )
    try:
        head = store.head_load(stream_id, fresh=True)
    except StreamUnreplayable:  # reported below, by the entry the replay stops at
        head = store.head_stored(stream_id)
    rules = head.rules_version or ruleset.version
    pos, refused = store.position_under(head, rules)
    if refused:
        first = refused[0]
        verb = "no longer valid" if first.violation is not None else "cannot be replayed"
        return RecheckReport(stream_id, stream.game, f"{verb}: {first.detail}", label, broken=True)
    if pos.state != stream.state and stream.ruleset_version == ruleset.version:
        return RecheckReport(
            stream_id, stream.game, "the replayed state differs from the stored head", label, broken=True
        )
    after = final_outcome_of(ruleset, pos.state)
    now = (sorted(after.winners), after.draw, True) if after else ([], False, False)
    summary = MatchSummary.objects.filter(match__stream_id=stream_id, version=stream.version).first()
    if summary is not None:
        then = (sorted(summary.winners), summary.draw, summary.status == "finished")
        if then != now:
            reason = f" ({name_seats(after.reason, names)})" if after and after.reason else ""
            return RecheckReport(
                stream_id,
                stream.game,
                f"outcome changes under the rules it was recorded with (version {rules}): "
                f"winners {then[0]} → {now[0]}, finished {then[2]} → {now[2]}{reason}",
                label,
                broken=True,
            )
    if rules < ruleset.version:
        diff = rules_difference(stream_id, names)
        if diff.refused or not diff.same_result:
            return RecheckReport(stream_id, stream.game, difference_words(ruleset, diff, names), label)
    return RecheckReport(stream_id, stream.game, "", label)
