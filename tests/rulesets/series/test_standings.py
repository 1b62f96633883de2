"""Series standings: every rule of places, points, wins and scores, played on hand-made results."""

from __future__ import annotations

import pytest

from rulesets.series.standings import DEFAULT_PLACE_POINTS, Result, places, points_for, standings

pytestmark = pytest.mark.pure

ANA, BO, CY, DI = ("ana", "Ana"), ("bo", "Bo"), ("cy", "Cy"), ("di", "Di")


def table(result_list, place_points=DEFAULT_PLACE_POINTS):
    return [r.to_dict() for r in standings(result_list, place_points).rows]


def test_the_winner_takes_place_1_and_the_others_are_ranked_by_score_after_it():
    r = Result(1, [ANA, BO, CY], winners=[1], scores={0: 10, 1: 7, 2: 12})
    assert places(r) == {1: 1, 2: 2, 0: 3}  # the winner first even with a lower score


def test_winners_share_place_1_and_the_next_place_is_after_all_of_them():
    r = Result(1, [ANA, BO, CY, DI], winners=[0, 2], scores={0: 5, 1: 9, 2: 5, 3: 1})
    assert places(r) == {0: 1, 2: 1, 1: 3, 3: 4}


def test_tied_scores_share_the_better_place_and_the_next_is_skipped():
    r = Result(1, [ANA, BO, CY, DI], winners=[0], scores={0: 20, 1: 8, 2: 8, 3: 3})
    assert places(r) == {0: 1, 1: 2, 2: 2, 3: 4}


def test_without_scores_every_loser_shares_the_place_after_the_winners():
    r = Result(1, [ANA, BO, CY], winners=[2])
    assert places(r) == {2: 1, 0: 2, 1: 2}


def test_a_seat_without_a_score_comes_after_the_scored_ones():
    r = Result(1, [ANA, BO, CY], winners=[0], scores={0: 4, 1: 2})
    assert places(r) == {0: 1, 1: 2, 2: 3}


def test_a_draw_ranks_everyone_by_score_from_place_1_or_all_share_it():
    assert places(Result(1, [ANA, BO, CY], scores={0: 3, 1: 5, 2: 3})) == {1: 1, 0: 2, 2: 2}
    assert places(Result(1, [ANA, BO])) == {0: 1, 1: 1}


def test_place_points_apply_by_place_and_places_past_the_list_earn_nothing():
    assert [points_for(p, [5, 3, 1]) for p in (1, 2, 3, 4, 9)] == [5, 3, 1, 0, 0]
    assert DEFAULT_PLACE_POINTS == (3, 2, 1)


def test_a_shared_win_is_a_win_for_each_winner_and_both_earn_first_place_points():
    rows = table([Result(1, [ANA, BO, CY], winners=[0, 1])])
    assert rows == [
        {"player": "Ana", "played": 1, "wins": 1, "points": 3, "total_score": 0, "best_score": None},
        {"player": "Bo", "played": 1, "wins": 1, "points": 3, "total_score": 0, "best_score": None},
        {"player": "Cy", "played": 1, "wins": 0, "points": 1, "total_score": 0, "best_score": None},  # place 3
    ]


def test_rows_add_up_across_matches_and_sort_by_points_then_total_score():
    results = [
        Result(1, [ANA, BO], winners=[0], scores={0: 10, 1: 30}),  # Ana 3, Bo 2
        Result(2, [BO, CY], winners=[1], scores={0: 25, 1: 5}),  # Cy 3, Bo 2
        Result(3, [CY, ANA], winners=[0], scores={0: 6, 1: 8}),  # Cy 3, Ana 2
    ]
    rows = table(results)
    assert [r["player"] for r in rows] == ["Cy", "Ana", "Bo"]
    assert rows[0] == {"player": "Cy", "played": 2, "wins": 2, "points": 6, "total_score": 11, "best_score": 6}
    assert rows[1] == {"player": "Ana", "played": 2, "wins": 1, "points": 5, "total_score": 18, "best_score": 10}
    assert rows[2] == {"player": "Bo", "played": 2, "wins": 0, "points": 4, "total_score": 55, "best_score": 30}
    # equal points: the higher total score comes first
    tied = table([Result(1, [ANA, BO], winners=[0, 1], scores={0: 1, 1: 9})])
    assert [r["player"] for r in tied] == ["Bo", "Ana"]


def test_the_same_player_is_one_row_whatever_seat_and_custom_place_points():
    results = [Result(1, [ANA, BO], winners=[0]), Result(2, [BO, ANA], winners=[1])]
    rows = table(results, place_points=[10])
    assert rows[0] == {"player": "Ana", "played": 2, "wins": 2, "points": 20, "total_score": 0, "best_score": None}
    assert rows[1]["points"] == 0  # second place earns nothing with place_points [10]


def test_each_match_reports_its_places_and_points_in_order():
    s = standings([Result(7, [ANA, BO], winners=[1]), Result(3, [ANA, BO], winners=[0])])
    assert [(m.match, m.places, m.points) for m in s.matches] == [
        (7, {1: 1, 0: 2}, {1: 3, 0: 2}),
        (3, {0: 1, 1: 2}, {0: 3, 1: 2}),
    ]


def test_in_a_lowest_score_game_the_others_rank_lowest_first() -> None:
    r = Result(1, [ANA, BO, CY, DI], winners=[3], scores={0: 40, 1: 31, 2: 55, 3: 28}, lower_is_better=True)
    assert places(r) == {3: 1, 1: 2, 0: 3, 2: 4}
    rows = table([r, Result(2, [ANA, BO], winners=[0], scores={0: 30, 1: 35}, lower_is_better=True)])
    assert {row["player"]: row["best_score"] for row in rows} == {"Di": 28, "Bo": 31, "Ana": 30, "Cy": 55}
