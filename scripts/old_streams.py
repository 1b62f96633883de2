"""Generate the corpus of real old streams (docs/ARCHITECTURE.md › Rule versions) from past releases in git.

For each registered game and each rules version it has had, a commit of the main line where that version was
current is checked out into a temporary worktree, and ``scripts/old_streams_driver.py`` records seeded random
streams there, with that checkout's own ``rulesets`` on ``sys.path``. Each (game, version) is written to
``tests/fixtures/old_streams/<game>-v<N>.json``; ``tests/rulesets/test_old_streams.py`` replays them all.

    .venv/bin/python scripts/old_streams.py                  # every game and version (existing files rewritten)
    .venv/bin/python scripts/old_streams.py --game bone-wars # one game
    .venv/bin/python scripts/old_streams.py --game get-salty --version 2 --commit <sha>  # a chosen commit

Past versions use the last main-line commit where they were current (the code that release ended with); the
current version uses the first (the oldest code still claiming today's rules).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "old_streams"
DRIVER = ROOT / "scripts" / "old_streams_driver.py"
SEED = 46
VERSION_LINE = re.compile(r"^rulesets/([a-z_]+)[^:]*:\s+version = (\d+)", re.M)
OPTIONS = {"series": {"game": "bone-wars"}}  # games that need options to start
# streams per file and entries per stream: fewer for large states (a few hundred KB in all), more for small ones
COUNT = {"salt-and-bones": 3, "the-first-spine": 3, "saltmarsh": 4, "bone-wars": 8, "saltmarsh-adventure": 8}
DEFAULT_COUNT = 5
LENGTH = {"salt-and-bones": 60, "the-first-spine": 70, "saltmarsh": 60}
DEFAULT_LENGTH = 90
# entry types of one more stream, whose house rules are all of them (issue 46: the old code's accepted overrides)
FOCUS = {
    "salt-and-bones": ["attack_card_played"],  # an Attack card onto a covered tile
    "the-first-spine": ["hand_refilled", "hp_changed"],  # a discard larger than the hand; entries after the end
    "saltmarsh": ["leveled_up", "advancement_token_bought", "item_bought"],  # gold below zero
    "bone-wars": ["rp_gained", "money_changed"],  # entries after game_concluded
}


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout


def packages() -> dict[str, str]:
    """Today's games: package name under rulesets/ → slug."""
    sys.path.insert(0, str(ROOT))
    from rulesets.registry import all_rulesets

    return {type(r).__module__.split(".")[1]: r.slug for r in all_rulesets()}


def history() -> list[tuple[str, dict[str, int]]]:
    """Main-line commits, oldest first, with the rules version of each game package at each."""
    out = []
    for sha in git("rev-list", "--reverse", "--first-parent", "HEAD").split():
        try:
            text = git("grep", "-E", r"^    version = [0-9]+", sha, "--", "rulesets/")
        except subprocess.CalledProcessError:
            continue  # no ruleset yet
        found = {pkg: int(v) for pkg, v in VERSION_LINE.findall(text.replace(f"{sha}:", ""))}
        out.append((sha, found))
    return out


def chosen_commits(package: str, hist: list[tuple[str, dict[str, int]]]) -> dict[int, str]:
    """Rules version → the commit its streams come from (see the module docstring)."""
    first: dict[int, str] = {}
    last: dict[int, str] = {}
    for sha, found in hist:
        if package in found:
            first.setdefault(found[package], sha)
            last[found[package]] = sha
    current = max(last) if last else None
    return {v: first[v] if v == current else last[v] for v in last}


def generate(slug: str, version: int, sha: str) -> Path:
    """Record the streams of ``slug`` at ``sha`` (where ``version`` was current) and write their fixture file."""
    tree = Path(tempfile.gettempdir()) / f"old-{sha[:12]}"
    git("worktree", "add", "--detach", "--force", str(tree), sha)
    try:
        command = [sys.executable, str(DRIVER), slug, str(SEED), str(COUNT.get(slug, DEFAULT_COUNT))]
        command += [
            json.dumps(OPTIONS.get(slug, {})),
            json.dumps(FOCUS.get(slug, [])),
            str(LENGTH.get(slug, DEFAULT_LENGTH)),
        ]
        env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, cwd=tree, env=env, check=True, capture_output=True, text=True)
    finally:
        git("worktree", "remove", "--force", str(tree))
    body = {
        "game": slug,
        "rules_version": version,
        "commit": sha,
        "command": f"scripts/old_streams.py --game {slug} --version {version} --commit {sha}",
        "streams": json.loads(done.stdout),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{slug}-v{version}.json"
    path.write_text(json.dumps(body, separators=(",", ":"), ensure_ascii=False) + "\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game's slug (default: every game)")
    parser.add_argument("--version", type=int, help="one rules version of --game")
    parser.add_argument("--commit", help="the commit to record --game --version from (default: chosen from git)")
    args = parser.parse_args()
    hist = history()
    for package, slug in sorted(packages().items()):
        if args.game and slug != args.game:
            continue
        commits = chosen_commits(package, hist)
        if args.commit:
            commits = {args.version: args.commit}
        for version, sha in sorted(commits.items()):
            if args.version and version != args.version:
                continue
            path = generate(slug, version, sha)
            print(f"{slug} v{version} from {sha[:10]}: {path.relative_to(ROOT)} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
