"""The Salt & Bones board on the match page: every phase draws, hidden INSTINCTs stay hidden, the click flows
(Field tiles; Attack card → Attack tile → Opportunity tile) offer exactly the legal moves and record them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest

from frontend.models import developer_view_set
from rulesets.base import Event
from rulesets.salt_and_bones import RULESET
from tests.frontend.board_page import BoardPage, parse_board

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


# -- helpers -------------------------------------------------------------------------------------------


def parse(html: str) -> BoardPage:
    return parse_board(html, {"tiles": ("g", "sb-tile"), "cards": ("g", "sb-card"), "slots": ("li", "sb-slot")})


def board_form(page: BoardPage) -> dict[str, Any] | None:
    return page.board_form("sb")


def move_values(page: BoardPage, css: str | None = None) -> list[dict[str, Any]]:
    """The events posted by the board form's ``move`` buttons (optionally only those with class ``css``)."""
    form = board_form(page)
    buttons = [b for b in (form["buttons"] if form else []) if b.get("name") == "move"]
    if css:
        buttons = [b for b in buttons if css in b.get("class", "").split()]
    return [json.loads(b["value"]) for b in buttons]


def get(client: Any, match: Any, query: str = "") -> tuple[str, BoardPage]:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    html = response.content.decode()
    return html, parse(html)


def head_state(match: Any) -> dict[str, Any]:
    from matches.store import events as store

    return store.head_load(match.stream_id, fresh=True).state


def record(match: Any, user: Any, type_: str, seat: int | None, data: dict[str, Any]) -> None:
    from matches.services import match_event_record

    match_event_record(match=match, user=user, type=type_, seat=seat, data=data)


def play(match: Any, user: Any, pick: Callable[[list[Event], dict[str, Any]], Event | None], limit: int = 60) -> None:
    """Record ``pick(legal moves, state)`` until it returns None (a table that follows the listed moves)."""
    for _ in range(limit):
        state = head_state(match)
        moves = RULESET.legal_moves(state)
        if not moves:
            return
        move = pick(moves, state)
        if move is None:
            return
        record(match, user, move.type, move.seat, move.data)
    raise AssertionError("the game did not reach the wanted position")


def first_of(kind: str, moves: list[Event], **data: Any) -> Event | None:
    for m in moves:
        if m.type == kind and all(m.data.get(k) == v for k, v in data.items()):
            return m
    return None


def to_combat(match: Any, user: Any, instinct: str | None = "Anticipation") -> None:
    """Field card, 4 + 3 cards each, seat 0 places ``instinct`` face-down, both finish preparing."""
    record(match, user, "field_card_flipped", 0, {"tiles": [[0, 2], [5, 3]]})

    def pick(moves: list[Event], state: dict[str, Any]) -> Event | None:
        if state["phase"] == "combat":
            return None
        drawn = first_of("cards_drawn", moves, attack=4)
        if drawn:
            return drawn
        if instinct and state["preparation"]["finished"] == [False, False] and not state["boards"][0]["instinct"]:
            return first_of("strategy_card_placed", moves, slot="instinct", card=instinct)
        return first_of("preparation_finished", moves)

    play(match, user, pick)
    assert head_state(match)["phase"] == "combat"


@pytest.fixture
def sab(owner: Any) -> Any:
    """A Salt & Bones match between Ana (seat 0, Momentum) and Bo."""
    from matches.services import match_create

    return match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


# -- drawing every phase ---------------------------------------------------------------------------------


def test_field_phase_draws_the_board_and_picks_tiles(web: Any, owner: Any, sab: Any) -> None:
    html, page = get(web, sab)
    assert '<svg class="sb-svg"' in html and 'viewBox="0 0 634 634"' in html
    kinds = {t["data-cell"]: t["class"].split() for t in page.tiles}
    assert len(kinds) == 36
    assert [c for c, k in kinds.items() if "sb-grey" in k] == ["0,0", "0,5", "5,0", "5,5"]
    assert sorted(c for c, k in kinds.items() if "sb-centre" in k) == ["2,2", "2,3", "3,2", "3,3"]
    assert "Round 1" in html and "Field Phase" in html and "Momentum: <strong>Ana</strong>" in html
    assert "20</strong> / 20 Health" in html and "attack <strong>40</strong>" in html
    # every open tile is a link that marks it; nothing to record yet
    flips = [a for a in page.links if "sb-hit" in a.get("class", "")]
    assert len(flips) == 32 and move_values(page) == []
    # two tiles marked (plus a grey one, ignored): one button records exactly those tiles for the Momentum seat
    html, page = get(web, sab, "?flip=0,2;5,3;0,0")
    wanted = {"type": "field_card_flipped", "seat": 0, "data": {"tiles": [[0, 2], [5, 3]]}}
    assert move_values(page) == [wanted]
    marked = [t["data-cell"] for t in page.tiles if "sb-mark-flip-picked" in t["class"]]
    assert marked == ["0,2", "5,3"]
    unmark = next(a for a in page.links if a.get("data-cell") == "0,2")
    assert unmark["href"] == f"/matches/{sab.pk}/?flip=5%2C3#board"
    form = board_form(page)
    response = web.post(form["attrs"]["action"], {**form["hidden"], "move": json.dumps(wanted)})
    assert response.status_code == 302
    state = head_state(sab)
    assert state["field"]["destroyed"] == [[0, 2], [5, 3]] and state["phase"] == "draw"
    _, page = get(web, sab)
    assert sorted(t["data-cell"] for t in page.tiles if "sb-destroyed" in t["class"].split()) == ["0,2", "5,3"]


