"""Every move a game accepts can be made from its match page alone (issue 23 item 2).

For each game, a match is played through a scenario. At each position, every move the rules accept there
(the legal moves where the game lists them, else the scenario's next entry, a sample of each kind of entry)
is made from the rendered page only: one of the page's forms to ``/record/`` is filled with the controls and
choices it offers (``tests.frontend.form_filler``), posted, and must record exactly that move. The moves are
tried inside a savepoint rolled back afterwards; the scenario's own entries are kept. At the end, every entry
type of every game must have been made from the page at least once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import transaction

from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import Event, RuleViolation, all_rulesets, get_ruleset
from rulesets.replay import event_types_with_meta
from rulesets.schema import check_payload
from tests.frontend.form_filler import CannotFill, page_forms
from tests.frontend.form_filler import fill as fill_form

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

PER_TYPE = 6  # legal moves of one type tried at one position (spread over the list)


def ev(type_: str, seat: int | None = None, **data: Any) -> Event:
    return Event(type_, seat, data)


Step = Event | str | Callable[[Any, dict[str, Any]], Event]


@dataclass
class Scenario:
    """A match with ``seats`` players and ``options``, played through ``script``: at each step every legal move
    of the position (where the game lists them) is tried from the page, then the step's entry is made from the
    page and kept. A step is an entry, ``"legal:<type>"`` (the first legal move of that type; ``*``: of a type not made yet) or a function of
    ``(ruleset, state)`` finding an entry the rules accept (a card from the hand on a free cell)."""

    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    script: list[Step] = field(default_factory=list)
    not_reached: dict[str, str] = field(default_factory=dict)  # entry type → why this scenario never makes it


def first_accepted(type_: str, candidates: Callable[[Any, dict[str, Any], int], Iterable[dict[str, Any]]]) -> Step:
    """A step: the first payload of ``candidates(ruleset, state, seat)`` the rules accept for the seat on turn."""

    def find(ruleset: Any, state: dict[str, Any]) -> Event:
        seat = ruleset.turn(state).seats[0]
        for data in candidates(ruleset, state, seat):
            try:
                ruleset.validate(state, Event(type_, seat, data))
            except RuleViolation:
                continue
            return Event(type_, seat, data)
        raise AssertionError(f"no {type_} accepted in this position")

    return find


def _cells(ruleset: Any, state: dict[str, Any]) -> list[list[int]]:
    rows, cols = ruleset.board_size(state)
    return sorted(
        ([r, c] for r in range(rows) for c in range(cols)), key=lambda c: abs(c[0] - rows // 2) + abs(c[1] - cols // 2)
    )


PLACE = first_accepted(
    "card_placed", lambda rs, s, seat: ({"card": n, "at": c} for n in rs.names(s, seat)["hand"] for c in _cells(rs, s))
)
HURT = first_accepted(
    "hp_changed", lambda rs, s, seat: ({"at": c, "amount": -1, "note": "Fireball"} for c in _cells(rs, s))
)


HEROES = [
    {"name": "Vistra", "class": "Fighter", "max_hp": 10},
    {"name": "Quinn", "class": "Wizard", "max_hp": 6, "items": [{"name": "Potion of Healing", "buy": 50}]},
]

SCENARIOS: dict[str, Scenario] = {
    "last-stone": Scenario(2, script=["legal:stones_taken"] * 4),
    "get-salty": Scenario(2, script=["legal:*"] * 10),
    "salt-and-bones": Scenario(
        2,
        script=[
            ev("field_card_flipped", tiles=[[1, 1]]),
            ev("cards_drawn", 0, attack=4, strategy=3),
            ev("cards_drawn", 1, attack=4, strategy=3),
            "legal:strategy_card_placed",
            "legal:preparation_finished",
            "legal:strategy_card_placed",
            "legal:preparation_finished",
            "legal:attack_card_played",
            "legal:strategy_card_played",
            "legal:attack_card_played",
            "legal:attack_card_played",
            "legal:attack_card_played",
            "legal:strategy_card_played",
            "legal:attack_card_played",
            "legal:disengaged",
            ev("field_card_flipped", tiles=[[4, 4]]),  # round 2: the hands hold cards, so one may be discarded
            "legal:hand_card_discarded",
            "legal:cards_drawn",
            "legal:cards_drawn",
            ev("strategy_card_placed", 1, slot="gambit", card="Test of Courage"),
            "legal:preparation_finished",
            "legal:preparation_finished",
            "legal:disengaged",  # under Test of Courage: the opponent gets an additional turn ...
            "legal:additional_turn_passed",  # ... and may pass it
        ],
    ),
    "the-first-spine": Scenario(
        2,
        options={"board": [4, 5]},  # a small board: Bo's Squire soon faces two of Ana's cards
        script=[
            "legal:destiny_chosen",
            "legal:destiny_chosen",
            "legal:origin_chosen",
            "legal:origin_chosen",
            "legal:hand_refilled",
            ev("card_placed", 0, card="Squire", at=[2, 2]),
            ev("card_placed", 0, card="Squire", at=[2, 1]),
            ev("card_placed", 0, card="Squire", at=[1, 1]),
            ev("card_placed", 0, card="Grey Wolf", at=[3, 1]),  # it can run
            ev("turn_ended", 0),
            "legal:hand_refilled",
            ev("card_placed", 1, card="Squire", at=[1, 2]),  # next to two of Ana's cards: Bo chooses one
            ev("confrontation_target_chosen", 1, **{"from": [1, 2], "target": [1, 1]}),
            ev("turn_ended", 1),
            ev("card_moved", 0, **{"from": [3, 1], "to": [3, 0]}),  # Run, at the start of Ana's turn
            ev("hp_changed", 0, at=[2, 2], amount=-1, note="Fireball"),  # a "before your turn" effect
        ],
    ),
    "bone-wars": Scenario(
        2,
        script=[
            ev("card_played", 0, card={"kind": "team", "name": "Marsh's Team", "cost": 0}),
            ev("money_changed", 0, amount=3),
            ev("money_changed", 0, amount=-1),
            ev("loyalty_gained", 0, amount=2),
            ev("paper_published", 0, side="marsh"),
            ev("paper_debunked", 0, side="marsh"),
            ev("patron_flipped", 0),
            ev("rp_gained", 0, amount=2, reason="Award"),
            ev("card_upgraded", 0, slot=1, card={"kind": "team", "name": "Cope's Team", "cost": 1}),
            ev("turn_ended", 0),
            ev("card_played", 1, card={"kind": "species", "name": "Triceratops", "minor_find": "bug"}),
            ev("species_archived", 1, name="Triceratops"),
            ev("slot_upgraded", 1, cost=3, icon="plant"),
            ev("turn_ended", 1),
            ev("cranial_circumference_recorded", 0, cm=57.5),
            ev("table_paused"),
            *["legal:passed"] * 8,  # to the end of round 4
            "legal:game_concluded",
        ],
    ),
    "saltmarsh-adventure": Scenario(
        2,
        options={"adventure": "Dunwater", "heroes": HEROES},
        script=[
            ev("monster_placed", monster="Sahuagin"),
            ev("hero_phase_started", 0),
            ev("hero_moved", 0),
            ev("attack_rolled", 0, attacker="hero", rolls=[12]),
            ev("attack_rolled", 0, attacker="hero", rolls=[7], same_attack=True),
            ev("condition_gained", 0, target="hero", condition="poisoned"),
            ev("condition_gained", None, target="monster", monster="Sahuagin", condition="disadvantage"),
            ev("condition_lost", None, target="monster", monster="Sahuagin", condition="disadvantage"),
            ev("damage_taken", 0, amount=3),
            ev("hp_healed", 0, amount=1),
            ev("treasure_found", 0, item={"name": "Lucky Charm", "buy": 100, "sell": 50, "item": True}),
            ev("treasure_used", 0, item="Lucky Charm"),
            ev("gold_found", 0, amount=50),
            ev("poison_roll_made", 0, roll=14),
            ev("hero_phase_ended", 0),
            ev("monster_activated", monster="Sahuagin"),
            ev("attack_rolled", None, attacker="monster", monster="Sahuagin", rolls=[15]),
            ev("monster_defeated", monster="Sahuagin", xp=6),
            ev("encounter_cancelled", encounter="Frenzied Attack"),
            ev("villain_phase_ended", 0),
            ev("hero_phase_started", 1),
            ev("treasure_used", 1, item="Potion of Healing"),
            ev("rule_overridden", reason="our table lets Quinn win at once"),
            ev("adventure_won"),
        ],
    ),
    "scoresheet": Scenario(
        3,
        options={"title": "Azul"},
        script=[ev("points_scored", 0, points=12), ev("points_scored", 2, points=-3), ev("game_ended")],
    ),
}


def cleaned(ruleset: Any, type_: str, seat: int | None, data: dict[str, Any]) -> tuple[Any, ...]:
    """An entry with its payload's defaults filled in, to compare what was wanted with what was recorded."""
    spec = event_types_with_meta(ruleset).get(type_)
    payload = check_payload(spec.fields, data) if spec else data
    return type_, seat, json.dumps(payload, sort_keys=True)


