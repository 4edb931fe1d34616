"""The score chart of the end-of-game message: upright, one line per seat, numbers beside colour."""
from __future__ import annotations

import io

from PIL import Image

from renderers.common import SEAT_COLOURS
from renderers.score_chart import HEIGHT, WIDTH, render_chart, render_chart_png

HISTORY = [[0, 0, 0], [3, 0, 0], [3, 4, 0], [3, 4, 9], [8, 4, 9], [8, 12, 9]]
NAMES = ["Anna", "Bernd", "Clara"]


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    return {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 20)}


def test_the_chart_is_upright_and_draws_every_seat_in_its_colour():
    image = render_chart(HISTORY, NAMES, "en", "Raub Ritter")
    assert image.size == (WIDTH, HEIGHT) and HEIGHT > WIDTH
    present = colours(image)
    for seat in range(len(NAMES)):
        assert SEAT_COLOURS[seat] in present
    assert SEAT_COLOURS[len(NAMES)] not in present  # no fourth player drawn


def test_the_chart_shows_how_the_scores_went_not_just_the_end():
    rising = render_chart(HISTORY, NAMES, "en")
    flat = render_chart([HISTORY[0], HISTORY[-1]], NAMES, "en")
    assert rising.tobytes() != flat.tobytes()
    german = render_chart(HISTORY, NAMES, "de")
    assert german.tobytes() != rising.tobytes()  # the words are the table's language


def test_png_is_small_and_readable_at_phone_width(tmp_path):
    png = render_chart_png(HISTORY, NAMES, "de", "Knatsch")
    assert png.startswith(b"\x89PNG") and len(png) < 300 * 1024
    image = Image.open(io.BytesIO(png))
    assert image.size == (WIDTH, HEIGHT)


def test_a_single_seat_and_equal_scores_do_not_break_it():
    render_chart([[0, 0], [0, 0]], ["A", "B"], "en")
    render_chart([[5]], ["Solo"], "en")
    render_chart([], ["A", "B"], "en")
