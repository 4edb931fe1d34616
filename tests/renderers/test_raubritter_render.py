"""The Raub Ritter renderer draws every phase from views alone, upright for phones, as a small PNG."""
from __future__ import annotations

import random
from functools import partial

import pytest
from PIL import Image, ImageDraw

from games.core import Action
from games.raubritter import GAME
from renderers import common, render_png
from renderers.common import PHONE_SIZE
from renderers.raubritter import hand_alone, render

NAMES = ["Alice", "Bartholomew the Unready of Somewhere Far", "Chloe", "Dmitri"]


def views_of_every_phase(seats: int, seed: int) -> dict[str, list[dict]]:
    """Public and seat views met while playing a game to the end, grouped by phase."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    found: dict[str, list[dict]] = {}
    while True:
        for viewer in (None, 0):
            view = GAME.view(state, viewer)
            bucket = found.setdefault(view["phase"], [])
            if len(bucket) < 4:
                bucket.append(view)
        if GAME.outcome(state) is not None:
            return found
        seat = min(GAME.to_act(state))
        actions = GAME.legal_actions(state, seat)
        # Prefer big stacks so the board gets tall stacks to draw.
        action = actions[-1] if state.phase == "knights" and rng.random() < 0.6 else rng.choice(actions)
        state, _ = GAME.apply(state, seat, action)


@pytest.mark.parametrize("seats", [2, 4])
def test_every_phase_renders_upright_and_small(seats):
    views = views_of_every_phase(seats, seed=seats)
    assert set(views) == {"keep", "lay", "knights", "over"}
    for phase, group in views.items():
        for view in group:
            image = render(view, NAMES[:seats])
            assert isinstance(image, Image.Image)
            width, height = image.size
            if hand_alone(view):  # a seat deciding nothing: its hand alone, a strip
                assert width == PHONE_SIZE[0] and height < 300, (phase, image.size)
            else:
                assert (width, height) == PHONE_SIZE, "upright 4:5 for phones, never square"
            png = render_png(view, NAMES[:seats])
            assert png.startswith(b"\x89PNG") and len(png) < 300_000, (phase, len(png))


def test_full_four_player_board_with_a_seat_view_and_short_name_list():
    views = views_of_every_phase(4, seed=11)
    final = views["over"][0]
    assert len(final["tiles"]) == 96
    png = render_png(final, ["Ann"])  # missing names fall back to P2, P3, ...
    assert len(png) < 300_000
    seat_view = next(v for v in views["lay"] if v["viewer"] == 0)
    assert "private" in seat_view
    render(seat_view, NAMES)


def test_three_player_game_and_mid_turn_highlights_render():
    state = GAME.new_game(3, seed=2)
    for seat in range(3):
        state, _ = GAME.apply(state, seat, Action.parse("keep Pv"))
    first = GAME.legal_actions(state, 0)[0]
    state, _ = GAME.apply(state, 0, first)
    view = GAME.view(state, None)
    assert view["this_turn"] or view["pending_castle"]
    image = render(view, NAMES[:3])
    assert image.size == PHONE_SIZE


# ----------------------------------------------------------------------------------------
# Layout on a phone: big squares early, readable marks, a legend, a large hand


from renderers import raubritter as rr  # noqa: E402
from renderers import raubritter_tiles as rr_tiles  # noqa: E402
from renderers.common import MIN_MARK, MIN_TEXT, ink_height, recording_texts, texts_recorded  # noqa: E402
from tests.renderers.test_table_boards import play_to_end  # noqa: E402

LAYOUT_NAMES = ["Anna", "Bartholomew the Unready of Somewhere Far", "王小明", "Дмитрий"]


def states_of(seats: int, seed: int) -> list:
    return play_to_end(GAME, seats, seed)


def drawn(view: dict, lang: str = "en", names=LAYOUT_NAMES):
    with recording_texts() as texts:
        render(view, names[:view["seats"]], lang)
    return texts


def test_an_early_board_shows_big_squares_and_fills_the_width():
    states = states_of(3, seed=1)
    early, late = GAME.view(states[16], None), GAME.view(states[60], None)
    early_layout, late_layout = rr._layout(early, LAYOUT_NAMES[:3], "en"), rr._layout(late, LAYOUT_NAMES[:3], "en")
    assert early_layout.cell >= 110 and early_layout.cell > late_layout.cell
    min_c, max_c, min_r, max_r = early_layout.window
    # every tile and the ring of free squares around them is in the window (as the area allows)
    lo_c, hi_c, lo_r, hi_r = rr._allowed(early)
    for tile in early["tiles"]:
        assert max(lo_c, min_c) <= tile["col"] - 1 or tile["col"] - 1 < lo_c
        assert tile["col"] + 1 <= max_c or tile["col"] + 1 > hi_c
        assert min_r <= tile["row"] - 1 or tile["row"] - 1 < lo_r
        assert tile["row"] + 1 <= max_r or tile["row"] + 1 > hi_r
    board_w = early_layout.cell * (max_c - min_c + 1)
    board_h = early_layout.cell * (max_r - min_r + 1)
    header = rr._header_height(early_layout.header)
    assert board_w >= 0.9 * (PHONE_SIZE[0] - rr._row_label_width(early) - 12) or board_h >= 0.9 * (
        early_layout.panel_top - header - rr.COL_LABELS - 4 * rr.GAP)
    # the panel follows the board closely: no large empty band
    assert early_layout.panel_top - (early_layout.y0 + board_h) < early_layout.cell


@pytest.mark.parametrize("cell", range(rr_tiles.CELL_MIN, rr.CELL_CAP + 1, 2))
def test_the_marks_on_a_tile_keep_apart_and_at_the_marks_standard_at_any_square_size(cell):
    """A castle laid last turn by seat 3 with four knights, seat 2 on top: where a square holds
    two rows of marks, the building's letter, the tag, the knight and the height each in its own
    quarter; where it holds one (a full area's squares), the knight and the height along the
    bottom. Every one stands MIN_MARK tall (41 px of ink, 11 px on a phone), inside the frames
    drawn over the tile's edge, none touching another, the knight and the height a good gap apart
    (the old "×2" beside the disc read as "•2"); an unoccupied castle shows its letter as large."""
    rr_tiles.tile_image.cache_clear()
    two_rows = rr_tiles.geometry(cell)["two_rows"]
    for letters in (rr_tiles.BUILDING_LETTER, rr._letters("de")):
        _, texts = rr_tiles.tile_image(cell, "forest", "castle", (1,), 4, ("blue", "yellow", "green", "red"),
                                       tuple(sorted(letters.items())), 2)
        expected = [letters["castle"], "3", "2", "4"] if two_rows else ["2", "4"]
        assert sorted(text for _, text, _ in texts) == sorted(expected)
        covered = rr_tiles.frame_width(cell) + 2  # this turn's frame and its white line, over the tile
        for (left, top, right, bottom), text, size in texts:
            assert ink_height(text, size) >= MIN_MARK, (cell, text, size)
            assert min(left, top) >= covered and max(right, bottom) <= cell - covered, (cell, text)
        boxes = [box for box, _, _ in texts]
        for index, first in enumerate(boxes):
            for second in boxes[index + 1:]:
                apart = (first[2] + 3 <= second[0] or second[2] + 3 <= first[0]
                         or first[3] + 3 <= second[1] or second[3] + 3 <= first[1])
                assert apart, (cell, texts)
        knight = next(box for box, text, _ in texts if text == "2")
        height = next(box for box, text, _ in texts if text == "4")
        assert height[0] - knight[2] >= 10, cell  # 3 px on the phone, the plates' edges between
        _, free = rr_tiles.tile_image(cell, "plain", "castle", (), 0, ("blue", "yellow"),
                                      tuple(sorted(letters.items())), None)
        assert [(text, ink_height(text, size) >= MIN_MARK) for _, text, size in free] == [(letters["castle"], True)]
    rr_tiles.tile_image.cache_clear()


def tile_boxes(view: dict, lang: str = "en") -> dict[str, tuple[int, int, int, int]]:
    layout = rr._layout(view, LAYOUT_NAMES[:view["seats"]], lang)
    return {tile["square"]: rr.square_box(layout, tile["col"], tile["row"]) for tile in view["tiles"]}


def inside(box, square) -> bool:
    return square[0] <= box[0] and square[1] <= box[1] and box[2] <= square[2] and box[3] <= square[3]


@pytest.mark.parametrize("seats,seed", [(3, 1), (4, 11)])
def test_every_stack_shows_its_top_knight_and_height_in_its_own_square(seats, seed):
    states = states_of(seats, seed)
    for state in (states[60], states[-1]):
        view = GAME.view(state, None)
        squares = tile_boxes(view)
        texts = drawn(view)
        stacks = [tile for tile in view["tiles"] if tile["knights"]]
        assert any(len(tile["knights"]) > 1 for tile in stacks)
        for tile in stacks:
            mine = [t for t in texts if inside(t.box, squares[tile["square"]])]
            words = [t.text for t in mine]
            assert str(tile["knights"][-1] + 1) in words, (tile, words)
            if len(tile["knights"]) > 1:
                height, top = len(tile["knights"]), tile["knights"][-1] + 1
                assert words.count(str(height)) >= 1 + (height == top), (tile, words)
            assert all(t.size >= MIN_TEXT for t in mine)


LEGEND_WORDS = (("en", ("this turn", "last turn", "Knights to leave:", "3 knights, top one scores")),
                ("de", ("dieser Zug", "letzter Zug", "Ritter zurücklassen:", "3 Ritter, oberster zählt")))


def test_each_players_last_turn_is_framed_tagged_where_there_is_room_and_explained():
    """The tiles each player laid in their last turn are framed in the layer's colour; on a young
    area's large squares a tag top right carries the seat number too (a full area's squares hold
    one row of marks: the stack's); the legend says so, in both languages."""
    states = states_of(3, seed=1)
    young, full = GAME.view(states[12], None), GAME.view(states[40], None)
    assert rr_tiles.geometry(rr._layout(young, LAYOUT_NAMES[:3], "en").cell)["two_rows"]
    assert not rr_tiles.geometry(rr._layout(full, LAYOUT_NAMES[:3], "en").cell)["two_rows"]
    explained = 0
    for view in (young, full):
        assert view["recent_turns"]
        tagged = rr_tiles.geometry(rr._layout(view, LAYOUT_NAMES[:3], "en").cell)["two_rows"]
        for lang, words in LEGEND_WORDS:
            with recording_texts() as texts:
                image = render(view, LAYOUT_NAMES[:3], lang).convert("RGB")
            squares = tile_boxes(view, lang)
            written = [t.text for t in texts]
            if rr._layout(view, LAYOUT_NAMES[:3], lang).legend == rr._legend_lines(view["colours"], lang):
                for word in words:
                    assert word in written, (lang, word)
                explained += 1
            for turn in view["recent_turns"]:
                colour = rr_tiles.PLAYER_COLOURS[view["colours"][turn["seat"]]]
                for square in turn["squares"]:
                    if square in squares and square not in view["this_turn"]:
                        x0, y0, x1, y1 = squares[square]
                        edge = [image.getpixel((x0 + 2, y)) for y in range(y0 + 8, y1 - 8)]
                        assert edge.count(colour) >= len(edge) // 2, square  # the frame
                        corner = (x0 + (x1 - x0) // 2, y0, x1, y0 + (y1 - y0) // 2)  # the tag: top right
                        tag = any(t.text == str(turn["seat"] + 1) and inside(t.box, corner) for t in texts)
                        assert tag == tagged, square
    assert explained >= 2


def test_player_lines_are_never_cut_even_the_final_breakdown():
    states = states_of(4, seed=11)
    for state in (states[30], states[-1]):
        view = GAME.view(state, None)
        for lang in ("en", "de"):
            texts = [t.text for t in drawn(view, lang)]
            layout = rr._layout(view, LAYOUT_NAMES, lang)
            for player, lines in zip(view["players"], layout.details):
                assert all(line in texts and "…" not in line for line in lines)
                joined = " ".join(lines)
                assert str(player["knights_left"]) in joined
                if not view["over"]:  # the tiles left to lay: the pile and the hand
                    assert f" {player['pile'] + len(player['hand_backs'])} " in f" {joined} "
                else:
                    assert joined.count("×") == 3  # castles, villages and towns, none left out
                    won = player["seat"] in view["outcome"]["winners"]
                    assert (("winner" if lang == "en" else "Sieger") in joined) == won


def test_a_seats_own_image_shows_its_hand_large_and_whose_it_is():
    state = GAME.new_game(3, seed=2)
    for viewer in range(3):
        view = GAME.view(state, viewer)
        texts = drawn(view)
        hand_top = rr.PRIVATE_TOP
        letters = [t for t in texts if t.box[1] >= hand_top and t.text in ("C", "V")]
        assert len(letters) == 2 and all(t.size >= 48 for t in letters)  # castle and village, large
        assert any(t.text == str(viewer + 1) and t.box[1] >= hand_top for t in texts)
    images = {render(GAME.view(state, viewer), LAYOUT_NAMES[:3]).tobytes() for viewer in range(3)}
    assert len(images) == 3, "each seat's image differs (its seat disc)"


def test_pasted_tiles_look_like_drawn_ones_and_their_cache_stays_small(monkeypatch):
    view = GAME.view(states_of(3, seed=1)[60], None)
    rr._tile_piece.cache_clear()
    first = render(view, LAYOUT_NAMES[:3]).tobytes()
    assert render(view, LAYOUT_NAMES[:3]).tobytes() == first  # from the cache: the same picture
    monkeypatch.setattr(rr._tile_piece.kept, "budget", 50_000)
    rr._tile_piece.cache_clear()
    assert render(view, LAYOUT_NAMES[:3]).tobytes() == first
    assert 0 < rr._tile_piece.kept.used <= 50_000
    rr._tile_piece.cache_clear()


@pytest.mark.parametrize("seats", [2, 4])
def test_boards_composed_in_their_palette_are_the_boards_drawn_whole(seats, monkeypatch):
    """The usual board is composed in its palette from pieces kept from move to move; it must be,
    pixel for pixel, the board drawn whole on one image (as while the layout tests record texts),
    the table's and every seat's, in both languages, over a whole game."""
    drawn_whole = rr._drawn_whole
    wholes = []

    def counted(*args):
        if not texts_recorded():
            wholes.append(args)
        return drawn_whole(*args)

    monkeypatch.setattr(rr, "_drawn_whole", counted)
    boards = 0
    for step, state in enumerate(states_of(seats, seed=seats + 5)):
        if step % 3:
            continue
        lang = ("en", "de")[step // 3 % 2]
        for viewer in (None, *range(seats)):
            view = GAME.view(state, viewer)
            if hand_alone(view):  # no board
                continue
            composed = render(view, NAMES[:seats], lang)
            with recording_texts():
                whole = render(view, NAMES[:seats], lang)
            assert (composed.mode, composed.size, composed.info.get("private_top"), composed.getpalette()) == \
                (whole.mode, whole.size, whole.info.get("private_top"), whole.getpalette()), (step, viewer)
            assert composed.tobytes() == whole.tobytes(), (step, viewer, lang)
            boards += 1
    assert boards - len(wholes) >= 40 and len(wholes) < boards / 4  # composed but for the first moves


@pytest.mark.parametrize("seats", [2, 4])
def test_hands_composed_in_their_palette_are_the_hands_drawn(seats):
    """A seat's hand (its image of the hand alone, the strip under its board) is composed in the
    palette from pieces every table shares; it must be, pixel for pixel, the hand drawn on one
    RGB image and quantized (as while the layout tests record texts), every seat's, in both
    languages, over a whole game, and on a strip that starts above the hand too."""
    hands = alone = 0
    for step, state in enumerate(states_of(seats, seed=seats + 7)):
        lang = ("en", "de")[step % 2]
        for viewer in range(seats):
            view = GAME.view(state, viewer)
            if not rr.private_shown(view):
                continue
            if hand_alone(view):
                alone += 1
                drawing = partial(render, view, LAYOUT_NAMES[:seats], lang)
            else:
                top = rr.PRIVATE_TOP - (step % 3) * 10
                drawing = partial(rr.private_rows, view, LAYOUT_NAMES[:seats], lang, top)
            composed = drawing()
            with recording_texts():
                drawn = drawing()
            assert (composed.mode, composed.size, composed.getpalette()) == \
                (drawn.mode, drawn.size, drawn.getpalette()), (step, viewer)
            assert composed.tobytes() == drawn.tobytes(), (step, viewer, lang)
            hands += 1
    assert hands >= 60 and alone >= 20


def test_open_squares_whose_names_cross_their_frames_are_composed_as_drawn_whole(monkeypatch):
    """On a full area's smallest squares a long name ("J10") crosses its square's frame: that
    square is composed as a piece of its own (square, frame, name); the board must still be,
    pixel for pixel, the board drawn whole."""
    named = []
    piece = rr._named_square_piece

    def counted(*args):
        named.append(args)
        return piece(*args)

    monkeypatch.setattr(rr, "_named_square_piece", counted)
    boards = 0
    for seed in (12, 16):
        for step, state in enumerate(states_of(4, seed=seed)):
            view = GAME.view(state, None)
            before = len(named)
            composed = render(view, NAMES, "en")
            if len(named) == before:
                continue
            with recording_texts():
                whole = render(view, NAMES, "en")
            assert composed.tobytes() == whole.tobytes(), (seed, step)
            boards += 1
    assert boards >= 3


def test_tiles_composed_of_a_ground_and_plates_are_the_tiles_drawn_whole():
    """A laid tile in the palette is its ground (kept for every tile alike at its size) with its
    stack's plates pasted on it; it must be, pixel for pixel, the tile drawn whole and quantized,
    at every square size, on every terrain, with every stack and last turn."""
    rng = random.Random(5)
    colours = ("blue", "yellow", "green", "red")
    letters = tuple(sorted(rr._letters("de").items()))
    for _ in range(400):
        cell = rng.choice((84, 88, 93, 104, 110, 118, 125, 140, 168, 200, 240))
        terrain = rng.choice(("plain", "forest", "mountain", "lake"))
        building = rng.choice((None, "castle", "village", "town"))
        height = rng.choice((0, 1, 2, 3, 7))
        top_knight = (rng.randrange(4),) if height else ()
        last_seat = rng.choice((None, 0, 1, 3))
        args = (cell, terrain, building, top_knight, height, colours, letters, last_seat)
        patch, _ = rr_tiles.tile_image.__wrapped__(*args)
        assert rr._tile_piece.__wrapped__(*args).tobytes() == common.to_palette(patch, rr._palette()).tobytes(), args


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_players_boxes_composed_in_their_palette_are_the_boxes_drawn_whole(seats):
    """A player's box is composed in the palette from its panel, its disc and its words (drawn over
    the panel, whose colours quantizing does not all keep exactly); it must be, pixel for pixel,
    the box drawn on one RGB image and quantized: to act, idle, won, in every phase, in both
    languages, with long names and names in other scripts."""
    composed = 0
    for step, state in enumerate(states_of(seats, seed=seats + 3)):
        lang = ("en", "de")[step % 2]
        view = GAME.view(state, None)
        names = common.seat_names(LAYOUT_NAMES[:seats], seats)
        layout = rr._layout(view, names, lang)
        for box in rr._boxes(view, layout):
            args = (box.player, names[box.player["seat"]], lang, rr._box_width(), layout.box_h, box.active, box.won,
                    view["phase"], box.details)
            image = Image.new("RGB", (args[3] + 1, args[4] + 1), common.BACKGROUND)
            rr._draw_box(ImageDraw.Draw(image), box.player, args[1], lang, 0, 0, *args[3:])
            piece = rr._box_composed(*args)
            assert piece is not None, (step, box.player["seat"])
            drawn = common.to_palette(image, rr._palette())
            assert piece.tobytes() == drawn.tobytes(), (step, box.player["seat"], lang)
            composed += 1
    assert composed >= 100


def test_a_kept_piece_is_made_once_and_a_changed_drawing_under_its_key_is_caught(monkeypatch):
    """`common.kept_piece`, what the composed board's status, boxes and legend are kept by."""
    made = []

    def piece(colour):
        made.append(colour)
        return common.to_palette(Image.new("RGB", (30, 20), colour), rr._palette())

    common.forget_kept()
    key = ("a test's piece", 1)
    first = common.kept_piece(key, partial(piece, (1, 2, 3)))
    assert common.kept_piece(key, partial(piece, (1, 2, 3))) is first and len(made) == 1  # kept
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
    assert common.kept_piece(key, partial(piece, (1, 2, 3))) is first and len(made) == 2  # made again, checked
    with pytest.raises(AssertionError):  # a key that does not tell what its piece shows
        common.kept_piece(key, partial(piece, (196, 20, 36)))
    common.forget_kept()


def test_the_status_stays_inside_its_dark_band_on_one_or_two_lines():
    state = GAME.new_game(3, seed=2)
    for lang in ("en", "de"):  # the keep phase's status takes two lines
        for view in (GAME.view(state, None), GAME.view(states_of(3, seed=1)[16], None)):
            header = rr._header_height(rr._layout(view, LAYOUT_NAMES[:3], lang).header)
            status = [t for t in drawn(view, lang) if t.box[1] < header]
            assert status and all(t.box[1] >= 0 and t.box[3] <= header for t in status), status


def test_a_seat_deciding_nothing_sees_its_hand_alone_and_a_deciding_seat_the_table():
    """A seat's image while it decides nothing (another's turn, its keep choice made, the game
    over) is its hand alone, with no table to go stale in its DM; while it decides, the table
    around its hand. Its hand's tiles and its knights and tiles left are on both."""
    rng = random.Random(7)
    state = GAME.new_game(4, seed=7)
    seen = {True: 0, False: 0}
    while GAME.outcome(state) is None and sum(seen.values()) < 200:
        for seat in range(4):
            view = GAME.view(state, seat)
            if not view["private"]["hand"]:
                continue
            deciding = seat in GAME.to_act(state)
            assert hand_alone(view) is not deciding, (seat, view["phase"])
            with recording_texts() as texts:
                image = render(view, NAMES)
            drawn = [text.text for text in texts]
            assert "Your hand:" in drawn, drawn
            if deciding:
                assert image.size == PHONE_SIZE
            else:
                assert image.size[0] == PHONE_SIZE[0] and image.size[1] < 300, image.size
                knights = f"{view['players'][seat]['knights_left']} knights"
                assert any(knights in text for text in drawn), drawn
                # No table: no status, no player's name, no square's name; nothing but the seat's
                # disc, "Your hand:", a letter per tile and the knights and tiles left.
                assert not any(name in text for name in NAMES for text in drawn), drawn
                squares = {tile["square"] for tile in view["tiles"]} | set(view["open_squares"])
                assert not squares & set(drawn), drawn
                assert len(drawn) <= 4 + len(view["private"]["hand"]), drawn
            seen[deciding] += 1
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert seen[True] >= 20 and seen[False] >= 60, seen
