"""The busiest Mac Robber boards (five clans, a raid running, just over, and the end) in both
languages keep the phone standard (tests/renderers/standard.py) on the public board and on every
seat's image; the board names colours, places and characters with the buttons' words and one set
of cube marks, explains its marks, writes its notes in words, and draws a seat's raid cards large;
the display row tells the turn after the actions, and an older raid leaves the board."""
from __future__ import annotations

import copy
import random
import re

import pytest

from games import REGISTRY
from i18n import t, translate
from renderers import render_image
from renderers.common import MIN_MARK, MIN_TEXT, recording_texts
from renderers.macrobber import HAND_ALONE_HEIGHT, PRIVATE_TOP, hand_alone
from tests.renderers.standard import covered_texts, mark_problems, readable_problems, recording_covers

GAME = REGISTRY["macrobber"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva"]
WIDE_NAMES = ["Alexandra", "王小明", "Дмитрий", "김민준", "Αλέξανδρος"]
P = "macrobber."


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


def _texts(view, lang, names=NAMES):
    with recording_texts() as records:
        image = render_image(view, names, lang)
    return image, records


def _hand_top(view):
    """Where a seat's cards begin on its image: the band under the board, or the top of its
    image of the cards alone."""
    return 0 if hand_alone(view) else PRIVATE_TOP


def _shows_last_raid(view):
    return bool(view["raid"]) and not view["raid"]["open"] and any(
        r.text.startswith("Last raid") for r in _texts(view, "en")[1])


BUSY = {
    "raid": _first(lambda v: v["phase"] == "combat" and v["raid"] and len(v["raid"]["rounds"]) == 2),
    "after_raid": _first(lambda v: v["last_scoring"] is not None and _shows_last_raid(v)),
    "acting": _first(lambda v: v["phase"] == "act" and v["used"]),
    "end": STATES[-1],
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(BUSY))
def test_busiest_boards_keep_the_phone_standard(name, lang):
    """Every text at least MIN_TEXT, on the image, overlapping none: the public board and every
    seat's own image (its raid cards), with Latin names and with names in other scripts."""
    state = BUSY[name]
    assert GAME.view(state, None)["over"] == (name == "end")
    for names in (NAMES, WIDE_NAMES):
        for seat in (None, *range(5)):
            view = GAME.view(state, seat)
            image, records = _texts(view, lang, names)
            assert image.size == ((1080, HAND_ALONE_HEIGHT) if hand_alone(view) else (1080, 1350))
            assert records and readable_problems(records, image.size) == [], (seat, names)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(BUSY))
def test_the_marks_in_pieces_keep_the_standard_and_nothing_is_covered(name, lang):
    """Every letter on a cube (in the display, the courtyards and the legend), each courtyard's
    count beside its cube, each clan's plate (under the score track, on its panel, in the scoring
    and the raid) and each raid card's value on a seat's own image stands MIN_MARK tall (41 px of
    ink, 11 px on the phone); the track's plates stand apart; and no shape or piece is drawn over
    a text after it, on the public board and every seat's image."""
    state = BUSY[name]
    view = GAME.view(state, None)
    letters = {t(lang, P + "board.letter." + c) for c in "ybgr"}
    with recording_covers() as drawn, recording_texts() as records:
        render_image(view, WIDE_NAMES, lang)
    marks = [r for r in records if r.mark]
    discs = [r for r in marks if r.text.isdigit()][:5]  # the track's, drawn before the panels' and the raid's
    assert sorted(r.text for r in discs) == [str(seat + 1) for seat in range(5)]
    assert all(sum(r.text == str(seat + 1) for r in marks) >= 2 for seat in range(5))  # and each panel's
    cube_letters = [r for r in records if r.text in letters]
    assert cube_letters and all(r.mark for r in cube_letters)
    assert len(cube_letters) >= 3 * view["seats"] + 4 + sum(view["display"])  # courtyards, legend, display
    counts = [r for r in marks if r.text in {str(n) for n in range(100)}]
    assert len(counts) >= 5 + 3 * view["seats"]  # the track's plates and every courtyard count at least
    assert mark_problems(records) == []
    boxes = sorted(r.box for r in discs)
    assert all(first[2] < second[0] for first, second in zip(boxes, boxes[1:]))  # side by side, apart
    assert covered_texts(drawn) == []
    for seat in range(5):
        own = GAME.view(state, seat)
        with recording_covers() as drawn, recording_texts() as records:
            render_image(own, NAMES, lang)
        assert mark_problems(records) == [], seat
        assert covered_texts(drawn) == [], seat
        cards = [r for r in records if r.mark and r.box[1] >= _hand_top(own)]
        assert len(cards) == len(own["private"]["hand"]), seat


