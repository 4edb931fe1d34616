"""The Die Glücksritter renderer draws every phase from views alone, upright, as a small PNG,
and a public image never shows a secret choice or document."""
from __future__ import annotations

import random

import pytest
from PIL import Image

from games.gluecksritter import GAME
from renderers import render_png
from renderers.gluecksritter import hand_alone, render
from tests.games.gluecksritter.helpers import act, fresh, give_document

NAMES = ["Alice", "Bartholomew the Unready of Somewhere Far", "Chloe", "Dmitri", "Eve", "Fritz"]


def views_of_every_phase(seats: int, seed: int) -> dict[str, list[dict]]:
    rng = random.Random(seed)
    found: dict[str, list[dict]] = {}
    for game_seed in range(seed, seed + 6):
        state = GAME.new_game(seats, seed=game_seed)
        while True:
            for viewer in (None, 0):
                view = GAME.view(state, viewer)
                bucket = found.setdefault(view["phase"], [])
                if len(bucket) < 3:
                    bucket.append(view)
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("seats", [3, 6])
def test_every_phase_renders_upright_and_small(seats):
    views = views_of_every_phase(seats, seed=seats)
    assert {"choose", "field2", "field3", "haggle", "knight", "over"} <= set(views)
    for phase, group in views.items():
        for view in group:
            for lang in ("en", "de"):
                image = render(view, NAMES[:seats], lang)
                assert isinstance(image, Image.Image)
                width, height = image.size
                if hand_alone(view):  # a seat deciding nothing: its documents alone, a strip
                    assert width == 1080 and height < 400, (phase, image.size)
                else:
                    assert height > width * 1.1, "upright, never square"
                png = render_png(view, NAMES[:seats], lang)
                assert png.startswith(b"\x89PNG") and len(png) < 300_000, (phase, len(png))


def test_missing_names_fall_back():
    state = fresh(4)
    assert render_png(GAME.view(state, None), ["Ann"]).startswith(b"\x89PNG")


def test_public_image_does_not_depend_on_secrets():
    """Two games alike but for one seat's secret choice and documents draw the same public board."""
    a = fresh(3)
    b = fresh(3)
    give_document(a, 0, "grant")
    give_document(b, 0, "veto")
    a, _ = act(a, 0, "play 2,5")
    b, _ = act(b, 0, "play 1,6")
    assert render(GAME.view(a, None), NAMES[:3]).tobytes() == render(GAME.view(b, None), NAMES[:3]).tobytes()
    assert render(GAME.view(a, 1), NAMES[:3]).tobytes() == render(GAME.view(b, 1), NAMES[:3]).tobytes()
    assert render(GAME.view(a, 0), NAMES[:3]).tobytes() != render(GAME.view(b, 0), NAMES[:3]).tobytes()


def test_a_seat_deciding_nothing_sees_its_documents_alone_and_a_deciding_seat_the_table():
    """A seat's image while it decides nothing (others buy, haggle or raid; it may no longer
    change its choice) is its documents alone, no table to go stale in its DM; while it decides
    (or may still change its confirmed choice), the table around them."""
    rng = random.Random(3)
    state = GAME.new_game(4, seed=3)
    seen = {True: 0, False: 0}
    while GAME.outcome(state) is None and min(seen.values()) < 20:
        for seat in range(4):
            view = GAME.view(state, seat)
            if not view["private"]["hand"]:
                continue
            deciding = bool(GAME.legal_actions(state, seat))
            assert hand_alone(view) is not deciding, (seat, view["phase"])
            image = render(view, NAMES[:4])
            if deciding:
                assert image.size == (1080, 1350)
            else:
                assert image.width == 1080 and image.height < 400, image.size
            seen[deciding] += 1
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert min(seen.values()) >= 20, seen


@pytest.mark.parametrize("lang, status_lines", [("en", 2), ("de", 3)])
def test_a_boards_base_kept_as_its_fields_box_is_the_whole_base_on_the_background(lang, status_lines):
    """A board starts from the base's box that is not plain background, pasted on a fresh
    background: pixel for pixel the whole base it was cut from."""
    from renderers import gluecksritter
    from renderers.common import BACKGROUND

    top = gluecksritter._fields_top(status_lines)
    whole = gluecksritter._base(lang, top)
    base, at = gluecksritter._base_for(lang, top)
    assert base.height < whole.height / 2  # the box alone is kept, not the whole base
    board = Image.new("RGB", whole.size, BACKGROUND)
    board.paste(base, at)
    assert board.tobytes() == whole.tobytes()
