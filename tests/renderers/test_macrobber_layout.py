"""The busiest Mac Robber boards (five clans, a raid running and just over) in both languages:
phone size, no text under MIN_TEXT, no two texts overlapping, nothing off the image; the display
row is never empty while a turn runs, an older raid does not stay on the board, and the courtyard
letters and counts are on every board."""
from __future__ import annotations

import copy
import random

import pytest

from games import REGISTRY
from renderers import render_image
from renderers.common import MIN_TEXT, overlapping_texts, recording_texts

GAME = REGISTRY["macrobber"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva"]


def _states(seed=2, steps=400):
    rng = random.Random(seed)
    state = GAME.new_game(5, seed=seed)
    states = [state]
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
        states.append(state)
    return states


STATES = _states()


def _first(test):
    return next(s for s in STATES if test(GAME.view(s, None)))


BUSY = {
    "raid": _first(lambda v: v["phase"] == "combat" and v["raid"] and len(v["raid"]["rounds"]) == 2),
    "after_raid": _first(lambda v: v["raid"] and not v["raid"]["open"] and v["phase"] != "over"),
    "acting": _first(lambda v: v["phase"] == "act" and v["used"]),
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
    for seat in (None, GAME.view(state, None)["active"]):
        image, records = _texts(GAME.view(state, seat), lang)
        assert image.size == (1080, 1350)
        assert records and min(r.size for r in records) >= MIN_TEXT
        assert overlapping_texts(records) == []
        for record in records:
            left, top, right, bottom = record.box
            assert 0 <= left and right <= 1080 and 0 <= top and bottom <= 1350, record


@pytest.mark.parametrize("lang,letters", [("en", ["W", "P", "M"]), ("de", ["K", "D", "M"])])
def test_every_board_carries_the_courtyard_letters_and_counts(lang, letters):
    for state in (STATES[0], BUSY["raid"], STATES[-1]):
        view = GAME.view(state, None)
        _, records = _texts(view, lang)
        words = [r.text for r in records]
        for letter in letters:  # the legend plus one lettered cube per clan
            assert words.count(letter) >= 1 + view["seats"]
        yard = view["players"][4]["courtyard"]
        assert all(str(count) in words for count in yard)


def test_the_display_row_tells_the_turn_after_the_actions():
    view = GAME.view(BUSY["raid"], None)
    assert sum(view["display"]) == 0 and view["done"] is not None
    _, records = _texts(view, "en")
    row = [r for r in records if 120 < r.box[1] < 200]
    assert row, "the display row is empty"
    acting = GAME.view(BUSY["acting"], None)
    _, records = _texts(acting, "en")
    letters = {"Y", "B", "G", "R"}
    shown = [r.text for r in records if r.text in letters]
    assert len(shown) == sum(acting["display"])  # every cube in the display carries its letter


def test_an_older_raid_leaves_the_board():
    view = GAME.view(BUSY["after_raid"], None)
    raid = view["raid"]
    _, records = _texts(view, "en")
    assert any(r.text.startswith("Last raid") for r in records)
    later = next(s for s in STATES if GAME.view(s, None)["raid"] == raid
                 and GAME.view(s, None)["active"] not in (raid["attacker"], (raid["attacker"] + 1) % 5))
    _, records = _texts(GAME.view(later, None), "en")
    assert not any("raid" in r.text.lower() for r in records)


def test_the_dm_image_draws_the_hand_as_cards():
    state = BUSY["raid"]
    seat = GAME.view(state, None)["active"]
    view = GAME.view(state, seat)
    _, records = _texts(view, "en")
    hand = view["private"]["hand"]
    assert hand
    values = [r.text for r in records if r.box[1] > 1200]
    assert sorted(values.count(str(v)) for v in set(hand)) == sorted(hand.count(v) for v in set(hand))


def test_a_seat_without_cards_gets_the_public_board():
    from PIL import ImageChops

    from renderers.macrobber import private_shown

    state = copy.deepcopy(BUSY["acting"])
    state.hands[2] = []
    view = GAME.view(state, 2)
    assert not private_shown(view)
    public = render_image(GAME.view(state, None), NAMES).convert("RGB")
    own = render_image(view, NAMES).convert("RGB")
    assert ImageChops.difference(public, own).getbbox() is None
    assert private_shown(GAME.view(BUSY["acting"], 2)) == bool(GAME.view(BUSY["acting"], 2)["private"]["hand"])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_clan_note_is_cut_with_five_clans(lang):
    """A clan's notes (cards, start, Biggest Following, last round's points) are written whole on
    every five-clan board, public and a seat's own (they were cut to 'Größte Gefolgschaft · +3…')."""
    noted = 0
    for state in STATES[::7]:
        for seat in (None, 0):
            view = GAME.view(state, seat)
            _, records = _texts(view, lang)
            assert not [r.text for r in records if "…" in r.text and not any(name in r.text for name in NAMES)]
            noted += sum(" · " in r.text for r in records)
    assert noted >= 20  # joined notes were drawn (and whole)
