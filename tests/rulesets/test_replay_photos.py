"""Photo entries (rulesets.replay): every game accepts them at any point, after the end too; the game state is
left as it is and an override waiting for its move still waits; the walk used by statistics skips them."""

from __future__ import annotations

import pytest

from rulesets import Event, get_ruleset
from rulesets.offline import EntryInvalid, clean_entry
from rulesets.replay import PHOTO_ADDED, PHOTO_REMOVED, Position, describe_entry, step, walk

pytestmark = pytest.mark.pure

PHOTO = {
    "photo": "abc",
    "caption": "the board",
    "at": 0,
    "display": "d",
    "thumb": "t",
    "width": 1,
    "height": 1,
    "bytes": 9,
}


@pytest.mark.parametrize("game", ["scoresheet", "last-stone", "bone-wars", "saltmarsh"])
def test_a_photo_leaves_the_state_as_it_is(game):
    ruleset = get_ruleset(game)
    event = clean_entry(ruleset, 2 if ruleset.kind == "match" else 0, PHOTO_ADDED, None, PHOTO, photo=True)
    start = Position(ruleset.initial_state({}, 2) if ruleset.kind == "match" else ruleset.initial_state({}, 0), 3)
    after = step(ruleset, start, event)
    assert after.state == start.state and after.version == 4 and not after.override_pending
    pending = step(ruleset, Position(start.state, 3, True), event)
    assert pending.override_pending  # the house rule still waits for its move


def test_a_photo_is_taken_after_the_result_and_its_seat_is_dropped():
    ruleset = get_ruleset("scoresheet")
    ended = step(ruleset, Position(ruleset.initial_state({}, 2), 0), Event("result_recorded", None, {"winners": [0]}))
    event = clean_entry(ruleset, 2, PHOTO_ADDED, 1, PHOTO, photo=True)
    assert event.seat is None
    assert step(ruleset, ended, event).state == ended.state


def test_photo_payloads_are_checked():
    ruleset = get_ruleset("scoresheet")
    with pytest.raises(EntryInvalid):
        clean_entry(ruleset, 2, PHOTO_REMOVED, None, {"photo": "abc", "reason": "x", "file": "burned"}, photo=True)
    with pytest.raises(EntryInvalid):
        clean_entry(ruleset, 2, PHOTO_ADDED, None, {"caption": "no photo id"}, photo=True)


def test_a_typed_photo_entry_is_refused_offline_as_on_the_server():
    """Only the photo service writes photo entries (they name stored files): the pure check, which the phone
    runs offline, refuses a typed one with the server's words."""
    ruleset = get_ruleset("scoresheet")
    for type_ in (PHOTO_ADDED, PHOTO_REMOVED):
        with pytest.raises(EntryInvalid) as refused:
            clean_entry(ruleset, 2, type_, None, PHOTO)
        assert "uploading or removing a photo" in refused.value.detail


def test_sentences_and_the_walk():
    ruleset = get_ruleset("scoresheet")
    assert describe_entry(ruleset, Event(PHOTO_ADDED, None, PHOTO), []) == "Photo added: the board"
    removed = Event(PHOTO_REMOVED, None, {"photo": "abc", "reason": "blurred", "file": "kept"})
    assert describe_entry(ruleset, removed, []) == "Photo removed (file kept): blurred"
    events = [(1, Event("points_scored", 0, {"points": 3})), (2, Event(PHOTO_ADDED, None, PHOTO))]
    assert [e.type for e, _, _ in walk(ruleset, {}, 2, events)] == ["points_scored"]
