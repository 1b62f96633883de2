"""Record seeded random streams with the ``rulesets`` package found first on ``sys.path`` (an old checkout).

Run by ``scripts/old_streams.py`` as ``PYTHONPATH=<old checkout> python old_streams_driver.py SLUG SEED COUNT
OPTIONS FOCUS LENGTH`` (OPTIONS and FOCUS as JSON: the match options, the entry types of one house-rule-heavy stream); prints
one JSON list of streams on stdout. It uses only what every release since the first had: the registry's
``get_ruleset``, ``legal_moves``, ``validate``, ``apply``, ``outcome``, ``event_types`` with their ``Field``s,
``rulesets.schema.check_payload`` and ``rulesets.replay`` (``Position``, ``step``, ``replay``); newer table-level
entries (``result_recorded``, ``first_player_drawn``, photos) only where the old ``replay`` module names them.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from rulesets import replay as R
from rulesets.base import Event, RuleViolation
from rulesets.registry import get_ruleset
from rulesets.schema import SchemaError, check_payload

TRIES = 40  # random candidates tried per entry before giving up
CHECK_EVERY = 30  # a checkpoint state every this many entries, when the state is small (CHEAP_STATE characters)
CHEAP_STATE = 2500
EARLY = 30  # in a game that lists no moves, an entry that ends it before this many entries is a last resort


def harvest(state: Any, strings: set[str], ints: set[int]) -> None:
    """Every string (values and keys) and int in ``state``: the values a random entry names (cards, heroes)."""
    if isinstance(state, dict):
        for k, v in state.items():
            if isinstance(k, str) and len(strings) < 400:
                strings.add(k)
            harvest(v, strings, ints)
    elif isinstance(state, list):
        for v in state:
            harvest(v, strings, ints)
    elif isinstance(state, bool):
        return
    elif isinstance(state, str) and len(strings) < 400 and len(state) < 60:
        strings.add(state)
    elif isinstance(state, int) and -50 < state < 200:
        ints.add(state)


def fuzz_value(f: Any, rng: random.Random, strings: list[str], ints: list[int]) -> Any:
    """A random value for field ``f``: often valid, sometimes out of its rules (a house rule may want it)."""
    if getattr(f, "nullable", False) and rng.random() < 0.05:
        return None
    if f.choices:
        return rng.choice(list(f.choices))
    kind = f.kind
    if kind in ("int", "number"):
        lo = f.minimum if f.minimum is not None else -5
        hi = f.maximum if f.maximum is not None else max(lo + 12, 12)
        if ints and rng.random() < 0.4:
            value = rng.choice(ints)
            return min(max(value, lo), hi)
        return rng.randint(lo, min(hi, lo + 40))
    if kind == "str":
        return rng.choice(strings) if strings and rng.random() < 0.9 else rng.choice(["a", "x", "Ana"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "cell":
        return [rng.randint(0, 5), rng.randint(0, 5)]
    if kind == "list":
        hi = min(f.max_items, 8)
        n = rng.randint(f.min_items, max(f.min_items, min(hi, rng.choice([1, 2, 3, hi]))))
        return [fuzz_value(f.item, rng, strings, ints) for _ in range(n)] if f.item is not None else []
    if kind == "object":
        return fuzz_data(f.fields, rng, strings, ints)
    return {}


def fuzz_data(fields: Any, rng: random.Random, strings: list[str], ints: list[int]) -> dict[str, Any]:
    return {f.name: fuzz_value(f, rng, strings, ints) for f in fields if f.required or rng.random() < 0.5}


class Recorder:
    """One stream being recorded: its events and the old code's position after them."""

    def __init__(self, ruleset: Any, options: dict[str, Any], seats: int, rng: random.Random) -> None:
        self.ruleset, self.options, self.seats, self.rng = ruleset, options, seats, rng
        self.events: list[Event] = []
        self.pos = R.Position(ruleset.initial_state(options, seats), 0, False)
        self.checkpoints: dict[int, Any] = {}
        self.kinds: dict[str, int] = {}
        self.focus: list[str] = []  # entry types the house rules of this stream are drawn from (empty: any)

    def over(self) -> bool:
        outcome_of = getattr(R, "outcome_of", None)
        out = outcome_of(self.ruleset, self.pos.state) if outcome_of else self.ruleset.outcome(self.pos.state)
        return out is not None

    def record(self, event: Event, check: bool = True, early_end: bool = True) -> bool:
        """Record ``event`` when the old code takes it (``early_end`` False: not when it ends the game early)."""
        try:
            pos = R.step(self.ruleset, self.pos, event, check=check)
        except RuleViolation:
            return False
        if not early_end and len(self.events) < EARLY and self._ends(pos.state):
            return False  # a random entry that ends the game (a loss, a game_ended): keep the stream going first
        self.events.append(event)
        self.pos = pos
        self.kinds[event.type] = self.kinds.get(event.type, 0) + 1
        text = json.dumps(pos.state, separators=(",", ":"))
        if len(self.events) % CHECK_EVERY == 0 and len(text) < CHEAP_STATE:
            self.checkpoints[len(self.events)] = json.loads(text)
        return True

    def _ends(self, state: Any) -> bool:
        return self.ruleset.outcome(state) is not None

    def refold(self) -> None:
        self.pos = R.replay(self.ruleset, self.options, self.seats, self.events)

    def candidates(self, want_illegal: bool) -> list[Event]:
        """Listed legal moves (out of turn too, for a house rule) and random entries of every type."""
        out: list[Event] = []
        try:
            listed = self.ruleset.legal_moves(self.pos.state)
        except Exception:
            listed = None
        if listed:
            out.extend(self.rng.sample(listed, min(len(listed), 8)))
            if want_illegal and self.seats > 1:
                for m in out[:4]:
                    if m.seat is not None:
                        out.append(Event(m.type, (m.seat + self.rng.randint(1, self.seats - 1)) % self.seats, m.data))
        strings_set: set[str] = set()
        ints_set: set[int] = set()
        harvest(self.pos.state, strings_set, ints_set)
        strings, ints = sorted(strings_set), sorted(ints_set)
        types = sorted(self.ruleset.event_types)
        rare = [t for t in types if self.kinds.get(t, 0) < 2]
        if want_illegal and self.focus:
            types = rare = [t for t in self.focus if t in self.ruleset.event_types]
        for _ in range(TRIES):
            name = self.rng.choice(rare) if rare and self.rng.random() < 0.6 else self.rng.choice(types)
            spec = self.ruleset.event_types[name]
            try:
                data = check_payload(spec.fields, fuzz_data(spec.fields, self.rng, strings, ints))
            except SchemaError:
                continue  # the API refuses a malformed entry: no stream can hold it
            seat = (
                self.rng.randrange(self.seats)
                if self.seats and (spec.seat_required or self.rng.random() < 0.5)
                else None
            )
            out.append(Event(name, seat, data))
        self.rng.shuffle(out)
        if listed and not want_illegal:
            out = [self.rng.choice(listed), *out]
        return out

    def legal(self) -> bool:
        listed = self.ruleset.legal_moves(self.pos.state) is not None  # a game that lists its moves ends as played
        candidates = self.candidates(False)
        return any(self.record(e, early_end=listed) for e in candidates) or any(self.record(e) for e in candidates)

    def house_rule(self, reason: str) -> bool:
        """``rule_overridden`` then an entry ``validate`` refuses but ``apply`` places."""
        override = Event("rule_overridden", None, {"reason": reason})
        try:  # the old code's own checks on the override itself (later releases refuse one after the end)
            overridden = R.step(self.ruleset, self.pos, override, check=True)
        except RuleViolation:
            return False
        for event in self.candidates(True):
            try:
                self.ruleset.validate(self.pos.state, event)
                continue  # legal: not a house rule
            except RuleViolation:
                pass
            except Exception:
                continue
            try:
                R.step(self.ruleset, overridden, event, check=True)
            except Exception:
                continue
            self.events.append(override)
            self.pos = overridden
            return self.record(event, early_end=False) or self._drop_override()
        return False

    def _drop_override(self) -> bool:
        self.events.pop()
        self.refold()
        return False

    def void(self) -> bool:
        """Undo the last game entry, or an earlier one when every later entry still holds without it."""
        games = [
            i + 1
            for i, e in enumerate(self.events)
            if e.type in self.ruleset.event_types and (i == 0 or self.events[i - 1].type != "rule_overridden")
        ]
        voided = {int(e.data["version"]) for e in self.events if e.type == "event_voided"}
        games = [v for v in games if v not in voided]
        if not games:
            return False
        target = self.rng.choice(games)
        event = Event("event_voided", None, {"version": target, "reason": "Undone at the table"})
        try:
            R.replay(self.ruleset, self.options, self.seats, [*self.events, event], check=True)
        except Exception:
            if target != len(self.events):
                return False
        self.events.append(event)
        self.kinds["event_voided"] = self.kinds.get("event_voided", 0) + 1
        self.refold()
        return True


