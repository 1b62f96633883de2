"""Forms generated from the rulesets' schemas (frontend/forms/schema.py): no JSON, quotes or coordinates typed as text
anywhere a person records or sets up a game; names are picked (the hand, the catalog, monsters in play), cells
are two labelled numbers (or a tap on the board), tiles a grid of boxes, lists of objects rows of inputs."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.http import QueryDict

from campaigns.saltmarsh.services import campaign_create, campaign_event_record
from frontend.forms.recording import form_picks, move_forms
from frontend.forms.schema import build_inputs, parse_inputs, parse_options
from matches import catalogs
from matches.models import Event as EventRow
from matches.models import Match
from matches.services import match_create
from rulesets import Event, all_rulesets, get_ruleset
from rulesets.schema import Field, check_payload
from tests.frontend.boards.test_board_salt_and_bones import head_state, to_combat

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


class FormValues(HTMLParser):
    """What a browser would post for each form of a page, untouched: ``forms`` is a list of (attrs, pairs)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[dict[str, str], list[tuple[str, str]]]] = []
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v if v is not None else "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a, []))
        elif not self.forms:
            return
        elif tag == "input" and "name" in a and a.get("type") != "submit":
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.forms[-1][1].append((a["name"], a.get("value", "on")))
            else:
                self.forms[-1][1].append((a["name"], a.get("value", "")))
        elif tag == "select" and "name" in a:
            self._select = (a["name"], [])
        elif tag == "option" and self._select is not None:
            self._select[1].append((a.get("value", ""), "selected" in a))
        elif tag == "textarea":
            self._textarea = a.get("name")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            name, options = self._select
            chosen = next((v for v, sel in options if sel), options[0][0] if options else "")
            self.forms[-1][1].append((name, chosen))
            self._select = None


def posted(html: str, holding: str) -> QueryDict:
    """The untouched POST form that has an input named ``holding``, as a QueryDict."""
    parser = FormValues()
    parser.feed(html)
    for attrs, pairs in parser.forms:
        if attrs.get("method") == "post" and holding in dict(pairs):
            q = QueryDict(mutable=True)
            for k, v in pairs:
                q.appendlist(k, v)
            return q
    raise AssertionError(f"no form with {holding!r}")


def cell_fieldsets(html: str) -> list[str]:
    return re.findall(r'<fieldset class="cell-field[^"]*" id="[^"]+" data-cell-field[^>]*>.*?</fieldset>', html, re.S)


def setup_for(slug: str) -> tuple[list[dict[str, str]], dict[str, Any]]:
    ruleset = get_ruleset(slug)
    if slug == "saltmarsh-adventure":
        return [{"name": "Ann"}], {"heroes": [{"name": "Ann", "class": "Fighter", "max_hp": 10}]}
    return [{"name": f"P{i}"} for i in range(ruleset.seats[0])], {}


# -- the audit: every page where a person records or sets up ---------------------------------------------------


def test_no_form_asks_for_json_quotes_or_coordinates_typed_as_text(web, owner):
    """Every event and option form of every game, the campaign sheet and the town form: no JSON box, no help
    asking for JSON or quotes, no "x,y" text input; every cell is two numbers labelled by the field's axes."""
    pages = {}
    for ruleset in all_rulesets(kind="match"):
        pages[f"new {ruleset.slug}"] = web.get(f"/matches/new/?game={ruleset.slug}").content.decode()
        seats, options = setup_for(ruleset.slug)
        match = match_create(owner=owner, game=ruleset.slug, seats=seats, options=options)
        pages[ruleset.slug] = web.get(f"/matches/{match.pk}/").content.decode().split('id="record"')[1]
    campaign = campaign_create(owner=owner, name="C")
    campaign_event_record(campaign=campaign, user=owner, type="hero_joined", data={"hero": "Ann", "class": "Rogue"})
    pages["campaign sheet"] = web.get(f"/campaigns/{campaign.pk}/").content.decode()
    pages["town"] = web.get(f"/campaigns/{campaign.pk}/town/").content.decode()
    pages["new campaign"] = web.get("/campaigns/").content.decode()
    for where, html in pages.items():
        assert "<textarea" not in html.split("raw-state")[0], where
        helps = re.findall(r'<small class="help">(.*?)</small>', html, re.S)
        assert not [h for h in helps if re.search(r'JSON|"|&quot;|[{}]|x,y', h)], (where, helps)
        assert 'placeholder="x,y"' not in html and "[row, col]" not in html, where
    axes = {"salt-and-bones": "Column Row", "the-first-spine": "Column Row", "get-salty": "Column Row"}
    for slug, words in axes.items():
        cells = cell_fieldsets(pages[slug])
        assert cells, slug
        for fs in cells:
            labels = re.findall(r'<label for="[^"]+">(\w+) <input[^>]*type="number"', fs)
            assert " ".join(labels) == words, (slug, fs)


