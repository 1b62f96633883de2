"""The rule of sight for writes (docs/ARCHITECTURE.md › Hidden information): nobody learns or sets what another
account's seat hides by recording, whatever they try.

For every game with hidden information, matches are played in twins that differ only in Bo's secret (seat 1,
held by Bo's account). Every other kind of writer and reader (Ana, who holds seat 0 and records; the owner, a
seatless recorder; the owner's second account, a recorder; a stranger; a signed-out phone) tries every entry
type for every seat with sample payloads, plainly and under a house rule, over HTTP, and reads the match's
state (``?seat=1`` included) and legal moves. The answers must be identical in both twins: status, code, rule,
``overridable`` and the body with ids and times removed. An entry accepted in both twins is voided again, so
every try starts from the same position. A planted leak (judging on the whole state, as before the rule) makes
the scan find differences, so the scan can fail.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from matches.services import match_create, match_event_record
from rulesets import Event, get_ruleset
from tests.matches.hidden_reads import signed_in

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

SECRET_PROBES = {"strategy_card_played", "strategy_card_placed", "origin_chosen", "card_placed"}
DROPPED = {"id", "recorded_at", "request_id", "position", "client_time", "stream", "match", "url", "created_at"}


def _table(game_dir: str) -> Any:
    """The ruleset tests' ``Table`` helper of a game (validates and applies events without a database)."""
    path = Path(__file__).resolve().parents[2] / "rulesets" / game_dir / "conftest.py"
    spec = importlib.util.spec_from_file_location(f"{game_dir}_sight_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Table


@dataclass(frozen=True)
class Scenario:
    """Twins of one position (``events`` per twin: each list differs only in Bo's secret), the game's
    ``options`` and the ``probes`` (entry type, seat, data) every writer tries."""

    game: str
    options: dict[str, Any]
    twins: tuple[list[Event], ...]
    probes: tuple[tuple[str, int | None, dict[str, Any]], ...]


def _unique(probes: Iterator[tuple[str, int | None, dict[str, Any]]]) -> tuple[tuple[str, int | None, dict], ...]:
    seen: dict[str, tuple[str, int | None, dict[str, Any]]] = {}
    for probe in probes:
        seen.setdefault(json.dumps(probe, sort_keys=True), probe)
    return tuple(seen.values())


def _listed(game: str, states: list[dict[str, Any]]) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """Legal moves of each twin's whole state (what a prober would copy), offered for both seats: every move
    that differs between the twins, and up to two of each entry type besides."""
    ruleset = get_ruleset(game)
    listed = [[json.dumps(m.to_dict(), sort_keys=True) for m in ruleset.legal_moves(state) or []] for state in states]
    everywhere = set.intersection(*(set(moves) for moves in listed)) if listed else set()
    per_type: dict[str, int] = {}
    for moves in listed:
        for text in moves:
            move = json.loads(text)
            if text in everywhere:
                per_type[move["type"]] = per_type.get(move["type"], 0) + 1
                if per_type[move["type"]] > 2:
                    continue
            for seat in (0, 1):
                yield move["type"], seat, move["data"]


def _every_type(game: str) -> Iterator[tuple[str, int | None, dict[str, Any]]]:
    """Each entry type with an empty payload, for both seats: its refusal must not tell anything either."""
    for type_ in get_ruleset(game).event_types:
        for seat in (0, 1):
            yield type_, seat, {}


# -- Salt & Bones: Bo's face-down INSTINCT card is Anticipation, Condescend, or left unnamed ------------------

SAB_SECRETS = ("Anticipation", "Condescend", None)


def _sab_twin(secret: str | None) -> tuple[list[Event], dict[str, Any]]:
    table = _table("salt_and_bones")()
    table.to_combat(boards={0: [("instinct", "Overwhelm")], 1: [("instinct", secret)]})
    attack = next(m for m in get_ruleset("salt-and-bones").legal_moves(table.state) if m.type == "attack_card_played")
    table.do(attack.type, attack.seat, **attack.data)
    return table.events, table.state


def _salt_and_bones() -> Scenario:
    built = [_sab_twin(s) for s in SAB_SECRETS]
    names = ("Anticipation", "Condescend", "Overwhelm", "Riposte")

    def probes() -> Iterator[tuple[str, int | None, dict[str, Any]]]:
        yield from _every_type("salt-and-bones")
        yield from _listed("salt-and-bones", [state for _, state in built])
        for seat in (0, 1):
            for name in names:
                for target in (None, {"card": 999}):
                    yield "strategy_card_played", seat, {"card": name, "target": target}

    return Scenario("salt-and-bones", {}, tuple(events for events, _ in built), _unique(probes()))


# -- The First Spine: Bo's secret origin is the priest's or the blacksmith's ----------------------------------

SPINE_SECRETS = ("priest", "blacksmith")


def _spine_twin(secret: str, *, bo_on_turn: bool) -> tuple[list[Event], dict[str, Any], dict[str, Any]]:
    table = _table("the_first_spine")(2, board=[4, 5])
    if not bo_on_turn:  # setup: Bo chose his origin, Ana has not yet
        table.do("destiny_chosen", 0, destiny="conjurer")
        table.do("destiny_chosen", 1, destiny="conjurer")
        table.do("origin_chosen", 1, origin=secret)
        return table.events, table.state, table.options
    table.setup(origins=("healer", secret)).refill().place("Squire", [2, 2]).end().refill()
    return table.events, table.state, table.options


def _first_spine(bo_on_turn: bool) -> Scenario:
    built = [_spine_twin(s, bo_on_turn=bo_on_turn) for s in SPINE_SECRETS]
    catalog = built[0][1]["catalog"]
    by_origin: dict[Any, str] = {}
    for name, card in catalog.items():
        by_origin.setdefault(card.get("origin"), name)
    wizard = next(c["at"] for c in built[0][1]["cards"] if c["kind"] == "wizard" and c["owner"] == 1)
    cells = (wizard, [wizard[0] + 1, wizard[1]], [3, 0])

    def probes() -> Iterator[tuple[str, int | None, dict[str, Any]]]:
        yield from _every_type("the-first-spine")
        yield from _listed("the-first-spine", [state for _, state, _ in built])
        for seat in (0, 1):
            for origin in ("healer", "priest", "blacksmith", "architect"):
                yield "origin_chosen", seat, {"origin": origin}
            for name in by_origin.values():
                for at in cells:
                    yield "card_placed", seat, {"card": name, "at": at}
            yield "hand_refilled", seat, {"discarded": 7}

    return Scenario("the-first-spine", built[0][2], tuple(events for events, _, _ in built), _unique(probes()))


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "salt-and-bones, combat": _salt_and_bones,
    "the-first-spine, setup": lambda: _first_spine(bo_on_turn=False),
    "the-first-spine, Bo's turn": lambda: _first_spine(bo_on_turn=True),
}


