"""Demo data for a newcomer's first look: one public match of each game, part-played through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

from matches.services import match_create, match_event_record
from rulesets import all_rulesets, get_ruleset

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-pass-123"

SEAT_NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def _play_listed_moves(match, user, ruleset, count: int) -> None:  # type: ignore[no-untyped-def]
    """Record ``count`` legal moves, picked deterministically from the listed ones."""
    from matches.store import events as store

    for i in range(count):
        head = store.head_load(match.stream_id, fresh=True)
        moves = ruleset.legal_moves(head.state)
        if not moves:
            return
        move = moves[(i * 7) % len(moves)]
        match_event_record(match=match, user=user, type=move.type, seat=move.seat, data=move.data)


def load_demo() -> list[str]:
    """Create the demo user and a demo match per game; returns what was created."""
    user = get_user_model().objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
    created = []
    for ruleset in all_rulesets(kind="match"):
        if ruleset.slug in SCRIPTED:
            continue
        seats = [{"name": n} for n in SEAT_NAMES[: ruleset.seats[0] if ruleset.seats[0] > 1 else 2]]
        if len(seats) not in ruleset.seats:
            seats = [{"name": n} for n in SEAT_NAMES[: ruleset.seats[0]]]
        script = getattr(ruleset, "demo_script", None)
        options = script()[0] if script else {}
        match = match_create(
            owner=user, is_public=True, game=ruleset.slug, seats=seats, options=options, title=f"Demo: {ruleset.name}"
        )
        if script:
            for event in script()[1]:
                match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)
        else:
            _play_listed_moves(match, user, ruleset, 6)
        created.append(match.title)
    for loader in SCRIPTED.values():
        created.extend(loader(user))
    created.extend(_history_demo(user))
    for loader in EXTRAS:
        created.extend(loader(user))
    created.extend(_insights_demo(user))
    return created


def _flip(tile: list[int]) -> tuple[str, None, dict[str, object]]:
    return ("field_card_flipped", None, {"tiles": [tile]})


def _draw(seat: int, attack: int) -> tuple[str, int, dict[str, object]]:
    return ("cards_drawn", seat, {"attack": attack, "strategy": 0})


def _hit(seat: int, card: str, attack: list[int], opportunity: list[int]) -> tuple[str, int, dict[str, object]]:
    return ("attack_card_played", seat, {"card": card, "attack_tile": attack, "opportunity_tile": opportunity})


def _ready(*seats: int) -> list[tuple[str, int, dict[str, object]]]:
    return [("preparation_finished", seat, {}) for seat in seats]


# Finished games whose logs feed the game pages' insights (tests/matches/test_stats_insights.py plays the same):
# a Salt & Bones duel won by a chained Quick Cut, one won after a Second Wind, and a quick Bone Wars game with
# patron switches (Ana 3, Bo 1).
INSIGHT_DEMOS: list[tuple[str, str, dict[str, object], list[tuple[str, int | None, dict[str, object]]]]] = [
    ("salt-and-bones", "Salt & Bones: won by a Chain", {"starting_health": 6}, [
        _flip([0, 1]), _draw(0, 7), _draw(1, 7), *_ready(0, 1), _hit(0, "Slash", [2, 2], [2, 3]),
        ("disengaged", 1, {}),
        _flip([5, 1]), _draw(0, 1), _draw(1, 0), *_ready(0, 1), _hit(0, "Feint", [2, 2], [2, 3]),
        _hit(0, "Quick Cut", [1, 3], [0, 3]), _hit(1, "Slash", [3, 2], [4, 2]), ("disengaged", 0, {}),
    ]),
    ("salt-and-bones", "Salt & Bones: after a Second Wind", {"starting_health": 4}, [
        _flip([0, 1]), _draw(0, 7), _draw(1, 7), *_ready(0, 1), _hit(0, "Heavy Blow", [2, 2], [2, 3]),
        _hit(1, "Heavy Blow", [3, 3], [3, 2]), ("disengaged", 0, {}),
        _flip([5, 1]), _draw(1, 1), _draw(0, 1), *_ready(1, 0), _hit(1, "Slash", [2, 2], [2, 3]),
        ("disengaged", 0, {}),
    ]),
    ("bone-wars", "Bone Wars: a quick game", {}, [
        ("passed", 0, {"patron": "cope"}), ("passed", 1, {"patron": "cope"}),
        ("card_played", 0, {"card": {"kind": "team", "name": "Crew", "cost": 0}}), ("patron_flipped", 0, {}),
        ("loyalty_gained", 0, {"amount": 2}), ("paper_published", 0, {"side": "marsh"}), ("turn_ended", 0, {}),
        ("passed", 1, {"patron": "marsh"}), ("passed", 0, {"patron": "marsh"}),
        ("passed", 0, {"patron": "marsh"}), ("passed", 1, {"patron": "marsh"}),
        ("passed", 0, {"patron": "cope"}), ("passed", 1, {"patron": "marsh"}),
        ("game_concluded", None, {}),  # no awards: the table confirms the end (docs/rules/bone-wars.md)
    ]),
]  # fmt: skip


def _insights_demo(user) -> list[str]:  # type: ignore[no-untyped-def]
    """Finished games for the insights of the game pages (damage per combat, final blows, patron switches)."""
    created = []
    for game, title, options, script in INSIGHT_DEMOS:
        match = match_create(owner=user, is_public=True, game=game, seats=[{"name": "Ana"}, {"name": "Bo"}], options=options,
                             title=title)  # fmt: skip
        for type_, seat, data in script:
            match_event_record(match=match, user=user, type=type_, seat=seat, data=data)
        created.append(match.title)
    return created


def _history_demo(user) -> list[str]:  # type: ignore[no-untyped-def]
    """Months of earlier plays for the dashboards, through the real BG Stats import; the demo user is Ana."""
    from pathlib import Path

    from matches.interop.jobs import import_bytes
    from matches.models import Player

    data = (Path(__file__).parent / "demo_bgstats.json").read_bytes()
    report = import_bytes(owner=user, data=data, source="bgstats", file_name="demo_bgstats.json")
    Player.objects.filter(owner=user, name="Ana", user__isnull=True).update(user=user)
    return [f"{report.imported} earlier plays imported from a BG Stats file"]


def _salt_and_bones_demo(user) -> list[str]:  # type: ignore[no-untyped-def]
    """A Salt & Bones match into its first combat: a field card, then listed moves, attacks preferred."""
    from matches.store import events as store

    match = match_create(owner=user, is_public=True, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         title="Demo: Salt & Bones")  # fmt: skip
    match_event_record(match=match, user=user, type="field_card_flipped", seat=0, data={"tiles": [[0, 2], [5, 3]]})
    ruleset = get_ruleset("salt-and-bones")
    for _ in range(40):
        state = store.head_load(match.stream_id, fresh=True).state
        moves = ruleset.legal_moves(state)
        if not moves or len(state["field"]["cards"]) >= 4:
            break
        move = _pick_salt_and_bones(moves, state)
        match_event_record(match=match, user=user, type=move.type, seat=move.seat, data=move.data)
    return [match.title]


def _pick_salt_and_bones(moves, state):  # type: ignore[no-untyped-def]
    """A plausible table: draw 4 attack + 3 strategy, place two strategy cards, then attack."""
    by_type: dict[str, list] = {}
    for m in moves:
        by_type.setdefault(m.type, []).append(m)
    if "cards_drawn" in by_type:
        return next((m for m in by_type["cards_drawn"] if m.data["attack"] == 4), by_type["cards_drawn"][0])
    if "attack_card_played" in by_type:
        return by_type["attack_card_played"][len(by_type["attack_card_played"]) // 2]
    placed = sum(1 for slots in state["boards"] for cards in slots.values() for _ in cards)
    if ("strategy_card_placed" in by_type and placed < 4 and placed % 2 == 0) or "preparation_finished" not in by_type:
        named = [m for m in by_type.get("strategy_card_placed", []) if m.data.get("card")]
        if named:
            return named[placed % len(named)]
    return by_type.get("preparation_finished", moves)[0]


def _bone_wars_demo(user) -> list[str]:  # type: ignore[no-untyped-def]
    """A three-player Bone Wars game over two sittings: the mid-game scoring made, round 3 under way."""
    match = match_create(owner=user, is_public=True, game="bone-wars", seats=[{"name": n} for n in SEAT_NAMES[:3]],
                         title="Demo: Bone Wars")  # fmt: skip

    def team(name: str, cost: int = 0) -> dict[str, object]:
        return {"card": {"kind": "team", "name": name, "cost": cost}}

    def species(name: str, find: str) -> dict[str, object]:
        return {"card": {"kind": "species", "name": name, "minor_find": find}}

    def paleontologist(name: str) -> dict[str, object]:
        return {"card": {"kind": "paleontologist", "name": name}}

    script: list[tuple[str, int | None, dict[str, object]]] = [
        # round 1
        ("card_played", 0, team("Marsh's Team", 1)), ("loyalty_gained", 0, {"amount": 2}),
        ("paper_published", 0, {"side": "marsh"}), ("turn_ended", 0, {}),
        ("card_played", 1, species("Triceratops", "bug")), ("money_changed", 1, {"amount": 2}),
        ("loyalty_gained", 1, {"amount": 3}), ("turn_ended", 1, {}),
        ("card_played", 2, paleontologist("Hatcher")), ("paper_published", 2, {"side": "cope"}),
        ("turn_ended", 2, {}),
        ("passed", 0, {"patron": "cope"}), ("passed", 1, {"patron": "cope"}), ("passed", 2, {"patron": "marsh"}),
        # round 2
        ("card_played", 0, team("Cope crew")), ("loyalty_gained", 0, {"amount": 2}),
        ("paper_published", 0, {"side": "cope"}), ("turn_ended", 0, {}),
        ("card_played", 1, team("Bone hunters", 2)), ("species_archived", 1, {"name": "Triceratops"}),
        ("turn_ended", 1, {}),
        ("card_played", 2, team("Railway gang")), ("loyalty_gained", 2, {"amount": 3}),
        ("paper_published", 2, {"side": "marsh"}), ("turn_ended", 2, {}),
        ("passed", 0, {"patron": "cope"}), ("passed", 1, {"patron": "marsh"}), ("passed", 2, {"patron": "marsh"}),
        ("table_paused", None, {}),
        # round 3, another evening
        ("card_played", 0, species("Allosaurus", "bug")), ("rp_gained", 0, {"amount": 2, "reason": "prize"}),
        ("turn_ended", 0, {}),
        ("card_played", 1, paleontologist("Cope himself")), ("slot_upgraded", 1, {"cost": 3, "icon": "fossil"}),
        ("turn_ended", 1, {}),
        ("card_played", 2, species("Stegosaurus", "footprint")), ("patron_flipped", 2, {}),
    ]  # fmt: skip
    for type_, seat, data in script:
        match_event_record(match=match, user=user, type=type_, seat=seat, data=data)
    return [match.title]


# The First Spine: Ana (blacksmith, revealed by her Anvil Guard) and Bo (secret healer) on the default 7 × 7
# board; it stops in Ana's actions phase with two confrontations previewed, one of them the rulebook's example.
FIRST_SPINE_SCRIPT: list[tuple[str, int, dict[str, object]]] = [
    ("destiny_chosen", 0, {"destiny": "conjurer"}),
    ("origin_chosen", 0, {"origin": "blacksmith"}),
    ("destiny_chosen", 1, {"destiny": "hunter"}),
    ("origin_chosen", 1, {"origin": "healer"}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("card_placed", 0, {"card": "Paladin", "at": [5, 3]}),
    ("card_placed", 0, {"card": "Squire", "at": [5, 2]}),
    ("turn_ended", 0, {}),
    ("hand_refilled", 1, {"discarded": 1}),
    ("card_placed", 1, {"card": "Barbed Wire", "at": [1, 3]}),
    ("card_placed", 1, {"card": "Squire", "at": [1, 2]}),
    ("turn_ended", 1, {}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("card_placed", 0, {"card": "Paladin", "at": [4, 3]}),
    ("card_placed", 0, {"card": "Paladin", "at": [3, 3]}),
    ("card_placed", 0, {"card": "Squire", "at": [3, 2]}),
    ("turn_ended", 0, {}),
    ("hand_refilled", 1, {"discarded": 2}),
    ("card_placed", 1, {"card": "Barbed Wire", "at": [2, 3]}),
    ("card_placed", 1, {"card": "Grey Wolf", "at": [2, 2]}),
    ("card_placed", 1, {"card": "Fireball", "at": [4, 3]}),
    ("hp_changed", 1, {"at": [4, 3], "amount": -3, "note": "Fireball"}),
    ("turn_ended", 1, {}),
    ("hand_refilled", 0, {"discarded": 0}),
    ("card_placed", 0, {"card": "Anvil Guard", "at": [4, 2]}),
]


def _first_spine_demo(user) -> list[str]:  # type: ignore[no-untyped-def]
    """A First Spine match in its third round, the confrontation preview on screen."""
    match = match_create(owner=user, is_public=True, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         title="Demo: The First Spine")  # fmt: skip
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=match, user=user, type=type_, seat=seat, data=data)
    return [match.title]


Loader = Callable[[Any], list[str]]  # (the demo user) → the names of what it created

# game slug → the loader of that game's demo (instead of listed moves); other apps add theirs (demo_register)
SCRIPTED: dict[str, Loader] = {
    "salt-and-bones": _salt_and_bones_demo,
    "bone-wars": _bone_wars_demo,
    "the-first-spine": _first_spine_demo,
}
EXTRAS: list[Loader] = []  # other apps' demos of no one match game (a campaign series), registered by them


def demo_register(loader: Loader, *, game: str = "") -> Loader:
    """Add ``loader`` to the demo (called when its app is ready: ``campaigns.series.demo``): the demo of match game
    ``game``, or (no game) one more part after the matches."""
    if game:
        SCRIPTED[game] = loader
    elif loader not in EXTRAS:
        EXTRAS.append(loader)
    return loader
