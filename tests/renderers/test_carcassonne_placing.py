"""Carcassonne on a phone: the busiest boards keep the standard (tests/renderers/standard.py), every
numbered choice on the image is where its button says (squares by the grid's letters and numbers
drawn along the landscape's edges, rotations, follower spots), and the placing view shows every
square that fits, at the standard's size, at every placement of whole games."""
from __future__ import annotations

import random
import re

import pytest
from PIL import Image, ImageDraw

from games import REGISTRY
from games.carcassonne.grid import square_name
from games.core import Action
from i18n import t, translate
from renderers import carcassonne as board
from renderers import carcassonne_landscape as land
from renderers.carcassonne import render
from renderers.carcassonne_tiles import shield_boxes
from renderers.common import INK, MIN_TEXT, PHONE_SIZE, SEAT_COLOURS, WHITE, overlapping_texts, recording_texts
from tests.renderers.standard import covered_texts, mark_problems, readable_problems, recording_covers

GAME = REGISTRY["carcassonne"]
NAMES = ["Anna", "王小明", "Bartholomäus der Zögerliche von Irgendwo", "김민준", "Дмитрий"]
LABEL = re.compile(r"(\d+) · \S+ (-?[A-Z]+)(-?\d+)$")


def states_of(seats: int, seed: int, *, normal: bool = True):
    """Every state of one whole game: the normal player's moves, or random ones (which spread
    the landscape wider and leave more squares open)."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    yield state
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        action = GAME.suggest(state, seat, rng) if normal else rng.choice([a for a in legal if a.verb != "back"])
        state, _ = GAME.apply(state, seat, action)
        yield state


def first(states, want):
    return next(state for state in states if want(state))


def the_whole_landscape(state):
    """A placing turn with groups of squares, one shown close up: `back` shows them all."""
    return GAME.apply(state, state.turn, Action("back"))[0]


def labels(state, verb: str, lang: str) -> list[str]:
    seat = min(GAME.to_act(state))
    return [translate(GAME.describe(state, seat, a), lang, NAMES) for a in GAME.legal_actions(state, seat)
            if a.verb == verb]


def drawn_on(view, lang: str):
    with recording_texts() as drawn:
        image = render(view, NAMES[:view["seats"]], lang)
    return image, drawn


def middle(record) -> tuple[float, float]:
    return (record.box[0] + record.box[2]) / 2, (record.box[1] + record.box[3]) / 2


def grid(drawn, lang: str) -> tuple[dict[str, float], dict[str, float]]:
    """Where the landscape's column letters and row numbers stand: {letters: x}, {number: y}
    (not the overview's grid marks, in the header above it)."""
    letters = [r for r in drawn if re.fullmatch(r"-?[A-Z]{1,2}", r.text)]
    lowest = max((middle(r)[1] for r in letters), default=0)
    columns = {r.text: middle(r)[0] for r in letters if abs(middle(r)[1] - lowest) <= 14}
    if not columns:
        return {}, {}
    left = min(columns.values())
    heading = min(r.box[1] for r in drawn if r.text == t(lang, "carcassonne.board.points_heading"))
    letters_bottom = max(r.box[3] for r in drawn if r.text in columns)
    rows = {r.text: middle(r)[1] for r in drawn if re.fullmatch(r"-?\d+", r.text) and r.size == MIN_TEXT
            and r.box[2] < left - 10 and letters_bottom <= r.box[1] and r.box[3] <= heading}
    return columns, rows


def texts_at(drawn, text: str, point: tuple[float, float], slack: float = 3) -> list:
    return [r for r in drawn if r.text == text and abs(middle(r)[0] - point[0]) <= slack
            and abs(middle(r)[1] - point[1]) <= slack]


def windows_of(view, lang: str) -> list[dict]:
    """The parts of the landscape drawn: one window, or the panels of squares lying apart."""
    plan = board.layout(view, NAMES[:view["seats"]], lang)
    return [panel["window"] for panel in plan["panels"]] or [plan["window"]]


def check_squares(state, lang: str, view=None) -> None:
    """Every square offered carries its button's number, at least 40 px, on the square the
    button names by the column letter drawn over it and the row number drawn left of it (the
    grid along the edges of the landscape or of its panel); nothing breaks the standard."""
    view = view or GAME.view(state, None)
    image, drawn = drawn_on(view, lang)
    assert image.size == PHONE_SIZE
    assert not readable_problems(drawn, image.size)
    windows = windows_of(view, lang)
    offered = labels(state, "at", lang)
    assert offered
    for label in offered:
        number, column, row = LABEL.match(label).groups()
        x, y = next((x, y) for x in range(-30, 30) for y in range(-30, 30) if square_name(x, y) == column + row)
        window = next(w for w in windows if land.inside(w, x, y))
        px, py = land.origin(window, x, y)
        centre = (px + window["size"] / 2, py + window["size"] / 2)
        found = texts_at(drawn, number, centre, slack=6)  # 64 px digits: their ink a little under the middle
        assert found and all(r.size >= MIN_TEXT for r in found), (label, centre)
        letters = [r for r in drawn if r.text == column and abs(middle(r)[0] - centre[0]) <= 6
                   and window["top"] - land.LABEL_H - 4 <= r.box[1] and r.box[3] <= window["top"]]
        numbers = [r for r in drawn if r.text == row and abs(middle(r)[1] - centre[1]) <= 6
                   and window["left"] - land.LABEL_W - 4 <= r.box[0] and r.box[2] <= window["left"]]
        assert letters and numbers, (label, window)


# ----------------------------------------------------------------------------------------
# The busiest boards


def busiest_views() -> dict[str, dict]:
    normal = list(states_of(5, 9))
    spread = list(states_of(5, 3, normal=False))
    views = {"finished": normal[-1], "finished, spread wide": spread[-1]}
    for tiles in (30, 60):
        for phase in ("place", "rotate", "follower"):
            views[f"{phase} at {tiles} tiles"] = first(normal, lambda s, phase=phase, tiles=tiles: s.phase == phase
                                                        and len(s.board.tiles) >= tiles)
    views["groups of squares"] = the_whole_landscape(first(spread, lambda s: s.phase == "place"
                                                           and s.area is not None and len(s.fits) > 24))
    views["a group chosen"] = first(spread, lambda s: s.phase == "place" and s.area is not None)
    for count in (2, 3):
        views[f"squares in {count} panels"] = first(normal, lambda s, count=count: s.phase == "place"
                                                    and len(s.board.tiles) > 20
                                                    and panel_count(s) == count)
    views["robber"] = first(spread, lambda s: s.phase == "robber" and len(s.board.tiles) > 40)
    views["follower, many spots"] = first(spread, lambda s: s.phase == "follower"
                                          and len(GAME.legal_actions(s, s.turn)) >= 4)
    result = {label: GAME.view(state, None) for label, state in views.items()}
    for label in ("place at 60 tiles", "rotate at 60 tiles", "follower at 60 tiles"):
        whole = dict(result[label], landscape="whole")
        result[f"{label}, whole landscape asked for"] = whole
    return result


@pytest.fixture(scope="module")
def busiest():
    return busiest_views()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_busiest_boards_keep_the_phone_standard(busiest, lang):
    """No text under 40 px, none off the image, none over another, on the finished five-player
    board, mid-game placing views, the robber step and the whole landscape asked for."""
    for label, view in busiest.items():
        image, drawn = drawn_on(view, lang)
        assert image.size == PHONE_SIZE
        assert not readable_problems(drawn, image.size), label
        # every follower on the landscape shown carries its seat number
        digits = {r.text for r in drawn if r.text.isdigit()}
        assert {str(f["seat"] + 1) for f in view["meeples"]} <= digits, label


CLOSE_UPS = ("rotate at 30 tiles", "follower at 30 tiles", "rotate at 60 tiles", "follower at 60 tiles",
             "a group chosen", "squares in 2 panels", "squares in 3 panels", "follower, many spots")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_numbers_in_pieces_keep_the_marks_standard_and_nothing_is_covered(busiest, lang, monkeypatch):
    """No shape or piece is drawn over a text after it, on any of the busiest boards. On the
    close-ups (the decisions: squares, rotations, follower spots) every number inside a piece
    stands MIN_MARK tall (41 px of ink, 11 px on a phone): followers' seats, spots', squares',
    rotations' and groups' numbers, the players' seat plates. The whole landscape (picking a
    group, at the end, in the robber step, asked for) draws its tiles at 30-80 px: its marks
    spill over the tiles round them at that size, but on the smallest (under SPILLING_TILE, a
    landscape spread wide over the robber step's track) or where they jam, only the followers'
    and spots' numbers may stand under it (40 px type, 29 px of ink), nothing else."""
    followers: list[tuple[str, float, float]] = []
    original = land.draw_mark
    monkeypatch.setattr(land, "draw_mark", lambda draw, mark: (followers.append((mark["text"],
                                                                                 *land.mark_text_place(mark)[:2])),
                                                                  original(draw, mark)))
    for label, view in busiest.items():
        followers.clear()
        with recording_covers() as drawn, recording_texts() as records:
            render(view, NAMES[:view["seats"]], lang)
        assert covered_texts(drawn) == [], label
        assert sum(r.mark for r in records) >= view["seats"], label  # the table's seat plates at least
        small = [r for r in records if r.mark and mark_problems([r])]
        if label in CLOSE_UPS:
            assert small == [], label
        for record in small:
            x, y = middle(record)
            assert any(text == record.text and abs(fx - x) <= 4 and abs(fy - y) <= 6 for text, fx, fy in followers), \
                (label, record)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_name_in_the_status_leaves_the_landscape_its_room(busiest, lang):
    long_names = ["Bartholomäus der Zögerliche von Irgendwo"] * 5
    for label in ("place at 60 tiles", "rotate at 60 tiles", "follower at 60 tiles", "robber", "finished"):
        with recording_texts() as drawn:
            image = render(busiest[label], long_names, lang)
        assert not readable_problems(drawn, image.size), label


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_two_marks_touch_on_the_busiest_boards(busiest, lang, monkeypatch):
    """Followers and free spots are drawn at a size their numbers can be read at, so on small
    tiles they are nudged apart: no two marks' shapes touch."""
    drawn_marks: list[dict] = []
    original = land.draw_mark
    monkeypatch.setattr(land, "draw_mark", lambda draw, mark: (drawn_marks.append(dict(mark)),
                                                                  original(draw, mark)))
    for label, view in busiest.items():
        drawn_marks.clear()
        render(view, NAMES[:view["seats"]], lang)
        boxes = [land.box(mark) for mark in drawn_marks]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (label, a, b)
        # on the close-ups no mark covers a pennant's shield (it counts points)
        for mark in drawn_marks:
            px, py, size = mark["tile"]
            if size >= 150 and mark.get("code"):
                for u0, v0, u1, v1 in shield_boxes(*mark["code"]):
                    shield = (px + u0 * size, py + v0 * size, px + u1 * size, py + v1 * size)
                    a = land.box(mark)
                    assert a[2] < shield[0] or shield[2] < a[0] or a[3] < shield[1] or shield[3] < a[1], (label, mark)


# ----------------------------------------------------------------------------------------
# Numbered choices where their buttons say


@pytest.mark.parametrize("lang", ["en", "de"])
def test_numbered_squares_stand_where_their_buttons_name_them(busiest, lang):
    states = list(states_of(4, 2))
    for tiles in (10, 35, 70):  # the squares of a group (or all of them, lying close together)
        check_squares(first(states, lambda s, tiles=tiles: s.phase == "place" and len(s.board.tiles) >= tiles
                            and GAME.legal_actions(s, s.turn)[0].verb == "at"), lang)


def panel_count(state) -> int:
    view = GAME.view(state, None)
    return len(board.closeup_boxes(view)) if view["closeup"] and state.area is None else 0


def test_the_placing_view_shows_every_square_that_fits_at_every_placement():
    """Four whole games, every placement where squares are offered (all of them, or a group's):
    each square lies in exactly one part of the landscape drawn (one window, or one of two or
    three panels that do not overlap), close up (160 px at least), with every tile beside it
    in the same part, on the image, its number inside it; every tenth placement drawn and read
    back (numbers where their buttons' grid names say)."""
    placements, panels = 0, 0
    for seats, seed, normal in ((5, 11, True), (3, 7, False), (3, 3, True), (3, 5, True)):
        for state in states_of(seats, seed, normal=normal):
            if state.phase != "place" or GAME.legal_actions(state, state.turn)[0].verb != "at":
                continue
            placements += 1
            view = GAME.view(state, None)
            plan = board.layout(view, NAMES[:seats], "en")
            windows = [panel["window"] for panel in plan["panels"]] or [plan["window"]]
            # (all squares at once late in a game: the header grows for the overview's tiles)
            plain = board._header_height(view, board.seat_names(NAMES[:seats], seats), "en", True)
            panels += len(windows) > 1
            offered = land.offered_squares(view)
            assert len(offered) == len([a for a in GAME.legal_actions(state, state.turn) if a.verb == "at"])
            tiles = {(tile["x"], tile["y"]) for tile in view["tiles"]}
            for k, window in enumerate(windows):
                size = window["size"]
                # close up: some 45-55 px a tile on a phone (160 to 200 px here); one group of
                # several down to 148 px (41 px) where the overview finding the others needs the
                # room, late in a game (a landscape of 14 rows and more) 132 px (37 px), and all
                # squares at once down to 132 px where a taller header gives the overview's tiles
                # OVERVIEW_TILE px (test_carcassonne_overview)
                grown = state.area is not None or plan["header"] > plain
                assert size >= (board.LATE_GROUP_CLOSE_UP if grown else 160), (len(state.board.tiles), size)
                right, bottom = window["left"] + window["cols"] * size, window["top"] + window["rows"] * size
                assert 0 <= window["left"] - land.LABEL_W and right <= PHONE_SIZE[0] and bottom <= PHONE_SIZE[1]
                for other in windows[k + 1:]:  # panels side by side or one above the other, none over another
                    o_right = other["left"] + other["cols"] * other["size"]
                    o_bottom = other["top"] + other["rows"] * other["size"]
                    assert (right + land.LABEL_W <= other["left"] or o_right + land.LABEL_W <= window["left"]
                            or bottom + land.LABEL_H <= other["top"] or o_bottom + land.LABEL_H <= window["top"])
            for square in offered:
                holding = [w for w in windows if land.inside(w, square["x"], square["y"])]
                assert len(holding) == 1, square
                x, y = square["x"], square["y"]
                assert all(land.inside(holding[0], *near) for near in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                           if near in tiles), square
            if placements % 10 == 1:
                check_squares(state, "en")
    assert placements >= 30 and panels >= 3


@pytest.mark.parametrize("lang", ["en", "de"])
def test_groups_of_squares_are_numbered_on_the_landscape_like_their_buttons(lang):
    """With squares too far apart for one picture, the buttons offer groups ("2 · Squares 6–9"):
    the whole landscape is shown, each group framed, its number (its button's) on one of its
    squares inside the frame, at the marks' standard; the squares' numbers are the close-up's."""
    state = the_whole_landscape(first(states_of(5, 3, normal=False), lambda s: s.phase == "place"
                                      and s.area is not None))
    groups = labels(state, "group", lang)
    assert len(groups) >= 2
    view = GAME.view(state, None)
    image, drawn = drawn_on(view, lang)
    window = board.layout(view, NAMES[:view["seats"]], lang)["window"]
    assert not window["part"]  # the whole landscape
    frames = land.square_group_boxes(view)
    assert len(frames) == len(groups)
    last = 0
    for label, (x0, y0, x1, y1) in zip(groups, frames, strict=True):
        number, low, high = re.match(r"(\d+) · \S+ (\d+)(?:–(\d+))? · \S+$", label).groups()  # "3 · Square 7" too
        number, low, high = int(number), int(low), int(high or low)
        assert low == last + 1
        last = high
        left, top = land.origin(window, x0, y0)
        right, bottom = left + (x1 - x0 + 1) * window["size"], top + (y1 - y0 + 1) * window["size"]
        tags = [r for r in drawn if r.text == str(number) and r.mark and left <= middle(r)[0] <= right
                and top <= middle(r)[1] <= bottom]
        assert tags, label
        assert not mark_problems(tags), label
    assert last == len(state.fits)
    image = image.convert("RGB")
    for x0, y0, x1, y1 in frames:  # each group framed black along its west edge (marks and tags aside)
        left, top = land.origin(window, x0, y0)
        edge = [image.getpixel((left - 1, y)) for y in range(top, top + (y1 - y0 + 1) * window["size"])]
        assert edge.count(INK) >= len(edge) / 2, (x0, y0, x1, y1)


def test_a_group_shown_first_leaves_the_others_on_the_overview(monkeypatch):
    """While one group of squares is shown close up, every other group's button names its
    corners (`2 · Squares 6–9 · K3–M5`): the header's overview shows the whole landscape with
    every square that fits (its grid marks name its first and last column and row), drawn as
    on the close-up, and frames each other group, white."""
    from games.carcassonne.grid import column_name, row_name

    framed: list[tuple] = []
    squares: list[tuple] = []
    original = ImageDraw.ImageDraw.rectangle

    def rectangle(self, xy, *args, **kwargs):
        if kwargs.get("outline") == WHITE and kwargs.get("width") == 2:
            framed.append(tuple(xy))
        if kwargs.get("fill") == land.EMPTY:
            squares.append(tuple(xy))
        return original(self, xy, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "rectangle", rectangle)
    checked = 0
    for k, state in enumerate(states_of(5, 11)):
        if state.phase != "place" or state.area is None or k % 4:
            continue
        view = GAME.view(state, None)
        groups = labels(state, "group", "en")
        assert len(groups) == len(view["areas"]) - 1
        plan = board.layout(view, NAMES[:5], "en")
        assert plan["window"]["part"] and not plan["panels"]
        x0, y0, x1, y1 = plan["window"]["bounds"]
        assert all(x0 <= sq["x"] <= x1 and y0 <= sq["y"] <= y1 for sq in view["squares"])
        for label in groups:
            corners = [name for name in re.match(r"\d+ · \S+ [\d–]+ · ([^–]+)(?:–(\S+))?$", label).groups() if name]
            for name in corners:
                x, y = next((x, y) for x in range(-30, 30) for y in range(-30, 30) if square_name(x, y) == name)
                assert x0 <= x <= x1 and y0 <= y <= y1, label
        framed.clear()
        squares.clear()
        image, drawn = drawn_on(view, "en")
        header = [r for r in drawn if r.box[3] <= plan["header"]]
        assert {column_name(x0), column_name(x1), row_name(y0), row_name(y1)} <= {r.text for r in header}
        in_header = [xy for xy in framed if xy[3] <= plan["header"]]
        assert len(in_header) == len(groups) + 1  # the others, and the part drawn (lined white)
        # every square where the tile fits stands out on the overview as on the close-up
        assert len([xy for xy in squares if xy[3] <= plan["header"]]) == len(view["squares"])
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_group_shown_close_up_says_in_words_it_is_one_of_several(lang):
    """Over one group of squares close up the picture says which group of how many it is, how
    many of the squares where the tile fits it shows, and that the menu has the others (the
    status is the message's); the overview finding the others is as tall as the close-up's
    least tile size leaves room for, taller than the plain header's where there is room; late in
    a game (a landscape of a dozen rows and more) its tiles are OVERVIEW_TILE px or nearly so."""
    checked = taller = late = 0
    for seats, seed in ((3, 1), (5, 2)):
        for k, state in enumerate(states_of(seats, seed)):
            if state.phase != "place" or state.area is None or k % 3:
                continue
            view = GAME.view(state, None)
            areas = view["areas"]
            words = t(lang, "carcassonne.board.group_shown", count=sum(areas), group=state.area + 1,
                      groups=len(areas), shown=areas[state.area])
            image, drawn = drawn_on(view, lang)
            plan = board.layout(view, NAMES[:seats], lang)
            # (the header's words over the players' table, which stands under them on tall landscapes)
            header = [r.text for r in drawn if r.box[3] <= min(plan["header"], plan["table_top"]) and r.box[0] < 100
                      and not r.mark]
            assert " ".join(header) == words, header
            assert translate(view["status"], lang, NAMES) not in header
            assert not readable_problems(drawn, image.size)
            assert plan["header"] >= board.HEADER_OVERVIEW and plan["window"]["size"] >= board.LATE_GROUP_CLOSE_UP
            taller += plan["header"] > board.HEADER_OVERVIEW + 40
            x0, y0, x1, y1 = plan["window"]["bounds"]
            if y1 - y0 + 1 >= 12:
                box_h = plan["header"] - board.OVERVIEW_MARKS
                assert box_h >= min(board.TALLEST_OVERVIEW, (y1 - y0 + 1) * board.OVERVIEW_TILE) - 20, box_h
                late += 1
            checked += 1
    assert checked >= 10 and taller >= 3 and late >= 3


def test_a_group_close_ups_words_are_never_cut_beside_its_wider_overview():
    """Over one group close up the overview is wider (it finds the other groups): the header's
    words beside it wrap to three lines at most, none cut ("Andere Gruppen: im…" was), in
    either language, at every such placement of whole games."""
    checked = 0
    for seats, seed in ((3, 1), (3, 5), (3, 7), (2, 4), (5, 2), (4, 3)):
        for state in states_of(seats, seed):
            if state.phase != "place" or state.area is None:
                continue
            view = GAME.view(state, None)
            for lang in ("en", "de"):
                names = board.seat_names(NAMES[:seats], seats)
                lines = board._status_lines(view, names, lang, board._status_width(view, True))
                areas = view["areas"]
                words = t(lang, "carcassonne.board.group_shown", count=sum(areas), group=state.area + 1,
                          groups=len(areas), shown=areas[state.area])
                assert len(lines) <= 3 and " ".join(lines) == words, lines
                checked += 1
    assert checked >= 500


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rotations_are_drawn_in_place_numbered_like_their_buttons(lang):
    states = states_of(3, 4)
    state = first(states, lambda s: s.phase == "rotate" and len(s.fits[s.square]) > 1 and len(s.board.tiles) > 20)
    buttons = labels(state, "turn", lang)
    numbers = [int(label.split(" · ")[0]) for label in buttons]
    assert numbers == list(range(1, len(buttons) + 1))
    image, drawn = drawn_on(GAME.view(state, None), lang)
    assert not readable_problems(drawn, image.size)
    # each rotation's panel carries its number on the tile's top left corner (the tile in the middle)
    view = GAME.view(state, None)
    panels = board.layout(view, NAMES[:view["seats"]], lang)["panels"]
    letters = [r for r in drawn if re.fullmatch(r"[A-Z]{1,2}", r.text)  # over the panels (not the overview's)
               and any(p["window"]["top"] - land.LABEL_H - 4 <= r.box[1] and r.box[3] <= p["window"]["top"]
                       and p["window"]["left"] <= middle(r)[0] <= p["window"]["left"] + 3 * p["window"]["size"]
                       for p in panels)]
    corners = [(p["window"]["left"] + p["window"]["size"], p["window"]["top"] + p["window"]["size"]) for p in panels]
    on_panels = [[int(r.text) for r in texts_at(drawn, str(p["number"]), corner, slack=12)]
                 for p, corner in zip(panels, corners)]
    assert on_panels == [[n] for n in numbers]
    # the square chosen, named on the panels' grid, is where each rotation is drawn
    name = square_name(*state.square)
    column = re.match(r"-?[A-Z]+", name).group()
    assert sum(r.text == column for r in letters) == len(numbers)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_follower_spots_are_numbered_on_the_laid_tile_like_the_buttons(lang):
    states = states_of(3, 2, normal=False)
    state = first(states, lambda s: s.phase == "follower" and len(GAME.legal_actions(s, s.turn)) > 3)
    buttons = [int(label.split(" · ")[0]) for label in labels(state, "follower", lang)]
    assert buttons == list(range(1, len(buttons) + 1))
    view = GAME.view(state, None)
    image, drawn = drawn_on(view, lang)
    assert not readable_problems(drawn, image.size)
    columns, rows = grid(drawn, lang)
    laid = view["tiles"][-1]
    name = square_name(laid["x"], laid["y"])
    column, row = re.fullmatch(r"(-?[A-Z]+)(-?\d+)", name).groups()
    size = min(abs(a - b) for a in columns.values() for b in columns.values() if a != b)
    on_tile = sorted(int(r.text) for r in drawn if r.text.isdigit()
                     and abs(middle(r)[0] - columns[column]) < size / 2
                     and abs(middle(r)[1] - rows[row]) < size / 2)
    assert on_tile == buttons


# ----------------------------------------------------------------------------------------
# Where the decision is


def test_while_placing_the_part_around_the_decision_is_large_with_the_whole_in_an_overview():
    states = list(states_of(5, 9))
    for phase in ("rotate", "follower"):
        state = first(states, lambda s, phase=phase: s.phase == phase and len(s.board.tiles) > 40)
        view = GAME.view(state, None)
        window = land.choose_window(view, left=76, top=200, right=1064, bottom=800, focused=True)
        assert window["part"] and window["size"] >= 150
        whole = land.choose_window(view, left=76, top=200, right=1064, bottom=800, focused=False)
        assert not whole["part"] and whole["size"] < window["size"] / 2
    # the overview: the header shows the whole landscape small (its tiles' colours up there)
    state = first(states, lambda s: s.phase == "follower" and len(s.board.tiles) > 40)
    header = render(GAME.view(state, None), NAMES).convert("RGB").crop((500, 0, 1080, board.HEADER - 10))
    colours = {c for _, c in header.getcolors(1 << 20)}
    assert {(118, 168, 78), (214, 160, 98)} <= colours  # field and city


def test_the_whole_landscape_at_the_end_and_when_asked_for():
    states = list(states_of(5, 9))
    final = GAME.view(states[-1], None)
    middle_game = GAME.view(first(states, lambda s: s.phase == "follower" and len(s.board.tiles) > 50), None)
    for view in (final, dict(middle_game, landscape="whole")):
        image, drawn = drawn_on(view, "en")
        columns, rows = grid(drawn, "en")
        xs = {square_name(tile["x"], 0)[:-2] for tile in view["tiles"]}
        ys = {str(tile["y"] + 13) for tile in view["tiles"]}
        assert xs <= set(columns) and ys <= set(rows)


# ----------------------------------------------------------------------------------------
# Marks told apart


def test_a_badge_number_is_dark_on_a_light_seat_colour():
    for seat in range(5):
        image = Image.new("RGB", (60, 60), (245, 239, 226))
        board.badge(ImageDraw.Draw(image), (30, 30), seat)
        inside = {c for _, c in image.crop((16, 16, 44, 44)).getcolors(1 << 12)}
        light = sum(SEAT_COLOURS[seat]) > 450
        assert (INK in inside) == light and (WHITE in inside) == (not light), seat


def test_a_monk_stands_beside_its_chapel_away_from_the_road():
    for code, rot in (("B", 0), ("A", 0), ("A", 1), ("A", 2), ("A", 3)):
        u, v = land.cloister_spot((code, rot))
        assert abs(u - 0.5) >= 0.25 and abs(v - 0.5) >= 0.25
        from games.carcassonne.data import ORIENTED
        edges = ORIENTED[(code, rot)].edges
        sides = {(0.78, 0.78): (1, 2), (0.22, 0.78): (2, 3), (0.78, 0.22): (0, 1), (0.22, 0.22): (3, 0)}[(u, v)]
        assert all(edges[side] != "R" for side in sides)


def test_the_square_chosen_is_marked_apart_from_the_last_tile(monkeypatch):
    """The last tile is framed yellow; the square chosen for the tile is white, ringed black."""
    state = first(states_of(3, 4), lambda s: s.phase == "rotate" and len(s.board.tiles) > 10)
    view = dict(GAME.view(state, None), landscape="whole")
    windows = []
    original = board.draw_landscape
    monkeypatch.setattr(board, "draw_landscape", lambda draw, view, window, *rest: (windows.append(window),
                                                                               original(draw, view, window, *rest)))
    image = render(view, NAMES[:3]).convert("RGB")
    window = windows[0]
    size = window["size"]

    def edge_colours(cell, inset: int) -> set:
        px, py = land.origin(window, cell["x"], cell["y"])
        return {image.getpixel((px + inset, py + size // 2)), image.getpixel((px + size // 2, py + inset))}

    assert edge_colours(view["tiles"][-1], 0) == {(255, 196, 0)}
    assert edge_colours(view["square"], 4) == {INK}
    assert image.getpixel(tuple(v + size // 4 for v in land.origin(window, view["square"]["x"],
                                                                      view["square"]["y"]))) == WHITE


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_board_explains_its_marks_and_the_players_table_in_words(lang):
    states = list(states_of(5, 3, normal=False))
    for state, extra in ((first(states, lambda s: s.phase == "place" and len(s.board.tiles) > 20), ["last_tile"]),
                         (first(states, lambda s: s.phase == "robber"), ["last_tile", "figure", "robber"])):
        _, drawn = drawn_on(GAME.view(state, None), lang)
        words = {r.text for r in drawn}
        for key in ["knight", "thief", "monk", "farmer"] + extra:
            assert t(lang, f"carcassonne.board.legend.{key}") in words, key
        for key in ("points_heading", "followers_heading", "robber_heading"):
            assert t(lang, f"carcassonne.board.{key}") in words
        assert not any(re.search(r"\d+ · |space \d|Feld \d", word) for word in words)


@pytest.mark.parametrize("snug", [False, True])
@pytest.mark.parametrize("kind", ["city", "road", "cloister", "field"])
def test_a_follower_number_stands_clear_inside_its_piece_at_the_standard(kind, snug):
    """A follower's or spot's number (its halo included) lies wholly inside the piece's fill, no
    outline crossing it (a farmer's "2" read as "7"), at every mark size a board uses, snug (the
    whole landscape's small tiles) or not; its type is 40 px at least, and on the close-ups
    (tiles of 150 px and more) its digits stand about 40 px tall (11 px on a phone)."""
    fill = (200, 0, 0)
    for size in sorted({land._mark_size(tile) for tile in range(20, 241)} | set(land.JAMMED_MARKS)):
        for digit in "123456789":
            image = Image.new("RGB", (300, 300), WHITE)
            land.shape(ImageDraw.Draw(image), 150, 150, kind, size, fill, snug)
            mark = {"x": 150, "y": 150, "kind": kind, "m": size, "seat": 0, "count": 1, "text": digit, "snug": snug}
            x, y, text_size = land.mark_text_place(mark)
            assert text_size >= MIN_TEXT
            text = Image.new("L", (300, 300), 0)
            ImageDraw.Draw(text).text((x, y), digit, font=land.font(text_size), fill=255, anchor="mm",
                                      stroke_width=2, stroke_fill=255)
            pixels, ink = image.load(), text.load()
            covered = [(i, j) for i in range(300) for j in range(300) if ink[i, j] > 100 and pixels[i, j] != fill]
            assert not covered, (kind, size, digit, covered[:5])
    for tile in (land.ROOMY_TILE, 130, 150, 180, 200):
        box = land.font(land.mark_text_size(land._mark_size(tile))).getbbox("8", anchor="mm")
        assert box[3] - box[1] >= 36, tile


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whole_landscape_keeps_the_marks_standard_where_its_tiles_hold_it(lang):
    """The whole landscape (asked for, or in the robber step) early in a game, its tiles 108 px
    and more: every follower's number stands at the marks' standard (41 px of ink), as on the
    close-ups; the score track's chips carry theirs so in every robber step."""
    checked = chips = 0
    for state in states_of(3, 2):
        if len(state.board.tiles) > 40:
            break
        view = dict(GAME.view(state, None), landscape="whole")
        window = board.layout(view, NAMES[:3], lang)["window"]
        if state.phase == "robber":
            with recording_texts() as records:
                render(view, NAMES[:3], lang)
            top = board.layout(view, NAMES[:3], lang)["track_top"]
            on_track = [r for r in records if r.mark and r.box[1] >= top and r.box[3] <= board.layout(
                view, NAMES[:3], lang)["table_top"]]
            assert len(on_track) >= 3 and mark_problems(on_track) == []
            chips += 1
        if window["size"] < land.ROOMY_TILE or not view["meeples"] or "left" not in window:
            continue
        with recording_texts() as records:
            render(view, NAMES[:3], lang)
        marks = [r for r in records if r.mark]
        assert len(marks) >= len(view["meeples"]) and mark_problems(marks) == [], window["size"]
        checked += 1
    assert checked >= 3 and chips >= 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_square_the_texts_name_is_shown_or_found_by_the_overviews_grid_marks(lang):
    """The turn's texts name the last round's squares ("Bob places a tile on Q14"): each lies in
    the part drawn large, or the header's overview (the whole landscape, the last round's tiles
    framed yellow) carries grid marks, the first and last columns' letters and rows' numbers."""
    from games.carcassonne.grid import column_name, row_name

    checked = 0
    for k, state in enumerate(states_of(3, 6)):
        if state.phase not in ("place", "rotate", "follower") or k % 3:
            continue
        view = GAME.view(state, None)
        plan = board.layout(view, NAMES[:3], lang)
        named = [(tile["x"], tile["y"]) for tile in view["tiles"][-3:]]
        windows = [panel["window"] for panel in plan["panels"]] or [plan["window"]]
        if all(any(land.inside(w, *square) for w in windows) for square in named):
            continue
        checked += 1
        assert plan["window"]["part"]
        image, drawn = drawn_on(view, lang)
        # the overview stands in the header, or beside three rotations where a fourth would
        room = plan["overview_slot"] or (WIDTH_HALF, 0, PHONE_SIZE[0], plan["header"])
        header = [r for r in drawn if room[0] - 80 <= r.box[0] and r.box[2] <= room[2]
                  and room[1] <= r.box[1] and r.box[3] <= room[3]]
        x0, y0, x1, y1 = plan["window"]["bounds"]
        assert {column_name(x0), column_name(x1)} <= {r.text for r in header}, [r.text for r in header]
        assert {row_name(y0), row_name(y1)} <= {r.text for r in header}
        assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in named)
        top = image.convert("RGB").crop(tuple(int(v) for v in room))
        assert board.HIGHLIGHT in {colour for _, colour in top.getcolors(1 << 20)}
    assert checked >= 10


WIDTH_HALF = PHONE_SIZE[0] // 2


def test_no_mark_covers_a_pennant_on_the_close_ups_of_whole_games(monkeypatch):
    """Followers and free spots on tiles drawn close up keep off the tiles' shields."""
    drawn_marks: list[dict] = []
    original = land.draw_mark
    monkeypatch.setattr(land, "draw_mark", lambda draw, mark: (drawn_marks.append(dict(mark)),
                                                                  original(draw, mark)))
    checked = 0
    for seats, seed in ((3, 2), (5, 9)):
        for state in states_of(seats, seed):
            if state.phase not in ("place", "follower"):
                continue
            drawn_marks.clear()
            render(GAME.view(state, None), NAMES[:seats])
            for mark in drawn_marks:
                px, py, size = mark["tile"]
                a = land.box(mark)
                if size < 150 or not mark.get("code") or not (px <= a[0] and a[2] <= px + size):
                    continue  # (a follower pushed aside by the spots of the tile just laid: not yet)
                for u0, v0, u1, v1 in shield_boxes(*mark["code"]):
                    checked += 1
                    shield = (px + u0 * size, py + v0 * size, px + u1 * size, py + v1 * size)
                    a = land.box(mark)
                    assert a[2] < shield[0] or shield[2] < a[0] or a[3] < shield[1] or shield[3] < a[1], repr(mark)
    assert checked >= 20


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_arrangement_of_panels_the_engine_may_choose_fits_close_up(lang):
    """The engine offers all squares at once only when one picture shows them close up, in one
    of the arrangements of panels it lists (games.carcassonne.closeup); each fits the room
    between the header and the players' table at 160 px tiles at least, with every table size
    and the longest names (a status of three lines)."""
    from games.carcassonne.closeup import CLOSE_UP, arrangements, rows_shown

    def tree(shape, at: list) -> dict:
        """The shape's panels on the landscape, one beside the next from its north-west corner."""
        if isinstance(shape[0], str):
            return {shape[0]: [tree(part, at) for part in shape[1]]}
        x0, y0 = at
        at[0] += shape[0] + 1
        return {"box": [x0, y0, shape[0], shape[1]]}

    long_names = ["Bartholomäus der Zögerliche von Irgendwo"] * 5
    for seats in range(2, 6):
        states = states_of(seats, seats)
        state = first(states, lambda s: s.phase == "place" and len(s.board.tiles) > 50)
        for shape in arrangements(rows_shown(seats)):
            view = GAME.view(state, None)
            corner = [view["bounds"]["min_x"], view["bounds"]["min_y"]]
            view = dict(view, closeup=tree(shape, corner), area=None, areas=[])
            plan = board.layout(view, long_names[:seats], lang)
            windows = [panel["window"] for panel in plan["panels"]] or [plan["window"]]
            assert len(windows) == len(board.closeup_boxes(view))
            top = board._header_height(view, board.seat_names(long_names[:seats], seats), lang, True)
            # at 160 px under the header of the status; a header grown for the overview's tiles
            # (late in a game) takes some of that, down to a group close-up's least
            _, panels, window, _ = board._arranged(view, top, plan["table_top"] - 8, True)
            under_status = [panel["window"] for panel in panels] or [window]
            assert len(under_status) == len(windows) and min(w["size"] for w in under_status) >= CLOSE_UP, shape
            for window in windows:
                assert window["size"] >= (CLOSE_UP if plan["header"] == top else board.LATE_GROUP_CLOSE_UP), \
                    (seats, shape, window["size"])
                assert window["top"] - land.LABEL_H >= top
                assert window["top"] + window["rows"] * window["size"] <= plan["table_top"] - 8
                assert window["left"] + window["cols"] * window["size"] <= PHONE_SIZE[0] - board.MARGIN


def test_late_in_crowded_games_marks_keep_off_the_squares_numbers(monkeypatch):
    """Picking a group late in a crowded game draws the whole landscape small, every square
    numbered, followers everywhere: no mark covers a number and no two marks touch (random
    five-player games, where a follower stands on nearly every tile)."""
    drawn_marks: list[dict] = []
    original = land.draw_mark
    monkeypatch.setattr(land, "draw_mark", lambda draw, mark: (drawn_marks.append(dict(mark)),
                                                                  original(draw, mark)))
    checked = 0
    for seed in (33, 41):
        for state in states_of(5, seed, normal=False):
            if state.phase != "place" or len(state.board.tiles) < 60:
                continue
            if state.area is not None:
                state = the_whole_landscape(state)
            drawn_marks.clear()
            image, drawn = drawn_on(GAME.view(state, None), "de")
            assert not readable_problems(drawn, image.size), len(state.board.tiles)
            boxes = [land.box(mark) for mark in drawn_marks]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (a, b)
            checked += 1
    assert checked >= 20


def test_the_overviews_grid_marks_stand_their_room_apart_first_and_last_marked():
    """The overview's column letters and row numbers: the first and the last column (row)
    marked, and no two marks nearer than the room a mark needs (rounding once put "12" on "13")."""
    for count in range(2, 40):
        for step in range(3, 25):
            for room in (42, 60):
                marked = board._marked(count, step, room)
                assert marked[0] == 0 and (marked[-1] == count - 1 or (count - 1) * step < room)
                assert all((b - a) * step >= room for a, b in zip(marked, marked[1:])), (count, step, marked)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whole_landscape_late_keeps_the_marks_standard_on_small_tiles(lang, monkeypatch):
    """The whole landscape late in a game ("Map: all squares", `/game board`, the end) draws its
    tiles at some 50-80 px: every follower's number still stands at the marks' standard (41 px of
    ink), its mark spilling over the tiles round it, drawn over them; no two marks touch and
    nothing covers a number."""
    drawn_marks: list[dict] = []
    original = land.draw_mark
    monkeypatch.setattr(land, "draw_mark", lambda draw, mark: (drawn_marks.append(dict(mark)),
                                                                  original(draw, mark)))
    small_tiles = 0
    for seats, seed in ((3, 1), (5, 2), (5, 9)):
        states = list(states_of(seats, seed))
        middle_game = first(states, lambda s: s.phase == "place" and len(s.board.tiles) >= 60)
        for view in (GAME.view(states[-1], None), dict(GAME.view(middle_game, None), landscape="whole")):
            drawn_marks.clear()
            with recording_covers() as drawn, recording_texts() as records:
                image = render(view, NAMES[:seats], lang)
            window = board.layout(view, NAMES[:seats], lang)["window"]
            small_tiles += window["size"] < land.ROOMY_TILE
            assert len(drawn_marks) >= len({(f["x"], f["y"], f["kind"], f["sx"], f["sy"]) for f in view["meeples"]})
            assert mark_problems([r for r in records if r.mark]) == [], (seats, window["size"])
            assert covered_texts(drawn) == [] and readable_problems(records, image.size) == []
            boxes = [land.box(mark) for mark in drawn_marks]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (seats, a, b)
            for mark in drawn_marks:  # spilling over the tiles round, a mark hugs its number (a sixth less at least)
                if mark["tile"][2] < land.ROOMY_TILE:
                    snug, roomy = land._extent(mark["kind"], mark["m"], True), land._extent(mark["kind"], mark["m"])
                    assert mark["snug"] and snug[0] * snug[1] <= 0.85 * roomy[0] * roomy[1], mark
    assert small_tiles >= 4


def test_the_overview_numbers_each_other_group_like_the_menu_at_the_text_standard(monkeypatch):
    """While one group of squares is shown close up, the overview carries each other group's
    number, the one its menu entry starts with ("2 · Squares 8–12 · M13–P15"), at the text
    standard, none over another, each at its group's frame (in it where there is room: late in
    a game the overview is some 160 px tall for up to a dozen frames)."""
    framed: list[tuple] = []
    plates: dict[int, tuple[float, float]] = {}
    rectangle, plate = ImageDraw.ImageDraw.rectangle, board.number_plate

    def recording_rectangle(self, xy, *args, **kwargs):
        if kwargs.get("outline") == WHITE and kwargs.get("width") == 2:
            framed.append(tuple(xy))
        return rectangle(self, xy, *args, **kwargs)

    def recording_plate(draw, centre, text, *args, **kwargs):
        plates[int(text)] = centre
        return plate(draw, centre, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "rectangle", recording_rectangle)
    monkeypatch.setattr(board, "number_plate", recording_plate)
    checked = inside = 0
    for seats, seed in ((3, 1), (5, 2)):
        for k, state in enumerate(states_of(seats, seed)):
            if state.phase != "place" or state.area is None or k % 3:
                continue
            view = GAME.view(state, None)
            plan = board.layout(view, NAMES[:seats], "en")
            numbers = [int(label.split(" · ")[0]) for label in labels(state, "group", "en")]
            framed.clear()
            plates.clear()
            image, drawn = drawn_on(view, "en")
            assert sorted(plates) == numbers  # every other group's, as the menu numbers it
            frames = [xy for xy in framed if xy[3] <= plan["header"]][:len(numbers)]  # in the menu's order
            tags = [r for r in drawn if r.box[3] <= plan["header"] and r.text in {str(n) for n in numbers}
                    and any(r.box[0] <= x <= r.box[2] and r.box[1] <= y <= r.box[3] for x, y in plates.values())]
            assert len(tags) == len(numbers)
            assert not readable_problems(tags, image.size)
            assert all(r.size >= MIN_TEXT for r in tags)
            assert not overlapping_texts(tags)
            for number, (x0, y0, x1, y1) in zip(numbers, frames, strict=True):
                x, y = plates[number]
                assert x0 - 80 <= x <= x1 + 80 and y0 - 80 <= y <= y1 + 80, number
                inside += x0 <= x <= x1 and y0 <= y <= y1
                checked += 1
    assert checked >= 40 and inside >= 0.85 * checked