def play(
    ruleset: Any, options: dict[str, Any], seats: int, rng: random.Random, house: float, focus: list[str], length: int
) -> Recorder:
    """A seeded playout: legal entries, house rules with probability ``house`` (of the ``focus`` types when
    given), voids, and after the end a few house-rule entries the old code accepted."""
    rec = Recorder(ruleset, options, seats, rng)
    rec.focus = focus
    draw = getattr(R, "FIRST_PLAYER_DRAWN", None)
    if draw and getattr(ruleset, "random_start", False) and rng.random() < 0.5:
        rec.record(Event(draw, None, {"seat": rng.randrange(seats)}))
    after_end = 0
    while len(rec.events) < length:
        if rec.over():
            after_end += 1
            if after_end > 3 or not rec.house_rule("House rule after the end"):
                break
            continue
        roll = rng.random()
        if roll < 0.05 and rec.void():
            continue
        if roll < 0.05 + house and rec.house_rule("House rule"):
            continue
        if not rec.legal() and not rec.house_rule("House rule: stuck"):
            break
    photo = getattr(R, "PHOTO_ADDED", None)
    if photo and rng.random() < 0.3:
        data = {"photo": "p1", "at": len(rec.events), "display": "d.jpg", "thumb": "t.jpg", "width": 4}
        rec.record(Event(photo, None, {**data, "height": 3, "bytes": 12}))
    return rec


