"""Games recorded before the squares were shown close up still replay to the very same end.

The replay files in records/ were exported (games.replay.export_game) from whole games played
with the engine of main before close-ups (commit f34e708): two by the normal computer player
(three players, robbers `next`; five players, robbers `all`) and one by random moves that now
and then step back (two players). Theirs are `area k` (runs of up to 20 squares when more than
24 fit) and `back` with no group picked, and some near the end, so the last lines of the log
kept in the final state must be told as they were then.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.replay import check, replay

RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


def test_the_records_are_there_and_pick_groups_as_before():
    assert len(RECORDS) == 3
    moves = [m["action"] for path in RECORDS for m in json.loads(path.read_text(encoding="utf-8"))["moves"]]
    assert sum(m.startswith("area ") for m in moves) >= 20 and "back" in moves
    assert not any(m.startswith("group ") for m in moves)


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.stem)
def test_a_game_recorded_before_close_ups_replays_to_the_same_final_state(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    replayed = replay(data)
    assert check(data, replayed) == []  # the final state's fingerprint, winners and scores
    assert replayed.game.outcome(replayed.final) is not None
