"""Players by name on the pages: the turn line, refusals, the combat log, history and activity."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from matches.services import match_create, match_event_record
from tests.matches.people.test_seat_names import SLASH_HIT

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

SEAT_NUMBER = re.compile(r"\b[Ss]eat [0-9]+('s| to| takes| played| wins| has| is| must| may)|\bphase: [a-z_]+")


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


def text_of(response: Any) -> str:
    """The page's visible words, tags stripped and entities decoded (a script's content is never shown: the
    offline seed holds the reducer's own state, "Seat N" and all)."""
    html = re.sub(r"(?s)<script\b[^>]*>.*?</script>", " ", response.content.decode())
    words = html_lib.unescape(re.sub(r"<[^>]+>", " ", html))
    return re.sub(r"\s+([,.;:!?])", r"\1", " ".join(words.split()))


def no_seat_numbers(text: str) -> None:
    found = SEAT_NUMBER.search(text)
    assert found is None, text[max(0, found.start() - 80) : found.end() + 80]


@pytest.fixture
def sab(owner: Any) -> Any:
    """Salt & Bones between Ana and Bo, Ana has just hit Bo with a Slash."""
    match = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in SLASH_HIT:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


def test_salt_and_bones_page_names_the_players(web, sab):
    page = text_of(web.get(f"/matches/{sab.pk}/"))
    assert (
        "Ana or Bo to play — the player with Momentum may chain another Attack card, or the other player starts a turn"
        in page
    )
    assert "Bo takes 3 damage: Health 20 → 17." in page
    no_seat_numbers(page)


def test_a_refused_move_names_the_player_whose_turn_it_is(web, owner):
    match = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])
    r = web.post(
        f"/matches/{match.pk}/record/",
        {"type": "victory_attribute_chosen", "seat": "1", "data.attribute": "color", "expected_version": "0"},
    )
    assert r.status_code == 400
    page = text_of(r)
    assert "It is Ana's turn." in page
    assert "Ana to play — choose the victory attribute: shape or color" in page
    no_seat_numbers(page)


def test_history_and_activity_name_the_players(web, sab):
    history = text_of(web.get(f"/matches/{sab.pk}/history/"))
    assert "Ana played Slash (attack on column 3, row 3; opportunity on column 4, row 3)." in history
    no_seat_numbers(history)
    home = text_of(web.get("/"))
    assert "Ana played Slash" in home
    no_seat_numbers(home)
