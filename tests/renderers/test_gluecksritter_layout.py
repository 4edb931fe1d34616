"""The busiest Die Glücksritter boards (six and four players in every phase, late in the game and
at its end; every seat's own image, the DM's, with the most documents a seat can hold) in both
languages keep the phone standard: every drawn text at least MIN_TEXT, none off the image, none
overlapping another, nothing cut; the events drawn oldest first, as the turn message tells them;
prices, the pile and the Ducat card's coins in words; the row's marks explained in a legend; the
fields numbered like the card buttons; a DM image only when the seat has something private to
show; running scores for the end-of-game chart."""
from __future__ import annotations

import copy
import random

import pytest
from PIL import ImageChops

import renderers.gluecksritter as gluecksritter
from games import REGISTRY
from i18n import t, translate
from renderers import render_image
from renderers.common import MIN_MARK, recording_texts
from renderers.gluecksritter import SEAL, SEAL_YELLOW, hand_alone, private_shown
from tests.games.gluecksritter.helpers import give_document
from tests.renderers.standard import covered_texts, mark_problems, readable_problems, recording_covers

GAME = REGISTRY["gluecksritter"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Frieda"]
P = "gluecksritter."


def _states(seats: int, seed: int, steps: int = 900):
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    states = [state]
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
        states.append(state)
    return states


def _busiest(seats: int) -> dict[str, object]:
    """Late states of each phase (the most built, the longest log), a haggle, a raid and the end."""
    found: dict[str, object] = {}
    for seed in range(2, 12):
        states = _states(seats, seed)
        late = states[len(states) // 2:]
        for state in reversed(late):
            view = GAME.view(state, None)
            phase = view["phase"]
            if phase != "over":
                revealed = view["players"][0]["cards"] and phase not in ("haggle", "knight", "steal")
                found.setdefault("reveal" if revealed else phase, state)
        found.setdefault("end", states[-1])
        if {"choose", "reveal", "haggle", "knight", "end"} <= set(found):
            break
    return found


STATES = _states(6, seed=2)
BUSY = {f"{seats}p {kind}": state for seats in (6, 4) for kind, state in _busiest(seats).items()}


def _heaviest_hand(state, seat: int):
    """`state` with `seat` holding five kinds of documents (two yellow ones armed, the Veto aimed)
    and, while choosing, its secret cards chosen: the most a seat's own image draws."""
    state = copy.deepcopy(state)
    for code in ("permit", "grant", "favour", "gift", "veto", "gift"):
        if code in state.pile or code in state.discard:
            give_document(state, seat, code)
    state.armed[seat]["gift"] = True
    state.armed[seat]["veto"] = "grant"
    if state.phase == "choose":
        state.choices[seat]["cards"] = [2, 5]
        state.choices[seat]["ready"] = True
    return state


def _texts(view, lang):
    with recording_texts() as records:
        image = render_image(view, NAMES, lang)
    return image, records


def test_the_busiest_boards_cover_every_phase():
    assert {"6p choose", "6p reveal", "6p haggle", "6p knight", "6p end", "4p choose", "4p end"} <= set(BUSY)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(BUSY))
def test_the_busiest_boards_and_every_seats_image_keep_the_phone_standard(name, lang):
    state = BUSY[name]
    heavy = _heaviest_hand(state, 1)
    views = [GAME.view(state, seat) for seat in (None, *range(state.seats))] + [GAME.view(heavy, 1)]
    assert private_shown(views[-1])
    for view in views:
        image, records = _texts(view, lang)
        if hand_alone(view):  # a seat deciding nothing: its documents alone, a strip
            assert image.width == 1080 and image.height < 400, (name, view["viewer"])
        else:
            assert image.size == (1080, 1350)
        assert records
        assert readable_problems(records, image.size) == [], (name, view["viewer"])
        assert not [r.text for r in records if r.text.endswith("…")], (name, view["viewer"])  # nothing cut


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(BUSY))
def test_the_numbers_in_pieces_and_the_castles_pieces_are_marks_at_the_standard_and_uncovered(name, lang):
    """The numbers on the seat discs, coins, document piles and fields stand MIN_MARK tall (41 px of
    ink, 11 px on the phone), so do the walls and towers the game is won with, and no shape or
    piece is drawn over a text after it, on the table's image and a seat's own."""
    state = BUSY[name]
    for view in (GAME.view(state, None), GAME.view(_heaviest_hand(state, 1), 1)):
        with recording_covers() as drawn, recording_texts() as records:
            render_image(view, NAMES, lang)
        marks = [r for r in records if r.mark]
        # per row at least: seat, silver, gold, documents (and, shown, each field's number); a
        # seat deciding nothing has its documents alone
        assert hand_alone(view) or len(marks) >= 4 * view["seats"], name
        assert mark_problems(records) == [], name
        assert covered_texts(drawn) == [], name
    assert gluecksritter.PIECE_H >= MIN_MARK