def test_untouched_options_forms_create_matches_with_the_default_options(web):
    """Every game's new-match form, sent as drawn, gives the ruleset's own defaults (no field lost or
    changed by its widget)."""
    for ruleset in all_rulesets(kind="match"):
        form = posted(web.get(f"/matches/new/?game={ruleset.slug}").content.decode(), "seat_count")
        options, errors = parse_options(ruleset.options_schema, form)
        assert not errors, (ruleset.slug, errors)
        assert check_payload(ruleset.options_schema, options) == check_payload(ruleset.options_schema, {}), ruleset.slug


# -- picking names -------------------------------------------------------------------------------------------


def test_salt_and_bones_attack_card_is_picked_from_the_hand_and_its_tiles_are_numbers(web, owner):
    match = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = web.get(f"/matches/{match.pk}/").content.decode()  # Field Phase: the catalog's cards, no hand yet
    form = page.split('data-event-type="attack_card_played"')[1].split("</form>")[0]
    assert '<select id="id_attack_card_played_data_card"' in form and '<option value="Slash"' in form
    to_combat(match, owner)
    legal = [m for m in get_ruleset("salt-and-bones").legal_moves(head_state(match)) if m.type == "attack_card_played"]
    hand = list(dict.fromkeys(m.data["card"] for m in legal if m.seat == 0))
    page = web.get(f"/matches/{match.pk}/").content.decode()
    form = page.split('data-event-type="attack_card_played"')[1].split("</form>")[0]
    offered = re.findall(r'<option value="([^"]*)"', form.split('name="data.card"')[1].split("</select>")[0])
    assert offered[0] == "" and offered[1 : len(hand) + 1] == hand  # Ana's hand first
    move = next(m for m in legal if m.seat == 0)
    (ar, ac), (orow, oc) = move.data["attack_tile"], move.data["opportunity_tile"]
    post = {"type": "attack_card_played", "seat": "0", "expand": "1", "data.card": move.data["card"],
            "data.attack_tile.0": str(ar + 1), "data.attack_tile.1": str(ac + 1),  # as the board's edges count
            "data.opportunity_tile.0": str(orow + 1), "data.opportunity_tile.1": str(oc + 1)}  # fmt: skip
    before = EventRow.objects.count()
    r = web.post(f"/matches/{match.pk}/record/", {**post, "data.opportunity_tile.1": ""})
    page = r.content.decode()
    assert r.status_code == 400 and EventRow.objects.count() == before
    assert "Tile under the Opportunity half: Enter the row and the column as whole numbers." in page
    assert "data.opportunity_tile" not in page.split('id="outcome"')[1].split("</div>")[0]
    assert web.post(f"/matches/{match.pk}/record/", post).status_code == 302
    assert EventRow.objects.order_by("-version").first().data == move.data
    # an INSTINCT's target is never typed: offered in words when the rules list it, else nothing to choose
    form = web.get(f"/matches/{match.pk}/").content.decode().split('data-event-type="strategy_card_played"')[1]
    target = form.split('name="data.target"')[1].split("</select>")[0]
    assert '<select id="id_strategy_card_played_data_target"' in form and "<option" in target


