"""Several seats' images of one state drawn together with the public board (renderers.render_pngs:
the board once, each seat's own strip apart, the shared rows compressed once) are, pixel for
pixel, the images drawn one by one."""
from __future__ import annotations

import importlib
import io
import random

import pytest
from PIL import Image, ImageChops

from games import REGISTRY
from renderers import PrivateShown, SeatStrips, render_png, render_pngs
from renderers.common import forget_kept

NAMES = ["Anna", "Bernd", "Çelik", "Dora", "Эмиль", "李华"]


def played(game, players: int, *, seed: int, steps: int):
    """(step, state) after each move of a game between computer players."""
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for step in range(steps):
        if game.outcome(state) is not None:
            return
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
        yield step, state


def from_scratch(view, names, lang) -> bytes:
    """A view's image drawn alone, nothing kept from the images before it (a renderer may keep a
    board it drew to put a seat's strip under it)."""
    forget_kept()
    return render_png(view, names, lang)


def pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.mark.parametrize("name, players", [("macrobber", 5), ("gluecksritter", 6), ("raubritter", 4),
                                           ("macrobber", 3), ("gluecksritter", 3), ("raubritter", 2)])
def test_images_drawn_together_are_the_images_drawn_one_by_one(name, players):
    game = REGISTRY[name]
    compared = 0
    for step, state in played(game, players, seed=players, steps=400):
        if step % 11:
            continue
        views = [game.view(state, None)] + [game.view(state, other) for other in range(players)]
        lang = ("en", "de")[step % 2]
        for together, alone in zip(render_pngs(views, NAMES[:players], lang),
                                   (from_scratch(view, NAMES[:players], lang) for view in views)):
            assert ImageChops.difference(pixels(together), pixels(alone)).getbbox() is None
            compared += 1
    assert compared >= 3 * (players + 1)


def test_a_single_view_and_the_public_board_are_drawn_as_ever():
    game = REGISTRY["macrobber"]
    state = game.new_game(4, seed=1)
    public = game.view(state, None)
    assert render_pngs([public], NAMES[:4]) == [render_png(public, NAMES[:4])]
    assert render_pngs([], NAMES[:4]) == []


@pytest.mark.parametrize("name, players", [("gluecksritter", 4), ("gluecksritter", 6), ("macrobber", 5)])
def test_the_public_board_and_the_seats_images_share_one_drawing_of_the_board(name, players, monkeypatch):
    """Where the public board keeps the same board above the seats' own strip (Mac Robber's
    legend in the band of a seat's hand, Die Glücksritter's events in the room of its documents),
    a move's public board and DM images draw the board once. (Raub Ritter's seats' images draw
    their board larger than the table's, without the player boxes: tests/renderers/
    test_raubritter_phone.py.)"""
    import renderers

    game = REGISTRY[name]
    drawn = []
    real = renderers.render_image
    monkeypatch.setattr(renderers, "render_image", lambda view, *args, **kwargs: drawn.append(view["viewer"])
                        or real(view, *args, **kwargs))
    shared = 0
    for step, state in played(game, players, seed=5, steps=120):
        views = [game.view(state, None)] + [view for view in (game.view(state, other) for other in range(players))
                                            if renderers.private_shown(view)]
        if len(views) < 2 or step % 5:
            continue
        module = importlib.import_module(f"renderers.{name}")
        # (A seat whose documents take a second row has a tighter board: drawn apart.)
        apart = [view["viewer"] for view in views[1:]
                 if module.private_layout(view, "en") != module.private_layout(views[0], "en")]
        drawn.clear()
        render_pngs(views, NAMES[:players])
        assert sorted(drawn, key=str) == sorted([None, *apart], key=str), f"step {step}: boards drawn for {drawn}"
        shared += len(views) - 1 - len(apart)
    assert shared >= 5  # seats' images made from the public board's drawing


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_renderer_that_draws_a_seats_strip_alone_declares_all_of_it(name):
    """render_pngs shares the board only with a renderer that is a whole `SeatStrips`: one with
    half of it (the strip but not the layout) would silently draw every image apart."""
    module = importlib.import_module(f"renderers.{name}")
    halves = [hasattr(module, "private_rows"), hasattr(module, "private_layout")]
    assert all(halves) == isinstance(module, SeatStrips) == any(halves)
    assert isinstance(module, PrivateShown) == hasattr(module, "private_shown")


def test_the_three_games_with_a_seats_strip_share_their_board():
    strips = {name for name in REGISTRY if isinstance(importlib.import_module(f"renderers.{name}"), SeatStrips)}
    assert strips == {"macrobber", "gluecksritter", "raubritter"}