WORLD_NAMES = ["Bartholomew the Unready of Somewhere Far", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["6p choose", "6p haggle", "6p knight", "6p end"])
def test_names_in_any_script_and_a_long_one_keep_the_standard(name, lang):
    """Only a name too long for its row is shortened there; the status, the raid and the haggle
    wrap it whole."""
    for seat in (None, 0):
        with recording_texts() as records:
            image = render_image(GAME.view(BUSY[name], seat), WORLD_NAMES, lang)
        assert readable_problems(records, image.size) == [], (name, seat)
        cut = [r.text for r in records if r.text.endswith("…")]
        assert all(WORLD_NAMES[0].startswith(text[:-1]) and len(text) > 8 for text in cut), (name, seat, cut)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seats_documents_are_drawn_whole_with_their_names_and_seals_beside_them(lang):
    for name in ("6p choose", "6p haggle", "6p end", "4p choose"):
        view = GAME.view(_heaviest_hand(BUSY[name], 1), 1)
        image, records = _texts(view, lang)
        drawn = " ".join(r.text for r in records)  # a card's lines one after the other
        private = view["private"]
        for code in dict.fromkeys(private["hand"]):
            assert t(lang, P + f"doc.{code}") in drawn, name
        armed = [code for code in dict.fromkeys(private["hand"]) if private["armed"].get(code)]
        assert len(armed) >= 2  # the Gift and the Veto, at least
        assert [r.text for r in records].count(t(lang, P + "board.armed")) == len(armed)
        # No seal (nor any other red or yellow mark) lies on a text.
        pixels = image.convert("RGB")
        for record in records:
            colours = {colour for _, colour in pixels.crop(record.box).getcolors(1 << 16)}
            assert not colours & {SEAL, SEAL_YELLOW}, (name, record)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_documents_beyond_the_rows_that_fit_are_counted_on_a_last_card(lang):
    """A seat holding every kind of document (six players, secret cards chosen): the image keeps
    the standard and counts on its last card the kinds it has no room for."""
    state = _heaviest_hand(BUSY["6p choose"], 1)
    for code in ("master", "pardon", "taxpriv", "tollpriv", "alibi"):
        if code in state.pile or code in state.discard:
            give_document(state, 1, code)
    view = GAME.view(state, 1)
    kinds = list(dict.fromkeys(view["private"]["hand"]))
    assert len(kinds) == 10
    image, records = _texts(view, lang)
    assert readable_problems(records, image.size) == []
    drawn = " ".join(r.text for r in records)
    shown = [code for code in kinds if t(lang, P + f"doc.{code}") in drawn]
    assert 3 <= len(shown) < len(kinds)
    assert t(lang, P + "board.more_documents", count=len(kinds) - len(shown)) in [r.text for r in records]