def test_values_that_are_not_names_are_picked_in_words_and_posted_as_json():
    """An ``any`` field whose legal values are objects (an INSTINCT's target) is a select worded for people."""
    ruleset = get_ruleset("salt-and-bones")
    spec = ruleset.event_types["strategy_card_played"]
    legal = [
        Event("strategy_card_played", 1, {"card": "Anticipation", "target": {"card": 3, "instance": 1}}),
        Event("strategy_card_played", 1, {"card": "Anticipation", "target": {"card": 3, "instance": 2}}),
    ]
    state = ruleset.initial_state({}, 2)
    picks = form_picks(ruleset, state, spec, legal, 1)
    assert picks["card"].names == ["Anticipation"]
    assert list(picks["target"].labels) == ["card 3, instance 1", "card 3, instance 2"]
    inputs = build_inputs(spec.fields, "data.", form="f", picks=picks)
    target = inputs[1]
    assert target.widget == "select" and target.choices[2] == ('{"card": 3, "instance": 2}', "card 3, instance 2")
    data, errors = parse_inputs(
        spec.fields, {"data.card": "Anticipation", "data.target": target.choices[2][0]}, "data."
    )
    assert not errors and data == {"card": "Anticipation", "target": {"card": 3, "instance": 2}}


def test_the_first_spine_card_is_picked_from_the_seats_deck():
    ruleset = get_ruleset("the-first-spine")
    state = ruleset.initial_state({}, 2)
    for _ in range(10):
        if ruleset.turn(state).phase == "actions":
            break
        move = ruleset.legal_moves(state)[0]
        state = ruleset.apply(state, move)
    seat = ruleset.turn(state).seats[0]
    now, other = move_forms(ruleset, state, ruleset.legal_moves(state), seat, {})
    form = next(f for f in now + other if f["type"] == "card_placed")
    card = form["inputs"][0]
    deck = ruleset.names(state, seat)["hand"]
    origin = state["players"][seat]["origin"]
    assert card.widget == "select" and [v for v, _ in card.choices[1:]] == deck
    assert all(state["catalog"][n]["origin"] in (None, origin) for n in deck) and len(deck) < len(state["catalog"])
    at = form["inputs"][1]
    assert at.widget == "cell" and [c.label for c in at.children] == ["Column", "Row"]  # the words' order
    assert [(c.minimum, c.maximum) for c in at.children] == [(1, 7), (1, 7)]  # the 7 × 7 board, numbered from 1


def test_saltmarsh_adventure_monsters_and_treasure_are_picked_from_what_is_in_play():
    ruleset = get_ruleset("saltmarsh-adventure")
    state = ruleset.initial_state({"heroes": [{"name": "Ann", "class": "Fighter", "max_hp": 10}]}, 1)
    forms = {f["type"]: f for group in move_forms(ruleset, state, None, 0, {}) for f in group}
    assert forms["monster_defeated"]["inputs"][0].widget == "text"  # nothing in play yet: a name is typed
    state = ruleset.apply(state, Event("monster_placed", None, {"monster": "Sahuagin"}))
    state = ruleset.apply(state, Event("hero_phase_started", 0, {}))
    state = ruleset.apply(state, Event("treasure_found", 0, {"item": {"name": "Potion"}}))
    forms = {f["type"]: f for group in move_forms(ruleset, state, None, 0, {}) for f in group}
    assert forms["monster_defeated"]["inputs"][0].choices[1:] == [("Sahuagin", "Sahuagin")]
    assert forms["treasure_used"]["inputs"][0].choices[1:] == [("Potion", "Potion")]
    assert forms["monster_placed"]["inputs"][0].widget == "text"  # a new monster is named, not picked
    found = forms["treasure_found"]["inputs"][0]
    assert found.widget == "group" and [c.label for c in found.children][:3] == [
        "Card name",
        "Buy value (gp)",
        "Sell value (gp)",
    ]


# -- lists ----------------------------------------------------------------------------------------------------


