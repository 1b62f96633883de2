"""The schema-driven widgets in headless Chromium on a 390×844 phone: a Salt & Bones attack recorded by picking
the card from a select and tapping its two tiles on the board; the town form showing only the chosen action's
fields, and "More rows" keeping what was typed."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.saltmarsh.services import campaign_create, campaign_event_record
from matches.models import Event as EventRow
from matches.services import match_create
from rulesets import get_ruleset
from tests.frontend.boards.test_board_salt_and_bones import head_state, to_combat
from tests.frontend.taps import tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(signed_in_phone: Any) -> Any:
    """A signed-in 390×844 phone (``keeper``)."""
    return signed_in_phone


def tap_cell(page: Any, field: Any, cell: list[int]) -> None:
    """Fill a cell field by tapping the board: its button, then the tile."""
    field.get_by_role("button", name="Tap it on the board").click()
    assert page.locator("#board.is-picking-cell").count() == 1
    page.locator(f'#board g.sb-tile[data-cell="{cell[0]},{cell[1]}"]').click()
    assert page.locator("#board.is-picking-cell").count() == 0
    field.wait_for()


def test_an_attack_is_recorded_by_picking_the_card_and_tapping_its_tiles(live_server: Any, phone: Any, keeper: Any):
    match = match_create(owner=keeper, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    to_combat(match, keeper)
    legal = get_ruleset("salt-and-bones").legal_moves(head_state(match))
    move = next(m for m in legal if m.type == "attack_card_played" and m.seat == 0)
    page = phone
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    details = page.locator("details.move-form", has=page.locator("#f-attack_card_played"))
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    form = details.locator("form[data-event-type=attack_card_played]")
    form.get_by_label("Card", exact=True).select_option(move.data["card"])  # a select of Ana's hand
    attack = form.locator("fieldset.cell-field", has_text="Tile under the Attack half")
    tap_cell(page, attack, move.data["attack_tile"])
    assert [attack.get_by_label(a).input_value() for a in ("Row", "Column")] == [
        str(v + 1)
        for v in move.data["attack_tile"]  # numbered from 1, as the board's edges are
    ]
    assert attack.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    opportunity = form.locator("fieldset.cell-field", has_text="Tile under the Opportunity half")
    tap_cell(page, opportunity, move.data["opportunity_tile"])
    before = EventRow.objects.count()
    assert page.url.endswith(f"/matches/{match.pk}/")  # tapping the board did not follow its links
    tap(page, form.get_by_role("button", name="Record"))  # answered in place
    assert EventRow.objects.count() == before + 1
    last = EventRow.objects.order_by("-version").first()
    assert (last.type, last.seat, last.data) == ("attack_card_played", 0, move.data)
    assert "Recorded" in page.locator("#outcome").inner_text()


def test_town_rows_show_the_chosen_actions_fields_and_more_rows_keeps_them(live_server: Any, phone: Any, keeper):
    campaign = campaign_create(owner=keeper, name="Saltmarsh Tuesdays")
    for hero, cls in (("Ana", "Fighter"), ("Bo", "Rogue")):
        campaign_event_record(campaign=campaign, user=keeper, type="hero_joined", data={"hero": hero, "class": cls})
    page = phone
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/town/")
    row1 = page.locator("#action-1")
    assert row1.locator(".town-sub:visible").count() == 0  # no action chosen: no fields
    row1.get_by_label("Action", exact=True).select_option("trade_made")
    visible = row1.locator(".town-sub:visible")
    assert visible.count() == 1 and visible.get_attribute("data-action") == "trade_made"
    assert [visible.get_by_label(n).is_visible() for n in ("From hero", "To hero", "Gold pieces")] == [True] * 3
    assert not row1.locator("[data-action=item_sold]").is_visible()
    visible.get_by_label("From hero").select_option("Ana")
    visible.get_by_label("To hero").select_option("Bo")
    visible.get_by_label("Gold pieces").fill("40")
    row2 = page.locator("#action-2")
    row2.get_by_label("Action", exact=True).select_option("powers_swapped")
    row2.locator("[data-action=powers_swapped]").get_by_label("Hero").select_option("Bo")
    row2.locator("[data-action=powers_swapped]").get_by_label("Powers").fill("Cleave, Parry")
    before = EventRow.objects.count()
    with page.expect_navigation():
        page.get_by_role("button", name="More rows").click()
    assert EventRow.objects.count() == before and page.locator("fieldset.town-row").count() == 10
    row1, row2 = page.locator("#action-1"), page.locator("#action-2")
    assert row1.get_by_label("Action", exact=True).input_value() == "trade_made"
    trade = row1.locator(".town-sub:visible")
    assert trade.get_attribute("data-action") == "trade_made"
    assert (
        trade.get_by_label("From hero").input_value() == "Ana"
        and trade.get_by_label("Gold pieces").input_value() == "40"
    )
    assert row2.locator("[data-action=powers_swapped]").get_by_label("Powers").input_value() == "Cleave, Parry"
    row1.get_by_label("Action", exact=True).select_option("")  # nobody has gold yet: only the swap is sent
    assert row1.locator(".town-sub:visible").count() == 0
    with page.expect_navigation():
        page.get_by_role("button", name="Record all actions").click()
    assert EventRow.objects.count() == before + 1 and "Recorded 1 town action" in page.content()


@pytest.mark.parametrize(
    ("game", "event_type", "legend", "axes", "first"),
    [
        ("the-first-spine", "card_placed", "Cell", ("Row", "Column"), 1),  # data-cell is "row,col" from 0
        ("get-salty", "cracker_moved", "To cell", ("Column", "Row"), 0),  # "x,y", shown as they are
    ],
)
def test_a_tap_on_any_boards_cell_fills_the_cell_field(
    live_server, phone, keeper, game, event_type, legend, axes, first
):
    """The same small script serves every board: whatever element of ``#board`` carries ``data-cell``."""
    match = match_create(owner=keeper, game=game, seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = phone
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    other = page.locator("details.other-entries")
    details = page.locator("details.move-form:not(.other-entries)", has=page.locator(f"#f-{event_type}"))
    if other.count() and other.locator(f"#f-{event_type}").count() and other.get_attribute("open") is None:
        other.locator("summary").first.click()
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    field = details.locator("fieldset.cell-field", has=page.locator("legend", has_text=legend))
    cells = page.locator("#board [data-cell]")
    target = cells.nth(cells.count() - 1)
    wanted = [str(int(v) + first) for v in target.get_attribute("data-cell").split(",")]
    field.get_by_role("button", name="Tap it on the board").click()
    target.click(force=True)
    assert [field.get_by_label(a, exact=True).input_value() for a in axes] == wanted
    assert page.url.endswith(f"/matches/{match.pk}/")


def test_a_tap_on_an_empty_get_salty_cell_fills_the_cell_field(live_server, phone, keeper):
    """An empty cell is drawn unfilled (a dashed outline): a tap at its middle still finds it, as a tap on a
    token's cell does (an unfilled SVG shape is not hit unless it says so)."""
    match = match_create(owner=keeper, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = phone
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    other = page.locator("details.other-entries")
    if other.count() and other.locator("#f-cracker_moved").count() and other.get_attribute("open") is None:
        other.locator("summary").first.click()
    details = page.locator("details.move-form:not(.other-entries)", has=page.locator("#f-cracker_moved"))
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    field = details.locator("fieldset.cell-field", has=page.locator("legend", has_text="To cell"))
    targets = set(page.locator("#board .gs-target").evaluate_all("els => els.map((e) => e.dataset.cell)"))
    empty = page.locator("#board rect.gs-empty")
    cell = next(
        c for c in empty.evaluate_all("els => els.map((e) => e.dataset.cell)") if c not in targets
    )  # an empty cell no target button covers
    field.get_by_role("button", name="Tap it on the board").click()
    rect = page.locator(f'#board rect.gs-empty[data-cell="{cell}"]')
    rect.scroll_into_view_if_needed()
    box = rect.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert [field.get_by_label(a, exact=True).input_value() for a in ("Column", "Row")] == cell.split(",")
    assert page.locator("#board.is-picking-cell").count() == 0
