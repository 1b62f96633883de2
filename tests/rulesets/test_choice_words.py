"""Issue 33 item 7: every select a ruleset describes offers the rulebook's words (``Field.choice_labels``), never
the wire's values ("circle-red", "conjurer", "instinct"); a void reads in players' words; a list too short says
how many to enter."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from rulesets import all_rulesets, get_ruleset
from rulesets.base import Event
from rulesets.replay import UNDO_REASON, describe_entry, void_words
from rulesets.schema import Field, SchemaError, check_payload

pytestmark = pytest.mark.pure

WIRE = re.compile(r"[a-z]+(?:[-_][a-z]+)+|[a-z]+")  # a lowercase value or a hyphen/snake-joined one


def _choices(fields: tuple[Field, ...], where: str) -> Iterator[tuple[str, Field]]:
    for f in fields:
        if f.kind == "choice":
            yield f"{where}.{f.name}", f
        if f.item is not None:
            yield from _choices((f.item,), f"{where}.{f.name}")
        yield from _choices(f.fields, f"{where}.{f.name}")


def _all_choices() -> Iterator[tuple[str, Field]]:
    for ruleset in all_rulesets():
        yield from _choices(tuple(ruleset.options_schema), f"{ruleset.slug} options")
        for name, spec in ruleset.event_types.items():
            yield from _choices(tuple(spec.fields), f"{ruleset.slug} {name}")


def test_every_select_of_words_has_the_rulebooks_labels():
    missing = [
        where for where, f in _all_choices() if any(isinstance(c, str) for c in f.choices) and not f.choice_labels
    ]
    assert not missing, missing
    raw = [(where, label) for where, f in _all_choices() for label in f.choice_labels if WIRE.fullmatch(label)]
    assert not raw, raw  # a label is words ("Red circle"), never a value as the wire spells it


@pytest.mark.parametrize(
    ("slug", "event", "field", "value", "label"),
    [
        ("get-salty", "cracker_flipped", "cracker", "circle-red", "Red circle"),
        ("get-salty", "victory_attribute_chosen", "attribute", "color", "Color"),
        ("the-first-spine", "destiny_chosen", "destiny", "conjurer", "Conjurer"),
        ("the-first-spine", "origin_chosen", "origin", "healer", "Healer"),
        ("salt-and-bones", "hand_card_discarded", "kind", "strategy", "Strategy Card"),
        ("salt-and-bones", "strategy_card_placed", "slot", "instinct", "INSTINCT slot"),
    ],
)
def test_the_words_the_issue_names(slug, event, field, value, label):
    f = next(f for f in get_ruleset(slug).event_types[event].fields if f.name == field)
    assert dict(zip(f.choices, f.choice_labels, strict=True))[value] == label


def test_a_void_in_players_words():
    assert void_words(4, UNDO_REASON, "Ana took 2 stones.", "Ana") == (
        "Ana's move 4 (took 2 stones) was undone at the table"
    )
    assert (
        void_words(4, "wrong pile", "Ana took 2 stones.", "Ana")
        == "Ana's move 4 (took 2 stones) was undone: wrong pile"
    )
    assert (
        void_words(3, UNDO_REASON, "The Field card flipped.", "")
        == "Move 3 (The Field card flipped) was undone at the table"
    )
    stones = get_ruleset("last-stone")
    said = describe_entry(stones, Event("event_voided", None, {"version": 2, "reason": UNDO_REASON}), ["Ana", "Bo"])
    assert said == "Move 2 was undone at the table" and "oided" not in said


def test_a_short_list_says_how_many_to_enter():
    fields = (Field("rolls", "list", item=Field("roll", "int"), min_items=1, max_items=2, label="d20 rolls"),)
    with pytest.raises(SchemaError) as exc:
        check_payload(fields, {"rolls": []})
    assert exc.value.errors == {"rolls": ["Enter at least 1."]}
    with pytest.raises(SchemaError) as exc:
        check_payload(fields, {"rolls": [1, 2, 3]})
    assert exc.value.errors == {"rolls": ["Enter at most 2."]}
