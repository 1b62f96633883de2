"""The file ``bench import`` measures (issue 34): a BG Stats export with the quirks real ones have, every play
of which the reader keeps."""

from __future__ import annotations

import io
import json

import pytest

from benchmarks.import_bench import write_bgstats_real
from matches.interop.bgstats import BgStatsIndex, bgstats_plays, bgstats_scan
from matches.interop.records import PlayIn

pytestmark = pytest.mark.pure


@pytest.fixture(scope="module")
def real_file() -> bytes:
    out = io.StringIO()
    write_bgstats_real(out, 3000)
    return out.getvalue().encode()


def test_it_holds_every_quirk_of_real_files(real_file):
    doc = json.loads(real_file)
    scores = [row["score"] for play in doc["plays"] for row in play["playerScores"]]
    texts = [s for s in scores if isinstance(s, str)]
    assert any(s.endswith("+") for s in texts) and any("--" in s for s in texts)
    assert {"lots", "12 points"} & set(texts) and any(isinstance(s, int) for s in scores) and None in scores
    assert any(play["durationMin"] == "about an hour" for play in doc["plays"])
    assert any(play["locationRefId"] == 999 for play in doc["plays"])
    assert {len(play["playerScores"]) for play in doc["plays"]} >= {1, 2, 8}
    assert len({play["gameRefId"] for play in doc["plays"]}) == 33


def test_the_reader_keeps_every_play_and_warns_for_the_odd_scores_and_fields(real_file):
    index: BgStatsIndex = bgstats_scan(io.BytesIO(real_file))
    assert index.plays == 3000
    plays = [item for _, item in bgstats_plays(io.BytesIO(real_file), index)]
    assert all(isinstance(p, PlayIn) for p in plays)
    warnings = [w for p in plays for w in p.warnings]
    assert any("cannot be read" in w and "score" in w for w in warnings)
    assert any(w.startswith("durationMin 'about an hour' cannot be read") for w in warnings)
    assert not any("score" in w and "+'" in w for w in warnings)  # "86+84+" is read, not warned about
