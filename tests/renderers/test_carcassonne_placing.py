"""Carcassonne's placing steps on a phone: the rotations that fit and the free follower spots
are drawn and numbered exactly like the buttons; the busiest boards keep every text whole,
none under the smallest size and none over another."""
from __future__ import annotations

import random
import re

import pytest

from games import REGISTRY
from i18n import translate
from renderers.carcassonne import render
from renderers.common import MIN_TEXT, PHONE_SIZE, overlapping_texts, recording_texts

GAME = REGISTRY["carcassonne"]
NAMES = ["Anna", "王小明", "さくら", "김민준", "Дмитрий"]


def reach(phase: str, seats: int, seed: int, want=lambda state: True):
    state = GAME.new_game(seats, seed=seed)
    rng = random.Random(seed)
    for step in range(400):
        if state.phase == phase and step > 6 and want(state):
            return state
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    pytest.skip(f"no {phase} step reached")


def numbers_on_buttons(state, verb: str, lang: str) -> list[int]:
    seat = min(GAME.to_act(state))
    labels = [translate(GAME.describe(state, seat, a), lang, NAMES) for a in GAME.legal_actions(state, seat)
              if a.verb == verb]
    return [int(re.match(r"(\d+) · ", label).group(1)) for label in labels]


def drawn_numbers(records, top: int) -> list[int]:
    return sorted(int(r.text) for r in records if r.text.isdigit() and r.box[1] > top and r.box[0] > 700)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_follower_spots_are_numbered_like_the_buttons(lang):
    state = reach("follower", 3, 2, lambda s: len(GAME.legal_actions(s, s.turn)) > 2)
    with recording_texts() as drawn:
        image = render(GAME.view(state, None), NAMES[:3], lang=lang)
    assert image.size == PHONE_SIZE
    buttons = numbers_on_buttons(state, "follower", lang)
    assert buttons == list(range(1, len(buttons) + 1))
    # the enlarged tile in the side panel carries each number (and the list beneath it)
    panel = [int(r.text) for r in drawn if r.text.isdigit() and r.box[0] > 1080 - 360 and 180 < r.box[1] < 990]
    assert set(panel) == set(buttons)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rotations_that_fit_are_drawn_and_numbered_like_the_buttons(lang):
    state = reach("rotate", 3, 4, lambda s: len(s.fits.get(s.square, ())) > 1)
    with recording_texts() as drawn:
        render(GAME.view(state, None), NAMES[:3], lang=lang)
    buttons = numbers_on_buttons(state, "turn", lang)
    panel = [int(r.text) for r in drawn if r.text.isdigit() and r.box[0] > 1080 - 360 and 180 < r.box[1] < 990]
    assert sorted(panel) == buttons == list(range(1, len(state.fits[state.square]) + 1))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_finished_five_player_board_is_readable(lang):
    state = GAME.new_game(5, seed=9)
    rng = random.Random(9)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    with recording_texts() as drawn:
        image = render(GAME.view(state, None), NAMES, lang=lang)
    assert image.size == PHONE_SIZE
    assert min(r.size for r in drawn) >= MIN_TEXT
    # (a text drawn twice on the very same spot, as a stroke and a fill, is one text)
    clashes = [(a, b) for a, b in overlapping_texts(drawn, margin=2) if (a.box, a.text) != (b.box, b.text)]
    assert not clashes
    assert all(0 <= r.box[0] and r.box[2] <= PHONE_SIZE[0] and r.box[3] <= PHONE_SIZE[1] for r in drawn)
