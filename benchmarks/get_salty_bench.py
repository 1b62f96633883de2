"""manage.py bench get_salty: legal-move generation and checked replays, each against a same-run baseline.

Pure rules, no database: also runs without Django, ``.venv/bin/python benchmarks/get_salty_bench.py`` from the
repository root.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulesets.base import Event, State
from rulesets.get_salty import RULESET
from rulesets.get_salty.brute import brute_force_legal_moves
from rulesets.replay import replay

HELP = "Benchmark Get Salty's legal-move generation and checked replays (pure rules, no database)."
POSTGRES = ""
OPTIONS = {"first_seat": 0}
GAME_LENGTH = 30
BUDGET = 2.0  # seconds per measurement


def fixed_game() -> list[Event]:
    """A deterministic game: a fixed rotation through the moves that do not end the game, then a winning move."""
    state = RULESET.initial_state(OPTIONS, 2)
    events: list[Event] = []
    for step in range(GAME_LENGTH + 1):
        moves = RULESET.legal_moves(state)
        if not moves:
            break
        quiet = [m for m in moves if RULESET.winner_after(state, m) is None]
        winning = [m for m in moves if m not in quiet]
        if step >= GAME_LENGTH and winning:
            move = winning[0]
        else:
            pool = quiet or moves
            move = pool[(step * 7 + 3) % len(pool)]
        RULESET.validate(state, move)
        state = RULESET.apply(state, move)
        events.append(move)
        if state["winner"] is not None:
            break
    return events


def rate(fn: Callable[[], object], rounds: int = 5) -> float:
    """Calls per second of ``fn``: the best of ``rounds`` rounds sharing BUDGET seconds (robust to noise)."""
    fn()  # warm-up
    best = 0.0
    for _ in range(rounds):
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= BUDGET / rounds:
                break
        best = max(best, n / elapsed)
    return best


def validate_apply_loop(events: list[Event]) -> State:
    state = RULESET.initial_state(OPTIONS, 2)
    for event in events:
        RULESET.validate(state, event)
        state = RULESET.apply(state, event)
    return state


def apply_only_loop(events: list[Event]) -> State:
    state = RULESET.initial_state(OPTIONS, 2)
    for event in events:
        state = RULESET.apply(state, event)
    return state


def add_arguments(parser: Any) -> None:
    """No options: a fixed game, two seconds per figure."""


def run(options: dict[str, Any], out: Callable[[str], None]) -> None:
    main(out)


def main(say: Callable[[str], None] = print) -> None:
    """Every figure, written by ``say`` (``print`` when run as a script)."""
    t0 = time.perf_counter()
    events = fixed_game()
    final = replay(RULESET, OPTIONS, 2, events, check=True).state
    assert final == validate_apply_loop(events)
    # the mid-game position: of the positions after 10..20 events, the one with the most legal moves
    cut = max(range(10, 21), key=lambda k: (len(RULESET.legal_moves(validate_apply_loop(events[:k]))), -k))
    mid = validate_apply_loop(events[:cut])
    listed = RULESET.legal_moves(mid)
    assert {repr(e) for e in listed} == {repr(e) for e in brute_force_legal_moves(mid)}
    say(
        f"fixed game: {len(events)} events, winner {final['winner']}, "
        f"mid-game position after {cut} events with {len(listed)} legal moves "
        f"({len(mid['reserve'])} crackers in reserve)"
    )

    fast = rate(lambda: RULESET.legal_moves(mid))
    naive = rate(lambda: brute_force_legal_moves(mid))
    say(f"legal_moves           : {fast:10.0f} generations/s")
    say(f"  baseline (validate every candidate event): {naive:10.1f} generations/s  -> {fast / naive:.0f}x faster")

    checked = rate(lambda: replay(RULESET, OPTIONS, 2, events, check=True))
    loop = rate(lambda: validate_apply_loop(events))
    bare = rate(lambda: apply_only_loop(events))
    say(f"replay(check=True)    : {checked:10.0f} full games/s ({checked * len(events):.0f} events/s)")
    say(f"  baseline (plain validate+apply loop):     {loop:10.0f} games/s  -> replay costs {loop / checked:.2f}x")
    say(f"  reference (apply only, no validation):    {bare:10.0f} games/s  -> validation costs {bare / loop:.2f}x")
    say(f"total {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
