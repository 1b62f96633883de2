"""Catalog pages: create from the defaults, edit as tables (errors in place, nothing saved), import, export,
owner only, and a new match created from a catalog keeps its own copy of the cards."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import Any

import pytest

from matches import catalogs
from matches.models import Catalog, Match

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


class _Forms(HTMLParser):
    """Every form's action and the values its inputs would post (as a browser would fill them)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None
        self._first_option: str | None = None
        self._textarea: str | None = None
        self.errors: list[str] = []
        self._in_error = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "small" and "error" in a.get("class", "").split():
            self._in_error = True
            self.errors.append("")
        if tag == "form":
            self._form = {"action": a.get("action", ""), "values": {}}
            self.forms.append(self._form)
        if self._form is None:
            return
        values = self._form["values"]
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    values[a["name"]] = "on"
            elif kind != "file":
                values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a["name"]
            self._first_option = None
        elif tag == "option" and self._select:
            if self._first_option is None:
                self._first_option = a.get("value", "")
                values.setdefault(self._select, self._first_option)
            if "selected" in a:
                values[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            values[a["name"]] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea and self._form is not None:
            self._form["values"][self._textarea] += data
        if self._in_error:
            self.errors[-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "small":
            self._in_error = False


def forms_of(html: str) -> _Forms:
    parser = _Forms()
    parser.feed(html)
    return parser


def edit_form(client: Any, catalog: Catalog) -> dict[str, str]:
    response = client.get(f"/catalogs/{catalog.pk}/")
    assert response.status_code == 200
    forms = forms_of(response.content.decode()).forms
    form = next(f for f in forms if "attack_cards-count" in f["values"])
    assert form["action"] == ""  # posts back to the edit page
    return dict(form["values"])


def row_of(values: dict[str, str], key: str, name: str) -> int:
    return next(
        int(k.split("-")[1]) for k, v in values.items() if k.startswith(f"{key}-") and k.endswith("-name") and v == name
    )


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


@pytest.fixture
def deck(owner: Any) -> Catalog:
    return catalogs.catalog_create(owner, "salt-and-bones", "Thursday deck")


def test_pages_need_a_sign_in(client: Any, deck: Catalog) -> None:
    for url in ("/catalogs/", "/catalogs/import/", f"/catalogs/{deck.pk}/", f"/catalogs/{deck.pk}/export.json"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_create_from_the_defaults_and_list(web: Any, owner: Any) -> None:
    page = web.get("/catalogs/").content.decode()
    assert "You have no catalogs yet." in page and 'action="/catalogs/new/"' in page
    response = web.post("/catalogs/new/", {"name": "Thursday deck", "game": "salt-and-bones"})
    catalog = Catalog.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == f"/catalogs/{catalog.pk}/"
    assert catalog.data == {k: v for k, v in catalogs.catalog_default("salt-and-bones").items()}
    page = web.get(response["Location"]).content.decode()
    assert "Thursday deck" in page and 'value="Lunge/Riposte"' in page and 'value="Test of Courage"' in page
    values = edit_form(web, catalog)
    assert values["attack_cards-count"] == "12" and values["strategy_cards-count"] == "12"  # 9 cards + 3 blank
    assert values["board.centre"] == "3,3; 4,3; 3,4; 4,4"  # column,row as the board's edges number them
    listing = web.get("/catalogs/").content.decode()
    assert f'href="/catalogs/{catalog.pk}/"' in listing and "9 attack cards, 9 strategy cards" in listing
    # the same name again is refused, in place
    again = web.post("/catalogs/new/", {"name": "thursday deck", "game": "salt-and-bones"})
    assert again.status_code == 400 and "already have a catalog" in again.content.decode()
    assert Catalog.objects.count() == 1


def test_edit_tables_add_change_remove(web: Any, deck: Catalog) -> None:
    values = edit_form(web, deck)
    slash = row_of(values, "attack_cards", "Slash")
    disarm = row_of(values, "attack_cards", "Disarm")
    values[f"attack_cards-{slash}-attack"] = "5"
    values[f"attack_cards-{disarm}-remove"] = "on"
    blank = int(values["attack_cards-count"]) - 2  # a blank row
    values.update(
        {
            f"attack_cards-{blank}-name": "Wild Swing",
            f"attack_cards-{blank}-copies": "2",
            f"attack_cards-{blank}-attack": "6",
            f"attack_cards-{blank}-opportunity": "0",
            f"attack_cards-{blank}-bonus": "stops_chain",
        }
    )
    razor = row_of(values, "strategy_cards", "Razor Oil")
    values.pop(f"strategy_cards-{razor}-destroyed_at_round_end", None)  # untick
    values["board.grey"] = "1,1; 6,6"
    values["name"] = "Thursday deck v2"
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 302
    deck.refresh_from_db()
    names = [c["name"] for c in deck.data["attack_cards"]]
    assert "Disarm" not in names and names[-1] == "Wild Swing" and len(names) == 9
    assert deck.data["attack_cards"][-1] == {
        "name": "Wild Swing", "copies": 2, "attack": 6, "opportunity": 0, "bonus": "stops_chain",
        "bonus_damage": 0, "bonus_instances": 0, "text": "",
    }  # fmt: skip
    assert next(c for c in deck.data["attack_cards"] if c["name"] == "Slash")["attack"] == 5
    assert next(c for c in deck.data["strategy_cards"] if c["name"] == "Razor Oil")["destroyed_at_round_end"] is False
    assert deck.data["board"]["grey"] == [[0, 0], [5, 5]] and deck.name == "Thursday deck v2"


def test_edit_with_bad_values_shows_errors_and_saves_nothing(web: Any, deck: Catalog) -> None:
    before = json.loads(json.dumps(deck.data))
    values = edit_form(web, deck)
    slash = row_of(values, "attack_cards", "Slash")
    values[f"attack_cards-{slash}-attack"] = "500"  # the schema allows 0 to 99
    values[f"strategy_cards-{row_of(values, 'strategy_cards', 'Razor Oil')}-name"] = "Bracer"
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was saved." in page
    parsed = forms_of(page)
    assert "Must be at most 99." in parsed.errors
    # what was typed is kept in the form
    form = next(f for f in parsed.forms if "attack_cards-count" in f["values"])
    assert form["values"][f"attack_cards-{slash}-attack"] == "500"
    deck.refresh_from_db()
    assert deck.data == before
    # once the schema is happy, the cross-field check names the duplicate on its table
    values[f"attack_cards-{slash}-attack"] = "4"
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 400
    assert "The strategy card name &#x27;Bracer&#x27; is used twice." in response.content.decode()
    # a value that is not even a number is marked without asking the service
    values[f"strategy_cards-{row_of(values, 'strategy_cards', 'Bracer')}-copies"] = "six"
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 400 and "Enter a whole number." in forms_of(response.content.decode()).errors
    # a grey centre tile is shown on the board fieldset
    values = edit_form(web, deck)
    values["board.centre"] = "1,1"
    response = web.post(f"/catalogs/{deck.pk}/", values)
    assert response.status_code == 400 and "Centre tile at column 1, row 1 is grey." in response.content.decode()
    deck.refresh_from_db()
    assert deck.data == before


def test_import_bad_json_is_refused(web: Any, owner: Any) -> None:
    response = web.post("/catalogs/import/", {"name": "Pasted", "game": "salt-and-bones", "json": "{oops"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Not imported:" in page and "That is not valid JSON" in page and "{oops</textarea>" in page
    response = web.post(
        "/catalogs/import/", {"name": "Pasted", "game": "salt-and-bones", "json": '{"attack_cards": [{"name": "X"}]}'}
    )
    assert (
        response.status_code == 400 and "attack_cards[0].copies: This field is required." in response.content.decode()
    )
    assert not Catalog.objects.filter(owner=owner).exists()


def test_export_round_trips_through_import(web: Any, owner: Any, deck: Catalog) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = web.get(f"/catalogs/{deck.pk}/export.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == 'attachment; filename="salt-and-bones-thursday-deck.json"'
    exported = json.loads(response.content)
    assert exported["data"] == deck.data
    upload = SimpleUploadedFile("deck.json", response.content, content_type="application/json")
    response = web.post("/catalogs/import/", {"name": "Copy", "game": "salt-and-bones", "json": "", "file": upload})
    copy = Catalog.objects.get(owner=owner, name="Copy")
    assert response.status_code == 302 and response["Location"] == f"/catalogs/{copy.pk}/"
    assert copy.data == deck.data
    again = web.post("/catalogs/import/", {"name": "Pasted", "game": "salt-and-bones", "json": json.dumps(exported)})
    assert again.status_code == 302 and Catalog.objects.get(name="Pasted").data == deck.data


def test_another_user_cannot_see_or_edit_my_catalog(client: Any, stranger: Any, deck: Catalog) -> None:
    client.force_login(stranger)
    assert "Thursday deck" not in client.get("/catalogs/").content.decode()
    assert client.get(f"/catalogs/{deck.pk}/").status_code == 404
    assert client.get(f"/catalogs/{deck.pk}/export.json").status_code == 404
    response = client.post(f"/catalogs/{deck.pk}/", {"name": "Mine now", "attack_cards-count": "0"})
    assert response.status_code == 404
    assert client.post(f"/catalogs/{deck.pk}/delete/", {"confirm": "on"}).status_code == 404
    deck.refresh_from_db()
    assert deck.name == "Thursday deck"


def test_delete_needs_the_confirmation(web: Any, deck: Catalog) -> None:
    assert web.post(f"/catalogs/{deck.pk}/delete/", {}).status_code == 302
    assert Catalog.objects.filter(pk=deck.pk).exists()
    response = web.post(f"/catalogs/{deck.pk}/delete/", {"confirm": "on"})
    assert response.status_code == 302 and response["Location"] == "/catalogs/"
    assert not Catalog.objects.filter(pk=deck.pk).exists()


def test_a_match_from_the_catalog_keeps_its_own_cards(web: Any, owner: Any, deck: Catalog) -> None:
    values = edit_form(web, deck)
    values[f"attack_cards-{row_of(values, 'attack_cards', 'Slash')}-attack"] = "7"
    assert web.post(f"/catalogs/{deck.pk}/", values).status_code == 302
    deck.refresh_from_db()
    # the "New match with this deck" form posts the cards as option.* JSON to the new-match page
    page = web.get(f"/catalogs/{deck.pk}/").content.decode()
    form = next(f for f in forms_of(page).forms if f["action"] == "/matches/new/")
    fields = dict(form["values"])
    assert fields["game"] == "salt-and-bones" and fields["seat_count"] == "2"
    assert json.loads(fields["option.attack_cards"]) == deck.data["attack_cards"]
    assert set(fields) >= {"option.attack_cards", "option.strategy_cards", "option.board", "seat_0", "seat_1"}
    fields.update(seat_0="Ana", seat_1="Bo")
    response = web.post("/matches/new/", fields)
    assert response.status_code == 302
    match = Match.objects.get(owner=owner)
    assert response["Location"] == f"/matches/{match.pk}/"
    options = match.stream.options
    assert (
        options["attack_cards"] == deck.data["attack_cards"]
        and options["strategy_cards"] == deck.data["strategy_cards"]
    )
    assert options["board"] == deck.data["board"]
    assert next(c for c in options["attack_cards"] if c["name"] == "Slash")["attack"] == 7
    assert match.title == "Thursday deck" and not match.is_public  # private unless ticked (issue 23 item 15)
    # editing the catalog later leaves the match alone
    values = edit_form(web, deck)
    values[f"attack_cards-{row_of(values, 'attack_cards', 'Slash')}-attack"] = "1"
    values[f"attack_cards-{row_of(values, 'attack_cards', 'Thrust')}-remove"] = "on"
    assert web.post(f"/catalogs/{deck.pk}/", values).status_code == 302
    match.stream.refresh_from_db()
    assert match.stream.options == options
    assert next(c for c in match.stream.options["attack_cards"] if c["name"] == "Slash")["attack"] == 7


def test_new_match_page_can_pick_one_of_my_catalogs(client, owner):
    from matches.catalogs import catalog_create, catalog_default
    from matches.models import Match

    data = catalog_default("salt-and-bones")
    data["attack_cards"][0]["attack"] = 9
    catalog = catalog_create(owner, "salt-and-bones", "Our deck", data)
    client.force_login(owner)
    page = client.get("/matches/new/?game=salt-and-bones").content.decode()
    assert "Our deck" in page and 'name="catalog"' in page
    r = client.post("/matches/new/", {"game": "salt-and-bones", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                      "catalog": str(catalog.pk), "option.momentum_seat": "0"})  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Match.objects.get().stream.options["attack_cards"][0]["attack"] == 9