# -- the people and the answers ---------------------------------------------------------------------------


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    return {n: make_user(n) for n in ("owner", "owner2", "ana", "bo", "stranger")}


def _create(people: dict[str, Any], scenario: Scenario, events: list[Event]) -> Any:
    """Ana (seat 0) and Bo (seat 1) hold the seats with their accounts; the owner and the owner's second
    account record and hold none. Each seat's entries are recorded by its holder, the table's by the owner."""
    match = match_create(
        is_public=True, owner=people["owner"], game=scenario.game, options=scenario.options,
        recorders=[people["ana"], people["bo"], people["owner2"]],
        seats=[{"name": "Ana", "user": people["ana"]}, {"name": "Bo", "user": people["bo"]}],
    )  # fmt: skip
    by_seat = {0: people["ana"], 1: people["bo"]}
    for event in events:
        user = by_seat.get(event.seat, people["owner"])
        match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)
    match.refresh_from_db()
    return match


def _clean(value: Any, match: Any) -> Any:
    """A body with what differs between twins for no reason of sight removed: ids, times, the match's id."""
    if isinstance(value, dict):
        return {k: _clean(v, match) for k, v in value.items() if k not in DROPPED}
    if isinstance(value, list):
        return [_clean(v, match) for v in value]
    if isinstance(value, str):
        return re.sub(rf"(?<=/)({match.pk}|{match.stream_id})(?=/)", "N", value)  # addresses of the match
    return value


def _said(response: Any, match: Any) -> str:
    try:
        body = _clean(response.json(), match)
    except ValueError:
        body = "(not JSON)"
    return json.dumps([response.status_code, body], sort_keys=True)