def test_tiles_without_a_board_are_rows_of_two_numbers_and_blank_rows_are_skipped():
    f = Field("tiles", "list", item=Field("cell", "cell", label="Tile", axes=("row", "column")), min_items=1)
    (group,) = build_inputs((f,), "data.", form="x", values=None, expand=True)
    assert group.widget == "group" and [c.label for c in group.children] == ["Tile 1", "Tile 2"]
    assert [g.name for g in group.children[0].children] == ["data.tiles.0.1", "data.tiles.0.0"]  # column first
    post = {"data.tiles.0.0": "", "data.tiles.0.1": "", "data.tiles.1.0": "2", "data.tiles.1.1": "3"}
    assert parse_inputs((f,), post, "data.", expand=True) == ({"tiles": [[2, 3]]}, {})
    _, errors = parse_inputs((f,), {"data.tiles.0.0": "2", "data.tiles.0.1": "x"}, "data.", expand=True)
    assert errors == {"data.tiles.0": ["Enter the row and the column as whole numbers."]}
    # typed as text (older pages, board forms) still reads
    assert parse_inputs((f,), {"data.tiles": "1,1; 2,4"}, "data.", expand=True) == ({"tiles": [[1, 1], [2, 4]]}, {})


def test_short_lists_are_one_input_per_item_labelled_and_long_ones_comma_separated():
    board = get_ruleset("the-first-spine").options_schema[0]
    (group,) = build_inputs((board,), "option.", form="o", expand=True)
    assert [(c.label, c.widget, c.value) for c in group.children] == [
        ("Rows", "number", "7"),
        ("Columns", "number", "7"),
    ]
    assert parse_inputs((board,), {"option.board.0": "5", "option.board.1": "6"}, "option.") == ({"board": [5, 6]}, {})
    patrons = next(f for f in get_ruleset("bone-wars").options_schema if f.name == "patrons")
    (group,) = build_inputs((patrons,), "option.", form="o", expand=True)
    assert [c.widget for c in group.children] == ["select"] * 4 and group.children[0].choices[0] == ("", "—")
    post = {"option.patrons.0": "cope", "option.patrons.1": "", "option.patrons.2": "marsh"}
    assert parse_inputs((patrons,), post, "option.") == ({"patrons": ["cope", "marsh"]}, {})
    points = Field("place_points", "list", item=Field("points", "int"), max_items=20)
    (text,) = build_inputs((points,), "option.", form="o", values={"option.place_points": "3, 2, 1"})
    assert text.widget == "text" and text.value == "3, 2, 1"
    assert parse_inputs((points,), {"option.place_points": "3, 2, 1"}, "option.") == ({"place_points": [3, 2, 1]}, {})
    assert parse_inputs((points,), {"option.place_points": "3, two"}, "option.")[1] == {
        "option.place_points": ["Enter whole numbers separated by commas, e.g. 3, 2, 1."]
    }


def test_heroes_of_a_standalone_adventure_are_rows_with_nested_item_rows(web, owner):
    page = web.get("/matches/new/?game=saltmarsh-adventure").content.decode()
    assert 'name="option.heroes.0.name"' in page and 'name="option.heroes.0.items.0.name"' in page
    r = web.post("/matches/new/", {
        "game": "saltmarsh-adventure", "seat_count": "2", "seat_0": "Ann", "seat_1": "Bo", "title": "",
        "option.heroes.0.name": "Ann", "option.heroes.0.class": "Fighter", "option.heroes.0.max_hp": "12",
        "option.heroes.0.items.1.name": "Potion", "option.heroes.0.items.1.buy": "100",
        "option.heroes.2.name": "Bo", "option.heroes.2.class": "Rogue", "option.heroes.2.max_hp": "9",
    })  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    heroes = Match.objects.get().stream.options["heroes"]
    assert [(h["name"], h["max_hp"]) for h in heroes] == [("Ann", 12), ("Bo", 9)]
    assert heroes[0]["items"][0]["name"] == "Potion" and heroes[0]["items"][0]["buy"] == 100


# -- item 7: what was typed is kept -----------------------------------------------------------------------------


def test_new_match_refusal_keeps_title_public_choice_and_catalog(web):
    r = web.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "",
                                    "title": "Friday stones", "option.stones": "21"})  # fmt: skip
    page = r.content.decode()
    assert r.status_code == 400 and Match.objects.count() == 0
    assert 'name="title" maxlength="120" value="Friday stones"' in page
    assert re.search(r'<input type="checkbox" name="is_public"\s*>', page)  # left unticked, as sent
    assert 'name="option.stones" value="21"' in page and "seats[1]" not in page and "seats.1" not in page
    r = web.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "",
                                    "title": "Open game", "is_public": "on"})  # fmt: skip
    assert re.search(r'<input type="checkbox" name="is_public"\s*checked>', r.content.decode())


