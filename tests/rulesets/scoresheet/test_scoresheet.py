"""Score sheet: points per seat, the end of the game, the outcome from the totals or the table's word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import Event, get_ruleset
from rulesets.base import RuleViolation
from rulesets.replay import Position, outcome_of, replay, step
from tests.rulesets.scenario import play_with, rejected_with, try_step

pytestmark = pytest.mark.pure

SHEET = get_ruleset("scoresheet")
play = play_with(SHEET)
rejected = rejected_with(SHEET)


def sheet(seats: int = 3, **options: object) -> dict:
    return SHEET.initial_state({"title": "Azul", **options}, seats)


def points(seat: int, n: int, round_: int | None = None) -> Event:
    return Event("points_scored", seat, {"points": n, "round": round_})


END = Event("game_ended", None, {})


def test_points_add_up_per_seat_and_round_entries_are_kept() -> None:
    state = play(sheet(), points(0, 10, 1), points(1, 7, 1), points(0, -2, 2))
    assert state["totals"] == [8, 7, 0]
    assert state["entries"][2] == {"seat": 0, "points": -2, "round": 2}
    assert SHEET.outcome(state) is None


def test_highest_total_wins_and_ties_share_the_win() -> None:
    state = play(sheet(), points(0, 10), points(1, 12), points(2, 3), END)
    out = SHEET.outcome(state)
    assert out.winners == (1,) and not out.draw and out.scores == {0: 10, 1: 12, 2: 3}
    tie = SHEET.outcome(play(sheet(), points(0, 12), points(1, 12), points(2, 3), END))
    assert tie.winners == (0, 1) and "shared" in tie.reason


def test_lowest_total_wins_when_the_game_says_so() -> None:
    state = play(sheet(highest_wins=False), points(0, 10), points(1, 12), points(2, 3), END)
    assert SHEET.outcome(state).winners == (2,)


def test_cooperative_game_is_won_or_lost_together() -> None:
    won = play(sheet(cooperative=True), Event("game_ended", None, {"won": True}))
    assert SHEET.outcome(won).winners == (0, 1, 2)
    lost = play(sheet(cooperative=True), Event("game_ended", None, {"won": False}))
    out = SHEET.outcome(lost)
    assert out.winners == () and not out.draw and "lost" in out.reason


def test_refusals_name_the_rule() -> None:
    assert rejected(sheet(cooperative=True), END) == "won_or_lost"
    assert rejected(sheet(), Event("game_ended", None, {"won": True})) == "not_cooperative"
    assert rejected(sheet(), END) == "no_points"
    over = play(sheet(), points(0, 1), END)
    assert rejected(over, points(1, 5)) == "game_over"
    assert rejected(over, END) == "game_over"


def test_describe_names_the_player() -> None:
    assert SHEET.describe(points(1, 4, 2), ["Ana", "Bo"]) == "Bo scored 4 points in round 2"
    assert SHEET.describe(points(0, 1), ["Ana", "Bo"]) == "Ana scored 1 point"


# -- result_recorded, handled once for every game in rulesets/replay.py ---------------------------------

RESULT = "result_recorded"


def result(winners: list[int], draw: bool = False, scores: dict | None = None, note: str = "") -> Event:
    return Event(RESULT, None, {"winners": winners, "draw": draw, "scores": scores, "note": note})


def test_a_recorded_result_ends_any_game_and_stops_moves() -> None:
    salty = get_ruleset("last-stone")
    pos = Position(salty.initial_state({"stones": 10}, 2), 0, False)
    pos = step(salty, pos, Event("stones_taken", 0, {"count": 2}))
    pos = step(salty, pos, result([1], scores={"0": 3, "1": 5}, note="abandoned, Bo far ahead"))
    out = outcome_of(salty, pos.state)
    assert out.winners == (1,) and out.scores == {0: 3, 1: 5} and out.reason == "abandoned, Bo far ahead"
    for event in (Event("stones_taken", 1, {"count": 1}), result([0])):
        try:
            step(salty, pos, event)
        except Exception as exc:
            assert getattr(exc, "code", "") == "game_over"
        else:
            raise AssertionError("a move after the recorded result must be refused")


def test_a_result_cannot_be_recorded_on_a_game_its_rules_ended() -> None:
    stone = get_ruleset("last-stone")
    pos = Position(stone.initial_state({"stones": 1}, 2), 0, False)
    pos = step(stone, pos, Event("stones_taken", 0, {"count": 1}))
    try:
        step(stone, pos, result([1]))
    except Exception as exc:
        assert exc.code == "game_over"
    else:
        raise AssertionError("refused")


def test_voiding_the_recorded_result_reopens_the_game() -> None:
    stone = get_ruleset("last-stone")
    events = [
        Event("stones_taken", 0, {"count": 2}),
        result([], draw=True),
        Event("event_voided", None, {"version": 2, "reason": "typo"}),
    ]
    pos = replay(stone, {"stones": 10}, 2, events, check=True)
    assert outcome_of(stone, pos.state) is None
    assert stone.validate(pos.state, Event("stones_taken", 1, {"count": 1})) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-50, 50), st.booleans()), max_size=25))
def test_random_sheets_keep_totals_equal_to_their_entries(moves: list[tuple[int, int, bool]]) -> None:
    state = sheet()
    for seat, n, end in moves:
        event = END if end else points(seat, n)
        new = try_step(SHEET, state, event)
        if new is None:
            continue  # refusals are checked (explained, no change) by try_step
        state = new
    for seat in range(3):
        assert state["totals"][seat] == sum(e["points"] for e in state["entries"] if e["seat"] == seat)
    out = SHEET.outcome(state)
    assert (out is None) == (not state["ended"])
    if out is not None:
        assert max(state["totals"]) in [state["totals"][w] for w in out.winners]


def test_refusals_of_chronicles_own_checks_cite_entries_in_plain_words() -> None:
    """Issue 22 item 10: a missing seat, an unknown entry and malformed points cite "Chronicle › Entries"."""
    for event, code, words in [
        (Event("points_scored", None, {"points": 3}), "no_such_seat", "Points go to a seat (0 to 2): say whose"),
        (Event("points_scored", 7, {"points": 3}), "no_such_seat", "7 is not a seat of this match"),
        (Event("dice_rolled", 0, {}), "unknown_event", "A score sheet has no 'dice_rolled' entry."),
        (Event("points_scored", 0, {"points": "many"}), "invalid_payload", "This entry does not fit: Points"),
    ]:
        try:
            SHEET.validate(sheet(), event)
        except RuleViolation as exc:
            assert exc.code == code and exc.rule == "Chronicle › Entries" and words in exc.message, exc.to_dict()
        else:
            raise AssertionError(f"{event} was accepted")


def test_the_turn_line_never_names_a_seat_twice_and_the_end_names_the_winner() -> None:
    from rulesets.names import turn_line

    names = ["Ana", "Bo", "Cy"]
    info = SHEET.turn(sheet())
    assert turn_line(info.seats, info.prompt, names) == (
        "Ana or Bo or Cy to play — record points for anyone, then end the game"
    )
    over = play(sheet(), points(0, 10), points(1, 31), END)
    info = SHEET.turn(over)
    assert turn_line(info.seats, info.prompt, names) == "Bo wins with 31 points (highest score)."
    tie = play(sheet(), points(0, 12), points(1, 12), END)
    assert SHEET.turn(tie).prompt == "Seat 0 and Seat 1 share the win with 12 points (shared highest score)."
    lost = play(sheet(cooperative=True), Event("game_ended", None, {"won": False}))
    assert SHEET.turn(lost).prompt == "The players lost together."
