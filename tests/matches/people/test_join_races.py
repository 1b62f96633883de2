"""Join links raced on separate connections (PostgreSQL; SQLite writes are serial anyway): friends tapping the
same seat at once seat one account, and two taps of one friend take one seat (issue 33 item 1)."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.models import JoinLink, Player
from matches.people import joins
from matches.services import match_create
from tests.matches.racing import run_threads

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("concurrency of separate connections is PostgreSQL's behaviour (SQLite writes are serial)")


@pytest.fixture
def table(owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"stones": 10})  # fmt: skip
    return match, joins.join_link_on(match=match, user=owner)


def test_four_friends_racing_for_one_seat_seat_one(table, make_user):
    match, link = table
    friends = [make_user(f"friend{i}") for i in range(4)]
    outcomes = run_threads(4, lambda i: joins.join_take(user=friends[i], token=link.token, seat=1))
    won = [value for kind, value in outcomes if kind == "ok"]
    lost = [value for kind, value in outcomes if kind == "error"]
    assert len(won) == 1 and len(lost) == 3
    assert all(isinstance(e, joins.JoinRefused) for e in lost), lost
    bo = Player.objects.get(name="Bo")
    assert bo.user_id is not None and list(match.recorders.values_list("pk", flat=True)) == [bo.user_id]


def test_one_friend_tapping_twice_takes_one_seat(table, make_user):
    match, link = table
    bo = make_user("bo")
    outcomes = run_threads(2, lambda i: joins.join_take(user=bo, token=link.token, seat=i))
    assert [kind for kind, _ in outcomes] == ["ok", "ok"]
    assert sorted(value.already for _, value in outcomes) == [False, True]
    assert Player.objects.filter(user=bo).count() == 1 and match.recorders.count() == 1


def test_two_taps_on_show_a_join_link_make_one(owner):
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"stones": 10})  # fmt: skip
    outcomes = run_threads(2, lambda i: joins.join_link_on(match=match, user=owner).token)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    assert outcomes[0][1] == outcomes[1][1] and JoinLink.objects.filter(match=match).count() == 1