def test_draw_phase_offers_the_draws_as_buttons(web: Any, owner: Any, sab: Any) -> None:
    record(sab, owner, "field_card_flipped", 0, {"tiles": [[1, 1]]})
    html, page = get(web, sab)
    assert "Draw Phase" in html and "Field card flipped: the tiles at column 2, row 2 destroyed." in html
    legal = [m.to_dict() for m in RULESET.legal_moves(head_state(sab))]
    assert move_values(page, "sb-move") == legal and len(legal) == 8
    assert "Ana: 4 attack + 3 strategy" in html
    form = board_form(page)
    draw = next(m for m in legal if m["data"] == {"attack": 5, "strategy": 2})
    web.post(form["attrs"]["action"], {**form["hidden"], "move": json.dumps(draw)})
    assert head_state(sab)["hands"][0] == {"attack": 5, "strategy": 2}
    html, _ = get(web, sab)
    assert "Hand: <strong>5</strong> attack · <strong>2</strong> strategy" in html


def test_big_move_groups_are_left_to_the_legal_moves_list(web: Any, owner: Any) -> None:
    from matches.services import match_create

    match = match_create(
        is_public=True,
        owner=owner,
        game="salt-and-bones",
        seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"hand_size": 20},
    )
    record(match, owner, "field_card_flipped", 0, {"tiles": [[1, 1]]})
    html, page = get(web, match)
    assert move_values(page, "sb-move") == []  # 21 ways to draw 20 cards: too many buttons
    assert "Drew cards (21 choices: pick one from “Legal moves” below)" in html
    assert "Legal moves (21)" in html


def test_preparation_slots_and_hidden_instincts(web: Any, owner: Any, stranger: Any, sab: Any) -> None:
    from django.test import Client

    record(sab, owner, "field_card_flipped", 0, {"tiles": [[1, 1]]})
    record(sab, owner, "cards_drawn", 0, {"attack": 4, "strategy": 3})
    record(sab, owner, "cards_drawn", 1, {"attack": 4, "strategy": 3})
    html, page = get(web, sab)
    assert "Preparation Phase" in html
    # the owner holds no seat (the phone passed round the table): no face-down choice is offered by name
    legal = [m.to_dict() for m in RULESET.visible_moves(head_state(sab), None)]
    assert move_values(page, "sb-move") == legal
    assert "Anticipation → INSTINCT" not in html and "Ana: Bracer → EQUIPMENT" in html
    # Ana shows her own cards on the phone to place one face-down by name; the entry hides them again
    instinct = {"type": "strategy_card_placed", "seat": 0, "data": {"slot": "instinct", "card": "Anticipation"}}
    bracer = {"type": "strategy_card_placed", "seat": 0, "data": {"slot": "equipment", "card": "Bracer"}}
    assert web.post(f"/matches/{sab.pk}/reveal/", {"seat": 0}).status_code == 302
    html, page = get(web, sab)
    assert "Ana: Anticipation → INSTINCT (face-down)" in html and "Bo: Anticipation" not in html
    for move in (instinct, bracer):
        _, page = get(web, sab)
        form = board_form(page)
        assert move in move_values(page, "sb-move")
        assert web.post(form["attrs"]["action"], {**form["hidden"], "move": json.dumps(move)}).status_code == 302
    # 3 INSTINCT / 2 EQUIPMENT / 1 GAMBIT slots per seat; the face-down name only while Ana shows it
    html, page = get(web, sab)
    assert [s["class"].split()[1] for s in page.slots[:2]] == ["sb-slot-hidden", "sb-slot-empty"]
    assert "Anticipation" not in html[html.index('id="board"') : html.index('id="secrets"')]
    web.post(f"/matches/{sab.pk}/reveal/", {"seat": 0})
    html, page = get(web, sab)
    assert len(page.slots) == 12
    states = [s["class"].split()[1] for s in page.slots[:6]]
    assert states == ["sb-slot-secret", "sb-slot-empty", "sb-slot-empty", "sb-slot-revealed", "sb-slot-empty",
                      "sb-slot-empty"]  # fmt: skip
    assert "Anticipation <small>(face-down)</small>" in html
    # a viewer who cannot record (a stranger, or nobody signed in) sees a face-down card only
    other = Client()
    other.force_login(stranger)
    developer_view_set(stranger, True)  # the developer view of the state is the spectator's view too
    for viewer in (Client(), other):
        html, page = get(viewer, sab)
        assert "Anticipation" not in html.split('id="state-data"')[0][html.index('id="board"') :]
        assert ("&quot;name&quot;: null" in html) == (viewer is other)
        assert [s["class"].split()[1] for s in page.slots[:2]] == ["sb-slot-hidden", "sb-slot-empty"]
        assert "Bracer" in html  # EQUIPMENT is face-up


