"""The Mac Robber board: upright phone image for 3 to 5 players, public views draw no secrets,
German words from the catalogues, no font under MIN_TEXT (40 px: 11 px on a phone)."""
from __future__ import annotations

import random

import pytest
from PIL import ImageChops

from games import REGISTRY
from renderers import render_image, render_png
from tests.games.macrobber.helpers import move, set_display, set_hand, set_yard

GAME = REGISTRY["macrobber"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva"]


def played(players, steps, seed=2):
    rng = random.Random(seed)
    state = GAME.new_game(players, seed=seed)
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_board_is_upright_for_phones(players):
    state = played(players, 120)
    for lang in ("en", "de"):
        image = render_image(GAME.view(state, None), NAMES, lang)
        width, height = image.size
        assert (width, height) == (1080, 1350)
        png = render_png(GAME.view(state, 0), NAMES, lang)
        assert png.startswith(b"\x89PNG") and len(png) < 300_000


def test_smallest_text_is_large_enough():
    import renderers.common as common
    from renderers import macrobber

    assert macrobber.SMALL == common.MIN_TEXT == 40
    sizes = []
    original = common.font

    def spy(size):
        sizes.append(size)
        return original(size)

    macrobber.font = spy
    try:
        render_image(GAME.view(played(5, 200), 1), NAMES, "de")
    finally:
        macrobber.font = original
    assert min(sizes) >= common.MIN_TEXT


def test_the_face_down_raid_card_and_the_hands_are_not_drawn_on_the_public_board():
    state = GAME.new_game(4, seed=5)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    set_yard(state, 0, y=3, b=2)
    set_yard(state, 1, y=3, b=2)
    set_hand(state, 0, [4, 3, 1])
    set_hand(state, 1, [1, 2, 4])
    state, _ = move(state, 0, "raid 1")
    one, _ = move(state, 0, "play 4")
    other, _ = move(state, 0, "play 1")
    public = [render_image(GAME.view(s, None), NAMES).convert("RGB") for s in (one, other)]
    assert ImageChops.difference(*public).getbbox() is None
    own = [render_image(GAME.view(s, 0), NAMES).convert("RGB") for s in (one, other)]
    assert ImageChops.difference(*own).getbbox() is not None  # the attacker sees its own hand change
