"""The Carcassonne board composed straight in its palette (`renderers.common.PaletteDraw`, the tiles'
art quantized alone) is the board drawn in RGB and quantized, pixel for pixel: whole games of two to
five players in both languages, names in several scripts and names cut short; a text over a tile's
art (whose blend needs the art's own colours) is refused (`NotComposable`) unless a shape has
painted there since, so such a board is drawn in RGB instead."""
from __future__ import annotations

import pytest

from games import REGISTRY
from renderers import carcassonne as carcassonne_renderer
from renderers import common
from renderers.carcassonne_landscape import paste_tile
from renderers.carcassonne_tiles import tile_image
from renderers.common import (
    INK,
    WHITE,
    NotComposable,
    font,
    palette_board,
)
from tests.renderers.composed import (
    boards_render_draws,
    painted_both_ways,
    random_game,
    whole_game_compared,
)

GAME = REGISTRY["carcassonne"]
NAMES = [["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος"],
         ["Bartholomew the Unready of Northumberland", "Eve", "Zoë", "😀", "Chris-Dave Longname"]]


def both_ways(view, names, lang):
    """The board composed in its palette and the board drawn in RGB (or None: not composable)."""
    names = common.seat_names(names, view["seats"])
    plan = carcassonne_renderer.layout(view, names, lang)
    try:
        composed = carcassonne_renderer._board(view, names, lang, plan, composed=True)
    except NotComposable:
        composed = None
    return composed, carcassonne_renderer._board(view, names, lang, plan, composed=False)


@pytest.mark.parametrize("seats, seed", [(2, 4), (3, 1), (4, 2), (5, 7)])
def test_whole_games_composed_in_the_palette_are_the_boards_drawn_in_rgb(seats, seed):
    """With the tiles kept as a game leaves them and without (`forget_kept`): composed, every board
    of a game (all but the robber's score track, drawn in RGB) is the RGB board."""
    composed_count, compared = whole_game_compared(GAME, seats, seed, 4, NAMES, both_ways)
    assert composed_count >= 0.9 * compared > 0


def test_render_checks_the_composed_board_against_the_rgb_board_while_parts_are_verified(monkeypatch):
    state = list(random_game(GAME, 3, 5))[12]
    assert boards_render_draws(monkeypatch, carcassonne_renderer, GAME.view(state, None), NAMES[0][:3], "de") \
        == [True, False]


def test_tiles_and_stroked_numbers_over_shapes_on_them_composed_are_the_rgb_board_quantized():
    def paint(draw):
        paste_tile(draw, "D", 1, 180, (10, 10))  # a tile's art: colours no palette holds exactly
        paste_tile(draw, "B", 0, 134, (200, 40))
        draw.rectangle((60, 60, 130, 130), fill=common.SEAT_COLOURS[2], outline=INK, width=3)  # a knight on it
        draw.ellipse((240, 80, 300, 140), fill=WHITE, outline=INK, width=3)
        # numbers in the marks' stroke, one reaching over its shape's outline
        draw.text((95.5, 95.25), "3", font=font(48), fill=INK, anchor="mm", stroke_width=2, stroke_fill=WHITE)
        draw.text((270.25, 110.5), "12", font=font(40), fill=INK, anchor="mm", stroke_width=2, stroke_fill=WHITE)
        draw.polygon([(380, 40), (440, 140), (320, 140)], fill=common.SEAT_COLOURS[0], outline=INK, width=3)
        draw.text((380, 110), "1", font=font(48), fill=(255, 255, 255), anchor="mm", stroke_width=2,
                  stroke_fill=INK)
        draw.text((340.5, 250.5), "Zoë 7", font=font(40), fill=INK, anchor="mm", stroke_width=2, stroke_fill=INK)

    rgb, composed = painted_both_ways(paint, carcassonne_renderer._palette(), (500, 300))
    assert composed.tobytes() == rgb.tobytes()


def test_a_text_over_a_tiles_art_is_refused_until_a_shape_paints_over_it():
    palette = carcassonne_renderer._palette()
    _, draw = palette_board((300, 200), palette)
    paste_tile(draw, "D", 0, 180, (0, 0))
    with pytest.raises(NotComposable):  # blended over the art's own colours in RGB, which the palette lost
        draw.text((90, 90), "7", font=font(48), fill=INK, anchor="mm")
    with pytest.raises(NotComposable):
        draw.text((90, 90), "7", font=font(48), fill=INK, anchor="mm", stroke_width=2, stroke_fill=WHITE)
    draw.rectangle((40, 40, 140, 140), fill=WHITE)
    draw.text((90, 90), "7", font=font(48), fill=INK, anchor="mm")  # over the shape's white alone: allowed
    with pytest.raises(NotComposable):  # an RGB piece has no place on a palette board
        draw.paste_quantized(tile_image("D", 0, 40), (200, 0))