# -- combat: the card → attack tile → opportunity tile flow ----------------------------------------------


def test_attack_flow_offers_exactly_the_legal_moves(web: Any, owner: Any, sab: Any) -> None:
    to_combat(sab, owner)
    state = head_state(sab)
    legal = RULESET.visible_moves(state, None)  # the owner holds no seat: no face-down card is known
    attacks = [m for m in legal if m.type == "attack_card_played"]
    html, page = get(web, sab)
    assert "Combat Phase" in html
    # step 1: one link per (seat, card) that appears in a legal attack
    choices = {(a["href"]) for a in page.links if "sb-card-choice" in a.get("class", "")}
    expected = {f"/matches/{sab.pk}/?{urlencode({'seat': m.seat, 'card': m.data['card']})}#board" for m in attacks}
    assert choices == expected and len(expected) == 9
    # the other moves of the phase are one-click buttons
    others = [m.to_dict() for m in legal if m.type != "attack_card_played"]
    others = sorted(others, key=lambda m: m["type"] != "strategy_card_played")
    assert others and move_values(page, "sb-move") == others
    # step 2: the card's legal attack tiles become links (first card of a combat: on or next to the centre)
    _, page = get(web, sab, "?seat=0&card=Slash")
    slash = [m for m in attacks if m.data["card"] == "Slash"]
    a_tiles = {f"{m.data['attack_tile'][0]},{m.data['attack_tile'][1]}" for m in slash}
    hits = {a["data-cell"]: a["href"] for a in page.links if "sb-hit" in a.get("class", "")}
    assert set(hits) == a_tiles
    assert hits["2,2"] == f"/matches/{sab.pk}/?seat=0&card=Slash&a=2%2C2#board"
    assert move_values(page) == others
    # step 3: the opportunity tiles of that attack tile are submit buttons posting the complete legal event
    _, page = get(web, sab, "?seat=0&card=Slash&a=2,2")
    on_tiles = sorted(
        (m.to_dict() for m in slash if m.data["attack_tile"] == [2, 2]), key=lambda m: m["data"]["opportunity_tile"]
    )
    offered = move_values(page, "sb-target")
    assert sorted(offered, key=lambda m: m["data"]["opportunity_tile"]) == on_tiles and len(on_tiles) == 4
    assert sorted(move_values(page, "sb-target-button"), key=lambda m: m["data"]["opportunity_tile"]) == on_tiles
    picked = [t["data-cell"] for t in page.tiles if "sb-mark-attack-picked" in t["class"]]
    assert picked == ["2,2"]
    # posting one records it; the card is drawn on the board and the log explains the damage
    move = next(m for m in on_tiles if m["data"]["opportunity_tile"] == [2, 3])
    form = board_form(page)
    response = web.post(form["attrs"]["action"], {**form["hidden"], "move": json.dumps(move)})
    assert response.status_code == 302
    state = head_state(sab)
    assert [(c["name"], c["attack_tile"], c["opportunity_tile"]) for c in state["field"]["cards"]] == [
        ("Slash", [2, 2], [2, 3])
    ]
    html, page = get(web, sab)
    slash = state["field"]["cards"][0]["uid"]  # cards are numbered as INSTINCT targets name them
    assert [c["data-card"] for c in page.cards] == [str(slash)]
    assert f"Card {slash}, Ana: Slash, attack 3 on column 3, row 3; opportunity 1 on column 4, row 3; dealt 3" in html
    assert "<li>Ana played Slash (attack on column 3, row 3; opportunity on column 4, row 3).</li>" in html
    assert "<li>Bo takes 3 damage: Health 20 → 17.</li>" in html
    assert "17</strong> / 20 Health" in html


