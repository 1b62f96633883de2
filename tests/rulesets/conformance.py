"""The contract every registered ruleset keeps (DESIGN.md §2, docs/ARCHITECTURE.md › How to add a game), as one
function a test runs over each game: :func:`problems` returns what a ruleset breaks, in words, and nothing when
it conforms. A random legal playout (seeded, so a failure repeats) exercises the reducer: every listed move is
accepted, ``apply`` leaves its input as it was and gives the same state twice, views are JSON, leave the state
alone and show nothing new when taken again."""

from __future__ import annotations

import copy
import importlib
import json
import random
from typing import Any

from rulesets.base import Event, Ruleset, RuleViolation, State
from rulesets.schema import check_payload, json_schema

SHAPE_MODULES = ("fields", "rules", "engine")  # besides __init__, which exports RULESET


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def shape_problems(ruleset: Ruleset) -> list[str]:
    """What keeps ``ruleset`` from the one shape: its package's modules, the tables, the base's frame."""
    out: list[str] = []
    package = (
        type(ruleset).__module__.rsplit(".", 1)[0]
        if type(ruleset).__module__.count(".") > 1
        else type(ruleset).__module__
    )
    for name in SHAPE_MODULES:
        try:
            importlib.import_module(f"{package}.{name}")
        except ImportError:
            out.append(f"{package} has no {name}.py")
    if getattr(importlib.import_module(package), "RULESET", None) is not ruleset:
        out.append(f"{package}/__init__.py does not export RULESET")
    if type(ruleset).__module__ != package:
        out.append(f"the ruleset class lives in {type(ruleset).__module__}, not in {package}/__init__.py")
    for method in ("validate", "apply"):
        if getattr(type(ruleset), method) is not getattr(Ruleset, method):
            out.append(f"{ruleset.slug} overrides {method}(): fill the tables and hooks instead")
    types = set(ruleset.event_types)
    for table in ("rules", "effects"):
        keys = set(getattr(ruleset, table))
        if keys != types:
            out.append(f"{ruleset.slug}.{table} covers {sorted(keys ^ types)} differently from its event types")
    return out


def schema_problems(ruleset: Ruleset) -> list[str]:
    """Entry types named by their keys, their fields and the options as JSON Schema, secrets only where hidden."""
    out: list[str] = []
    for key, spec in ruleset.event_types.items():
        if spec.name != key:
            out.append(f"event type {key!r} is named {spec.name!r}")
        json_schema(spec.fields)
        if spec.secret and not ruleset.hides_information:
            out.append(f"{key} declares a secret but {ruleset.slug} hides nothing (no view or redact_event)")
    json_schema(ruleset.options_schema)
    return out


def _moves(ruleset: Ruleset, state: State) -> list[Event]:
    listed = ruleset.legal_moves(state)
    return list(listed or [])


def playout_problems(ruleset: Ruleset, *, seed: int = 0, steps: int = 60) -> list[str]:
    """Random legal playouts from every allowed seat count with the default options."""
    out: list[str] = []
    rng = random.Random(seed)
    for seats in ruleset.seats:
        options = check_payload(ruleset.options_schema, dict(ruleset.example_options))
        try:
            state = ruleset.initial_state(options, seats)
        except Exception as exc:  # a game whose options have no workable default
            out.append(f"initial_state({seats} seats, default options) raised {exc!r}")
            continue
        if json.loads(json.dumps(state)) != state:
            out.append(f"the initial state of {seats} seats is not plain JSON")
        for _ in range(steps):
            out += _state_problems(ruleset, state, seats)
            moves = _moves(ruleset, state)
            for move in moves:
                try:
                    ruleset.validate(state, move)
                except RuleViolation as exc:
                    out.append(f"legal_moves lists {move.to_dict()} but validate refuses it: {exc.code}")
            if out or not moves:
                break
            move = rng.choice(moves)
            before = _dump(state)
            after = ruleset.apply(state, move)
            if _dump(state) != before:
                out.append(f"apply({move.to_dict()}) changed its input state")
                break
            if _dump(ruleset.apply(copy.deepcopy(state), move)) != _dump(after):
                out.append(f"apply({move.to_dict()}) gave two different states for the same input")
                break
            if not isinstance(ruleset.describe(move, [f"P{i}" for i in range(seats)], state), str):
                out.append(f"describe({move.type}) is not a sentence")
            state = after
    return out


def _state_problems(ruleset: Ruleset, state: State, seats: int) -> list[str]:
    out: list[str] = []
    before = _dump(state)
    for viewer in (None, *range(seats)):
        seen = ruleset.view(state, viewer)
        try:
            json.dumps(seen)
        except (TypeError, ValueError):
            out.append(f"view(state, {viewer}) is not JSON")
            continue
        if _dump(ruleset.view(seen, viewer)) != _dump(seen):
            out.append(f"view(view(state, {viewer}), {viewer}) differs from view(state, {viewer})")
    if _dump(state) != before:
        out.append("view() changed the state it was given")
    turn = ruleset.turn(state)
    if not all(isinstance(s, int) and 0 <= s < seats for s in turn.seats):
        out.append(f"turn() names seats {turn.seats} of a {seats}-seat match")
    return out


def problems(ruleset: Ruleset, *, shaped: bool = True) -> list[str]:
    """Everything ``ruleset`` breaks of the contract (``shaped``: the one shape's layout is checked too)."""
    return (shape_problems(ruleset) if shaped else []) + schema_problems(ruleset) + playout_problems(ruleset)