class _Undo(Exception):
    pass


def made_from_page(client: Any, match: Any, html: str, move: Event) -> list[str]:
    """Try every recording form of the page for ``move``; [] when one of them recorded exactly it (rolled
    back), else why each form could not."""
    ruleset = get_ruleset(match.game)
    spec = event_types_with_meta(ruleset).get(move.type)
    record_url = f"/matches/{match.pk}/record/"
    want = cleaned(ruleset, move.type, move.seat, move.data)
    why: list[str] = []
    for form in page_forms(html):
        if not form.action.startswith(record_url):
            continue
        try:
            post = fill_form(form, move, spec)
        except CannotFill as exc:
            if "another" not in str(exc) and "not in the list" not in str(exc):
                why.append(f"{form.hidden('type') or form.classes}: {exc}")
            continue
        got: Any = None
        try:
            with transaction.atomic():
                before = EventRow.objects.filter(stream_id=match.stream_id).count()
                response = client.post(record_url, post)
                rows = list(EventRow.objects.filter(stream_id=match.stream_id).order_by("version"))[before:]
                got = (response.status_code, [cleaned(ruleset, r.type, r.seat, r.data) for r in rows])
                raise _Undo
        except _Undo:
            pass
        if got == (302, [want]):
            return []
        why.append(f"{form.hidden('type') or form.classes}: posted {post} → {got}")
    return why or ["no form on the page records this kind of entry"]


