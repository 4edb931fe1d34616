"""Several seats' images of one state drawn together (renderers.render_pngs: the board once,
each seat's own strip apart, the shared rows compressed once) are, pixel for pixel, the images
drawn one by one."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from games import REGISTRY
from renderers import render_png, render_pngs

NAMES = ["Anna", "Bernd", "Çelik", "Dora", "Эмиль", "李华"]


def pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.mark.parametrize("name, players", [("macrobber", 5), ("gluecksritter", 6), ("raubritter", 4),
                                           ("macrobber", 3), ("gluecksritter", 3), ("raubritter", 2)])
def test_images_drawn_together_are_the_images_drawn_one_by_one(name, players):
    game = REGISTRY[name]
    state = game.new_game(players, seed=players)
    rng = random.Random(players)
    compared = 0
    for step in range(400):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
        if step % 11:
            continue
        views = [game.view(state, other) for other in range(players)]
        lang = ("en", "de")[step % 2]
        for together, alone in zip(render_pngs(views, NAMES[:players], lang),
                                   (render_png(view, NAMES[:players], lang) for view in views)):
            assert ImageChops.difference(pixels(together), pixels(alone)).getbbox() is None
            compared += 1
    assert compared >= 3 * players


def test_a_single_view_and_the_public_board_are_drawn_as_ever():
    game = REGISTRY["macrobber"]
    state = game.new_game(4, seed=1)
    public = game.view(state, None)
    assert render_pngs([public], NAMES[:4]) == [render_png(public, NAMES[:4])]
    assert render_pngs([], NAMES[:4]) == []
