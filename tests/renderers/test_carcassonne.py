"""The Carcassonne renderer draws every step of a turn from views alone, upright, as a small PNG."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.carcassonne import GAME
from renderers import render_png
from renderers.carcassonne import render

NAMES = ["Anna", "Bartholomäus der Zögerliche von Irgendwo", "Clara", "Dieter", "Eva"]


def views_of_every_phase(seats: int, seed: int) -> dict[str, list[dict]]:
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    found: dict[str, list[dict]] = {}
    while True:
        view = GAME.view(state, None)
        bucket = found.setdefault(view["phase"], [])
        if len(bucket) < 2:
            bucket.append(view)
        if GAME.outcome(state) is not None:
            return found
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        non_back = [a for a in legal if a.verb != "back"] or legal
        state, _ = GAME.apply(state, seat, rng.choice(non_back))


@pytest.mark.parametrize("seats", [2, 5])
def test_every_phase_renders_upright_and_small_in_both_languages(seats):
    views = views_of_every_phase(seats, seed=seats + 1)
    assert {"place", "rotate", "follower", "robber", "over"} <= set(views)
    for phase, group in views.items():
        for view in group:
            for lang in ("en", "de"):
                image = render(view, NAMES[:seats], lang)
                width, height = image.size
                assert (width, height) == (1080, 1350), "upright 4:5, never square"
                png = render_png(view, NAMES[:seats], lang)
                assert png.startswith(b"\x89PNG") and len(png) < 300_000, (phase, len(png))


def test_the_finished_81_tile_board_fits_and_shows_every_follower():
    views = views_of_every_phase(3, seed=9)
    final = views["over"][0]
    assert len(final["tiles"]) + len(final["set_aside"]) == 81
    image = render(final, ["Ann"]).convert("RGB")  # missing names fall back to P2, P3
    assert image.size == (1080, 1350)
    # followers stay for the last picture: every seat colour appears on the board area
    from renderers.common import SEAT_COLOURS

    board = image.crop((0, 180, 1080, 985))
    colours = {c for _, c in board.getcolors(1 << 20)}
    for m in final["meeples"]:
        assert tuple(SEAT_COLOURS[m["seat"]]) in colours


def test_drawing_reads_only_the_view_and_marks_what_it_holds():
    views = views_of_every_phase(2, seed=4)
    place = views["place"][1]
    with_marks = render(place, NAMES).convert("RGB")
    bare = dict(place, squares=[])
    without = render(bare, NAMES).convert("RGB")
    assert with_marks.tobytes() != without.tobytes()  # the free squares are drawn
    rotate = views["rotate"][0]
    image = render(rotate, NAMES)
    assert image.size == (1080, 1350)


def test_a_png_scaled_to_phone_width_is_still_an_upright_image():
    views = views_of_every_phase(4, seed=2)
    png = render_png(views["over"][0], NAMES[:4])
    image = Image.open(io.BytesIO(png))
    small = image.convert("RGB").resize((400, 500))
    assert small.size[1] > small.size[0]


def test_boards_with_the_legend_kept_apart_are_the_boards_drawn_whole(monkeypatch):
    """The legend at the board's foot, drawn on rows of its own and pasted as kept in the palette
    (`renderers.carcassonne._legend_apart`), gives the very pixels of the board drawn whole on one
    image, the legend first: whole games, both languages, every phase, a name reaching down."""
    import renderers.carcassonne as carcassonne
    from renderers.common import forget_kept

    forget_kept()
    apart = 0
    for seats, seed in ((3, 4), (5, 2)):
        names = ["Çelik", "gjpqy", "王小明", "Ярослав", "Anna"][:seats]
        rng = random.Random(seed)
        state = GAME.new_game(seats, seed=seed)
        for step in range(400):
            view = GAME.view(state, None)
            if step % 3 == 0 or GAME.outcome(state) is not None:
                lang = ("en", "de")[step // 3 % 2]
                drawn = render(view, names, lang)
                apart += carcassonne._legend_apart(view, carcassonne.seat_names(names, seats), lang,
                                                   carcassonne.layout(view, names, lang))
                with monkeypatch.context() as whole:
                    whole.setattr(carcassonne, "_legend_apart", lambda *_: False)
                    expected = render(view, names, lang)
                assert drawn.tobytes() == expected.tobytes() and drawn.getpalette() == expected.getpalette(), step
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert apart >= 40
