"""Raub Ritter at the width a phone's Discord client shows it (about 300 px for a 390 px phone):
every text on the busiest boards and DM images at least MIN_TEXT, on the image, never on top
of another; the whole area drawn, its squares never under CELL_MIN; and every square a seat may
choose named on the image that seat chooses on."""
from __future__ import annotations

import io
import random
import re
from functools import cache

import pytest
from PIL import Image, ImageChops

from games.raubritter import GAME
from i18n import translate
from renderers import raubritter as rr
from renderers import raubritter_tiles as rr_tiles
from renderers.common import MIN_MARK, MIN_TEXT, PHONE_SIZE, recording_texts
from tests.renderers.standard import covered_texts, mark_problems, readable_problems, recording_covers

NAMES = ["Anna", "Bartholomew the Unready of Somewhere Far", "王小明", "Дмитрий"]
SQUARE = re.compile(r"\b[A-Z][0-9]{1,2}\b")


@cache
def played(seats: int, seed: int) -> tuple:
    """Every state of a game between computer players (they build tall stacks and fill the area)."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    states = [state]
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
        states.append(state)
    return tuple(states)


def busiest(seats: int, seed: int) -> list:
    """The busiest states of a game: late in the laying (the area nearly full, the squares left
    all round it), a castle's knights late on, and the end."""
    states = played(seats, seed)
    lays = [state for state in states if state.phase == "lay"]
    knights = [state for state in states if state.phase == "knights"]
    return [lays[len(lays) * 3 // 4], lays[-4], knights[-2], states[-1]]


def drawn(view: dict, lang: str):
    rr_tiles.tile_image.cache_clear()  # every text drawn afresh (pasted tiles note theirs too, but to be sure)
    with recording_texts() as texts:
        image = rr.render(view, NAMES[:view["seats"]], lang)
    return image, texts


@pytest.mark.parametrize("seats,seed", [(4, 11), (4, 3), (3, 11), (2, 11)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_busiest_boards_and_dm_images_keep_the_phone_standard(seats, seed, lang):
    for state in busiest(seats, seed):
        for viewer in (None, *range(seats)):
            view = GAME.view(state, viewer)
            image, texts = drawn(view, lang)
            assert texts
            problems = readable_problems(texts, image.size)
            assert not problems, (seats, state.phase, viewer, problems[:5])
            layout = rr._layout(view, NAMES[:seats], lang)
            assert layout.cell >= rr_tiles.CELL_MIN
            # the whole area: every laid tile is on the image
            min_c, max_c, min_r, max_r = layout.window
            assert all(min_c <= tile["col"] <= max_c and min_r <= tile["row"] <= max_r for tile in view["tiles"])


@pytest.mark.parametrize("seats,seed", [(4, 11), (4, 3), (3, 11), (2, 11)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_numbers_in_pieces_are_marks_at_the_standard_and_nothing_is_covered(seats, seed, lang):
    """On the busiest boards and DM images every letter and number inside a piece stands MIN_MARK
    tall (41 px of ink, 11 px on the phone): seat discs, the legend's swatches, the hand's letters
    and, on the tiles of a full area, every stack's top seat and height; and no shape or piece is
    drawn over a text after it."""
    for state in busiest(seats, seed):
        for viewer in (None, seats - 1, state.turn):
            view = GAME.view(state, viewer)
            rr_tiles.tile_image.cache_clear()
            with recording_covers() as shapes, recording_texts() as texts:
                rr.render(view, NAMES[:seats], lang)
            marks = [r for r in texts if r.mark]
            assert mark_problems(marks) == [], (seats, state.phase, viewer)
            assert covered_texts(shapes) == [], (seats, state.phase, viewer)
            if rr.hand_alone(view):  # its hand alone: its seat disc and its tiles' letters
                assert len(marks) >= 1
                continue
            layout = rr._layout(view, NAMES[:seats], lang)
            min_c, max_c, min_r, max_r = layout.window
            board = (layout.x0, layout.y0, layout.x0 + (max_c - min_c + 1) * layout.cell,
                     layout.y0 + (max_r - min_r + 1) * layout.cell)

            def on_board(record, board=board):
                left, top, right, bottom = record.box
                return left >= board[0] and top >= board[1] and right <= board[2] and bottom <= board[3]

            assert len([r for r in marks if not on_board(r)]) >= (1 if viewer is not None else seats)
            stacks = [tile for tile in view["tiles"] if tile["knights"]]
            assert len([r for r in marks if on_board(r)]) >= len(stacks) > 0


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_mark_of_whole_games_keeps_the_standard(seats):
    """Every fifth state of a whole game, the table's image and the image of the seat to act, in
    turn in both languages: from the young area's large squares to the full area's, every letter
    and number inside a piece is MIN_MARK tall."""
    checked = 0
    for index, state in enumerate(played(seats, 5)):
        if index % 5 and GAME.outcome(state) is None:
            continue
        for viewer in (None, min(GAME.to_act(state), default=0)):
            _, texts = drawn(GAME.view(state, viewer), ("en", "de")[index // 5 % 2])
            assert mark_problems(texts) == [], (seats, index, viewer)
            checked += sum(record.mark for record in texts)
    assert checked > 500


def test_the_colour_a_player_is_named_by_is_the_colour_drawn():
    """"Carol (red)" is drawn red, not orange: each player colour's hue is the hue its name says,
    and the names are in both catalogues."""
    import colorsys

    from i18n import t

    hues = {"red": (345, 8), "yellow": (45, 65), "green": (130, 175), "blue": (190, 225)}
    for name, colour in rr_tiles.PLAYER_COLOURS.items():
        hue = colorsys.rgb_to_hsv(*(c / 255 for c in colour))[0] * 360
        low, high = hues[name]
        assert (low <= hue <= high) if low < high else (hue >= low or hue <= high), (name, colour, hue)
        for lang in ("en", "de"):
            assert t(lang, f"raubritter.colour.{name}") != f"raubritter.colour.{name}"
    assert min(sum(abs(a - b) for a, b in zip(rr_tiles.PLAYER_COLOURS["red"], fill))
               for fill in rr_tiles.BUILDING_FILL.values()) > 90  # a red tag is not a building's plate


@pytest.mark.parametrize("seats,seed", [(2, 5), (4, 5)])
def test_every_phase_keeps_the_phone_standard(seats, seed):
    """From the secret keep to the end, every seventh state, the table's image and the seat to
    act's (or the first seat's), in both languages."""
    for index, state in enumerate(played(seats, seed)):
        if index % 7 and GAME.outcome(state) is None:
            continue
        viewer = min(GAME.to_act(state), default=0)
        for view in (GAME.view(state, None), GAME.view(state, viewer)):
            lang = ("en", "de")[index % 2]
            image, texts = drawn(view, lang)
            problems = readable_problems(texts, image.size)
            assert not problems, (index, state.phase, view["viewer"], problems[:5])


def test_a_full_four_player_area_is_drawn_whole_with_its_marks_large():
    """The end of a four-player game: all 96 tiles, the whole 10 x 10 area, squares of at least
    CELL_MIN, each with every stack's top seat and height at MIN_MARK, and each building's
    picture: taller than MIN_MARK, its roof showing above the stack, its letter (MIN_MARK too)
    where no knight stands in front of it."""
    state = played(4, 11)[-1]
    view = GAME.view(state, None)
    assert len(view["tiles"]) == 96
    layout = rr._layout(view, NAMES, "en")
    min_c, max_c, min_r, max_r = layout.window
    assert (max_c - min_c + 1, max_r - min_r + 1) == (10, 10) and layout.cell >= rr_tiles.CELL_MIN
    geometry = rr_tiles.geometry(layout.cell)
    assert not geometry["two_rows"]
    image, texts = drawn(view, "en")
    image = image.convert("RGB")
    letters = 0
    for tile in view["tiles"]:
        box = rr.square_box(layout, tile["col"], tile["row"])
        mine = [text for text in texts if box[0] <= text.box[0] and text.box[2] <= box[2]
                and box[1] <= text.box[1] and text.box[3] <= box[3]]
        expected = ([str(tile["knights"][-1] + 1)] if tile["knights"] else []) + \
            ([str(len(tile["knights"]))] if len(tile["knights"]) > 1 else [])
        if tile.get("building") and not tile["knights"]:
            expected.append(rr_tiles.BUILDING_LETTER[tile["building"]])
            letters += 1
        assert sorted(text.text for text in mine) == sorted(expected), (tile["square"], mine)
        assert mark_problems(mine) == [] and all(text.mark for text in mine)
        if tile.get("building"):
            rows = building_rows(image, box, tile["building"])
            assert rows[-1] - rows[0] >= MIN_MARK, (tile["square"], rows)
            assert rows[0] < box[1] + geometry["row_top"] - MIN_MARK // 2, tile["square"]  # the roof shows
    assert letters


def building_rows(image, box, building: str) -> list[int]:
    """The rows of a square in which its building's colour or its roof's ink is painted."""
    paints = {rr_tiles.BUILDING_FILL[building], rr_tiles.BUILDING_INK}
    left, top, right, bottom = box
    return [y for y in range(top, bottom) if any(image.getpixel((x, y)) in paints for x in range(left, right))]


def test_the_three_buildings_pictures_differ_in_shape_where_knights_stand_before_them():
    """On a full area's square with a knight in front, castle, village and town are told apart by
    their roofs' shapes (and colours): the roof's outline differs between any two by many pixels."""
    cell = 92
    outlines = {}
    for building in ("castle", "village", "town"):
        image, _ = rr_tiles.tile_image(cell, "plain", building, (0,), 2, ("blue", "yellow"), (), None)
        roof = image.convert("RGB").crop((0, 0, cell, rr_tiles.geometry(cell)["row_top"]))
        paints = {rr_tiles.BUILDING_FILL[building], rr_tiles.BUILDING_INK}
        outlines[building] = {(x, y) for x in range(roof.width) for y in range(roof.height)
                              if roof.getpixel((x, y)) in paints}
    for first, second in (("castle", "village"), ("castle", "town"), ("village", "town")):
        assert len(outlines[first] ^ outlines[second]) > 300, (first, second)


def offered_squares(state, seat: int, lang: str) -> set[str]:
    """The squares named in a seat's choices, as the menus and buttons say them (describe)."""
    named: set[str] = set()
    for action in GAME.legal_actions(state, seat):
        words = translate(GAME.describe(state, seat, action), lang, NAMES[:state.seats])
        named.update(name for name in SQUARE.findall(words) if state.geometry.parse(name) is not None)
    return named


def named_in_its_square(texts, layout, square) -> bool:
    box = rr.square_box(layout, *square)
    name = rr_name(square)
    return any(text.text == name and box[0] <= text.box[0] and text.box[2] <= box[2]
               and box[1] <= text.box[1] and text.box[3] <= box[3] and text.size >= MIN_TEXT for text in texts)


def named_by_its_edges(texts, layout, view, square) -> bool:
    """The square's column letter above its column and its row number beside its row."""
    col, row = square
    min_c, max_c, min_r, max_r = layout.window
    if not (min_c <= col <= max_c and min_r <= row <= max_r):
        return False
    left, top, right, bottom = rr.square_box(layout, col, row)
    letter, number = view["grid"]["col_labels"][col], view["grid"]["row_labels"][row]
    above = any(text.text == letter and left <= text.box[0] and text.box[2] <= right and text.box[3] <= layout.y0
                and text.size >= MIN_TEXT for text in texts)
    beside = any(text.text == number and top <= text.box[1] and text.box[3] <= bottom and text.box[2] <= layout.x0
                 and text.size >= MIN_TEXT for text in texts)
    return above and beside


def rr_name(square) -> str:
    return f"{chr(ord('A') + square[0])}{square[1] + 1}"


@pytest.mark.parametrize("seats,seed", [(2, 4), (3, 4), (4, 4)])
def test_every_square_a_seat_may_choose_is_named_on_the_image_it_chooses_on(seats, seed):
    """Laying is chosen in the seat's DM (its menus list the squares): each square offered is
    written in its square on that DM's image. The knights step is chosen on the table's board
    (its buttons name the squares the knights go to): each is found by the column letter above
    it and the row number beside it, on the board and in the DM alike."""
    checked = 0
    for index, state in enumerate(played(seats, seed)):
        if state.phase not in ("lay", "knights") or index % 2:
            continue
        lang = ("en", "de")[index // 2 % 2]
        seat = state.turn
        squares = offered_squares(state, seat, lang)
        if state.phase == "lay":
            view = GAME.view(state, seat)
            _, texts = drawn(view, lang)
            layout = rr._layout(view, NAMES[:seats], lang)
            for name in squares:
                assert named_in_its_square(texts, layout, state.geometry.parse(name)), (index, name)
        else:
            for viewer in (None, seat):
                view = GAME.view(state, viewer)
                _, texts = drawn(view, lang)
                layout = rr._layout(view, NAMES[:seats], lang)
                for name in squares:
                    assert named_by_its_edges(texts, layout, view, state.geometry.parse(name)), (index, name)
        checked += len(squares)
    assert checked > 100


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_squares_never_shrink_under_the_standard_in_a_whole_game(seats):
    """Every state of whole games, the table's image and a seat's: the squares stay at least
    CELL_MIN, and the legend only keeps lines while they are at least LEGEND_CELL."""
    for seed in (1, 2):
        for state in played(seats, seed):
            for viewer, lang in ((None, "en"), (None, "de"), (state.turn, "de")):
                view = GAME.view(state, viewer)
                layout = rr._layout(view, NAMES[:seats], lang)
                assert layout.cell >= rr_tiles.CELL_MIN, (seats, seed, viewer, lang, layout.window)
                assert not layout.legend or layout.cell >= rr.LEGEND_CELL


def test_a_young_area_shows_the_whole_legend_and_a_full_one_the_terrains_first():
    states = played(4, 11)
    young, full = GAME.view(states[20], None), GAME.view(states[-12], None)
    for lang in ("en", "de"):
        every = rr._legend_lines(young["colours"], lang)
        assert rr._layout(young, NAMES, lang).legend == every and len(every) == 2
        shown = rr._layout(full, NAMES, lang).legend
        assert shown == every[:len(shown)]
        assert [item[0] for item in every[0]] == ["label", "plain", "forest", "mountain", "lake"]


def test_a_seats_image_shows_the_legend_lines_its_room_leaves_over(monkeypatch):
    """A seat's image has no player boxes: what its squares (as wide as the image allows) leave
    of the height holds the legend's first lines, never at the cost of a smaller square."""
    shown_somewhere = 0
    for state in busiest(4, 11)[:2] + [played(4, 11)[20]]:
        view = GAME.view(state, state.turn)
        for lang in ("en", "de"):
            layout = rr._layout(view, NAMES, lang)
            every = rr._legend_lines(view["colours"], lang)
            assert layout.legend == every[:len(layout.legend)]
            shown_somewhere += len(layout.legend)
            with monkeypatch.context() as patched:
                patched.setattr(rr, "_legend_lines", lambda colours, lang: [])
                assert rr._layout(view, NAMES, lang).cell == layout.cell
            _, texts = drawn(view, lang)
            if layout.legend:
                assert any(text.text == every[0][0][1] for text in texts)  # "Knights to leave:"
    assert shown_somewhere >= 2


def test_building_letters_and_numbers_stand_out_from_what_they_are_on():
    """White letters on the buildings' plates, dark digits on the white height plate: a contrast
    of at least 4.5:1 (the old letters were grey on grey)."""
    def luminance(colour):
        channels = [value / 255 for value in colour[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    def contrast(a, b):
        high, low = sorted((luminance(a), luminance(b)), reverse=True)
        return (high + 0.05) / (low + 0.05)

    for fill in rr_tiles.BUILDING_FILL.values():
        assert contrast(rr_tiles.WHITE, fill) >= 4.5, fill
    assert contrast(rr.INK, rr_tiles.WHITE) >= 4.5 and contrast(rr.INK, rr.EMPTY_FILL) >= 4.5
    for name, colour in rr_tiles.PLAYER_COLOURS.items():
        assert contrast(rr_tiles.TEXT_ON[name], colour) >= 3, name  # a seat's digit on its disc and tag


def test_a_seats_dm_image_shows_its_own_knights_and_tiles_left():
    """Under the board of the seat that decides, and beside or under the hand alone of the others."""
    state = busiest(4, 11)[0]
    alone = 0
    for seat in range(4):
        view = GAME.view(state, seat)
        player = view["players"][seat]
        image, texts = drawn(view, "en")
        band = [text.text for text in texts if rr.hand_alone(view) or text.box[1] >= rr.PRIVATE_TOP]
        tiles = player["pile"] + len(player["hand_backs"])
        assert any(text.startswith(f"{player['knights_left']} knight") for text in band), band
        assert any(f"{tiles} tile" in text for text in band), band
        if rr.hand_alone(view):
            alone += 1
            assert image.height < 300 and all(text.box[3] <= image.height for text in texts)
        else:
            assert rr._layout(view, NAMES, "en").cell >= rr._layout(GAME.view(state, None), NAMES, "en").cell
    assert alone == 3  # all but the seat whose turn it is


def test_the_images_stay_phone_shaped():
    for state in busiest(4, 11):
        for viewer in (None, state.turn):
            image, _ = drawn(GAME.view(state, viewer), "de")
            assert image.size == PHONE_SIZE


def test_a_moves_dm_images_share_one_drawing_and_the_table_has_its_own(monkeypatch):
    """The seats' images have the same board above their hands (drawn once for all the seats
    that decide, here all making their keep choice); the table's image, with the player boxes
    and the legend, is drawn apart; a seat that decides nothing has its hand alone, drawn apart."""
    import renderers

    drawn_for = []
    real = renderers.render_image
    monkeypatch.setattr(renderers, "render_image", lambda view, *args, **kwargs: drawn_for.append(view["viewer"])
                        or real(view, *args, **kwargs))
    for state, expected in ((played(3, 11)[0], [None, 0]), (busiest(3, 11)[0], [None, 0, 1, 2])):
        drawn_for.clear()
        views = [GAME.view(state, None)] + [GAME.view(state, seat) for seat in range(3)]
        pngs = renderers.render_pngs(views, NAMES[:3], "de")
        assert sorted(drawn_for, key=str) == sorted(expected, key=str), state.phase
        for together, view in zip(pngs, views):  # pixel for pixel what each image drawn alone is
            alone = renderers.render_png(view, NAMES[:3], "de")
            assert ImageChops.difference(pixels(together), pixels(alone)).getbbox() is None


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("seats,seed", [(4, 11), (2, 11)])
def test_boards_drawn_with_what_they_keep_are_the_boards_drawn_afresh(seats, seed):
    """What a board pastes instead of drawing (open squares' names, a hand's tiles, kept parts)
    gives the very pixels drawing it gives: while texts are recorded, those are drawn."""
    states = played(seats, seed)
    for state in (states[len(states) // 4], *busiest(seats, seed)):
        for viewer in (None, state.turn):
            view = GAME.view(state, viewer)
            for lang in ("en", "de"):
                kept = rr.render(view, NAMES[:seats], lang)
                kept = rr.render(view, NAMES[:seats], lang)  # the second time, everything is found
                with recording_texts():
                    afresh = rr.render(view, NAMES[:seats], lang)
                assert kept.tobytes() == afresh.tobytes(), (state.phase, viewer, lang)
