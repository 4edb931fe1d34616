"""The rating chart of `/game stats`: upright, readable on a phone, the history not just the end."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers.common import recording_texts
from renderers.rating_chart import HEIGHT, WIDTH, render_rating_chart, render_rating_chart_png
from tests.renderers.standard import readable_problems

LONG = [1000, 970, 1031, 1080, 1024, 1027, 1091, 1122, 1193, 1250, 1176, 1242, 1154, 1185, 1160, 1211]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("points, name", [
    (LONG, "Alice"),
    ([1000, 958], "安娜"),
    ([1000, 1049, 1080, 1031], "Bärbel-Annegret von Hohenzollern-Sigmaringen, Freiin zu Weilburg"),
    ([1000], "Bo"),
])
def test_every_word_is_readable_on_a_phone(lang, points, name):
    with recording_texts() as texts:
        image = render_rating_chart(points, name, lang, "Die Glücksritter")
    assert image.size == (WIDTH, HEIGHT) and HEIGHT * 4 == WIDTH * 5  # upright 4:5
    assert readable_problems(texts, image.size) == []
    now = f"{points[-1]:,}".replace(",", "," if lang == "en" else ".")
    assert now in [text.text for text in texts]  # the rating now, in the reader's style of numbers


def test_the_chart_shows_the_history_and_says_provisional_until_settled():
    with recording_texts() as texts:
        render_rating_chart([1000, 1040, 1010], "Ann", "en", "Knatsch", provisional=5)
    words = [text.text for text in texts]
    assert "1,010" in words and "−30" in words and "provisional" in words
    assert any("2 rated games" in word and "provisional until 5" in word for word in words)
    with recording_texts() as texts:
        render_rating_chart(LONG, "Ann", "de", "Knatsch", provisional=5)
    words = [text.text for text in texts]
    assert any("15 gewertete Partien" in word and "beste 1.250" in word for word in words)
    rising = render_rating_chart([1000, 1100, 1200], "Ann", "en")
    falling = render_rating_chart([1000, 1100, 1000], "Ann", "en")
    assert rising.tobytes() != falling.tobytes()


def test_png_is_small():
    png = render_rating_chart_png(LONG, "Ann", "de", "Knatsch")
    assert png.startswith(b"\x89PNG") and len(png) < 200 * 1024
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