def spread(moves: list[Event]) -> list[Event]:
    """At most PER_TYPE moves of each type, spread over the list."""
    by_type: dict[str, list[Event]] = {}
    for m in moves:
        by_type.setdefault(m.type, []).append(m)
    out = []
    for same in by_type.values():
        step = max(1, len(same) // PER_TYPE)
        out.extend(same[::step][:PER_TYPE])
    return out


@pytest.mark.parametrize("slug", sorted(SCENARIOS))
def test_every_accepted_move_can_be_made_from_the_page(slug, client, django_user_model):
    scenario = SCENARIOS[slug]
    owner = django_user_model.objects.create_user(username="keeper", password="x")
    client.force_login(owner)
    names = [{"name": n} for n in ("Ana", "Bo", "Cy", "Di")[: scenario.seats]]
    match = match_create(owner=owner, game=slug, seats=names, options=scenario.options)
    ruleset = get_ruleset(slug)
    made: set[str] = set()
    failures: list[str] = []

    def position() -> tuple[str, Any]:
        response = client.get(f"/matches/{match.pk}/")
        assert response.status_code == 200
        return response.content.decode(), store.head_load(match.stream_id, fresh=True).state

    def attempt(html: str, move: Event) -> None:
        if ruleset.hides_information and move.seat is not None:
            # the phone passed round the table: the seat's player first shows their secrets on it (the owner holds
            # no seat here), as a table does before entering a face-down card or an origin (matches.store.visibility)
            shown = client.post(f"/matches/{match.pk}/reveal/", {"seat": move.seat})
            assert shown.status_code == 302, shown.content.decode()[:300]
            html = client.get(f"/matches/{match.pk}/").content.decode()
        why = made_from_page(client, match, html, move)
        if why:
            failures.append(f"{move.to_dict()}:\n    " + "\n    ".join(why))
        else:
            made.add(move.type)

    for step in scenario.script:
        html, state = position()
        legal = ruleset.legal_moves(state)
        for move in spread(legal or []):
            attempt(html, move)
        if isinstance(step, str):
            kind = step.removeprefix("legal:")
            fresh = [m for m in legal or [] if m.type not in made] or legal or []  # "*": a kind not made yet
            move = next((m for m in (fresh if kind == "*" else legal or []) if kind in ("*", m.type)), None)
            assert move is not None, f"no legal {kind} at version {len(made)}: {sorted({m.type for m in legal or []})}"
        else:
            move = step if isinstance(step, Event) else step(ruleset, state)
        attempt(html, move)
        if move.type == "adventure_won":  # the other ending, from the same page
            attempt(html, ev("adventure_lost", reason="The Sahuagin escaped"))
        match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)

    assert not failures, f"{len(failures)} moves cannot be made from the page:\n" + "\n".join(failures[:15])
    missing = set(ruleset.event_types) - made - set(scenario.not_reached)
    assert not missing, f"entry types never made from the page in this scenario: {sorted(missing)}"


def test_every_game_has_a_scenario():
    assert {r.slug for r in all_rulesets(kind="match")} == set(SCENARIOS)


# -- a Ghosts of Saltmarsh campaign: the sheet's forms and the town form --------------------------------------

