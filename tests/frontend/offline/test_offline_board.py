"""The board drawn offline (``frontend/offline/board.py``) is the server's: for every game with a board, at several
positions and with the queries its own links ask for (a picked token, a card, a cell), the board rendered from the
page's seed with no database equals the one in the page (the idempotency key aside). The same renders in Pyodide:
``test_browser_offline_rules.py``."""

from __future__ import annotations

import random

import pytest

from frontend.boards import shared as boards
from frontend.offline import board as offline_board
from matches.errors import DomainError
from matches.services import match_event_record
from rulesets.replay import RESULT_RECORDED
from tests.frontend.offline_boards import board_html, board_queries, csrf_of, new_match, normalised, page_and_seed, play

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

STEPS = 16
LOOK_EVERY = 4


@pytest.mark.parametrize("slug", sorted(boards.BOARDS))
def test_the_offline_board_is_the_servers(client, django_user_model, slug):
    owner = django_user_model.objects.create_user(username="drawer", password="x-pass-123")
    client.force_login(owner)
    match, script = new_match(owner, slug)
    rng = random.Random(slug)
    compared = 0
    for step in range(STEPS + 1):
        page, seed = page_and_seed(client, match)
        # offline a board is drawn again only where the page checks moves itself: nothing hidden from the reader
        if step % LOOK_EVERY == 0 and seed["complete"]:
            inner = board_html(page)
            drawn = offline_board.render(seed, seed, {}, csrf_of(page))
            assert normalised(drawn) == normalised(inner), (slug, step)
            compared += 1
            for query in board_queries(inner, seed["board"]["page_url"], limit=12):
                asked = "?" + "&".join(f"{k}={v}" for k, v in query.items())
                page, seed = page_and_seed(client, match, asked)
                drawn = offline_board.render(seed, seed, query, csrf_of(page))
                assert normalised(drawn) == normalised(board_html(page)), (slug, step, query)
                compared += 1
        if not play(match, owner, rng, script):
            break
    assert compared >= 1, slug
    if slug == "bone-wars":  # sittings with their dates: the board asks when each began (TableFacts.times_of)
        match_event_record(match=match, user=owner, type="table_paused", data={})
        play(match, owner, rng, script)
        page, seed = page_and_seed(client, match)
        assert "<time datetime=" in board_html(page) and seed["board"]["times"]
        assert normalised(offline_board.render(seed, seed, {}, csrf_of(page))) == normalised(board_html(page))
    # a result the table recorded: the result board, with the game's own board below it once moves were made
    try:
        match_event_record(match=match, user=owner, type=RESULT_RECORDED, data={"winners": [0], "draw": False})
    except DomainError:  # the game is over already
        return
    page, seed = page_and_seed(client, match)
    assert 'class="logged-result"' in page or slug in boards.OWN_RESULT_BOARD
    assert normalised(offline_board.render(seed, seed, {}, csrf_of(page))) == normalised(board_html(page)), slug
