"""The crop-circle tile (the kind that acts on followers on roads)."""
from __future__ import annotations

from games.carcassonne import GAME
from tests.games.carcassonne.support import ids, play, position

TILES = [("D", 0, 0, "N"), ("U", -1, 0, "N"), ("U", -3, 0, "N"), ("V", 0, 1, "N")]


def crop_position(meeples, seats=3, turn=0):
    return position(TILES, seats=seats, meeples=meeples, drawn="Z", turn=turn)


def test_option_a_everyone_may_add_clockwise_from_the_left_active_player_last():
    meeples = [(0, (0, 0), "road1"), (1, (-3, 0), "road1"), (2, (0, 1), "field1")]
    state = crop_position(meeples)
    # The crop circle at 1,0: road west meets the start tile's road.
    state, _ = play(state, "at 1,0", "turn N", "skip")
    assert state.phase == "crop" and GAME.to_act(state) == {0}
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["crop add", "crop remove"]
    state, events = play(state, "crop add")
    # Seat 1 first (left of the active player); seat 2 has no road follower: skipped; seat 0 last.
    assert GAME.to_act(state) == {1}
    assert [a.encode() for a in GAME.legal_actions(state, 1)] == ["add -3,0,0", "pass"]
    state, events = play(state, "add -3,0,0")
    assert GAME.to_act(state) == {0}
    state, events = play(state, "pass")
    assert state.phase == "place" and state.turn == 1
    assert sorted(m[0] for m in state.meeples) == [0, 1, 1, 2]


def test_option_b_everyone_must_take_one_off_a_road():
    meeples = [(0, (0, 0), "road1"), (1, (-3, 0), "road1"), (2, (0, 1), "road1")]
    state = crop_position(meeples)
    state, _ = play(state, "at 1,0", "turn N", "skip", "crop remove")
    assert GAME.to_act(state) == {1}
    assert [a.encode() for a in GAME.legal_actions(state, 1)] == ["remove -3,0,0"]  # no pass
    state, _ = play(state, "remove -3,0,0")
    assert GAME.to_act(state) == {2}
    state, _ = play(state, "remove 0,1,0")
    state, events = play(state, "remove 0,0,1")
    assert state.meeples == [] or all(m[0] not in (0, 1, 2) for m in state.meeples)
    assert state.phase == "place" and state.turn == 1
    assert ids(events)[-1] == "carcassonne.event.crop_removed"


def test_add_needs_a_follower_at_home():
    meeples = [(1, (-3, 0), "road1")] * 7 + [(0, (0, 0), "road1")]
    state = crop_position(meeples)
    state, _ = play(state, "at 1,0", "turn N", "skip", "crop add")
    assert GAME.to_act(state) == {0}  # seat 1 has all seven out: skipped


def test_no_crop_step_when_nobody_has_a_road_follower():
    state = crop_position([(2, (0, 1), "field1")])
    state, _ = play(state, "at 1,0", "turn N", "skip")
    assert state.phase == "place" and state.turn == 1


def test_the_crop_circle_tile_takes_a_follower_too():
    state = crop_position([])
    state, _ = play(state, "at 1,0", "turn N")
    spots = [a.args[0] for a in GAME.legal_actions(state, 0) if a.verb == "follower"]
    assert spots == ["road1", "road2", "field1", "field2", "field3"]  # road W-S, road E, three fields
