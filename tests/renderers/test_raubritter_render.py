"""The Raub Ritter renderer draws every phase from views alone, upright for phones, as a small PNG."""
from __future__ import annotations

import random

import pytest

from renderers.common import PHONE_SIZE
from PIL import Image

from games.core import Action
from games.raubritter import GAME
from renderers import render_png
from renderers.raubritter import render

NAMES = ["Alice", "Bartholomew the Unready of Somewhere Far", "Chloe", "Dmitri"]


def views_of_every_phase(seats: int, seed: int) -> dict[str, list[dict]]:
    """Public and seat views met while playing a game to the end, grouped by phase."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    found: dict[str, list[dict]] = {}
    while True:
        for viewer in (None, 0):
            view = GAME.view(state, viewer)
            bucket = found.setdefault(view["phase"], [])
            if len(bucket) < 4:
                bucket.append(view)
        if GAME.outcome(state) is not None:
            return found
        seat = min(GAME.to_act(state))
        actions = GAME.legal_actions(state, seat)
        # Prefer big stacks so the board gets tall stacks to draw.
        action = actions[-1] if state.phase == "knights" and rng.random() < 0.6 else rng.choice(actions)
        state, _ = GAME.apply(state, seat, action)


@pytest.mark.parametrize("seats", [2, 4])
def test_every_phase_renders_upright_and_small(seats):
    views = views_of_every_phase(seats, seed=seats)
    assert set(views) == {"keep", "lay", "knights", "over"}
    for phase, group in views.items():
        for view in group:
            image = render(view, NAMES[:seats])
            assert isinstance(image, Image.Image)
            width, height = image.size
            assert (width, height) == PHONE_SIZE, "upright 4:5 for phones, never square"
            png = render_png(view, NAMES[:seats])
            assert png.startswith(b"\x89PNG") and len(png) < 300_000, (phase, len(png))


def test_full_four_player_board_with_a_seat_view_and_short_name_list():
    views = views_of_every_phase(4, seed=11)
    final = views["over"][0]
    assert len(final["tiles"]) == 96
    png = render_png(final, ["Ann"])  # missing names fall back to P2, P3, ...
    assert len(png) < 300_000
    seat_view = next(v for v in views["lay"] if v["viewer"] == 0)
    assert "private" in seat_view
    render(seat_view, NAMES)


def test_three_player_game_and_mid_turn_highlights_render():
    state = GAME.new_game(3, seed=2)
    for seat in range(3):
        state, _ = GAME.apply(state, seat, Action.parse("keep Pv"))
    first = GAME.legal_actions(state, 0)[0]
    state, _ = GAME.apply(state, 0, first)
    view = GAME.view(state, None)
    assert view["this_turn"] or view["pending_castle"]
    image = render(view, NAMES[:3])
    assert image.size == PHONE_SIZE
