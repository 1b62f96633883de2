"""Each game's entries in the API schema (``matches.api.openapi``) are its rulesets' own declarations, checked without
HTTP over every game and entry type (the schemathesis run leaves the coverage phase of ``POST …/events/`` out):

- one variant per entry a client may post (photo entries come from the photo endpoints), its ``type`` fixed, its seat
  required exactly when the entry needs one and bounded by the game's most seats, its ``data`` the payload schema;
- every legal move of a seeded playout of every game that lists them, at every seat count, fits its variant (the schema never
  refuses what the rules accept);
- a payload the validator refuses for its shape (an unknown key, a missing required field) the schema refuses too.
"""

from __future__ import annotations

import random

import jsonschema
import pytest

from matches.api.openapi import entry_variants
from rulesets.registry import all_rulesets
from rulesets.replay import PHOTO_TYPES, event_types_with_meta
from rulesets.schema import SchemaError, check_payload

pytestmark = pytest.mark.pure

ENVELOPE = {"type": "object", "properties": {"expected_version": {"type": ["integer", "null"]}}, "required": []}
RULESETS = all_rulesets()


def _by_type(ruleset) -> dict:
    return {v["properties"]["type"]["enum"][0]: v for v in entry_variants(ruleset, ENVELOPE).values()}


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.slug)
def test_one_variant_per_postable_entry_with_its_seat_and_data(ruleset) -> None:
    variants = _by_type(ruleset)
    types = event_types_with_meta(ruleset)
    assert set(variants) == set(types) - PHOTO_TYPES
    for name, variant in variants.items():
        spec = types[name]
        assert ("seat" in variant["required"]) == spec.seat_required, name
        assert variant["properties"]["expected_version"] == ENVELOPE["properties"]["expected_version"]
        jsonschema.Draft202012Validator.check_schema(variant)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.slug)
def test_every_legal_move_fits_its_games_schema(ruleset) -> None:
    variants = _by_type(ruleset)
    checked = 0
    rng = random.Random(45)
    for seats in ruleset.seats:
        state = ruleset.initial_state(check_payload(ruleset.options_schema, dict(ruleset.example_options)), seats)
        for _ in range(40):
            listed = ruleset.legal_moves(state)
            if listed is None:  # a game that does not list its moves (campaigns, series, the score sheet)
                return
            moves = list(listed)
            if not moves:
                break
            for move in moves:
                body = {"type": move.type, "data": move.data, **({"seat": move.seat} if move.seat is not None else {})}
                errors = list(jsonschema.Draft202012Validator(variants[move.type]).iter_errors(body))
                assert not errors, (move.to_dict(), [e.message for e in errors])
                checked += 1
            state = ruleset.apply(state, rng.choice(moves))
    assert checked


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.slug)
def test_a_payload_the_validator_refuses_for_its_shape_the_schema_refuses(ruleset) -> None:
    for name, variant in _by_type(ruleset).items():
        spec = event_types_with_meta(ruleset)[name]
        data = variant["properties"]["data"]
        for payload in ({"no_such_field": 1}, {}):
            try:
                check_payload(spec.fields, payload)
            except SchemaError:
                assert not jsonschema.Draft202012Validator(data).is_valid(payload), (name, payload)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.slug)
def test_each_variant_has_an_example_that_fits_it_and_its_fields(ruleset) -> None:
    types = event_types_with_meta(ruleset)
    for name, variant in _by_type(ruleset).items():
        (example,) = variant["examples"]
        errors = [e.message for e in jsonschema.Draft202012Validator(variant).iter_errors(example)]
        assert not errors and example["type"] == name, (example, errors)
        check_payload(types[name].fields, example.get("data", {}))
