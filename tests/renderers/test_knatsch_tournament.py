"""A Knatsch tournament names every player's place in it, up to six players, and the board's
texts stand whole: none under the smallest size, none over another."""
from __future__ import annotations

import pytest

from renderers.common import MIN_TEXT, PHONE_SIZE, overlapping_texts, recording_texts
from renderers.knatsch import render
from tests.renderers.test_knatsch_render import GAME, phases

NAMES = ["Anna", "王小明", "さくら", "김민준", "Дмитрий", "Αλέξανδρος"]


@pytest.mark.parametrize("seats", [3, 4, 6])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_tournament_player_is_listed(seats, lang):
    state = dict(phases(seats))["tournament"]
    view = GAME.view(state, None)
    with recording_texts() as drawn:
        image = render(view, NAMES[:seats], lang=lang)
    assert image.size == PHONE_SIZE
    word = "Turnier:" if lang == "de" else "Tournament:"
    rows = [text for text in drawn if text.text.startswith(word) and text.box[1] > 600]
    assert len(rows) == len(view["tournament"]["order"]) == seats
    assert min(text.size for text in drawn) >= MIN_TEXT
    inside = [text for text in drawn if 0 <= text.box[0] and text.box[2] <= PHONE_SIZE[0] + 1]
    assert len(inside) == len(drawn)
    assert not overlapping_texts(drawn, margin=2)
