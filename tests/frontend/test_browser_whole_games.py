"""Whole games recorded through the web pages only, as a new user at a real table on a 390×844 phone (headless
Chromium): the new-match form, the board's buttons and the schema-built forms, up to the result, then the
history and a replay of the same game. Nothing is typed as JSON, quotes or a coordinate pair; after every move
the outcome and whose turn it is are in the viewport."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.models import Match
from tests.frontend.phones import stream_refused
from tests.frontend.taps import tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(signed_in_phone: Any, live_server: Any) -> Any:
    """A signed-in 390×844 phone (``keeper``); console errors (a CSP refusal, a script error) fail the test."""
    page = signed_in_phone
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not stream_refused(m) else None)
    page.base = live_server.url
    yield page
    assert errors == []


def in_viewport(page: Any, selector: str) -> bool:
    """Whether the element is drawn and wholly inside the visible part of the page."""
    return page.locator(selector).first.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }"
    )


def shown(page: Any, text: str) -> None:
    """The table bar says ``text`` (the outcome of the last submit, or whose turn it is) without scrolling; a long
    prompt's rest behind the bar's "more" counts as said (its fold is tested in test_browser_phone_sizes)."""
    bar = page.locator("#tablebar")
    said = " ".join(bar.text_content().split())
    assert text in said, said
    assert in_viewport(page, "#tablebar")


def submit(page: Any, button: Any) -> None:
    """Click a submit button and wait for the page it leads to; never a server error."""
    tap(page, button)  # in place on the match page, else a new page
    assert "Server Error" not in page.content()


def new_match(page: Any, game: str, names: list[str], options: dict[str, str] | None = None) -> Match:
    """Open a match from the new-match pages: pick the game (and the number of players), name the seats."""
    page.goto(page.base + "/matches/new/")
    card = page.locator("form", has=page.get_by_role("button", name=re.compile(f"^Choose {re.escape(game)}")))
    if card.get_by_label("Players").count():
        card.get_by_label("Players").select_option(str(len(names)))
    submit(page, card.get_by_role("button", name=re.compile("^Choose")))
    for i, name in enumerate(names):
        page.get_by_label(f"Player {i + 1}", exact=True).fill(name)
    more = page.locator("details.more-options")  # the printed game's defaults are folded away
    if options and more.count() and more.get_attribute("open") is None:
        more.locator("summary").click()
    for label, value in (options or {}).items():
        page.get_by_label(label, exact=True).fill(value)
    submit(page, page.get_by_role("button", name="Create match"))
    shown(page, "Match created")
    return Match.objects.get(pk=int(re.search(r"/matches/(\d+)/", page.url).group(1)))


def open_form(page: Any, event_type: str) -> Any:
    """The recording form of ``event_type``, opened (also from behind "Other entries")."""
    other = page.locator("details.other-entries")
    if other.count() and other.locator(f"#f-{event_type}").count() and other.get_attribute("open") is None:
        other.locator("summary").first.click()
    details = page.locator("details.move-form:not(.other-entries)", has=page.locator(f"#f-{event_type}"))
    if details.get_attribute("open") is None:
        details.locator("summary").first.click()
    return details.locator(f"form[data-event-type={event_type}]")


def legal_move(page: Any, words: str) -> None:
    """Record a move from the list of legal moves, by its words."""
    page.locator("select[name=move]").select_option(label=words)
    submit(page, page.get_by_role("button", name="Record this move"))
    shown(page, f"Recorded move {Match.objects.get(pk=match_id(page)).stream.version}: {words}")


def match_id(page: Any) -> int:
    return int(re.search(r"/matches/(\d+)/", page.url).group(1))


def history(page: Any, match: Match) -> list[str]:
    """The entries of the match's history page, in words."""
    page.goto(f"{page.base}/matches/{match.pk}/history/")
    return [t.strip() for t in page.locator("ol li .entry-text, ol li").all_inner_texts()]


