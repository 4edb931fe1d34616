"""The chart of a tournament's final standings: upright, readable on a phone, names in any script
the font draws, the winner marked by more than colour, and a large field cut with a count."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from renderers.common import recording_texts
from renderers.standings_chart import HEIGHT, WIDTH, Standing, render_standings_chart, render_standings_chart_png
from tests.renderers.standard import readable_problems

NAMES = ["Anna", "Бертольд Смирнов", "安娜", "Ἀλέξανδρος", "محمد", "🎲🎲",
         "Bärbel-Annegret von Hohenzollern-Sigmaringen, Freiin zu Weilburg", "김민준", "Zed"]


def field(count: int, *, withdrew: int | None = None) -> list[Standing]:
    return [Standing(place, NAMES[(place - 1) % len(NAMES)], max(0.0, 20 - place * 1.5), winner=place == 1,
                     withdrew=place == withdrew) for place in range(1, count + 1)]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("count", [2, 4, 9, 16, 17, 40])
@pytest.mark.parametrize("kind", ["points", "knockout"])
def test_every_word_is_readable_on_a_phone(lang, count, kind):
    with recording_texts() as texts:
        image = render_standings_chart(field(count, withdrew=count), lang, "Tournament #12: Die Glücksritter",
                                       "Swiss · tables of 4 · 5 rounds · 40 players", kind)
    assert image.size == (WIDTH, HEIGHT) and HEIGHT * 4 == WIDTH * 5  # upright 4:5
    assert readable_problems(texts, image.size) == []


def test_names_in_any_script_the_font_draws_and_a_label_for_those_it_cannot():
    with recording_texts() as texts:
        render_standings_chart(field(9), "en", "Tournament #1: Pips")
    words = [text.text for text in texts]
    for name in ("Anna", "Бертольд Смирнов", "安娜"):
        assert name in words
    assert "P5" in words and "P6" in words  # Arabic and emoji alone: its place's label, never boxes
    assert any(word.startswith("Bärbel-Annegret") and word.endswith("…") for word in words)


def test_the_winner_stands_apart_by_a_word_and_a_crown_not_colour_alone():
    with recording_texts() as texts:
        render_standings_chart(field(4), "en", "Tournament #1: Pips")
    assert "Winner" in [text.text for text in texts]
    with recording_texts() as texts:
        render_standings_chart(field(4), "de", "Turnier #1: Pips", kind="knockout")
    words = [text.text for text in texts]
    assert "Sieger" in words and "Aus in Runde" in words
    plain = render_standings_chart([Standing(1, "A", 3), Standing(2, "B", 1)], "en")
    crowned = render_standings_chart([Standing(1, "A", 3, winner=True), Standing(2, "B", 1)], "en")
    assert plain.tobytes() != crowned.tobytes()


def test_a_large_field_is_cut_with_how_many_more_there_are():
    with recording_texts() as texts:
        render_standings_chart(field(40), "en", "Tournament #1: Pips")
    words = [text.text for text in texts]
    shown = [word for word in words if word.endswith(".") and word[:-1].isdigit()]
    assert shown[0] == "1." and len(shown) + int(next(w for w in words if w.startswith("… and")).split()[2]) == 40
    with recording_texts() as texts:
        render_standings_chart(field(40), "de", "Turnier #1: Pips")
    assert any(word.startswith("… und") and word.endswith("weitere") for word in (t.text for t in texts))


def test_points_are_written_in_the_readers_style():
    with recording_texts() as texts:
        render_standings_chart([Standing(1, "A", 12.5, winner=True), Standing(2, "B", 3)], "de")
    assert "12,5" in [text.text for text in texts]


def test_png_is_small():
    png = render_standings_chart_png(field(16), "de", "Turnier #1: Pips", "Schweizer System")
    assert png.startswith(b"\x89PNG") and len(png) < 200 * 1024
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