def _event_lines(view, lang, records):
    """The drawn lines of the events, top to bottom, and the log's entries they come from."""
    entries = [translate(entry, lang, NAMES) for entry in view["log"]]
    under_the_rows = [r for r in records if r.box[0] < 40 and r.box[1] > 900 and not r.mark]  # left, under the rows
    lines = sorted((r for r in under_the_rows if any(r.text in entry for entry in entries)), key=lambda r: r.box[1])
    return lines, entries


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["6p choose", "6p reveal", "6p end", "4p reveal", "4p choose", "4p end"])
def test_the_events_are_drawn_oldest_first_as_the_turn_message_tells_them(name, lang):
    view = GAME.view(BUSY[name], None)
    _, records = _texts(view, lang)
    lines, entries = _event_lines(view, lang, records)
    drawn = " ".join(r.text for r in lines)
    newest = [entry for entry in entries if entry in drawn]
    assert newest and newest[-1] == entries[-1]  # the newest event is drawn, whole
    assert newest == entries[-len(newest):]  # and the ones before it, without a gap
    assert drawn == " ".join(newest)  # in the order they happened, the newest last


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["6p end", "4p end"])
def test_the_winners_rows_say_so_in_words(name, lang):
    view = GAME.view(BUSY[name], None)
    _, records = _texts(view, lang)
    rows = {r.text: (r.box[1] + r.box[3]) // 2 for r in records if r.text in NAMES and r.box[0] > 80}
    said = [(r.box[1] + r.box[3]) // 2 for r in records if r.text == t(lang, P + "board.winner")]
    assert view["winners"] and len(said) == len(view["winners"])
    for winner, middle in zip(sorted(view["winners"]), sorted(said)):
        assert abs(rows[NAMES[winner]] - middle) < 10


@pytest.mark.parametrize("lang", ["en", "de"])
def test_prices_the_pile_and_the_ducat_cards_coins_are_in_words(lang):
    view = GAME.view(BUSY["6p choose"], None)
    _, records = _texts(view, lang)
    words = [r.text for r in records]
    assert not any(w.startswith(("Doc.", "Urk.")) or "neu" == w.split()[-1] or w.endswith(" new") for w in words)
    assert t(lang, P + "board.prices", alone=4, shared=6) in words
    assert any(t(lang, P + "board.pile_words", count=view["pile"]) in w for w in words)
    added = view["ducat_card"][0]
    assert t(lang, P + "board.card_added", count=added) in words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_public_board_explains_the_rows_marks_in_a_legend(lang):
    _, records = _texts(GAME.view(BUSY["6p reveal"], None), lang)
    words = [r.text for r in records]
    for key in ("legend_ducats", "legend_wall", "legend_tower", "legend_documents"):
        assert t(lang, P + f"board.{key}") in words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_fields_are_numbered_like_the_card_buttons(lang):
    state = BUSY["6p choose"]
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
    holding = copy.deepcopy(BUSY["6p reveal"])
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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_what_the_ducat_card_adds_stands_whole_beside_coins_of_two_digits(lang):
    """Fields 5 and 6 with coins of two digits (their widest ovals) keep every Ducat card's words
    ("+6 this round" / "+6 diese Runde") whole beside them: no player sees a cut word."""
    from games.gluecksritter.data import DUCAT_CARDS
    from renderers.common import MARK_TEXT, ink_box

    def width(count):
        left, _, right, _ = ink_box(str(count), MARK_TEXT)
        return right - left

    silver = max(range(10, 61), key=width)  # 60 silver and 40 gold coins in the game
    gold = max(range(10, 41), key=width)
    state = copy.deepcopy(BUSY["6p choose"])
    state.field5, state.field6 = [silver, gold], [silver, gold]
    for card in range(len(DUCAT_CARDS)):
        state.ducat_card = card
        view = GAME.view(state, None)
        image, records = _texts(view, lang)
        words = [r.text for r in records]
        for added in DUCAT_CARDS[card]:
            assert t(lang, P + "board.card_added", count=added) in words, (card, words)
        assert not [w for w in words if w.endswith("…")], card
        assert readable_problems(records, image.size) == [], card


def _seat_colour_box(image, box, colour):
    """Where `colour` is painted within `box` of `image`, on the image (None: nowhere)."""
    band = image.convert("RGB").crop(box)
    solid = band.copy()
    solid.paste(tuple(colour), (0, 0, *band.size))
    found = ImageChops.difference(band, solid).convert("L").point(lambda v: 255 if v == 0 else 0).getbbox()
    return None if found is None else (box[0] + found[0], box[1] + found[1], box[0] + found[2], box[1] + found[3])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["6p reveal", "6p end", "4p choose"])
def test_each_rows_walls_and_towers_read_at_a_glance_as_pieces_and_counts_at_the_standard(name, lang):
    """The castle the game is won with: in each player's row a wall, then how many walls are built
    as a digit of MIN_MARK ink and "/4", then a tower and its count alike; a piece built is painted
    in the seat's colour at least MIN_MARK wide and tall (11 px on the phone)."""
    view = GAME.view(BUSY[name], None)
    image, records = _texts(view, lang)
    castle = [r for r in records if gluecksritter.CASTLE_X <= r.box[0] < gluecksritter.DOCUMENTS_X - 26]
    for seat, player in enumerate(view["players"]):
        name_box = next(r.box for r in records if r.text == NAMES[seat])
        middle = (name_box[1] + name_box[3]) // 2  # the row's: its name is centred on it

        def in_row(record, middle=middle):
            return abs((record.box[1] + record.box[3]) / 2 - middle) < 30
        walls, towers = sorted((r for r in castle if r.mark and in_row(r)), key=lambda r: r.box[0])
        assert (walls.text, towers.text) == (str(player["walls"]), str(player["towers"])), (name, seat)
        assert mark_problems([walls, towers]) == [], (name, seat)
        needed = [r for r in castle if not r.mark and in_row(r)]
        assert [r.text for r in sorted(needed, key=lambda r: r.box[0])] == ["/4", "/4"], (name, seat)
        colour = gluecksritter.SEAT_COLOURS[seat]
        slots = {"walls": (gluecksritter.CASTLE_X - 4, middle - 45, walls.box[0], middle + 45),
                 "towers": (min(r.box[2] for r in needed), middle - 45, towers.box[0], middle + 45)}
        for piece, slot in slots.items():
            painted = _seat_colour_box(image, slot, colour)
            if player[piece]:
                assert painted is not None, (name, seat, piece)
                assert painted[2] - painted[0] >= MIN_MARK and painted[3] - painted[1] >= MIN_MARK, (name, seat, piece)
            else:
                assert painted is None, (name, seat, piece)  # none built: the piece is drawn empty
