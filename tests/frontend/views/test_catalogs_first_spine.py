"""The First Spine card catalog: created from the default cards, edited as a table without JSON (sides as
3/1/0/1, capacities as a comma list, side capacities as pairs), export/import, a match started from it keeps
its own copy, and a match starts without any catalog."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches import catalogs
from matches.models import Catalog, Match
from rulesets.the_first_spine import default_cards
from tests.frontend.views.test_catalogs import forms_of, row_of

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]
GAME = "the-first-spine"


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


@pytest.fixture
def deck(owner: Any) -> Catalog:
    return catalogs.catalog_create(owner, GAME, "Spine deck")


def edit_form(client: Any, catalog: Catalog) -> dict[str, str]:
    response = client.get(f"/catalogs/{catalog.pk}/")
    assert response.status_code == 200
    form = next(f for f in forms_of(response.content.decode()).forms if "cards-count" in f["values"])
    return dict(form["values"])


def test_new_catalog_holds_the_default_cards(web):
    response = web.post("/catalogs/new/", {"name": "Spine deck", "game": GAME})
    assert response.status_code == 302
    catalog = Catalog.objects.get(game=GAME)
    assert catalog.data == {"cards": default_cards()}
    values = edit_form(web, catalog)
    paladin = row_of(values, "cards", "Paladin")
    assert values[f"cards-{paladin}-attack"] == "3/1/0/1"
    assert values[f"cards-{paladin}-defense"] == "2/1/1/1"
    spear = row_of(values, "cards", "Spearman")
    assert values[f"cards-{spear}-side_capacities"] == "right: threat, left: threat"
    martyr = row_of(values, "cards", "Martyr")
    assert values[f"cards-{martyr}-capacities"] == "death, treason"
    assert values[f"cards-{martyr}-origin"] == "priest"
    assert not [k for k, v in values.items() if k.startswith("cards-") and v.startswith(("{", "["))], (
        "no JSON in the table"
    )
    assert "front/right/back/left" in web.get(f"/catalogs/{catalog.pk}/").content.decode()


def test_edit_cards_in_the_table(web, deck):
    values = edit_form(web, deck)
    paladin = row_of(values, "cards", "Paladin")
    values[f"cards-{paladin}-attack"] = "4/2/0/2"
    blank = int(values["cards-count"]) - 1
    values.update(
        {
            f"cards-{blank}-name": "Stone Knight",
            f"cards-{blank}-kind": "creature",
            f"cards-{blank}-hp": "6",
            f"cards-{blank}-attack": "2 1 1 1",
            f"cards-{blank}-defense": "3/3/3/3",
            f"cards-{blank}-capacities": "run, burden_earth",
            f"cards-{blank}-side_capacities": "back: aura",
        }
    )
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 302, response.content.decode()[:2000]
    deck.refresh_from_db()
    knight = deck.data["cards"][-1]
    assert knight == {
        "name": "Stone Knight",
        "kind": "creature",
        "hp": 6,
        "attack": {"front": 2, "right": 1, "back": 1, "left": 1},
        "defense": {"front": 3, "right": 3, "back": 3, "left": 3},
        "capacities": ["run", "burden_earth"],
        "side_capacities": {"back": "aura"},
        "origin": None,
        "text": "",
    }
    assert next(c for c in deck.data["cards"] if c["name"] == "Paladin")["attack"]["right"] == 2


@pytest.mark.parametrize(
    ("column", "typed", "message"),
    [
        ("attack", "3/1/0", "Enter 4 whole numbers as front/right/back/left"),
        ("defense", "a/b/c/d", "Enter 4 whole numbers"),
        ("capacities", "death, flying", "Must be one of"),
        ("side_capacities", "front threat", "name: value pairs"),
        ("side_capacities", "top: threat", "Unknown field"),
        ("name", "Squire", "used twice"),
    ],
)
def test_bad_cells_are_marked_and_nothing_is_saved(web, deck, column, typed, message):
    before = json.dumps(deck.data, sort_keys=True)
    values = edit_form(web, deck)
    paladin = row_of(values, "cards", "Paladin")
    values[f"cards-{paladin}-{column}"] = typed
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 400
    assert message in response.content.decode()
    deck.refresh_from_db()
    assert json.dumps(deck.data, sort_keys=True) == before


def test_export_then_import(web, deck):
    exported = web.get(f"/catalogs/{deck.pk}/export.json")
    assert exported.status_code == 200
    body = json.loads(exported.content)
    assert body["game"] == GAME and body["data"]["cards"] == deck.data["cards"]
    body["data"]["cards"][0]["hp"] = 9
    response = web.post("/catalogs/import/", {"name": "Copy", "game": GAME, "json": json.dumps(body)})
    assert response.status_code == 302
    copy = Catalog.objects.get(name="Copy")
    assert copy.data["cards"][0]["hp"] == 9 and copy.game == GAME
    bad = web.post("/catalogs/import/", {"name": "Bad", "game": "salt-and-bones", "json": json.dumps(body)})
    assert bad.status_code == 400 and not Catalog.objects.filter(name="Bad").exists()


def test_a_match_from_the_catalog_keeps_its_own_copy(web, deck):
    cards = deck.data["cards"]
    cards[0]["hp"] = 11
    catalogs.catalog_update(deck, deck.owner, data={"cards": cards})
    response = web.post(
        "/matches/new/",
        {"game": GAME, "seat_count": "3", "seat_0": "Ana", "seat_1": "Bo", "seat_2": "Cy", "catalog": deck.pk},
    )
    assert response.status_code == 302
    match = Match.objects.get(game=GAME)
    assert match.stream.options["cards"][0]["hp"] == 11 and match.seats.count() == 3
    cards[0]["hp"] = 2
    catalogs.catalog_update(deck, deck.owner, data={"cards": cards})
    match.refresh_from_db()
    assert match.stream.options["cards"][0]["hp"] == 11
    state = web.get(f"/api/matches/{match.pk}/state/").json()["state"]
    assert state["catalog"][cards[0]["name"]]["hp"] == 11


def test_a_match_starts_without_a_catalog(web):
    response = web.post("/matches/new/", {"game": GAME, "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo"})
    assert response.status_code == 302
    match = Match.objects.get(game=GAME)
    assert [c["name"] for c in match.stream.options["cards"]] == [c["name"] for c in default_cards()]