CAMPAIGN_SCRIPT = [
    ev("hero_joined", hero="Ana", **{"class": "Fighter"}),
    ev("hero_joined", hero="Bo", **{"class": "Wizard"}),
    ev("hero_joined", hero="Cy", **{"class": "Rogue"}),
    ev("adventure_started", adventure="The Sinister Secret", heroes=["Ana", "Bo"]),
    ev("treasure_gained", hero="Ana", item={"name": "Cloak", "buy": 600, "sell": None}),
    ev("treasure_gained", hero="Bo", item={"name": "Rope", "buy": 20, "sell": 10}),
    ev("treasure_used", hero="Bo", item="Rope"),
    ev("gold_gained", hero="Bo", amount=100),
    ev("adventure_completed", reward=1200),
    ev("item_sold", hero="Ana", item="Cloak"),
    ev("trade_made", **{"from": "Bo", "to": "Ana", "items": [], "gold": 100}),
    ev("leveled_up", hero="Ana"),
    ev("powers_swapped", hero="Ana", powers=["Cleave", "Shield Bash"]),
    ev("shop_revealed", cards=[{"name": "Potion", "buy": 100, "sell": 50, "item": True},
                               {"name": "Sword", "buy": 1250, "sell": 600, "item": True},
                               {"name": "Curse", "buy": None, "sell": None, "item": False},
                               {"name": "Lamp", "buy": 20, "sell": 10, "item": True}]),
    ev("item_bought", hero="Bo", item="Lamp"),
    ev("hero_retired", hero="Cy"),
    ev("adventure_started", adventure="Danger at Dunwater", heroes=["Ana", "Bo"]),
    ev("adventure_failed"),
]  # fmt: skip
CAMPAIGN_NOT_REACHED = {
    "adventure_concluded": "written by an adventure played as its match (the bridge), never typed on a form",
    "advancement_token_bought": "only with the advancement-token option, which this campaign leaves off",
}


def fill_town(form: Any, move: Event, spec: Any) -> dict[str, list[str]]:
    """The town form's POST recording ``move`` as its first row (the shop's cards under ``shop.``)."""
    from tests.frontend.form_filler import _Filler

    filler = _Filler(form)
    filler.set("a0.type", [move.type], "Action")
    prefix = "shop." if move.type == "shop_revealed" else f"a0.{move.type}."
    for f in spec.fields:
        if f.name in move.data:
            filler.fill_field(f, move.data[f.name], prefix + f.name)
    return filler.post


def test_every_campaign_entry_can_be_made_from_its_pages(client, django_user_model):
    from campaigns.saltmarsh.services import campaign_create, campaign_event_record

    owner = django_user_model.objects.create_user(username="keeper", password="x")
    client.force_login(owner)
    campaign = campaign_create(owner=owner, name="Tuesdays", options={"level_up_cost": 1500})
    ruleset = get_ruleset(campaign.game)
    base = f"/campaigns/{campaign.pk}/"
    made: set[str] = set()
    failures: list[str] = []
    for move in CAMPAIGN_SCRIPT:
        spec = event_types_with_meta(ruleset)[move.type]
        want = cleaned(ruleset, move.type, None, move.data)
        why: list[str] = []
        for page in (base, base + "town/"):
            for form in page_forms(client.get(page).content.decode()):
                town = form.action.startswith(base + "town/") or (form.action == "" and page.endswith("town/"))
                if not (form.action.startswith(base + "record/") or town):
                    continue
                try:
                    post = fill_town(form, move, spec) if town else fill_form(form, move, spec)
                except CannotFill as exc:
                    if "another" not in str(exc):
                        why.append(f"{page} {form.hidden('type') or form.classes}: {exc}")
                    continue
                got: Any = None
                try:
                    with transaction.atomic():
                        before = EventRow.objects.filter(stream_id=campaign.stream_id).count()
                        response = client.post(form.action.split("#")[0] or page, post)
                        rows = list(EventRow.objects.filter(stream_id=campaign.stream_id).order_by("version"))[before:]
                        got = (response.status_code, [cleaned(ruleset, r.type, None, r.data) for r in rows])
                        raise _Undo
                except _Undo:
                    pass
                if got == (302, [want]):
                    made.add(move.type)
                    break
                why.append(f"{page} {form.hidden('type') or form.classes}: posted {post} → {got}")
            if move.type in made:
                break
        if move.type not in made:
            failures.append(f"{move.to_dict()}:\n    " + "\n    ".join(why or ["no form records it"]))
        campaign_event_record(campaign=campaign, user=owner, type=move.type, data=move.data)
    assert not failures, f"{len(failures)} entries cannot be made from the pages:\n" + "\n".join(failures[:10])
    missing = set(ruleset.event_types) - made - set(CAMPAIGN_NOT_REACHED)
    assert not missing, f"entry types never made from the pages: {sorted(missing)}"
