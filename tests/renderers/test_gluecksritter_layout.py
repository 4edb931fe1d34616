"""The busiest Die Glücksritter boards (six players, late in the game and at its end, a seat's
own image) in both languages: phone size, no text under MIN_TEXT, no overlapping texts, nothing
off the image, events readable; prices and the pile in words; the fields numbered like the card
buttons; a DM image only when the seat has something private to show; running scores for the
end-of-game chart."""
from __future__ import annotations

import copy
import random

import pytest
from PIL import ImageChops

from games import REGISTRY
from i18n import t, translate
from renderers import render_image
from renderers.gluecksritter import private_shown
from renderers.common import MIN_TEXT, overlapping_texts, recording_texts
from tests.games.gluecksritter.helpers import give_document

GAME = REGISTRY["gluecksritter"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frieda"]


def _states(seed=2, steps=600):
    rng = random.Random(seed)
    state = GAME.new_game(6, seed=seed)
    states = [state]
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
        states.append(state)
    return states


STATES = _states()
LATE = STATES[len(STATES) * 3 // 4:]
BUSY = {
    "late_choose": next(s for s in LATE if GAME.view(s, None)["phase"] == "choose"),
    "late_reveal": next(s for s in LATE if GAME.view(s, None)["players"][0]["cards"]),
    "end": STATES[-1],
}


def _texts(view, lang):
    with recording_texts() as records:
        image = render_image(view, NAMES, lang)
    return image, records


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(BUSY))
def test_busiest_boards_are_readable(name, lang):
    state = BUSY[name]
    for seat in (None, 0, 5):
        image, records = _texts(GAME.view(state, seat), lang)
        assert image.size == (1080, 1350)
        assert records and min(r.size for r in records) >= MIN_TEXT
        assert overlapping_texts(records) == []
        for record in records:
            left, top, right, bottom = record.box
            assert 0 <= left and right <= 1080 and 0 <= top and bottom <= 1350, record
            assert not record.text.endswith("…") or name != "late_choose", record  # nothing cut


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_newest_events_are_drawn_whole_at_readable_size(lang):
    view = GAME.view(BUSY["late_reveal"], None)
    _, records = _texts(view, lang)
    newest = translate(view["log"][-1], lang, NAMES)
    drawn = " ".join(r.text for r in records)
    assert newest in drawn  # whole, over as many lines as it needs
    first = next(r for r in records if newest.startswith(r.text) and r.box[1] > 1000)
    assert first.size >= MIN_TEXT and first.box[3] - first.box[1] >= 20


@pytest.mark.parametrize("lang", ["en", "de"])
def test_prices_and_the_pile_are_in_words(lang):
    view = GAME.view(BUSY["late_choose"], None)
    _, records = _texts(view, lang)
    words = [r.text for r in records]
    assert "0 | 4" not in words and not any(w.startswith(("Doc.", "Urk.")) for w in words)
    assert t(lang, "gluecksritter.board.price_shared", count=4) in words
    assert any(t(lang, "gluecksritter.board.pile_words", count=view["pile"]) in w for w in words)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_fields_are_numbered_like_the_card_buttons(lang):
    state = BUSY["late_choose"]
    seat = next(iter(GAME.to_act(state)))
    _, records = _texts(GAME.view(state, seat), lang)
    words = [r.text for r in records]
    (choice,) = GAME.subset_choices(state, seat)
    for number, label in choice.items:
        assert number in words and translate(label.to_json(), lang, NAMES) in words


def test_the_dm_image_adds_only_what_is_private():
    empty = next(s for s in STATES if GAME.view(s, 1)["private"]["hand"] == []
                 and not GAME.view(s, 1)["private"]["choice"]["cards"])
    public = render_image(GAME.view(empty, None), NAMES).convert("RGB")
    own = render_image(GAME.view(empty, 1), NAMES).convert("RGB")
    assert ImageChops.difference(public, own).getbbox() is None  # nothing private: the same picture
    assert not private_shown(GAME.view(empty, 1))
    holding = copy.deepcopy(BUSY["late_reveal"])
    for code in ("permit", "gift", "favour"):
        give_document(holding, 1, code)
    hand = GAME.view(holding, 1)["private"]["hand"]
    assert private_shown(GAME.view(holding, 1))
    _, records = _texts(GAME.view(holding, 1), "en")
    words = " ".join(r.text for r in records)
    assert all(t("en", f"gluecksritter.doc.{code}") in words for code in hand)


def test_the_public_view_gives_the_chart_its_running_scores():
    from bot.records import running_scores

    history = [running_scores(GAME, s) for s in STATES]
    assert all(h is not None and len(h) == 6 for h in history)
    assert history[0] != history[-1]
    assert history[-1] == list(GAME.outcome(STATES[-1]).scores)
