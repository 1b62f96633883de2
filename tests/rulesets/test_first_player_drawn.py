"""Who starts, drawn at random: the ``first_player_drawn`` entry folded once for every game (no database)."""

from __future__ import annotations

import pytest

from rulesets import Event, RuleViolation, all_rulesets, get_ruleset
from rulesets.replay import (
    FIRST_PLAYER_DRAWN,
    Position,
    describe_entry,
    random_start_refusal,
    replay,
    step,
)

pytestmark = pytest.mark.pure

# game → (seat count, how the state says who starts)
RANDOM_START = {
    "get-salty": (2, lambda s: (s["turn"], s["first_seat"])),
    "last-stone": (2, lambda s: (s["turn"], s["turn"])),
    "salt-and-bones": (2, lambda s: (s["momentum"], s["momentum"])),
    "bone-wars": (4, lambda s: (s["turn"], s["first_seat"])),
}


def drawn(seat: int) -> Event:
    return Event(FIRST_PLAYER_DRAWN, None, {"seat": seat})


def test_the_games_allowing_a_random_start_are_those_listed_here():
    allowed = {r.slug for r in all_rulesets() if r.random_start}
    assert allowed == set(RANDOM_START)


@pytest.mark.parametrize("slug", sorted(RANDOM_START))
def test_the_drawn_seat_starts_and_replay_gives_the_same_first_player(slug):
    ruleset = get_ruleset(slug)
    seats, starter = RANDOM_START[slug]
    options = {ruleset.start_option: "random"}
    before = ruleset.initial_state(options, seats)
    assert starter(before) == (0, 0)  # nothing drawn yet: the placeholder is the first seat
    last = seats - 1
    pos = step(ruleset, Position(before), drawn(last))
    assert starter(pos.state) == (last, last) and pos.version == 1
    assert before == ruleset.initial_state(options, seats)  # the input is untouched
    assert ruleset.turn(pos.state).seats == (last,)
    again = replay(ruleset, options, seats, [drawn(last)], check=True)
    assert again.state == pos.state


def test_the_first_move_must_be_made_by_the_drawn_seat():
    ruleset = get_ruleset("get-salty")
    pos = step(ruleset, Position(ruleset.initial_state({"first_seat": "random"}, 2)), drawn(1))
    with pytest.raises(RuleViolation) as refused:
        step(ruleset, pos, Event("victory_attribute_chosen", 0, {"attribute": "shape"}))
    assert refused.value.code == "not_your_turn"
    pos = step(ruleset, pos, Event("victory_attribute_chosen", 1, {"attribute": "shape"}))
    assert pos.state["attributes"] == {"1": "shape", "0": "color"}


def test_salt_and_bones_gives_the_momentum_token_to_the_drawn_seat():
    ruleset = get_ruleset("salt-and-bones")
    pos = step(ruleset, Position(ruleset.initial_state({"momentum_seat": "random"}, 2)), drawn(1))
    assert pos.state["log"][0] == "Round 1 begins. Seat 1 has Momentum."


@pytest.mark.parametrize("slug", ["the-first-spine", "scoresheet", "saltmarsh-adventure"])
def test_a_game_without_a_random_start_refuses_the_draw(slug):
    ruleset = get_ruleset(slug)
    refusal = random_start_refusal(ruleset)
    assert refusal
    options = {"adventure": "Dunwater", "heroes": [{"name": "V", "class": "Fighter", "max_hp": 10}]}
    state = ruleset.initial_state(options if slug == "saltmarsh-adventure" else {}, 2)
    with pytest.raises(RuleViolation) as refused:
        step(ruleset, Position(state), drawn(1))
    assert refused.value.code == "no_random_start" and refused.value.message == refusal


def test_the_first_spine_refusal_quotes_its_rulebook():
    refusal = random_start_refusal(get_ruleset("the-first-spine"))
    assert "lost a previous game" in refusal and "got up the earliest" in refusal


def test_the_draw_comes_before_every_other_entry():
    ruleset = get_ruleset("last-stone")
    pos = step(ruleset, Position(ruleset.initial_state({"stones": 9}, 2)), Event("stones_taken", 0, {"count": 1}))
    with pytest.raises(RuleViolation) as refused:
        step(ruleset, pos, drawn(1))
    assert refused.value.code == "draw_after_start"


def test_a_seat_the_game_does_not_have_is_refused():
    ruleset = get_ruleset("bone-wars")
    with pytest.raises(RuleViolation):
        step(ruleset, Position(ruleset.initial_state({}, 2)), drawn(2))


def test_the_history_names_who_was_drawn():
    assert describe_entry(get_ruleset("get-salty"), drawn(1), ["Ana", "Bo"]) == "Bo was drawn to start."


def test_a_choice_field_needs_one_label_per_choice() -> None:
    from rulesets.schema import Field

    with pytest.raises(ValueError, match="one label per choice"):
        Field("x", "choice", choices=(0, 1), choice_labels=("only one",))
