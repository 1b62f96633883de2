"""Catalog services and selectors: validation against the game's options schema, import/export, ownership."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from matches import catalogs
from matches.errors import InvalidInput, NotFound
from matches.models import Catalog
from rulesets.salt_and_bones import default_catalog

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def defaults() -> dict[str, Any]:
    base = default_catalog()
    return {k: base[k] for k in ("attack_cards", "strategy_cards", "board")}


def errors_of(exc: pytest.ExceptionInfo[InvalidInput]) -> dict[str, list[str]]:
    return exc.value.errors


def test_create_starts_from_the_default_cards(owner: Any) -> None:
    catalog = catalogs.catalog_create(owner, "salt-and-bones", "  Thursday   deck ")
    assert catalog.name == "Thursday deck" and catalog.game == "salt-and-bones"
    assert catalog.data == defaults()
    assert [c.name for c in catalogs.catalog_list(owner)] == ["Thursday deck"]


def test_create_refuses_bad_names_games_and_duplicates(owner: Any) -> None:
    catalogs.catalog_create(owner, "salt-and-bones", "Deck")
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "salt-and-bones", "deck")
    assert "already have a catalog called 'deck'" in errors_of(exc)["name"][0]
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "salt-and-bones", "   ")
    assert list(errors_of(exc)) == ["name"]
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "last-stone", "Stones")
    assert "has no card catalog" in errors_of(exc)["game"][0]
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "chess", "Nope")
    assert list(errors_of(exc)) == ["game"]
    assert Catalog.objects.count() == 1


def test_data_is_checked_against_the_options_schema(owner: Any) -> None:
    data = defaults()
    data["attack_cards"][0]["attack"] = 500
    data["attack_cards"][1]["copies"] = "six"
    del data["strategy_cards"][2]["type"]
    data["board"]["rows"] = 1
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "salt-and-bones", "Bad", data)
    errors = errors_of(exc)
    assert errors["attack_cards[0].attack"] == ["Must be at most 99."]
    assert errors["attack_cards[1].copies"] == ["Must be a whole number."]
    assert errors["strategy_cards[2].type"] == ["This field is required."]
    assert errors["board.rows"] == ["Must be at least 2."]
    # unknown keys and missing card lists are refused too; the board may be left out (default board)
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "salt-and-bones", "Bad", {"attack_cards": [], "decks": {}})
    assert set(errors_of(exc)) == {"decks", "attack_cards", "strategy_cards"}
    small = defaults()
    del small["board"]
    assert catalogs.catalog_create(owner, "salt-and-bones", "No board", small).data["board"] == defaults()["board"]
    assert Catalog.objects.count() == 1


def test_cross_field_problems_are_placed_on_their_rows(owner: Any) -> None:
    data = defaults()
    data["strategy_cards"][1]["name"] = "Bracer"  # two Bracers
    gambit = next(i for i, c in enumerate(data["strategy_cards"]) if c["type"] == "GAMBIT")
    data["strategy_cards"][gambit]["activation"] = "choice"
    flourish = next(i for i, c in enumerate(data["attack_cards"]) if c["bonus"] == "extra_instances")
    data["attack_cards"][flourish]["bonus_instances"] = 0
    data["board"]["centre"] = [[0, 0]]  # a grey corner
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_create(owner, "salt-and-bones", "Bad", data)
    errors = errors_of(exc)
    assert errors["strategy_cards"] == ["The strategy card name 'Bracer' is used twice."]
    assert "activation must be 'automatic'" in errors[f"strategy_cards[{gambit}]"][0]
    assert "bonus_instances of at least 1" in errors[f"attack_cards[{flourish}]"][0]
    assert errors["board"] == ["Centre tile at column 1, row 1 is grey."]


def test_update_is_all_or_nothing_and_owner_only(owner: Any, stranger: Any) -> None:
    catalog = catalogs.catalog_create(owner, "salt-and-bones", "Deck")
    catalogs.catalog_create(owner, "salt-and-bones", "Other")
    before = copy.deepcopy(catalog.data)
    bad = copy.deepcopy(before)
    bad["attack_cards"][0]["opportunity"] = -1
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_update(catalog, owner, name="Renamed", data=bad)
    assert list(errors_of(exc)) == ["attack_cards[0].opportunity"]
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_update(catalog, owner, name="other")
    assert list(errors_of(exc)) == ["name"]
    catalog.refresh_from_db()
    assert catalog.name == "Deck" and catalog.data == before
    good = copy.deepcopy(before)
    good["attack_cards"][0]["attack"] = 5
    catalogs.catalog_update(catalog, owner, name="Renamed", data=good)
    catalog.refresh_from_db()
    assert catalog.name == "Renamed" and catalog.data["attack_cards"][0]["attack"] == 5
    with pytest.raises(NotFound):
        catalogs.catalog_update(catalog, stranger, name="Mine now")
    with pytest.raises(NotFound):
        catalogs.catalog_delete(catalog, stranger)
    catalogs.catalog_delete(catalog, owner)
    assert not Catalog.objects.filter(pk=catalog.pk).exists()


def test_export_round_trips_through_import(owner: Any, make_user: Any) -> None:
    catalog = catalogs.catalog_create(owner, "salt-and-bones", "Deck")
    data = copy.deepcopy(catalog.data)
    data["attack_cards"].append({"name": "Wild Swing", "copies": 2, "attack": 6, "opportunity": 0})
    catalogs.catalog_update(catalog, owner, data=data)
    exported = catalogs.catalog_export(catalog)
    assert exported["format"] == "chronicle-catalog" and exported["game"] == "salt-and-bones"
    assert exported["name"] == "Deck"
    text = json.dumps(exported)
    friend = make_user("friend")
    copied = catalogs.catalog_import(friend, "salt-and-bones", "", text)  # blank name: the file's name
    assert copied.owner == friend and copied.name == "Deck" and copied.data == catalog.data
    assert catalogs.catalog_export(copied)["data"] == exported["data"]
    # the bare data object is accepted too; bytes (an uploaded file) as well
    bare = catalogs.catalog_import(owner, "salt-and-bones", "Bare", json.dumps(catalog.data).encode())
    assert bare.data == catalog.data


def test_import_refuses_bad_json_and_other_games(owner: Any) -> None:
    for text, key, words in [
        ("{not json", "json", "not valid JSON"),
        ("[1, 2]", "json", "must be an object"),
        ("", "json", "Paste the catalog"),
        (json.dumps({"format": "chronicle-catalog", "game": "get-salty", "name": "X", "data": {}}), "game", "not of"),
        (json.dumps({"attack_cards": "lots"}), "attack_cards", "Must be a list."),
    ]:
        with pytest.raises(InvalidInput) as exc:
            catalogs.catalog_import(owner, "salt-and-bones", "Imported", text)
        assert any(words in m for m in errors_of(exc)[key]), (text, errors_of(exc))
    with pytest.raises(InvalidInput) as exc:
        catalogs.catalog_import(owner, "salt-and-bones", "Imported", b"\xff\xfe")
    assert list(errors_of(exc)) == ["json"]
    assert Catalog.objects.count() == 0


def test_selectors_only_show_my_catalogs(owner: Any, stranger: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    mine = catalogs.catalog_create(owner, "salt-and-bones", "Mine")
    theirs = catalogs.catalog_create(stranger, "salt-and-bones", "Theirs")
    assert list(catalogs.catalog_list(owner)) == [mine]
    assert list(catalogs.catalog_list(owner, "salt-and-bones")) == [mine]
    assert list(catalogs.catalog_list(owner, "get-salty")) == []
    assert list(catalogs.catalog_list(AnonymousUser())) == []
    assert catalogs.catalog_get(owner, mine.pk) == mine
    for pk in (theirs.pk, 99999, "x"):
        with pytest.raises(NotFound):
            catalogs.catalog_get(owner, pk)
    with pytest.raises(NotFound):
        catalogs.catalog_get(AnonymousUser(), mine.pk)


def test_a_match_gets_a_copy_of_the_catalog(owner: Any) -> None:
    from matches.services import match_create

    catalog = catalogs.catalog_create(owner, "salt-and-bones", "Deck")
    data = copy.deepcopy(catalog.data)
    data["attack_cards"][0]["attack"] = 7
    catalogs.catalog_update(catalog, owner, data=data)
    match = match_create(
        owner=owner,
        game="salt-and-bones",
        seats=[{"name": "Ana"}, {"name": "Bo"}],
        options=catalogs.catalog_options(catalog),
    )
    assert match.stream.options["attack_cards"] == catalog.data["attack_cards"]
    assert match.stream.options["attack_cards"][0]["attack"] == 7
    later = copy.deepcopy(catalog.data)
    later["attack_cards"][0]["attack"] = 1
    catalogs.catalog_update(catalog, owner, data=later)
    match.stream.refresh_from_db()
    assert match.stream.options["attack_cards"][0]["attack"] == 7
