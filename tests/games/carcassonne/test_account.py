"""What a turn's account may leave out, and how squares are named in it.

The steps towards a square (a group of squares, a square, going back) are provisional: their
events are marked `kind="step"`, so a turn's account can say what was done (the tile placed, the
follower, the robber) without the squares looked at and taken back. Squares are named as the
board writes them along its edges: column letters and row numbers, the start tile at M13.
"""
from __future__ import annotations

import random
import re

import pytest

from games.carcassonne import GAME
from games.carcassonne.grid import column_name, row_name, square_name
from games.core import Action
from i18n import translate

STEP_EVENTS = {"carcassonne.event.area", "carcassonne.event.area_one", "carcassonne.event.square",
               "carcassonne.event.back"}
NAMES = ["Anna", "Bernd", "Clara"]


def test_squares_are_named_by_column_letters_and_row_numbers_from_the_start_tile():
    assert square_name(0, 0) == "M13"
    assert square_name(1, -2) == "N11"  # x grows east, y grows south
    assert [column_name(x) for x in (-12, -1, 13)] == ["A", "L", "Z"]
    assert [row_name(y) for y in (-12, 0, 12)] == ["1", "13", "25"]
    # beyond A-Z every column still has a name of its own, in order
    assert [column_name(x) for x in (14, 15, 39)] == ["AA", "AB", "AZ"]
    assert [column_name(x) for x in (-13, -14)] == ["-A", "-B"]
    names = {column_name(x) for x in range(-40, 60)}
    assert len(names) == 100


def step(state, action: Action):
    seat = min(GAME.to_act(state))
    assert action in GAME.legal_actions(state, seat), action
    return GAME.apply(state, seat, action)


def test_picking_a_square_and_going_back_are_steps_placing_the_tile_is_not():
    state = GAME.new_game(3, seed=4)
    square = next(a for a in GAME.legal_actions(state, 0) if a.verb == "at")
    state, events = step(state, square)
    assert [(e.text.id, e.kind) for e in events] == [("carcassonne.event.square", "step")]
    x, y = (int(v) for v in square.args[0].split(","))
    assert events[0].text.params["square"] == square_name(x, y)
    state, events = step(state, Action("back"))
    assert [(e.text.id, e.kind) for e in events] == [("carcassonne.event.back", "step")]
    state, _ = step(state, square)
    rotation = next(a for a in GAME.legal_actions(state, 0) if a.verb == "turn")
    state, events = step(state, rotation)
    placed = [e for e in events if e.text.id == "carcassonne.event.placed"]
    assert placed and placed[0].kind == "lay" and placed[0].text.params["square"] == square_name(x, y)
    assert not [e for e in events if e.kind == "step"]


def test_choosing_a_group_of_squares_is_a_step():
    rng = random.Random(3)
    state = GAME.new_game(2, seed=3)
    for _ in range(600):
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        groups = [action for action in legal if action.verb == "group"]
        if groups:
            state, events = GAME.apply(state, seat, groups[-1])
            assert [(e.text.id, e.kind) for e in events] in ([("carcassonne.event.area", "step")],
                                                              [("carcassonne.event.area_one", "step")])
            state, events = GAME.apply(state, seat, Action("back"))
            assert [(e.text.id, e.kind) for e in events] == [("carcassonne.event.back", "step")]
            return
        state, _ = GAME.apply(state, seat, rng.choice([a for a in legal if a.verb != "back"] or legal))
    pytest.skip("no turn offered groups of squares")


@pytest.mark.parametrize("seed", [1, 2])
def test_over_whole_games_only_the_provisional_steps_are_marked_and_the_rest_tell_the_turn(seed):
    """Everything but the steps towards a square stays in the account: every tile placed,
    follower, robber and score; the steps are all marked, and nothing else is."""
    rng = random.Random(seed)
    state = GAME.new_game(3, seed=seed)
    kinds: dict[str, set[str]] = {}
    placed = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        state, events = GAME.apply(state, seat, rng.choice(legal))  # "back" too, now and then
        for event in events:
            kinds.setdefault(event.text.id, set()).add(event.kind)
            placed += event.text.id == "carcassonne.event.placed"
    assert {message for message, seen in kinds.items() if "step" in seen} == STEP_EVENTS & set(kinds)
    assert all(seen == {"step"} for message, seen in kinds.items() if message in STEP_EVENTS)
    assert {"carcassonne.event.square", "carcassonne.event.back"} <= set(kinds)
    assert kinds["carcassonne.event.placed"] == {"lay"} and kinds["carcassonne.event.follower"] == {"follower"}
    assert placed == len(state.board.tiles) - 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_buttons_events_and_status_name_the_square_as_the_board_does(lang):
    state = GAME.new_game(3, seed=4)
    labels = {a: translate(GAME.describe(state, 0, a), lang, NAMES) for a in GAME.legal_actions(state, 0)}
    for action, label in labels.items():
        x, y = (int(v) for v in action.args[0].split(","))
        number, name = re.fullmatch(r"(\d+) · \w+ (\S+)", label).groups()
        assert name == square_name(x, y) and int(number) == list(state.fits).index((x, y)) + 1
        assert "," not in label
    action = next(iter(labels))
    state, events = step(state, action)
    said = translate(events[0].text, lang, NAMES)
    status = translate(GAME.view(state, None)["status"], lang, NAMES)
    name = labels[action].split()[-1]
    assert said.endswith(f"{name}.") and status.endswith(f"{name}.")
    # German keeps "Feld" for the score track: a square is a "Platz"
    if lang == "de":
        assert "Feld" not in said + status + labels[action]
    state, events = step(state, GAME.legal_actions(state, 0)[0])
    placed = next(e for e in events if e.text.id == "carcassonne.event.placed")
    assert translate(placed.text, lang, NAMES).endswith(f"{name}.")
