"""The board's picks drawn ahead (issue 47 item 2), server side: ``GET /matches/<id>/picks/`` answers, for a
recorder, the board of each link of the match page's board, each the very board the page draws at that link's
address (the idempotency key aside); a reader who may not record gets none; a match the reader may not see is 404."""

from __future__ import annotations

import html as htmllib
import json
import random

import pytest

from frontend.offline.board import link_queries
from tests.frontend.offline_boards import board_html, new_match, normalised, play
from tests.matches.hidden_reads import seed_of

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

CSRF = 'name="csrfmiddlewaretoken" value="'


def _same(drawn: str, page: str) -> bool:
    """Equal but for the idempotency keys and the CSRF token's mask (each answer masks the token anew)."""

    def bare(text: str) -> str:
        return "\n".join(line for line in normalised(text).splitlines() if CSRF not in line)

    return bare(drawn) == bare(page)


@pytest.mark.parametrize("slug,moves", [("get-salty", 1), ("the-first-spine", 5)])
def test_each_pick_drawn_ahead_is_the_board_the_page_draws_at_that_link(client, django_user_model, slug, moves):
    owner = django_user_model.objects.create_user(username="drawer", password="x-pass-123")
    client.force_login(owner)
    match, script = new_match(owner, slug)
    rng = random.Random(slug)
    for _ in range(moves):
        play(match, owner, rng, script)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    answer = client.get(f"/matches/{match.pk}/picks/")
    assert answer.status_code == 200 and "no-cache" in answer["Cache-Control"]
    body = answer.json()
    assert body["version"] == json.loads(seed_of(page))["version"]
    picks = body["picks"]
    queries = link_queries(board_html(page), f"/matches/{match.pk}/")
    assert queries and set(picks) == {"", *queries}, (sorted(picks), queries)
    assert _same(picks[""], board_html(page))
    for query in queries:
        drawn = board_html(client.get(f"/matches/{match.pk}/?{htmllib.unescape(query)}").content.decode())
        assert _same(picks[query], drawn), query


def test_a_reader_who_may_not_record_gets_no_picks_and_a_hidden_match_is_not_found(client, django_user_model):
    owner = django_user_model.objects.create_user(username="owner", password="x-pass-123")
    match, _ = new_match(owner, "get-salty")
    match.is_public = True
    match.save(update_fields=["is_public"])
    reader = django_user_model.objects.create_user(username="reader", password="x-pass-123")
    client.force_login(reader)
    assert client.get(f"/matches/{match.pk}/picks/").json()["picks"] == {}
    match.is_public = False
    match.save(update_fields=["is_public"])
    assert client.get(f"/matches/{match.pk}/picks/").status_code == 404
    assert client.post(f"/matches/{match.pk}/picks/").status_code == 405