def test_card_lists_come_from_a_catalog_not_a_json_box(web, owner):
    page = web.get("/matches/new/?game=salt-and-bones").content.decode()
    assert 'id="catalog-note"' in page and 'name="option.attack_cards"' not in page
    assert "Field Board, Attack cards, Strategy cards: the game's defaults" in page
    r = web.post("/matches/new/", {"game": "salt-and-bones", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                    "option.attack_cards": json.dumps([{"name": "Jab", "copies": 40, "attack": 1,
                                                                        "opportunity": 1}])})  # fmt: skip
    assert r.status_code == 302  # a catalog's hidden inputs (catalog page → new match) still read as data
    assert [c["name"] for c in Match.objects.get().stream.options["attack_cards"]] == ["Jab"]
    catalog = catalogs.catalog_create(owner, "salt-and-bones", "Tuesday deck")
    page = web.get("/matches/new/?game=salt-and-bones").content.decode()
    assert 'id="catalog-note"' not in page and "Field Board, Attack cards, Strategy cards come from the catalog" in page
    r = web.post("/matches/new/", {"game": "salt-and-bones", "seat_count": "2", "seat_0": "Ana", "seat_1": "",
                                    "catalog": str(catalog.pk)})  # fmt: skip
    assert r.status_code == 400 and f'<option value="{catalog.pk}" selected>' in r.content.decode()  # kept


# -- the campaign: the town form and refusals in words ------------------------------------------------------


@pytest.fixture
def party(owner):
    c = campaign_create(owner=owner, name="Saltmarsh Tuesdays")
    for hero, cls in (("Ana", "Fighter"), ("Bo", "Rogue")):
        campaign_event_record(campaign=c, user=owner, type="hero_joined", data={"hero": hero, "class": cls})
    return c


def test_town_rows_group_the_fields_of_each_action_under_its_name(web, party):
    page = web.get(f"/campaigns/{party.pk}/town/").content.decode()
    row = page.split('id="action-1"')[1].split('id="action-2"')[0]
    groups = re.findall(r'<fieldset class="town-sub" data-action="(\w+)">\s*<legend>([^<]+)</legend>', row)
    assert [g for g, _ in groups] == ["powers_swapped", "item_sold", "shop_revealed", "item_bought", "trade_made",
                                      "leveled_up", "advancement_token_bought"]  # fmt: skip
    trade = row.split('data-action="trade_made"')[1].split("</fieldset>")[0]
    assert 'name="a0.trade_made.from"' in trade and 'name="a0.trade_made.to"' in trade
    assert '<option value="Ana"' in trade and " required" not in row  # unused groups never block the submit


def test_town_more_rows_keeps_what_was_typed_and_records_nothing(web, party):
    before = EventRow.objects.count()
    r = web.post(f"/campaigns/{party.pk}/town/", {"rows": "6", "more": "1", "a0.type": "item_sold",
                                                  "a0.item_sold.hero": "Bo", "a0.item_sold.item": "Rope",
                                                  "a5.type": "leveled_up", "a5.leveled_up.hero": "Ana"})  # fmt: skip
    page = r.content.decode()
    assert r.status_code == 200 and EventRow.objects.count() == before and "problem" not in page.split("<form")[0]
    assert 'name="rows" value="10"' in page and 'name="a9.type"' in page and 'name="a10.type"' not in page
    assert '<option value="item_sold" selected>' in page and 'name="a0.item_sold.item" value="Rope"' in page
    assert re.search(r'name="a0.item_sold.hero"[^>]*>.*?<option value="Bo" selected>', page, re.S)
    assert re.search(r'name="a5.leveled_up.hero"[^>]*>.*?<option value="Ana" selected>', page, re.S)


def test_a_malformed_campaign_entry_is_explained_with_labels_not_paths(web, party):
    r = web.post(f"/campaigns/{party.pk}/record/", {"type": "leveled_up"})
    page = r.content.decode()
    assert r.status_code == 400 and "Please correct Hero: This field is required." in page
    problem = page.split('class="problem')[1].split("</div>")[0]
    assert "data.hero" not in problem and "Invalid " not in page
