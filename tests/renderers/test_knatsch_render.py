"""The Knatsch table renders every phase, for two and six players, as a small upright PNG for phones."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from games.core import Action
from games.knatsch import GAME, KnatschGame
from games.knatsch.cards import CARDS
from renderers import render_png
from renderers.common import PHONE_SIZE
from renderers.knatsch import render

NAMES = ["Anna", "Bob", "Chris", "Dave", "Eve", "Frank"]
MAX_PNG_BYTES = 300 * 1024


class Dice:
    def __init__(self, values):
        self.values = list(values)

    def __call__(self, count):
        taken, self.values = self.values[:count], self.values[count:]
        return taken


def table(seats):
    """Seat 0 may challenge the king; seat 1 has three castles (attackable even with two players)."""
    holdings = [["C01", "C04", "C07"], ["C10", "C13", "C15", "S09", "S16", "S19", "S02", "T2"],
                ["C11", "S03"], ["C14"], ["C16", "T3"], ["C12"]][:seats]
    data = GAME.to_dict(GAME.new_game(seats, seed=1))
    placed = {cid for held in holdings for cid in held} | {"T1", "S12"}
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(holdings=holdings, stacks=[["T1"] + rest[0::2], ["S12"] + rest[1::2]],
                castle_guard=[[], ["C10", "C13"]] + [[]] * (seats - 2),
                special_guard=[None, "S09"] + [None] * (seats - 2))
    return GAME.from_dict(json.loads(json.dumps(data)))


def play(state, moves, dice=()):
    game = KnatschGame(dice_source=Dice(dice))
    for seat, text in moves:
        state, _ = game.apply(state, seat, Action.parse(text))
    return state


def phases(seats):
    start = table(seats)
    attack = "C15"
    yield "choose", start
    # Announcing rolls at once: a first roll still to make is a defender's (or a later tournament roller's).
    yield "defence, before rolling", play(start, [(0, f"target {attack}"), (0, "stop")], [5, 5, 5, 5, 1, 2])
    yield "capture, mid-roll", play(start, [(0, "target S12"), (0, "reroll 4,5")],
                                    [5, 5, 6, 1, 2, 6, 5, 3])
    yield "defence", play(start, [(0, f"target {attack}"), (0, "stop"), (1, "roll"),
                                  (1, "reroll 1,2")], [5, 5, 5, 5, 1, 2, 3, 3, 3, 6, 1, 2, 4, 4])
    tournament_moves = [(0, "target T1"), (0, "stop"), (1, "roll"), (1, "reroll 5,6")]
    yield "tournament", play(start, tournament_moves, [3, 3, 3, 1, 2, 6, 4, 4, 1, 2, 3, 5, 4, 4])
    yield "king", play(start, [(0, "topple"), (0, "reroll 4,5")], [5, 5, 5, 2, 1, 6, 5, 3])
    yield "revenge", play(start, [(0, "topple"), (0, "stop")], [1, 2, 3, 4, 5, 6])
    yield "further attempt", play(start, [(0, "target S12"), (0, "stop")], [5, 5, 5, 5, 2, 3])
    yield "over", play(start, [(0, "topple"), (0, "stop")], [5, 5, 5, 5, 5, 1])


CASES = [(seats, name, state) for seats in (2, 6) for name, state in phases(seats)]


@pytest.mark.parametrize("seats,phase,state", CASES, ids=[f"{s}p-{n}" for s, n, _ in CASES])
def test_every_phase_renders_small_and_upright(seats, phase, state):
    for viewer in (None, 0, seats - 1):
        view = GAME.view(state, viewer)
        image = render(view, NAMES[:seats])
        assert image.size == PHONE_SIZE
        png = render_png(view, NAMES[:seats])
        assert png.startswith(b"\x89PNG") and len(png) < MAX_PNG_BYTES
        assert Image.open(io.BytesIO(png)).size == image.size


def test_phases_are_what_their_names_say():
    found = {name: state for name, state in phases(6)}
    assert found["defence"].roll.purpose == "defence"
    assert found["tournament"].tournament is not None and found["tournament"].roll.roller == 1
    assert found["king"].roll.purpose == "king"
    assert found["revenge"].phase == "revenge"
    assert found["further attempt"].bonus
    assert GAME.outcome(found["over"]) is not None


def test_random_six_player_tables_render():
    state = GAME.new_game(6, seed=8)
    rng = random.Random(8)
    step = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        step += 1
        if step % 97 == 0:
            assert len(render_png(GAME.view(state, None), NAMES)) < MAX_PNG_BYTES
    assert len(render_png(GAME.view(state, 2), NAMES)) < MAX_PNG_BYTES


def test_long_names_and_missing_names_do_not_break_the_table():
    state = phases(6).__next__()[1]
    view = GAME.view(state, None)
    assert render(view, ["A very long display name that goes on and on " * 2] * 6).size == PHONE_SIZE
    assert render(view, []).size == PHONE_SIZE
