"""The Knatsch board composed straight in its palette (`renderers.common.PaletteDraw`) is the board
drawn in RGB and quantized, pixel for pixel: every phase, whole games in both languages, names in
several scripts and names cut short; and a drawing the palette cannot give exactly is refused
(`NotComposable`), so the board is drawn in RGB instead."""
from __future__ import annotations

import pytest

from renderers import common
from renderers import knatsch as knatsch_renderer
from renderers.common import (
    INK,
    NotComposable,
    font,
    palette_board,
    stamp_text,
    text_mask,
)
from tests.renderers.composed import (
    assert_same,
    boards_render_draws,
    painted_both_ways,
    whole_game_compared,
)
from tests.renderers.test_knatsch_render import GAME, phases

NAMES = [["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"],
         ["Bartholomew the Unready of Northumberland", "Eve", "Zoë", "😀", "Chris-Dave Longname", "Frank"]]


def both_ways(view, names, lang):
    """The board composed in its palette and the board drawn in RGB (or None: not composable)."""
    say = knatsch_renderer.Words(lang, common.seat_names(names, view["seats"]))
    try:
        composed = knatsch_renderer._board(view, say, lang, composed=True)
    except NotComposable:
        composed = None
    return composed, knatsch_renderer._board(view, say, lang, composed=False)


@pytest.mark.parametrize("seats", [2, 6])
def test_every_phase_composed_in_the_palette_is_the_board_drawn_in_rgb(seats):
    for name, state in phases(seats):
        for lang, names in (("en", NAMES[0]), ("de", NAMES[1])):
            for viewer in (None, 0):
                composed, drawn = both_ways(GAME.view(state, viewer), names[:seats], lang)
                assert composed is not None, name
                assert_same(composed, drawn, (name, lang, viewer))


@pytest.mark.parametrize("seats, seed", [(2, 4), (3, 1), (4, 2), (5, 7), (6, 3)])
def test_whole_games_composed_in_the_palette_are_the_boards_drawn_in_rgb(seats, seed):
    """With the kept parts as a game leaves them (a row or a stack found again is pasted) and
    without (`forget_kept`): composed, every board of a game (most of them) is the RGB board."""
    composed_count, compared = whole_game_compared(GAME, seats, seed, 3, NAMES, both_ways)
    assert composed_count >= 0.9 * compared > 0


def test_render_checks_the_composed_board_against_the_rgb_board_while_parts_are_verified(monkeypatch):
    """`render` under `VERIFY_KEPT_PARTS` draws both and compares them (the whole-game tests of
    kept pictures then check every board composed)."""
    state = dict(phases(3))["defence"]
    assert boards_render_draws(monkeypatch, knatsch_renderer, GAME.view(state, None), NAMES[0][:3], "de") \
        == [True, False]


def drawn_in_rgb_and_in_palette(paint, size=(600, 300)):
    """`paint(draw)` on an RGB image quantized, and on a palette image (`PaletteDraw`)."""
    return painted_both_ways(paint, knatsch_renderer._palette(), size)


def test_texts_stamped_in_the_palette_over_one_or_many_colours_are_the_rgb_texts_quantized():
    def paint(draw):
        draw.rectangle((0, 0, 300, 300), fill=knatsch_renderer.PAPER)
        draw.rectangle((280, 60, 360, 110), fill=knatsch_renderer.RED_DIE)  # under the middle of a text
        draw.ellipse((520, 5, 575, 60), fill=INK)
        for (text, size, anchor, stroke, colour), xy in zip((
                ("Anna 12 rolls", 40, "la", 0, INK), ("王小明 Дмитрий", 48, "lm", 1, (190, 40, 30)),
                ("4-4-4+2", 56, "ls", 1, (255, 255, 255)), ("Zoë", 40, "la", 0, "white")),
                ((200, 5), (150, 90), (250, 190), (420, 230))):
            mask, left, top = text_mask(text, size, anchor, stroke)
            stamp_text(draw, (xy[0] + left, xy[1] + top), mask, colour)
        for xy in ((-12, -20), (570, 280)):  # clipped at the edges
            mask, left, top = text_mask("Knatsch", 48)
            stamp_text(draw, (xy[0] + left, xy[1] + top), mask, knatsch_renderer.GOOD)
        draw.text((532.4, 52.6), "7", font=font(56), fill=(255, 255, 255), anchor="ls")  # as `ink_centred_text`

    rgb, composed = drawn_in_rgb_and_in_palette(paint)
    assert composed.tobytes() == rgb.tobytes()


def test_a_text_stamped_over_another_texts_ink_or_a_colour_the_palette_lacks_is_refused():
    palette = knatsch_renderer._palette()
    _, draw = palette_board((300, 100), palette)
    mask, left, top = text_mask("Overlap", 40)
    stamp_text(draw, (10 + left, 10 + top), mask, INK)
    with pytest.raises(NotComposable):  # its blended pixels are no palette colour: blended again, they would differ
        stamp_text(draw, (14 + left, 12 + top), mask, INK)
    with pytest.raises(NotComposable):
        draw.rectangle((0, 0, 10, 10), fill=(1, 2, 3))
