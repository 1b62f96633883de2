"""Every new-match form (issue 23 item 13): only what the chosen player count needs, players counted from 1,
option values in the rulebook's words, and the documented defaults honoured (the page sent as offered, with
only the names typed, creates the match)."""

from __future__ import annotations

import re

import pytest

from matches.models import Match
from rulesets import all_rulesets
from tests.frontend.form_filler import page_forms

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

NAMES = ("Mira", "Tomas", "Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo")


def visible_text(html: str) -> str:
    html = re.sub(r"(?s)<(script|style|template)\b[^>]*>.*?</\1>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def new_form(client, slug: str, seats: int):
    response = client.get(f"/matches/new/?game={slug}&seats={seats}")
    assert response.status_code == 200
    html = response.content.decode()
    [form] = [f for f in page_forms(html) if f.hidden("game") == slug]
    return html, form


@pytest.mark.parametrize(
    ("slug", "seats"), [(r.slug, n) for r in all_rulesets(kind="match") for n in sorted({r.seats[0], r.seats[-1]})]
)
def test_the_form_as_offered_creates_the_match(client, owner, slug, seats):
    client.force_login(owner)
    html, form = new_form(client, slug, seats)
    post = form.defaults()
    names = [c.name for c in form.controls if re.fullmatch(r"seat_\d+", c.name)]
    assert names == [f"seat_{i}" for i in range(seats)]  # one name per player, no more
    for i, name in enumerate(names):
        post[name] = [NAMES[i]]
    if slug == "scoresheet":
        post["option.title"] = ["Azul"]
    text = visible_text(html)
    assert not re.search(r"\bSeat \d", text), "players are counted from 1 and named Player N"
    for i in range(seats):
        assert f"Player {i + 1}" in text
    assert f"Player {seats + 1}" not in text  # nothing for a player who is not there
    response = client.post("/matches/new/", post)
    assert response.status_code == 302, visible_text(response.content.decode())[:800]
    match = Match.objects.get()
    assert [s.player.name for s in match.seats.order_by("index")] == list(NAMES[:seats])
    assert not match.is_public  # private unless the owner ticks Public (item 15)


def test_bone_wars_for_three_offers_three_players_in_the_rulebook_words(client, owner):
    client.force_login(owner)
    html, form = new_form(client, "bone-wars", 3)
    [first] = form.named("option.first_seat")
    assert first.options == ["", "0", "1", "2", "random"]  # no fourth seat for three players
    patrons = [c for c in form.controls if c.name.startswith("option.patrons.")]
    assert [c.name for c in patrons] == ["option.patrons.0", "option.patrons.1", "option.patrons.2"]
    assert all(c.options == ["", "marsh", "cope"] and c.selected in ([], [""]) for c in patrons)
    text = visible_text(html)
    for word in ("marsh", "cope", "bug", "footprint", "team", "paleontologist"):
        assert not re.search(rf"(?<![\w-]){word}(?![\w-])", text), f"the internal value {word!r} is shown"
    assert "Marsh" in text and "Cope" in text
    assert "Player 1" in text and "Seat 0" not in text

    post = form.defaults() | {"seat_0": ["Mira"], "seat_1": ["Tomas"], "seat_2": ["Ana"]}
    response = client.post("/matches/new/", post)
    assert response.status_code == 302  # the documented default (alternating patrons) is not forced
    state = Match.objects.get().stream.state
    assert [p["patron"] for p in state["players"]] == ["marsh", "cope", "marsh"]


def test_the_player_count_can_be_changed_on_the_form(client, owner):
    client.force_login(owner)
    html, _ = new_form(client, "bone-wars", 3)
    for n in (1, 2, 4):
        assert f'href="?game=bone-wars&amp;seats={n}"' in html
