"""The boards' shared helpers (``frontend.boards.shared``): a board link keeps every value but None and "" (seat 0
is a seat), and a move posts as one compact text."""

from __future__ import annotations

import json

import pytest

from frontend.boards.shared import board_href, board_links, move_json
from rulesets import Event

pytestmark = pytest.mark.pure

PAGE = "/matches/7/"


def test_a_link_keeps_seat_zero():
    assert board_href(PAGE, {"seat": 0, "card": "Cutlass"}) == "/matches/7/?seat=0&card=Cutlass#board"


def test_a_link_leaves_out_what_is_not_set():
    assert board_href(PAGE, {"seat": None, "card": "", "a": "1,2"}) == "/matches/7/?a=1%2C2#board"
    assert board_href(PAGE, {}) == "/matches/7/#board"


def test_kept_parameters_follow_the_link_own():
    href = board_links(PAGE, {"hint": "1"})
    assert href(pick="red-circle") == "/matches/7/?pick=red-circle&hint=1#board"
    assert href() == "/matches/7/?hint=1#board"
    assert board_links(PAGE)() == "/matches/7/#board"


def test_a_move_is_one_compact_text_with_sorted_keys():
    event = Event("stones_taken", 0, {"count": 2, "after": None})
    text = move_json(event)
    assert " " not in text
    assert json.loads(text) == event.to_dict()
    assert text == move_json(Event("stones_taken", 0, {"after": None, "count": 2}))