def test_last_stone(phone: Any) -> None:
    page = phone
    match = new_match(page, "Last Stone", ["Ana", "Bo"], {"Stones in the pile": "5"})
    shown(page, "Ana to play")
    assert "5 stones left in the pile · Ana takes next" in page.locator("#board").inner_text()  # names, not "turn 0"
    legal_move(page, "Ana took 2 stones")
    shown(page, "Bo to play")
    form = open_form(page, "stones_taken")
    assert form.get_by_label("Player").input_value() == "1"  # the seat on turn is chosen for the form
    form.get_by_label("How many").fill("1")
    submit(page, form.get_by_role("button", name="Record"))
    shown(page, "Recorded move 2: Bo took 1 stone")
    shown(page, "Ana to play")
    legal_move(page, "Ana took 2 stones")
    shown(page, "Won by Ana: took the last stone")
    assert "0 stones left in the pile · Ana took the last stone" in page.locator("#board").inner_text()
    page.goto(f"{page.base}/matches/{match.pk}/history/")
    text = page.locator("main").inner_text()
    assert text.index("Ana took 2") < text.index("Bo took 1") < text.rindex("Ana took 2")
    page.goto(f"{page.base}/matches/{match.pk}/?at=2")
    shown(page, "Replaying move 2 of 3")


def test_get_salty(phone: Any) -> None:
    """Placed from the reserve by two taps on the board (pick the cracker, tap a highlighted cell)."""
    page = phone
    match = new_match(page, "Get Salty", ["Ana", "Bo"])
    shown(page, "Ana to play — choose the victory attribute")
    submit(page, page.locator("#board").get_by_role("button", name="Color"))
    shown(page, "Ana to play")
    for who, cracker, cell in (
        ("Ana", "red circle", "column 1, row 0"),
        ("Bo", "blue circle", "column 0, row 1"),
        ("Ana", "red square", "column 2, row 0"),
        ("Bo", "blue square", "column 1, row 1"),
        ("Ana", "red triangle", "column 3, row 0"),
    ):
        shown(page, f"{who} to play")
        tap(page, page.get_by_role("link", name=f"Pick {cracker} (unsalted) in the reserve"))
        submit(page, page.get_by_role("button", name=f"Place {cracker} at {cell} (then flip it)"))
        shown(page, "Recorded move")
    shown(page, "Won by Ana: three red crackers in a row")
    page.goto(f"{page.base}/matches/{match.pk}/history/")
    text = page.locator("main").inner_text()
    assert "Ana chose color" in text and "Ana won" not in text
    page.goto(f"{page.base}/matches/{match.pk}/?at=3")
    shown(page, "Replaying move 3 of 6")
    assert page.locator("#board [data-cell]").count() >= 3


