"""Demo data for a newcomer's first look: one match of each game, part-played through the services."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from matches.services import match_create, match_event_record
from rulesets import all_rulesets

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-pass-123"

SEAT_NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def _play_listed_moves(match, user, ruleset, count: int) -> None:  # type: ignore[no-untyped-def]
    """Record ``count`` legal moves, picked deterministically from the listed ones."""
    from matches import store

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
        seats = [{"name": n} for n in SEAT_NAMES[: ruleset.seats[0] if ruleset.seats[0] > 1 else 2]]
        if len(seats) not in ruleset.seats:
            seats = [{"name": n} for n in SEAT_NAMES[: ruleset.seats[0]]]
        script = getattr(ruleset, "demo_script", None)
        options = script()[0] if script else {}
        match = match_create(owner=user, game=ruleset.slug, seats=seats, options=options, title=f"Demo: {ruleset.name}")
        if script:
            for event in script()[1]:
                match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)
        else:
            _play_listed_moves(match, user, ruleset, 6)
        created.append(match.title)
    return created