def test_attack_flow_ignores_moves_that_are_not_legal(web: Any, owner: Any, sab: Any) -> None:
    to_combat(sab, owner, instinct=None)
    _, page = get(web, sab, "?seat=1&card=Slash")  # not Bo's turn: nothing picked
    assert not [t for t in page.tiles if "sb-mark-attack" in t["class"]]
    _, page = get(web, sab, "?seat=0&card=Nope&a=2,2")
    assert move_values(page, "sb-target") == []
    _, page = get(web, sab, "?seat=0&card=Slash&a=0,0")  # a grey tile: back to picking the attack tile
    assert move_values(page, "sb-target") == [] and [t for t in page.tiles if "sb-mark-attack" in t["class"]]


def test_damage_negation_and_the_combat_log(web: Any, owner: Any, sab: Any) -> None:
    record(sab, owner, "field_card_flipped", 0, {"tiles": [[0, 2]]})
    record(sab, owner, "cards_drawn", 0, {"attack": 4, "strategy": 3})
    record(sab, owner, "cards_drawn", 1, {"attack": 4, "strategy": 3})
    record(sab, owner, "preparation_finished", 0, {})
    record(sab, owner, "strategy_card_placed", 1, {"slot": "equipment", "card": "Bracer"})
    record(sab, owner, "preparation_finished", 1, {})
    record(sab, owner, "attack_card_played", 0, {"card": "Thrust", "attack_tile": [2, 2], "opportunity_tile": [2, 3]})
    html, page = get(web, sab)
    assert "sb-has-negated" in page.cards[0]["class"]
    assert "Thrust 2 negated by Bracer" in html
    assert "<li>Thrust: 2, Bracer negated it.</li>" in html
    assert "<h3>Combat log</h3>" in html and "Round 1 combat begins" in html
    # Bo's answer: the opportunity half of Thrust adds to Bo's attack
    record(sab, owner, "attack_card_played", 1, {"card": "Slash", "attack_tile": [1, 3], "opportunity_tile": [0, 3]})
    html, page = get(web, sab)
    assert len(page.cards) == 2
    assert "<li>Slash: 3 + 2 (Thrust&#x27;s opportunity) = 5.</li>" in html
    log = html[html.index("<h3>Combat log</h3>") :]
    assert log.index("Thrust: 2") < log.index("Slash: 3 + 2")  # newest last


def test_game_over_is_drawn_without_forms(web: Any, owner: Any) -> None:
    from matches.services import match_create

    match = match_create(
        is_public=True,
        owner=owner,
        game="salt-and-bones",
        seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"starting_health": 2},
    )
    to_combat(match, owner, instinct=None)
    record(match, owner, "attack_card_played", 0, {"card": "Slash", "attack_tile": [2, 2], "opportunity_tile": [2, 3]})
    record(match, owner, "disengaged", 1, {})
    assert head_state(match)["result"]["winners"] == [0]
    html, page = get(web, match)
    assert "Game over" in html and 'class="badge finished">winner' in html
    assert board_form(page) is None
    shown = re.sub(r"(?s)<script\b[^>]*>.*?</script>", " ", html)  # the offline seed holds the reducer's "Seat N"
    assert "Ana wins." in shown and "Seat 0 wins" not in shown


# -- who may click ---------------------------------------------------------------------------------------


def test_a_stranger_and_a_replay_get_no_forms(web: Any, owner: Any, stranger: Any, sab: Any) -> None:
    from django.test import Client

    to_combat(sab, owner)
    other = Client()
    other.force_login(stranger)
    for viewer in (Client(), other):
        html, page = get(viewer, sab, "?seat=0&card=Slash&a=2,2")
        assert board_form(page) is None
        assert not [f for f in page.forms if "/record/" in f["attrs"].get("action", "")]
        assert all(b.get("name") != "move" for b in page.all_buttons)
        assert not [a for a in page.links if "sb-hit" in a.get("class", "") or "sb-card-choice" in a.get("class", "")]
        assert '<svg class="sb-svg"' in html and "Combat log" in html
    # the owner replaying an earlier version sees the board as it stood, without forms
    html, page = get(web, sab, "?at=1")
    assert board_form(page) is None and "Draw Phase" in html


def test_instinct_buttons_name_the_card_they_target(web: Any, owner: Any, sab: Any) -> None:
    to_combat(sab, owner)  # Ana holds a face-down Anticipation
    record(sab, owner, "attack_card_played", 0, {"card": "Slash", "attack_tile": [2, 2], "opportunity_tile": [2, 3]})
    record(sab, owner, "attack_card_played", 1, {"card": "Thrust", "attack_tile": [3, 2], "opportunity_tile": [3, 3]})
    thrust = head_state(sab)["field"]["cards"][1]["uid"]
    html, page = get(web, sab)
    target = {"card": thrust, "instance": 0}
    moves = [m for m in move_values(page) if m["type"] == "strategy_card_played" and m["data"]["target"] == target]
    assert moves and all(m["seat"] == 0 for m in moves)
    assert f"Ana: Anticipation vs Thrust (2) of card {thrust}" in html