def sheet(page: Any) -> list[list[str]]:
    """The score sheet board as rows of cells."""
    rows = page.locator("#board .scoresheet tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("th, td").all_inner_texts()] for i in range(rows.count())]


def test_score_sheet_and_a_game_logged_afterwards(phone: Any) -> None:
    """Points per round on the sheet, then the end; and the quick "log a finished game" page."""
    page = phone
    match = new_match(page, "Score sheet", ["Ana", "Bo", "Cy"], {"The game's name": "Azul"})
    for who, points in (("Ana", "12"), ("Bo", "20"), ("Cy", "7"), ("Ana", "9")):
        form = open_form(page, "points_scored")
        form.get_by_label("Player").select_option(label=who)
        form.get_by_label("Points (negative to lose)").fill(points)
        form.get_by_label("Round").fill("2" if who == "Ana" and points == "9" else "1")
        submit(page, form.get_by_role("button", name="Record"))
        shown(page, f"{who} scored {points} points")
    assert sheet(page) == [["Ana", "12", "9", "21"], ["Bo", "20", "", "20"], ["Cy", "7", "", "7"]]
    assert "Azul" in page.locator("#board caption").inner_text()
    form = open_form(page, "game_ended")
    assert "`" not in form.inner_text()
    submit(page, form.get_by_role("button", name="Record"))
    shown(page, "Won by Ana: highest score (21)")
    assert sheet(page)[0] == ["Ana winner", "12", "9", "21"]
    page.goto(f"{page.base}/matches/{match.pk}/?at=2")
    shown(page, "Replaying move 2 of 5")
    assert [r[-1] for r in sheet(page)] == ["12", "20", "0"]

    submit(page, page.get_by_role("link", name="New match"))
    submit(page, page.get_by_role("link", name="Log a finished game"))
    page.get_by_label("Game", exact=True).fill("Azul")
    page.get_by_label("Length (minutes)").fill("40")
    for i, (name, score) in enumerate((("Ana", "61"), ("Bo", "58"), ("Cy", "47")), start=1):
        page.get_by_label(f"Player {i}", exact=True).fill(name)
        page.get_by_label(f"Score of player {i}").fill(score)
    page.get_by_label("Player 2 started").check()
    submit(page, page.get_by_role("button", name="Record the result"))
    shown(page, "Won by Ana")
    assert page.locator("h1").inner_text() == "Azul"
    assert sheet(page) == [["Ana winner", "61"], ["Bo", "58"], ["Cy", "47"]]
    logged = Match.objects.get(pk=match_id(page))
    assert logged.first_seat == 1 and logged.duration_min == 40
    page.goto(f"{page.base}/matches/{logged.pk}/history/")
    assert "Ana won (Ana 61, Bo 58, Cy 47)" in page.locator("main").inner_text()

    # a result logged without scores: the winner ticked, no made-up zeros on the sheet
    submit(page, page.get_by_role("link", name="New match"))
    submit(page, page.get_by_role("link", name="Log a finished game"))
    page.get_by_label("Game", exact=True).fill("Codenames")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Bo")
    page.get_by_label("Player 2 won").check()
    submit(page, page.get_by_role("button", name="Record the result"))
    shown(page, "Won by Bo")
    assert sheet(page) == [["Ana", ""], ["Bo winner", ""]]


def test_the_first_spine(phone: Any) -> None:
    """Setup on the board, a card placed by two taps, one by the form (card from a select, cell tapped), the turn
    ended, and a spell that takes the last life of a wizard."""
    page = phone
    match = new_match(page, "The First Spine", ["Ana", "Bo"], {"Wizard life": "3"})
    # the owner's phone holds no seat: it lists no secret origin until a player shows their own on it
    moves = page.locator("select[name=move] option").all_inner_texts()
    assert not [m for m in moves if m.startswith("Ana chose an origin")]
    for who, destiny, origin in (("Ana", "Hunter", "Healer"), ("Bo", "Conjurer", "Priest")):
        submit(page, page.locator("#board").get_by_role("button", name=f"{who}: {destiny}"))
        shown(page, "Recorded move")
        page.locator("#secrets summary").click()
        submit(page, page.locator("#secrets").get_by_role("button", name=f"Show {who}'s origin"))
        moves = page.locator("select[name=move] option").all_inner_texts()
        origins = [m for m in moves if m.startswith(f"{who} chose an origin")]
        assert len(origins) == 4 and len(set(origins)) == 4  # the player can tell their secret origins apart
        assert not [m for m in moves if "chose an origin" in m and not m.startswith(who)]  # and no one else's
        submit(page, page.locator("#board").get_by_role("button", name=f"{who}: {origin} (secret)"))
        shown(page, "Recorded move")
        assert f"Showing {who}" not in page.locator("main").inner_text()  # the entry hid it again
    shown(page, "Ana to play — discard")
    submit(page, page.locator("#board").get_by_role("button", name="Keep the hand, draw"))
    shown(page, "Ana to play — place cards")
    # in the actions phase the setup and start-of-turn entries are not among the forms that apply now
    now = page.locator("#record > details.move-form:not(.other-entries) > summary").all_inner_texts()
    assert "Chose a destiny" not in now and "Discarded and drew (start of turn)" not in now and "Placed a card" in now
    page.locator(".fs-card-link", has_text="Squire").first.click()
    submit(page, page.get_by_role("button", name="Place Squire on column 4, row 6"))
    shown(page, "Recorded move 6: Ana played Squire on column 4, row 6")
    submit(page, page.locator(".fs-preview").get_by_role("button", name="End the turn"))
    shown(page, "Bo to play")
    submit(page, page.locator("#board").get_by_role("button", name="Keep the hand, draw"))
    form = open_form(page, "card_placed")
    assert form.get_by_label("Player").input_value() == "1"
    form.get_by_label("Card", exact=True).select_option("Squire")
    cell = form.locator("fieldset.cell-field")
    cell.get_by_role("button", name="Tap it on the board").click()
    page.locator('#board [data-cell="1,3"]').first.click(force=True)
    assert [cell.get_by_label(a, exact=True).input_value() for a in ("Column", "Row")] == ["4", "2"]  # from 1
    submit(page, form.get_by_role("button", name="Record"))
    shown(page, "Bo played Squire on column 4, row 2")
    tap(page, page.get_by_role("link", name="Change the life of Ana's wizard on column 4, row 7"))
    page.get_by_label("Amount (+ heals, − hurts)").fill("-3")
    page.get_by_label("Why", exact=True).fill("Fireball")
    submit(page, page.get_by_role("button", name="Record the change"))
    shown(page, "Won by Bo: the last wizard standing")
    page.goto(f"{page.base}/matches/{match.pk}/history/")
    text = page.locator("main").inner_text()
    assert "Ana chose an origin (kept secret)" in text and "Fireball" in text
    page.goto(f"{page.base}/matches/{match.pk}/?at=6")
    shown(page, "Replaying move 6 of")
    assert page.locator('.fs-piece[data-cell="5,3"]').count() == 1


def test_salt_and_bones(phone: Any) -> None:
    """A whole (short: 3 Health) game: the Field card by tapping tiles, draws and preparation by the board's
    buttons, Ana's attack by three taps on the board, Bo's by the form (card from a select, both tiles tapped),
    and Ana's disengage closing the combat round with Bo at 0 Health."""
    page = phone
    match = new_match(page, "Salt & Bones", ["Ana", "Bo"], {"Starting Health": "3"})
    assert "type the tiles" not in page.locator("#board").inner_text()
    board = page.locator("#board")
    for cell in ("column 3, row 1", "column 4, row 6"):
        tap(page, board.get_by_role("link", name=f"Mark {cell} as destroyed by the Field card"))
    submit(page, board.get_by_role("button", name="Record Field card: column 3, row 1; column 4, row 6"))
    shown(page, "Ana to play — draw up to 7 cards")  # Bo holds nothing to discard yet
    for button in ("Ana: 4 attack + 3 strategy", "Bo: 4 attack + 3 strategy"):
        submit(page, board.get_by_role("button", name=button))
    shown(page, "Ana to play — place Strategy cards")
    moves = page.locator("select[name=move] option").all_inner_texts()
    assert len(moves) == len(set(moves)) and not any("None" in m for m in moves)
    for button in ("Ana: finished preparing", "Bo: finished preparing"):
        submit(page, board.get_by_role("button", name=button))
    shown(page, "Ana to play — play an Attack card or disengage")
    tap(page, board.get_by_role("link", name="Slash 3/1"))
    tap(page, board.get_by_role("link", name="Slash: Attack half on column 3, row 3"))
    submit(
        page, board.get_by_role("button", name="Play Slash: attack on column 3, row 3; opportunity on column 4, row 3")
    )
    shown(page, "Recorded move 6: Ana played Slash")
    shown(
        page,
        "Ana or Bo to play — the player with Momentum may chain another Attack card, or the other player starts a turn",
    )
    assert "0 / 3 Health" in page.locator("#board").inner_text()
    form = open_form(page, "attack_card_played")
    form.get_by_label("Player").select_option(label="Bo")
    form.get_by_label("Card", exact=True).select_option("Thrust")
    for legend, cell, shown_as in (("Tile under the Attack half", "3,2", "3,4"),
                                   ("Tile under the Opportunity half", "4,2", "3,5")):  # fmt: skip
        field = form.locator("fieldset.cell-field", has_text=legend)
        field.get_by_role("button", name="Tap it on the board").click()
        page.locator(f'#board g.sb-tile[data-cell="{cell}"]').click()  # row,col from 0 ...
        assert ",".join(field.get_by_label(a, exact=True).input_value() for a in ("Column", "Row")) == shown_as
    submit(page, form.get_by_role("button", name="Record"))
    shown(page, "Recorded move 7: Bo played Thrust")
    shown(page, "Ana to play")
    submit(page, board.get_by_role("button", name="Ana: disengage"))
    shown(page, "Won by Ana")
    page.goto(f"{page.base}/matches/{match.pk}/history/")
    text = page.locator("main").inner_text()
    assert "Ana played Slash" in text and "Bo played Thrust" in text and "Seat" not in text
    page.goto(f"{page.base}/matches/{match.pk}/?at=6")
    shown(page, "Replaying move 6 of 8")
    assert "0 / 3 Health" in page.locator("#board").inner_text()


def test_saltmarsh_campaign_town_adventure_and_back(phone: Any) -> None:
    """New campaign → heroes → a town phase (one form for several actions) → an adventure played as a match (a
    monster placed and defeated by picking it, a treasure found, the adventure won) → back on the sheet."""
    page = phone
    page.goto(page.base + "/campaigns/")
    page.get_by_label("Name", exact=True).fill("Saltmarsh Tuesdays")
    submit(page, page.get_by_role("button", name="Create campaign"))
    assert "Campaign created" in page.locator("main").inner_text()
    sheet_url = page.url.split("#")[0]

    def campaign_form(label: str) -> Any:
        details = page.locator("details.move-form", has=page.locator("summary", has_text=label)).last
        if details.get_attribute("open") is None:
            details.locator("summary").first.click()
        return details.locator("form")

    for hero, cls in (("Ana", "Fighter"), ("Bo", "Wizard")):
        form = campaign_form("Hero joined")
        form.get_by_label("Hero").fill(hero)
        form.get_by_label("Class").fill(cls)
        submit(page, form.get_by_role("button", name="Record"))
        assert f"{hero} the {cls} joined the campaign." in page.locator("main").inner_text()  # the entry in words

    submit(page, page.get_by_role("link", name="Town phase: several actions at once"))
    row1, row2 = page.locator("#action-1"), page.locator("#action-2")
    row1.get_by_label("Action", exact=True).select_option("powers_swapped")
    row1.locator(".town-sub:visible").get_by_label("Hero").select_option("Ana")
    row1.locator(".town-sub:visible").get_by_label("Powers").fill("Cleave, Parry")
    row2.get_by_label("Action", exact=True).select_option("shop_revealed")
    shop = page.locator("details.shop-cards")
    if shop.get_attribute("open") is None:
        shop.locator("summary").first.click()
    for i, (card, buy, sell) in enumerate((("Wand", "500", "250"), ("Rope", "50", "25"), ("Map", "20", "10"))):
        card_box = shop.locator(f"#id_town_shop_cards_{i}")
        card_box.get_by_label("Card name").fill(card)
        card_box.get_by_label("Is an Item").check()
        card_box.get_by_label("Buy value (gp)").fill(buy)
        card_box.get_by_label("Sell value (gp)").fill(sell)
    shop.locator("#id_town_shop_cards_3").get_by_label("Card name").fill("Blessing of Melora")
    submit(page, page.get_by_role("button", name="Record all actions"))
    assert "Recorded 2 town action" in page.locator("main").inner_text()

    page.goto(sheet_url)
    campaign_form("Start an adventure")
    form = page.locator("form[data-form=adventure]")
    form.get_by_label("Adventure", exact=True).fill("The Sinister Secret")
    form.get_by_label("Aftermath reward per hero (gp)").fill("100")
    form.get_by_label("Ana", exact=True).check()
    form.get_by_label("Bo", exact=True).check()
    submit(page, form.get_by_role("button", name="Start the adventure"))
    shown(page, "Ana to play")
    for event_type, fill in (
        ("hero_phase_started", {}),
        ("monster_placed", {"Monster": "Sahuagin"}),
        ("monster_defeated", {"Monster": ("Sahuagin",), "Experience on its card": "2"}),
        (
            "treasure_found",
            {"Player": ("Ana",), "Card name": "Wand", "Buy value (gp)": "500", "Sell value (gp)": "250"},
        ),
        ("adventure_won", {}),
    ):
        form = open_form(page, event_type)
        for label, value in fill.items():
            field = form.get_by_label(label, exact=True)
            if isinstance(value, tuple):
                field.select_option(label=value[0])  # picked from the names in play, not typed
            else:
                field.fill(value)
        submit(page, form.get_by_role("button", name="Record"))
        shown(page, "Recorded move")
    shown(page, "The campaign was updated in the same step (entry 6)")
    shown(page, "Won by Ana and Bo: The party completed The Sinister Secret")
    submit(page, page.locator("main").get_by_role("link", name="Saltmarsh Tuesdays", exact=True).first)
    assert page.url.split("#")[0] == sheet_url
    text = page.locator("main").inner_text()
    assert "completed" in page.locator("section.adventures").inner_text()
    assert "Wand" in text and "100 gp" in text
    page.goto(sheet_url + "history/")
    history = page.locator("main").inner_text()
    assert "The Sinister Secret" in history and "Cleave" in history