def dump(rec: Recorder, options: dict[str, Any], seats: int) -> dict[str, Any]:
    outcome_of = getattr(R, "outcome_of", None)
    final = R.replay(rec.ruleset, options, seats, rec.events)
    outcome = outcome_of(rec.ruleset, final.state) if outcome_of else rec.ruleset.outcome(final.state)
    return {
        "options": options,
        "seats": seats,
        "events": [[e.type, e.seat, e.data] for e in rec.events],
        "state": final.state,
        "outcome": None if outcome is None else outcome.to_dict(),
        "checkpoints": rec.checkpoints,
    }


def main(slug: str, seed: int, count: int, options: dict[str, Any], focus: list[str], length: int) -> None:
    """``count`` streams of ``slug`` of up to ``length`` entries; with ``focus``, one more whose house rules are of
    those entry types."""
    ruleset = get_ruleset(slug)
    streams = []
    for i in range(count + (1 if focus else 0)):
        rng = random.Random(f"{slug}-{seed}-{i}")
        seats = ruleset.seats[i % len(ruleset.seats)]
        house = 0.5 if i == count else (0.0, 0.15, 0.35)[i % 3]
        rec = play(ruleset, options, seats, rng, house, focus if i == count else [], length)
        if i == count - 1 and ruleset.kind == "match" and hasattr(R, "RESULT_RECORDED"):
            rec.events = rec.events[:6]  # a short match ended by the table's recorded result
            rec.checkpoints = {}
            rec.refold()
            if not rec.over():
                scores = {str(s): rng.randint(0, 9) for s in range(seats)}
                rec.record(
                    Event(R.RESULT_RECORDED, None, {"winners": [0], "draw": False, "scores": scores, "note": ""})
                )
        streams.append(dump(rec, options, seats))
    print(json.dumps(streams, separators=(",", ":")))


if __name__ == "__main__":
    main(
        sys.argv[1],
        int(sys.argv[2]),
        int(sys.argv[3]),
        json.loads(sys.argv[4]),
        json.loads(sys.argv[5]),
        int(sys.argv[6]),
    )
