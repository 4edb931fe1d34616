"""Every game's largest board, made for phones: its size and shape, the smallest type on it,
names in several scripts, and seat marks that carry a number.

The smallest type is measured by recording every font size a renderer asks for while drawing.
"""
from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

import renderers.common as common
import renderers.knatsch as knatsch_renderer
import renderers.raubritter as raubritter_renderer
from games.knatsch import GAME as KNATSCH
from games.raubritter import GAME as RAUBRITTER
from renderers import render_png
from renderers.common import MIN_TEXT, PHONE_SIZE, drawable, has_glyph
from tests.renderers.test_knatsch_render import phases

SCRIPTS = ["Anna", "王小明", "さくら", "김민준", "Дмитрий", "Αλέξανδρος"]


@contextmanager
def font_sizes(module):
    """The font sizes `module` asks for while drawing (its text caches cleared first)."""
    sizes: list[int] = []
    original = module.font

    def recording(size):
        sizes.append(int(size))
        return original(size)

    cached = getattr(module, "_text_mask", None)
    for cache in (cached, getattr(module, "_width", None)):
        if cache is not None:
            cache.cache_clear()
    module.font = recording
    try:
        yield sizes
    finally:
        module.font = original
        for cache in (cached, getattr(module, "_width", None)):
            if cache is not None:
                cache.cache_clear()


def play_to_end(game, seats, seed, **options):
    state = game.new_game(seats, seed=seed, options=options or None)
    rng = random.Random(seed)
    states = [state]
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def largest_raubritter_states():
    """Four players fill the 10 x 10 area (96 tiles): the most tiles and knights a board holds."""
    states = play_to_end(RAUBRITTER, 4, seed=11)
    return [states[len(states) // 2], states[-1]]


def knatsch_states():
    return [state for _, state in phases(6)]


CASES = [("knatsch", KNATSCH, knatsch_renderer, state) for state in knatsch_states()] + \
        [("raubritter", RAUBRITTER, raubritter_renderer, state) for state in largest_raubritter_states()]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name,game,module,state", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_largest_boards_are_upright_readable_and_small(name, game, module, state, lang):
    view = game.view(state, None)
    with font_sizes(module) as sizes:
        image = module.render(view, SCRIPTS[:view["seats"]], lang=lang)
    width, height = image.size
    assert (width, height) == PHONE_SIZE and height != width and 1.2 <= height / width <= 1.3
    assert sizes, "nothing was written on the board"
    assert min(sizes) >= MIN_TEXT >= width / 40, f"{name}: type of {min(sizes)} px on a {width} px board"
    assert len(render_png(view, SCRIPTS[:view["seats"]], lang)) < 300_000


def test_the_largest_raubritter_board_really_is_full():
    final = RAUBRITTER.view(largest_raubritter_states()[-1], None)
    assert len(final["tiles"]) == 96 and final["over"]


def test_private_raubritter_view_keeps_its_type_large_too():
    state = RAUBRITTER.new_game(4, seed=3)
    view = RAUBRITTER.view(state, 2)
    assert "private" in view
    with font_sizes(raubritter_renderer) as sizes:
        raubritter_renderer.render(view, SCRIPTS[:4])
    assert min(sizes) >= MIN_TEXT


def test_names_in_every_script_are_drawn_not_boxed():
    for name in SCRIPTS:
        assert drawable(name) == name and all(has_glyph(c) for c in name)
    # A name of emoji only falls back to the seat label instead of empty boxes.
    assert common.seat_names(["🐉🔥", "Bob"], 2) == ["P1", "Bob"]


@pytest.mark.parametrize("game,module", [(KNATSCH, knatsch_renderer), (RAUBRITTER, raubritter_renderer)])
def test_every_seat_mark_carries_its_number(game, module):
    """The seat numbers 1..n are written on the board, so colour is never the only sign (every
    text drawn or stamped from a kept bitmap is recorded)."""
    seats = 4
    state = play_to_end(game, seats, seed=5)[-1] if game is RAUBRITTER else knatsch_states()[0]
    view = game.view(state, None)
    with common.recording_texts() as drawn:
        module.render(view, SCRIPTS[:view["seats"]])
    written = [record.text for record in drawn]
    for seat in range(view["seats"]):
        assert str(seat + 1) in written, f"seat {seat + 1} has no number on the board"


def test_during_a_defence_the_defender_is_marked_to_act_not_the_attacker(monkeypatch):
    written: list[str] = []
    original = knatsch_renderer._text

    def recording(draw, xy, text, *args, **kwargs):
        written.append(text)
        return original(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(knatsch_renderer, "_text", recording)
    state = dict(phases(2))["defence"]
    view = KNATSCH.view(state, None)
    assert view["active"] == 0 and view["to_act"] == [1]
    knatsch_renderer.render(view, ["Ann", "Bo"])
    assert "Bo — to act" in written and not any(text.startswith("Ann — ") for text in written)
    assert any(text.startswith("Bo defends") for text in written)


@pytest.mark.parametrize("game,module", [(KNATSCH, knatsch_renderer), (RAUBRITTER, raubritter_renderer)])
def test_engine_messages_in_a_view_are_drawn_in_words(game, module):
    """Engines move to Msg texts: a status given as Msg JSON is drawn translated, never as JSON."""
    from games.core import SeatRef, msg

    view = game.view(game.new_game(2, seed=1), None)
    view["status"] = msg("bot.table.made_a_move", player=SeatRef(1)).to_json()
    for lang, words in (("en", "Bo made a move."), ("de", "Bo hat gezogen.")):
        with common.recording_texts() as drawn:
            module.render(view, ["Ann", "Bo"], lang=lang)
        written = [record.text for record in drawn]
        assert words in " ".join(written) and not any("'id'" in text for text in written)