def test_every_estate_picture_stands_at_the_marks_standard(monkeypatch):
    """Cattle, castle and monastery (on which the scoring turns) are drawn at least MIN_MARK tall
    on the clans' panels of the busiest boards and in the legend."""
    import renderers.macrobber as macrobber

    drawn = []
    real = macrobber._estate_art

    def spy(draw, kind, box):
        left, top, right, bottom = macrobber.ART_EXTENT[kind]
        scale = min((box[2] - box[0]) / (right - left), (box[3] - box[1]) / (bottom - top))
        drawn.append((kind, scale * (bottom - top)))
        return real(draw, kind, box)

    monkeypatch.setattr(macrobber, "_estate_art", spy)
    for state in BUSY.values():
        for lang in ("en", "de"):
            macrobber._estate_piece.cache_clear()
            render_image(GAME.view(state, None), WIDE_NAMES, lang)
    assert {kind for kind, _ in drawn} == {"cattle", "castle", "monastery"}
    assert min(height for _, height in drawn) >= MIN_MARK, sorted(drawn, key=lambda item: item[1])[:3]
    macrobber._estate_piece.cache_clear()


@pytest.mark.parametrize("players", [3, 5])
def test_every_mark_of_whole_games_keeps_the_standard(players, monkeypatch):
    """Every seventh state of whole games, the public board and the active seat's image, in turn
    in both languages: every letter and number in a piece and every estate picture at least
    MIN_MARK tall, however much the board holds."""
    import renderers.macrobber as macrobber

    lowest = []
    real = macrobber._estate_art

    def spy(draw, kind, box):
        left, top, right, bottom = macrobber.ART_EXTENT[kind]
        lowest.append(min((box[2] - box[0]) / (right - left), (box[3] - box[1]) / (bottom - top)) * (bottom - top))
        return real(draw, kind, box)

    monkeypatch.setattr(macrobber, "_estate_art", spy)
    macrobber._estate_piece.cache_clear()
    checked = 0
    for seed in (1, 3):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed=seed)
        for index in range(400):
            if GAME.outcome(state) is not None:
                break
            if index % 7 == 0:
                for viewer in (None, state.active):
                    _, records = _texts(GAME.view(state, viewer), ("en", "de")[index // 7 % 2], WIDE_NAMES)
                    assert mark_problems(records) == [], (seed, index, viewer)
                    checked += sum(record.mark for record in records)
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    assert checked > 1000 and lowest and min(lowest) >= MIN_MARK
    macrobber._estate_piece.cache_clear()


def test_cubes_chosen_to_be_drawn_again_are_crossed_out_behind_their_letters():
    """The Biggest Following's cubes chosen to be drawn again: crossed out, the letter still on top
    (not covered) and at the standard."""
    state = next(s for s in STATES if any(GAME.view(s, None)["marked"]))
    view = GAME.view(state, None)
    with recording_covers() as drawn, recording_texts() as records:
        render_image(view, NAMES, "en")
    letters = [r for r in records if r.mark and r.text in {"Y", "B", "G", "R"}]
    assert len(letters) == sum(view["display"]) + 3 * view["seats"] + 4
    assert mark_problems(records) == [] and covered_texts(drawn) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_redraw_wraps_its_cubes_onto_a_second_line(lang):
    """Six cubes drawn and six drawn again: the row of the turn's story keeps every cube whole on
    the image, its letter at the standard, the words after them, nothing on top of another."""
    view = copy.deepcopy(GAME.view(BUSY["raid"], None))
    assert sum(view["display"]) == 0 and view["done"]
    view["drawn"] = {"cubes": [2, 2, 1, 1], "redrew": [1, 2, 2, 1]}
    image, records = _texts(view, lang, WIDE_NAMES)
    letters = {t(lang, P + "board.letter." + c) for c in "ybgr"}
    drawn_row = [r for r in records if r.text in letters and r.box[1] < records[0].box[3] + 300]
    assert len(drawn_row) == 12
    assert readable_problems(records, image.size) == [] and mark_problems(records) == []
    done = ", ".join(t(lang, P + "board.did." + verb) for verb in view["done"])
    assert t(lang, P + "board.done", actions=done) in [r.text for r in records]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_tracks_end_and_the_red_parts_words_are_both_shown_whole(lang):
    """The track's end ("50") is drawn, and the words saying that the game can end there stand
    whole beside it, in both languages."""
    _, records = _texts(GAME.view(BUSY["acting"], None), lang)
    texts = [r.text for r in records]
    assert "50" in texts and t(lang, P + "board.red_zone") in texts


def test_the_panels_keep_room_for_their_two_lines_in_whole_games(monkeypatch):
    """However much the board holds above and below them (a status on two lines, the estates
    removed, a redraw, the scoring, the last raid on three lines), each of five panels keeps the
    height its top line and its estates need."""
    import renderers.macrobber as macrobber

    steps = []
    real = macrobber._panel_parts

    def spy(view, who, lang, top, bottom):
        steps.append((bottom - top) // view["seats"])
        return real(view, who, lang, top, bottom)

    monkeypatch.setattr(macrobber, "_panel_parts", spy)
    for seed in (1, 2, 3):
        for state in _states(seed)[::3]:
            for lang in ("en", "de"):
                macrobber.render(GAME.view(state, None), WIDE_NAMES, lang)
    assert len(steps) > 200 and min(steps) >= 108


# ----------------------------------------------------------------------------------------
# One vocabulary on the board and on the buttons

THINGS = {  # what the buttons name, and the board's word for it
    "yellow": P + "colour.y", "blue": P + "colour.b", "green": P + "colour.g", "red": P + "colour.r",
    "courtyard": P + "board.courtyard", "estate": P + "board.estate", "display": P + "board.display",
    "warrior": P + "board.role.y", "piper": P + "board.role.b", "monk": P + "board.role.g",
    "cattle": P + "board.cattle", "castle": P + "board.castle", "monastery": P + "board.monastery",
    "bard": P + "board.did.bard",
}


def _named(word: str, texts) -> bool:
    """Whether `word` begins a word in one of `texts` ("Mönch" in "Mönche: 2 Grün")."""
    pattern = re.compile(r"(?<!\w)" + re.escape(word), re.IGNORECASE)
    return any(pattern.search(text) for text in texts)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_board_names_things_with_the_buttons_words(lang):
    """Colours, places and characters: the word the board draws for each is the word the
    buttons (describe of the legal moves) use for it, and over a game both name every one."""
    buttons, board = set(), set()
    for state in STATES[::3]:
        for seat in GAME.to_act(state):
            buttons |= {translate(GAME.describe(state, seat, action), lang, NAMES)
                        for action in GAME.legal_actions(state, seat)}
        board |= {r.text for r in _texts(GAME.view(state, None), lang)[1]}
    for thing, ident in THINGS.items():
        word = t(lang, ident)
        assert _named(word, buttons), f"the buttons never say {word!r} ({thing})"
        assert _named(word, board), f"the board never says {word!r} ({thing})"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_cube_carries_its_colours_initial_and_no_other_marks(lang):
    """One set of marks: a cube's letter is the initial of its colour's word (as the buttons say
    it), in the display, the courtyards and the legend; no other letters (W/P/M, K/D/M) remain."""
    letters = {t(lang, P + "board.letter." + c): t(lang, P + "colour." + c) for c in "ybgr"}
    assert len(letters) == 4
    for letter, word in letters.items():
        assert word.lower().startswith(letter.lower()), (letter, word)
    for state in (STATES[0], BUSY["acting"], BUSY["raid"], STATES[-1]):
        view = GAME.view(state, None)
        _, records = _texts(view, lang)
        marks = [r.text for r in records if len(r.text) <= 2 and r.text.isalpha()]
        assert set(marks) <= set(letters), set(marks) - set(letters)
        yard = [letters[t(lang, P + "board.letter." + c)] for c in "ybg"]
        for word in yard:  # one cube per clan's courtyard and one in the legend
            letter = next(k for k, v in letters.items() if v == word)
            assert marks.count(letter) >= view["seats"] + 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_legend_explains_every_mark_and_the_notes_are_words(lang):
    """The legend gives each colour its word, its courtyard character and its estate picture,
    and what the Biggest Following flag means; the clans' notes say in words who is the start
    player, who must act now (at the end: who won) and what the last scoring gave."""
    view = GAME.view(BUSY["after_raid"], None)
    _, records = _texts(view, lang)
    words = [r.text for r in records]
    for ident in ("board.courtyard", "board.estate", "board.follower_legend", "board.role.y", "board.role.b",
                  "board.role.g", "board.cattle", "board.castle", "board.monastery", "colour.y", "colour.r"):
        assert t(lang, P + ident) in words, ident
    start = t(lang, P + "board.start")
    to_act = t(lang, P + "board.lit_to_act")
    assert sum(start in w for w in words) == 1
    assert sum(to_act in w for w in words) == len(view["to_act"]) >= 1
    scoring = view["last_scoring"]
    assert t(lang, P + "board.scoring", round=scoring["round"]) in words
    assert all(t(lang, P + "board.points", points=row["total"]) in words for row in scoring["rows"])
    end = GAME.view(STATES[-1], None)
    words = [r.text for r in _texts(end, lang)[1]]
    assert sum(t(lang, P + "board.lit_won") in w for w in words) == len(end["winners"])
    assert not any(to_act in w for w in words)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_legends_columns_stand_apart(lang):
    """With cubes as large as the marks' standard the legend's table still keeps its columns
    apart: in each row, one text ends at least 16 px (4 px on the phone) before the next begins,
    so two columns' words never read as one ("Dudelsackspieler Mönch")."""
    _, records = _texts(GAME.view(BUSY["acting"], None), lang, WIDE_NAMES)
    letters = {t(lang, P + "board.letter." + c) for c in "ybgr"}
    rows: dict[int, list] = {}
    for record in records:
        if record.box[1] >= PRIVATE_TOP:
            rows.setdefault((record.box[1] + record.box[3]) // 46, []).append(record)
    assert len(rows) >= 3
    for row in rows.values():
        ordered = sorted(row, key=lambda record: record.box[0])
        for first, second in zip(ordered, ordered[1:]):
            if first.text not in letters:  # a cube and its colour's word belong together
                assert second.box[0] - first.box[2] >= 16, (first.text, second.text)


def test_the_dm_image_draws_the_hand_as_large_cards():
    """A seat's own image shows every raid card it holds, each value at least 64 px (the
    standard's 40 px were boxes of 15 px on a phone before), in the band of the legend."""
    for state in (BUSY["raid"], BUSY["acting"], STATES[-1]):
        for seat in range(5):
            view = GAME.view(state, seat)
            hand = view["private"]["hand"]
            if not hand:
                continue
            image, records = _texts(view, "de")
            cards = [r for r in records if r.box[1] >= _hand_top(view) and r.text.isdigit()]
            assert sorted(int(r.text) for r in cards) == sorted(hand)
            assert min(r.size for r in cards) >= 64 > MIN_TEXT
            assert readable_problems(records, image.size) == []


def test_the_face_down_card_is_on_the_attackers_image():
    state = next(s for s in STATES if GAME.view(s, None)["raid"] and GAME.view(s, None)["raid"]["played"]
                 and GAME.view(s, None)["raid"]["open"])
    attacker = GAME.view(state, None)["raid"]["attacker"]
    view = GAME.view(state, attacker)
    _, records = _texts(view, "en")
    assert t("en", P + "board.your_face_down", card=view["private"]["face_down"]) in [r.text for r in records]


def test_the_display_row_tells_the_turn_after_the_actions():
    view = GAME.view(BUSY["raid"], None)
    assert sum(view["display"]) == 0 and view["done"]
    _, records = _texts(view, "en")
    words = [r.text for r in records]
    assert "Drawn:" in words
    done = ", ".join(t("en", P + "board.did." + verb) for verb in view["done"])
    assert t("en", P + "board.done", actions=done) in words
    letters = {"Y", "B", "G", "R"}
    drawn = sum(view["drawn"]["cubes"]) + sum(view["drawn"]["redrew"] or [])
    assert len([w for w in words if w in letters]) == drawn + 3 * 5 + 4
    acting = GAME.view(BUSY["acting"], None)
    _, records = _texts(acting, "en")
    shown = [r.text for r in records if r.text in letters]
    assert len(shown) == sum(acting["display"]) + 3 * 5 + 4  # the display, the courtyards, the legend


@pytest.mark.parametrize("which", ["after_raid", "in_a_round"])
def test_an_older_raid_leaves_the_board(which):
    """The previous turn's raid stays, labelled, while the next player draws and acts (across a
    round's end too: the next round's start player follows the last player), then leaves."""
    first = BUSY["after_raid"] if which == "after_raid" else _first(
        lambda v: v["turn"] > 0 and v["raid"] and not v["raid"]["open"] and v["active"] != v["raid"]["attacker"])
    index = STATES.index(first)
    raid = GAME.view(first, None)["raid"]
    following = []
    for state in STATES[index:]:
        view = GAME.view(state, None)
        if view["raid"] != raid or view["over"]:
            break
        following.append((state, view["phase"] in ("redraw", "act", "bard") and view["active"] == first.active))
    kept = [state for state, acting in following if acting]
    gone = [state for state, acting in following if not acting]
    assert kept and gone
    assert all(_shows_last_raid(GAME.view(state, None)) for state in kept)
    for state in gone:
        words = [r.text for r in _texts(GAME.view(state, None), "en")[1]]
        assert not any(w.startswith(("Last raid", "Round 1:")) for w in words)


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
def test_no_word_is_cut_on_five_clan_boards(lang):
    """Nothing but a long name is ever shortened with an ellipsis (notes, raid lines, the
    display's story, the track's red zone)."""
    for state in STATES[::5]:
        for seat in (None, 0):
            _, records = _texts(GAME.view(state, seat), lang)
            assert not [r.text for r in records if "…" in r.text and not any(n in r.text for n in NAMES)]


def test_a_seat_sees_the_table_with_its_cards_only_while_it_decides_from_them():
    """A seat's image shows the board above its cards while it decides from its hand (a discard,
    a raid card, cards to exchange: its DM's decision, kept current while open); otherwise it is
    its cards alone, large, with nothing of the table that would go stale in a DM."""
    from_hand = {"discard", "play", "toss", "draw"}
    seen = {True: 0, False: 0}
    for state in STATES[::3]:
        for seat in range(5):
            view = GAME.view(state, seat)
            if not view["private"]["hand"]:
                continue
            deciding = any(action.verb in from_hand for action in GAME.legal_actions(state, seat))
            image, records = _texts(view, "en")
            assert (image.size == (1080, 1350)) == deciding, (seat, view["status"])
            seen[deciding] += 1
            if not deciding:
                cards = [r for r in records if r.text.isdigit()]
                assert sorted(int(r.text) for r in cards) == sorted(view["private"]["hand"])
                assert min(r.size for r in cards) >= 64 and readable_problems(records, image.size) == []
                assert not any(name in r.text for r in records for name in NAMES)  # no clan, no status
    assert min(seen.values()) >= 10, seen
