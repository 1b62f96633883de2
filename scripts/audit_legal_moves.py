"""Rules audit: random play through Salt & Bones and Get Salty; in every position reached, every listed move is
accepted, every candidate ``validate`` accepts is listed, and a refusal leaves the state untouched.

    .venv/bin/python scripts/audit_legal_moves.py [SALT_AND_BONES_GAMES] [GET_SALTY_GAMES]

Games are seeded 0..n-1, so a run is reproducible. Candidates: every INSTINCT with every target shape (old
and new), attack cards on random tiles, draws, disengages and passes for both seats, listed moves with the
other seat; for Get Salty every move of both seats over a 9 x 9 window.
"""

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rulesets.base import Event, RuleViolation
from rulesets.get_salty import RULESET as GS
from rulesets.salt_and_bones import RULESET as SB
from tests.rulesets.salt_and_bones.catalogs import with_automatic_instincts

AUTO = with_automatic_instincts(4)


def key(e: Event) -> str:
    return json.dumps(e.to_dict(), sort_keys=True)


def check(rs, state, candidates, stats):
    listed = rs.legal_moves(state)
    if listed is None:
        stats["unlisted_positions"] += 1
        return
    keys = {key(m) for m in listed}
    for m in listed:
        rs.validate(state, m)
    frozen = json.dumps(state, sort_keys=True)
    for c in candidates:
        stats["candidates"] += 1
        try:
            rs.validate(state, c)
        except RuleViolation as r:
            assert r.message and r.rule, r
            assert json.dumps(state, sort_keys=True) == frozen
            continue
        if key(c) not in keys:
            raise AssertionError(f"accepted but not listed: {c}")
    stats["positions"] += 1


def sb_candidates(rng, state, listed):
    out = []
    c = state.get("combat") or {}
    w = c.get("window") or {}
    uids = (
        [x["uid"] for x in state["field"]["cards"]]
        + [r["uid"] for r in w.get("reactions", []) + w.get("triggered", [])]
        + [99]
    )
    names = list(state["catalog"]["strategy"])
    for s in (0, 1):
        out.append(Event("disengaged", s, {}))
        out.append(Event("additional_turn_passed", s, {}))
        for n in names:
            for t in (
                [None, "chain", "instinct", {"instance": 0}]
                + [{"card": u} for u in uids]
                + [{"card": u, "instance": i} for u in uids for i in range(4)]
            ):
                out.append(Event("strategy_card_played", s, {"card": n, "target": t}))
        for a in rng.sample(list(state["catalog"]["attack"]), 3):
            r, col = rng.randrange(6), rng.randrange(6)
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                out.append(
                    Event(
                        "attack_card_played",
                        s,
                        {"card": a, "attack_tile": [r, col], "opportunity_tile": [r + dr, col + dc]},
                    )
                )
        for a in range(0, 8):
            out.append(Event("cards_drawn", s, {"attack": a, "strategy": rng.randrange(8)}))
    for m in rng.sample(listed, min(10, len(listed))) if listed else []:
        out.append(Event(m.type, 1 - m.seat if m.seat is not None else None, m.data))
    return out


def sb_game(rng, stats):
    opts = {
        "momentum_seat": rng.randrange(2),
        "starting_health": rng.randrange(3, 21),
        "attack_deck": rng.randrange(8, 41),
        "strategy_deck": rng.randrange(4, 41),
        "field_deck": rng.randrange(0, 11),
        "strategy_cards": rng.choice([None, AUTO]),
    }
    state = SB.initial_state(opts, 2)
    for _ in range(300):
        if SB.outcome(state):
            break
        listed = SB.legal_moves(state)
        if listed is None:
            f = state["field"]
            cells = [[r, c] for r in range(f["rows"]) for c in range(f["cols"]) if [r, c] not in f["grey"]]
            ev = Event("field_card_flipped", None, {"tiles": rng.sample(cells, 2)})
        else:
            check(SB, state, sb_candidates(rng, state, listed), stats)
            # prefer the interesting moves now and then
            pref = [
                m
                for m in listed
                if m.type in ("strategy_card_played", "additional_turn_passed", "strategy_card_placed")
            ]
            ev = rng.choice(pref if pref and rng.random() < 0.4 else listed)
        SB.validate(state, ev)
        state = SB.apply(state, ev)


def gs_game(rng, stats):
    state = GS.initial_state({"first_seat": rng.randrange(2)}, 2)
    crackers = [k for k in state["tokens"] if k != "container"]
    for _ in range(80):
        if GS.outcome(state):
            break
        listed = GS.legal_moves(state)
        cands = [
            Event("victory_attribute_chosen", s, {"attribute": a}) for s in (0, 1) for a in ("shape", "color", "size")
        ]
        for s in (0, 1):
            cands.append(Event("salt_container_flipped", s, {}))
            for x in range(-4, 5):
                for y in range(-4, 5):
                    cands.append(Event("salt_container_moved", s, {"to": [x, y]}))
                    for c in rng.sample(crackers, 2):
                        cands.append(Event("cracker_moved", s, {"cracker": c, "to": [x, y]}))
            for c in crackers:
                cands.append(Event("cracker_flipped", s, {"cracker": c}))
        check(GS, state, cands, stats)
        if not listed:
            break
        ev = rng.choice(listed)
        state = GS.apply(state, ev)


args = [int(a) for a in sys.argv[1:3]] + [40, 60][len(sys.argv[1:3]) :]
for name, fn, n in (("Salt & Bones", sb_game, args[0]), ("Get Salty", gs_game, args[1])):
    stats = {"positions": 0, "candidates": 0, "unlisted_positions": 0}
    for seed in range(n):
        fn(random.Random(seed), stats)
    print(name, n, "games:", stats)