def _post(client: Client, match: Any, type_: str, seat: int | None, data: dict[str, Any]) -> Any:
    body = {"type": type_, "seat": seat, "data": data}
    return client.post(f"/api/matches/{match.pk}/events/", json.dumps(body), content_type="application/json")


def _undo(owner: Client, match: Any, *versions: int) -> None:
    """Void ``versions`` (newest first), so the next try starts from the same position."""
    for version in versions:
        response = _post(owner, match, "event_voided", None, {"version": version, "reason": "sight probe"})
        assert response.status_code == 201, response.content


def _try(client: Client, owner: Client, match: Any, probe: tuple, house_rule: bool) -> str:
    """One try, as this writer: the answer in words, the position restored afterwards."""
    written: list[int] = []
    if house_rule:
        override = _post(client, match, "rule_overridden", None, {"reason": "sight probe"})
        if override.status_code != 201:
            return "override " + _said(override, match)
        written.append(override.json()["version"])
    response = _post(client, match, *probe)
    if response.status_code == 201:
        written.append(response.json()["version"])
    elif response.status_code == 400 and response.json().get("house_rule_withdrawn"):
        written.pop()  # unplayable even under the house rule: the server spent it (voided it) itself
    _undo(owner, match, *reversed(written))
    return _said(response, match)


def _reads(client: Client, match: Any) -> list[str]:
    urls = (f"/api/matches/{match.pk}/state/", f"/api/matches/{match.pk}/state/?seat=1",
            f"/api/matches/{match.pk}/legal-moves/")  # fmt: skip
    return [_said(client.get(url), match) for url in urls]


def _parting(a: Any, b: Any) -> str:
    """Where two answers part: the text around their first difference."""
    a, b = json.dumps(a), json.dumps(b)
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, i - 80) : i + 80]}… ≠ …{b[max(0, i - 80) : i + 80]}…"


def _differences(people: dict[str, Any], scenario: Scenario, *, only: str = "") -> list[str]:
    """Every answer that differs between the twins, for every writer other than Bo, as "who: probe" lines."""
    if only:  # one entry type, as Ana (the planted-leak check: quick)
        scenario = Scenario(
            scenario.game, scenario.options, scenario.twins, tuple(p for p in scenario.probes if p[0] == only)
        )
    twins = [_create(people, scenario, events) for events in scenario.twins]
    owner = signed_in(people["owner"])
    writers = {
        "Ana (seat 0)": signed_in(people["ana"]), "owner (seatless recorder)": owner,
        "owner's second account": signed_in(people["owner2"]), "stranger": signed_in(people["stranger"]),
        "signed out": Client(),
    }  # fmt: skip
    found = []
    for who, client in writers.items():
        if only and who != "Ana (seat 0)":
            continue
        answers = [_reads(client, match) for match in twins]
        for a in answers[1:]:
            if a != answers[0]:
                found.append(f"{who}: reads {_parting(answers[0], a)}")
        # Ana and the owner differ in sight (a seat's view, a spectator's): every probe, plainly and under a house
        # rule; the owner's second account and those who may not record: the entries that name a secret value
        full = who in ("Ana (seat 0)", "owner (seatless recorder)")
        probes = scenario.probes if full else [p for p in scenario.probes if p[2] and p[0] in SECRET_PROBES]
        for probe in probes:
            for house_rule in (False, True) if full else (False,):
                said = [_try(client, owner, match, probe, house_rule) for match in twins]
                for other in said[1:]:
                    if other != said[0]:
                        rule = "under a house rule " if house_rule else ""
                        found.append(f"{who}: {probe} {rule}→ {_parting(said[0], other)}")
                        break
    return found


def _shown(found: list[str]) -> str:
    """The differences, each reduced to the first place where the twins' answers part (readable failures)."""
    return "\n".join(found)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_no_writer_or_reader_learns_another_accounts_secret(people, name):
    found = _differences(people, SCENARIOS[name]())
    assert not found, _shown(found)


def test_a_planted_leak_is_found(people, monkeypatch):
    """Judging every entry on the whole state (as before the rule of sight) lets refusals name Bo's origin."""
    import rulesets.replay as replay

    monkeypatch.setattr(replay, "judged_state", lambda ruleset, state, event, sight: state)
    found = _differences(people, _first_spine(bo_on_turn=True), only="card_placed")
    assert any("card_placed" in line for line in found), found
