"""Carcassonne board image, phone first: 1080 x 1350 (4:5 upright).

A phone shows the image about 300 px wide, so every number a player must read (a follower's
seat, a square's or a spot's choice number, the grid's letters) is drawn at 40 px or more and
nothing touches. The landscape is therefore drawn where the decision is:

- While placing (the square, the rotation, the follower), the part of the landscape around the
  squares where the tile fits (the engine offers squares far apart in groups lying together;
  picking a group shows the whole landscape with every group framed), around the square
  chosen, or the tile just laid, is drawn close up, with a small overview of the whole
  landscape in the header framing that part, the last round's tiles framed yellow, the squares
  where the tile fits drawn as on the close-up, and grid marks beside it (a square the texts
  name is found there when it lies off the close-up). Over one group of squares close up the
  header says which group of how many it shows and how many of the squares (the message above
  the picture has the status), the legend stands under those words, and the overview grows
  into the room the close-up leaves (late in a game, when the landscape is tall, the close-up's
  tiles give it a few px each, so the other groups are found at a glance; the drawn tile then
  stands under the words, the legend beside it, and the overview takes its room on the right;
  on the tallest landscapes, where that still leaves the overview's tiles small, the players'
  table stands under the words too, without its robber column, and the overview takes the
  header's full height, down to the close-up at a group close-up's size).
  Where all squares are shown at once late in a game, the close-up gives up size for the
  overview's tiles the same way (down to a group close-up's least). While the tile is
  turned or a follower placed the overview grows into the room the close-up leaves at its size
  (beside three rotations it takes the fourth one's room). Its grid marks stand on every second
  row and column where its tiles are 20 px and more, and its frames are 40 px at least.
  Each rotation that fits is shown on the chosen square amid its neighbours, numbered like the
  buttons on the tile's corner; the free follower spots are numbered on the laid tile, each in
  the shape of the follower that would stand there.
- At the end, in the robber and crop-circle steps (the choices lie all over the landscape or on
  the score track) and on request (`view["landscape"] == "whole"`, set by `/game board`), the
  whole landscape as large as it fits.

Column letters and row numbers stand along the top and left edges of the part shown: the engine
names squares by them ("K12", `games.carcassonne.grid`), in its texts and buttons alike. Below
the landscape: the score track in the robber step (where its spaces are the choices), a table of
the players (points, followers at home, where their robber stands) and a legend of the marks.
"""
from __future__ import annotations

from functools import lru_cache, partial
from typing import Any, NotRequired, TypedDict, final

from PIL import Image, ImageDraw

from games.carcassonne.closeup import CLOSE_UP, rows_shown
from games.carcassonne.grid import column_name, row_name
from i18n import t, translate
from renderers import View, common
from renderers.carcassonne_landscape import (
    CAPS,
    EMPTY,
    GRID,
    LABEL_H,
    LABEL_W,
    PANEL,
    Bounds,
    Window,
    choose_window,
    draw_landscape,
    groups_shown,
    paste_tile,
    seat_colour,
    shape,
    square_group_boxes,
    text_width_plain,
)
from renderers.carcassonne_tiles import (
    CITY_FILL,
    CITY_SHADE,
    CLOISTER,
    CROP,
    FIELD,
    GATE,
    GRASS_DARK,
    HOUSE,
    MEADOW,
    PENNANT,
    ROAD,
    ROAD_EDGE,
    ROBBER_MARK,
    ROOF,
    WALL,
    WALL_EDGE,
    WHITE,
)
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MARK_TEXT,
    MIN_TEXT,
    MUTED,
    SEAT_COLOURS,
    Line,
    NotComposable,
    RowsPart,
    board_with_rows,
    fit,
    fixed_palette,
    font,
    ink_on,
    mark_text,
    number_plate,
    palette_board,
    plate_size,
    rows_in_palette,
    seat_names,
    seat_plate,
    settled,
    texts_recorded,
    to_palette,
)

WIDTH, HEIGHT = 1080, 1350
MARGIN = 16
ROW_HIGHLIGHT = (255, 236, 170)

HEADER = 158        # the header's height with the drawn tile
HEADER_OVERVIEW = 198  # ... and while placing: the overview with its grid marks under and left of it
DRAWN_TILE = 134
OVERVIEW = (240, 126)  # the overview's width and height in the plain header (its grid marks besides)
OVERVIEW_WIDEST = 420  # the header overview's largest width while placing (the status's lines beside it)
TALLEST_FOCUSED_OVERVIEW = 420  # its largest height, where the close-up leaves the header room
FRAME_LEAST = MIN_TEXT  # a frame on the overview, wide and tall at least (px)
ROW_MARK = 31  # an overview row number's height (40 px type)
MARKS_APART = 5  # px between two of the overview's grid marks, at least
OVERVIEW_MARKS = HEADER_OVERVIEW - OVERVIEW[1]  # the header's room round the overview: its column letters
TALLEST_OVERVIEW = 280  # the overview's largest height where the close-up leaves the header room
OVERVIEW_NUMBERS = 64  # the row numbers' column left of the overview
OVERVIEW_CARD = 58  # the overview's card under its tiles: round its column letters (a Q's tail too)
OVERVIEW_TILE = 20  # a tile on the overview where the landscape is found at a glance (5-6 px on a phone)
GROUP_OVERVIEW_TILE = 28  # ... and the other groups of squares, framed on it, told apart (8 px on a phone)
OVERVIEW_BIGGEST_TILE = 32  # (a young landscape's overview: larger tiles would only crowd the header)
GROUP_OVERVIEW = 300  # the overview's least width over one group close up (it finds the other groups)
GROUP_CLOSE_UP = 148  # the least tile of one group close up (41 px on a phone) that leaves the overview room
LATE_GROUP_CLOSE_UP = 132  # ... and late in a game, where the overview's rows want more (37 px on a phone)
NAME_LEAST = 180    # a name's room in the players' table beside the overview (longer names cut)
LINE = 50           # a line of 40 px text
TABLE_ROW = 50
TABLE_HEADING = 46
BADGE = 44
LEGEND_ICON = 44

FOLLOWER_OF_KIND = {"city": "knight", "road": "thief", "cloister": "monk", "field": "farmer"}

Box = tuple[int, int, int, int]  # a part of the landscape: (x0, y0, columns, rows)
Frame = tuple[float, float, float, float]  # a box on the image: left, top, right, bottom
LegendItem = tuple[str, str, float]  # (icon, words, x)


@final  # no other keys: told apart from a Window by them
class Overview(TypedDict):
    """What the header's overview frames while panels show the landscape close up: the whole
    landscape's bounds and the parts the panels show (the squares' panels as `frames`, the
    rotations' squares round the chosen one as one box)."""
    part: bool
    bounds: Bounds
    frames: NotRequired[list[Box]]
    x0: NotRequired[int]
    y0: NotRequired[int]
    cols: NotRequired[int]
    rows: NotRequired[int]
    size: NotRequired[int]


class Panel(TypedDict):
    """A panel of the landscape close up: a place where squares are offered, or a rotation of
    the drawn tile on the chosen square (with its rotation, number and top left corner)."""
    window: Window
    rot: NotRequired[int]
    number: NotRequired[int]
    x: NotRequired[int]
    y: NotRequired[int]


class Chain(TypedDict):
    """The chips of one track space's figures, in a row (lane) over or under the track."""
    row: int
    space: int
    left: float
    lane: int
    figures: list[tuple[str, int]]  # ("player" or "robber", seat)
    centre: float


class TrackLayout(TypedDict):
    chains: list[Chain]
    lanes: list[int]  # the lanes of chips over the first row and under the second
    height: int


class Columns(TypedDict):
    """Where the players' table's columns stand (px)."""
    robber: int
    home: int
    points_right: int
    name_width: int


class Plan(TypedDict):
    """Where everything on the board goes (`layout`)."""
    legend: list[list[LegendItem]]
    legend_top: int
    table_top: int
    track: TrackLayout | None
    track_top: int | None
    strip_top: int | None
    panels: list[Panel]
    window: Window | Overview  # the landscape's one window, or with panels what the overview frames
    header: int  # the header's height (px)
    overview_slot: Frame | None  # the overview's room among the panels (three rotations), else in the header
    drawn_at: tuple[int, int] | None  # the drawn tile's top left corner under the status, else top right
    table_beside: int | None  # the players' table's right edge where it stands beside the overview, else None


def render(view: View, names: list[str], lang: str = "en") -> Image.Image:
    names = seat_names(names, view["seats"])
    plan = layout(view, names, lang)
    # The layout tests record the texts `ImageDraw` draws in RGB; the score track's free spaces
    # (the robber's step) are in a colour the palette lacks (`PaletteDraw` would refuse them).
    if texts_recorded() or plan["track"]:
        return _board(view, names, lang, plan, composed=False)
    try:
        composed = _board(view, names, lang, plan, composed=True)
    except NotComposable:  # a drawing the palette cannot give exactly: drawn in RGB
        return _board(view, names, lang, plan, composed=False)
    if common.VERIFY_KEPT_PARTS:
        drawn = _board(view, names, lang, plan, composed=False)
        if composed.tobytes() != drawn.tobytes() or composed.getpalette() != drawn.getpalette():
            raise AssertionError("the board composed in its palette differs from the board drawn in RGB")
    return composed


def _board(view: View, names: list[str], lang: str, plan: Plan, composed: bool) -> Image.Image:
    """The board drawn in RGB and quantized, or `composed` straight in its palette (`PaletteDraw`,
    the tiles' art quantized alone and kept: no quantizing of the whole board, some 2-3 ms of a
    Carcassonne move at a hundred tables), the same pixels."""
    # The legend at the foot is the same on every table's board of a language and phase: its
    # rows are kept in the palette, neither drawn nor quantized again (`board_with_rows`).
    apart = _legend_apart(view, names, lang, plan)
    size = (WIDTH, plan["legend_top"] if apart else HEIGHT)
    draw: ImageDraw.ImageDraw
    if composed:
        image, draw = palette_board(size, _palette())
    else:
        image = Image.new("RGB", size, BACKGROUND)
        draw = ImageDraw.Draw(image)
    if not apart:
        _legend(draw, plan["legend"], plan["legend_top"])
    _draw_above_legend(draw, view, names, lang, plan)
    if not apart:
        return settled(image) if composed else to_palette(image, _palette())
    legend = RowsPart(plan["legend_top"], HEIGHT, ("carcassonne.legend", tuple(map(tuple, plan["legend"]))),
                      partial(_legend_at, plan["legend"]))
    if composed:
        return rows_in_palette(image, (WIDTH, HEIGHT), [legend], _palette())
    return board_with_rows(image, (WIDTH, HEIGHT), [legend], _palette())


def _legend_apart(view: View, names: list[str], lang: str, plan: Plan) -> bool:
    """Whether the legend stands at the board's foot with nothing else drawn in its rows: the
    players' table's last row over it leaves them be, unless a name's ink reaches down into them
    (a name's marks under its letters)."""
    rows = len(plan["legend"])
    if plan["legend_top"] != HEIGHT - MARGIN - rows * LINE + 4 or plan["table_beside"] is not None:
        return False
    last = view["players"][-1]
    y = plan["table_top"] + TABLE_HEADING + (len(view["players"]) - 1) * TABLE_ROW + TABLE_ROW // 2
    name = _fit_text(names[last["seat"]], MIN_TEXT, _columns(lang)["name_width"])
    return y + font(MIN_TEXT).getbbox(name, anchor="lm")[3] <= plan["legend_top"]


def _legend_at(rows: list[list[LegendItem]], draw: ImageDraw.ImageDraw, top: int) -> None:
    """`_legend` with its rows given first (a `RowsPart`'s drawing, its top at `top`)."""
    _legend(draw, rows, top)


def _draw_above_legend(draw: ImageDraw.ImageDraw, view: View, names: list[str], lang: str, plan: Plan) -> None:
    """Everything but the legend: the players' table, the track, the rotations, the landscape, the
    header and the overview."""
    _table(draw, view, names, lang, plan["table_top"], plan["table_beside"])
    if plan["track"] and plan["track_top"] is not None:  # set together in the robber step
        _track(draw, view, plan["track"], plan["track_top"])
    if plan["strip_top"] is not None:
        _rotation_strip(draw, view, plan["strip_top"])
    for panel in plan["panels"]:
        if "rot" in panel:
            _rotation_panel(draw, view, panel)
        else:
            _square_panel(draw, view, panel["window"])
    window = plan["window"]
    if not plan["panels"] and "left" in window:  # without panels the window is a Window (choose_window)
        draw_landscape(draw, view, window)
    # the overview frames the part drawn, and while a group of squares is shown the others
    overview = plan["window"]["part"] or (_focused(view) and len(view.get("areas") or []) > 1)
    in_header = [x + LEGEND_ICON + 8 + text_width_plain(words) for row in plan["legend"] for _, words, x in row
                 if plan["legend_top"] < plan["header"]]
    if plan["table_beside"] is not None:
        in_header.append(plan["table_beside"])
    slot = plan["overview_slot"]
    _header(draw, view, names, lang, plan["window"] if overview and slot is None else None, plan["header"],
            max(in_header, default=0), plan["drawn_at"])
    if overview and slot is not None:
        _overview_in_slot(draw, view, plan["window"], slot)


def layout(view: View, names: list[str], lang: str = "en") -> Plan:
    """Where everything goes, without drawing: from the bottom up the legend, the players' table
    and the track (robber step); from the top down the header and the rotations (a strip, or
    panels that show the rotations in place); the landscape's `window` takes the room between."""
    names = seat_names(names, view["seats"])
    focused = _focused(view)
    top = _header_height(view, names, lang, focused)
    legend = _legend_rows(view, lang)
    drawn_at: tuple[int, int] | None = None
    bottom = HEIGHT - MARGIN - len(legend) * LINE
    legend_top = bottom + 4
    if _group_close_up(view):
        tall = _table_beside_overview(view, names, lang, top)
        if tall is not None:
            return tall
        # over one group close up the legend stands under the header's status where there is
        # room (the header is as tall as its overview): its line goes to the landscape
        lines = len(_status_lines(view, names, lang, _status_width(view, True)))
        left = _status_left(view)
        beside = _legend_rows(view, lang, left, left + _status_width(view, True))
        header = _group_header(view, top, HEIGHT - MARGIN - _table_height(view) - 8)
        # late in a game, where the header is tall, the drawn tile stands under the status with
        # the legend beside it: the overview finding the other groups takes its room on the right
        by_tile = _legend_rows(view, lang, left + DRAWN_TILE + MARGIN, left + _status_width(view, True))
        under = 14 + lines * LINE
        if _drawn_shown(view) and under + max(len(by_tile) * LINE, DRAWN_TILE + 8) + 8 <= header:
            legend, legend_top, bottom, drawn_at = by_tile, under, HEIGHT - MARGIN, (left, under + 4)
        elif under + len(beside) * LINE + 8 <= header:
            legend, legend_top, bottom = beside, under, HEIGHT - MARGIN
    table_top = bottom - _table_height(view)
    bottom = table_top - 8
    track: TrackLayout | None = None
    track_top: int | None = None
    if view["phase"] == "robber":
        track = _track_layout(view)
        bottom -= track["height"] + 8
        track_top = bottom + 8
    if _group_close_up(view):
        top = _group_header(view, top, bottom)
    elif focused:
        top = _overview_header(view, top, bottom)
    strip_top, panels, window, slot = _arranged(view, top, bottom, focused)
    return {"legend": legend, "track": track, "track_top": track_top, "strip_top": strip_top, "panels": panels,
            "legend_top": legend_top, "table_top": table_top, "window": window, "header": top,
            "overview_slot": slot, "drawn_at": drawn_at, "table_beside": None}


def _table_beside_overview(view: View, names: list[str], lang: str, top: int) -> Plan | None:
    """Over one group close up on a tall landscape, late in a game: the header as tall as the
    close-up leaves room for down to the image's foot, the players' table under the status
    (without its robber column: at full width it would leave the overview no room), the drawn
    tile under the table with the legend beside it (the last tile's frame too), and the overview
    on the right as tall as the header. None where the usual layout (the table at the foot)
    gives the overview's tiles GROUP_OVERVIEW_TILE px already or this one none larger. The
    close-up keeps a group close-up's sizes (GROUP_CLOSE_UP where the overview's tiles stay
    GROUP_OVERVIEW_TILE px, else LATE_GROUP_CLOSE_UP)."""
    x0, y0, x1, y1 = bounds = _overview_bounds(view)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    usual = _group_header(view, top, HEIGHT - MARGIN - _table_height(view) - 8)
    usual_tile = min(OVERVIEW_BIGGEST_TILE, (usual - OVERVIEW_MARKS) // rows)
    if usual_tile >= GROUP_OVERVIEW_TILE:
        return None
    left = _status_left(view)
    lines = _status_lines(view, names, lang, _status_width(view, True))
    widest = max((font(MIN_TEXT).getlength(line) for line in lines), default=0)
    widest_item = max(LEGEND_ICON + 8 + text_width_plain(words) for _, words in _legend_items(view, lang, True))
    least_right = max(_table_right_least(names, lang), int(left + max(widest, DRAWN_TILE + MARGIN + widest_item)) + 1)
    table_top = 14 + len(lines) * LINE + 8
    legend_top = table_top + _table_height(view) + 8
    room_w = WIDTH - MARGIN - (least_right + MARGIN + OVERVIEW_NUMBERS)
    bottom = HEIGHT - MARGIN
    close_up_rows = rows_shown(view["seats"])
    found: tuple[int, int, int, list[list[LegendItem]]] | None = None  # header, tile, table's right, legend
    for size in (GROUP_CLOSE_UP, LATE_GROUP_CLOSE_UP):
        header = bottom - LABEL_H - close_up_rows * size
        # the table and the legend take what the overview leaves of the width (its card, the
        # row numbers' column): the overview's tiles as large as leave the legend room beside
        # the drawn tile
        for tile in range(_overview_tile(bounds, room_w, header - OVERVIEW_MARKS), usual_tile, -1):
            table_right = WIDTH - MARGIN - cols * tile - OVERVIEW_NUMBERS - 2 - MARGIN
            legend = _legend_rows(view, lang, left + DRAWN_TILE + MARGIN, table_right, last=True)
            if legend_top + max(len(legend) * LINE, DRAWN_TILE + 8) + 8 <= header:
                found = header, tile, table_right, legend
                break
        if found is not None and found[1] >= GROUP_OVERVIEW_TILE:
            break
    if found is None:
        return None
    header, tile, table_right, legend = found
    strip_top, panels, window, slot = _arranged(view, header, bottom, True)
    return {"legend": legend, "track": None, "track_top": None, "strip_top": strip_top, "panels": panels,
            "legend_top": legend_top, "table_top": table_top, "window": window, "header": header,
            "overview_slot": slot, "drawn_at": (left, legend_top + 4), "table_beside": table_right}


def _arranged(view: View, top: int, bottom: int,
              focused: bool) -> tuple[int | None, list[Panel], Window | Overview, Frame | None]:
    """The landscape under a header `top` px tall, over `bottom`: the rotations' strip's top (the
    whole landscape asked for while turning the tile), the panels, the window (or what the
    overview frames) and the room left free among the panels for the overview (or None)."""
    if focused and _rotations(view):
        panels, shown, slot = _rotation_panels(view, top=top + 8, bottom=bottom)
        return None, panels, shown, slot
    if focused and len(closeup_boxes(view)) > 1:
        panels, shown = _square_panels(view, top=top + 8, bottom=bottom)
        return None, panels, shown, None
    strip_top: int | None = None
    if _rotations(view):  # the whole landscape asked for while turning the tile
        strip_top = top
        top += STRIP
    window = choose_window(view, left=MARGIN + LABEL_W, top=top + LABEL_H, right=WIDTH - MARGIN,
                           bottom=bottom, focused=focused)
    return strip_top, [], window, None


def _close_up_size(panels: list[Panel], window: Window | Overview) -> int:
    """The tile size of the landscape drawn close up (its smallest panel's)."""
    if panels:
        return min(panel["window"]["size"] for panel in panels)
    return window["size"] if "left" in window else 0


def _overview_header(view: View, top: int, bottom: int) -> int:
    """The header's height while a square among panels, the tile's rotations or a follower
    spot is chosen: as tall as the overview wants for tiles of OVERVIEW_BIGGEST_TILE px, as far
    as the close-up keeps the size it has under the plain header (`top` px): the room it leaves
    (the rows a follower's window fills up with, under a single rotation) goes to the overview,
    whose grid marks then stand on every second row and column, its frames at the text standard.
    Not where the panels leave the overview a slot of its own (three rotations), nor where the
    whole landscape is drawn (it fits as large as the close-up would)."""
    _, panels, window, slot = _arranged(view, top, bottom, True)
    if slot is not None or not window["part"]:
        return top
    least = _close_up_size(panels, window)
    _, y0, _, y1 = _overview_bounds(view)
    rows = y1 - y0 + 1

    def tallest(wanted: int, least: int) -> int:
        """The tallest header up to `wanted` px that leaves the close-up `least` px tiles (found
        by halving: the taller the header, the smaller they are)."""
        low, high = top, max(top, wanted)
        while low < high:
            header = (low + high + 1) // 2
            _, panels, window, _ = _arranged(view, header, bottom, True)
            if _close_up_size(panels, window) >= least:
                low = header
            else:
                high = header - 1
        return low

    header = tallest(OVERVIEW_MARKS + min(rows * OVERVIEW_BIGGEST_TILE, TALLEST_FOCUSED_OVERVIEW), least)
    # the overview's marks want more room than the close-up leaves at its size: it gives up some,
    # down to the engine's least close-up, and where the squares are shown all at once already
    # at that size (in panels late in a game), down to a group close-up's least late in a game
    smallest = (CLOSE_UP, LATE_GROUP_CLOSE_UP) if view["phase"] == "place" else (CLOSE_UP,)
    for size in smallest:
        if header - OVERVIEW_MARKS >= rows * OVERVIEW_TILE:
            break
        if least > size:
            header = max(header, tallest(OVERVIEW_MARKS + rows * OVERVIEW_TILE, size))
    return header


def _overview_bounds(view: View) -> Bounds:
    """The squares the overview shows: every tile, and the squares where the tile fits (placing)
    or the square chosen (turning the tile)."""
    cells = [(tile["x"], tile["y"]) for tile in view["tiles"]]
    if view["phase"] == "place":
        cells += [(square["x"], square["y"]) for square in view.get("squares") or []]
    if view.get("square"):
        cells.append((view["square"]["x"], view["square"]["y"]))
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def _group_header(view: View, top: int, bottom: int) -> int:
    """The header's height over one group of squares close up: its overview finds the other
    groups (and the squares the texts name), as tall as the close-up's rows leave room for at
    its usual least tile size (CLOSE_UP); and where the landscape is too tall for its tiles to
    show at GROUP_OVERVIEW_TILE px there (a phone shows them some 8 px: the other groups' frames
    and the grid marks are told apart), as tall as the close-up's rows leave room for at
    GROUP_CLOSE_UP px (the grouping stays: the records replay it); where that leaves them under
    GROUP_OVERVIEW_TILE px still (a landscape of ten rows and more, late in a game), at
    LATE_GROUP_CLOSE_UP px. Three sizes, not one a turn: the first picture at a new tile size
    scales every kind of tile anew (some 100 ms)."""
    rows = rows_shown(view["seats"])
    tallest = OVERVIEW_MARKS + TALLEST_OVERVIEW
    header = top + max(0, min(bottom - (top + LABEL_H) - rows * CLOSE_UP, tallest - top))
    _, y0, _, y1 = _overview_bounds(view)
    wanted = OVERVIEW_MARKS + (y1 - y0 + 1) * GROUP_OVERVIEW_TILE
    for size in (GROUP_CLOSE_UP, LATE_GROUP_CLOSE_UP):
        if header >= wanted:
            break
        header = max(header, bottom - LABEL_H - rows * size)
    return header


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, *SEAT_COLOURS, FIELD, ROAD, ROAD_EDGE, CLOISTER, PENNANT, WHITE,
             EMPTY, GRID, CROP, ROBBER_MARK, (0, 0, 0), CITY_FILL, CITY_SHADE, WALL, WALL_EDGE, ROOF, HOUSE,
             GRASS_DARK, MEADOW, GATE, ROW_HIGHLIGHT, PANEL]
    return fixed_palette(*exact)


def _fit_text(text: str, size: int, width: float) -> str:
    """`text` cut with an ellipsis to `width` at `size` (no smaller type: the standard's least)."""
    return fit(text, size, width, smallest=size)[0]


def _wrap(text: str, size: int, width: float, most: int) -> list[str]:
    """Lines of whole words no wider than `width`, at most `most` (the last one cut)."""
    face = font(size)
    kept: list[Line] = []
    for word in text.split():
        longer = kept[-1].joined(f" {word}") if kept else None
        if longer is not None:
            kept[-1] = longer
        else:
            kept.append(Line(face, width).alone(word))
    lines = [line.text for line in kept]
    if len(lines) > most:
        lines = lines[:most - 1] + [" ".join(lines[most - 1:])]
    return [_fit_text(line, size, width) for line in lines]


def badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int) -> None:
    """A player's mark in a line of text: a plate in the seat colour with the seat number at the
    marks' standard in the ink that reads on it (dark on the light colours: a white number ringed
    in black read as "⊗" on lime)."""
    seat_plate(draw, centre, seat)


# ----------------------------------------------------------------------------------------
# Header, overview and the rotations


def _focused(view: View) -> bool:
    """Whether the landscape is shown around the decision (placing) rather than whole: not
    while a group of squares is to be picked (the whole landscape shows where each lies)."""
    return not view["over"] and view.get("landscape") != "whole" and view["phase"] in CAPS and not groups_shown(view)


def closeup_boxes(view: View) -> list[Box]:
    """The boxes of the landscape (x0, y0, columns, rows) the engine shows the squares offered
    in, in reading order (games.carcassonne.closeup)."""
    def leaves(node: dict[str, Any]) -> list[Box]:
        if "box" in node:
            x0, y0, cols, rows = node["box"]
            return [(x0, y0, cols, rows)]
        return [box for part in next(iter(node.values())) for box in leaves(part)]

    return leaves(view["closeup"]) if view.get("closeup") else []


def _group_close_up(view: View) -> bool:
    """Whether the picture shows one group of the squares where the tile fits close up (the
    others lie elsewhere: the overview frames them, the menu offers them)."""
    return _focused(view) and view.get("area") is not None and len(view.get("areas") or []) > 1


def _rotations(view: View) -> list[int]:
    if view["phase"] == "rotate" and view.get("square") and view.get("drawn"):
        return list(view["square"]["rots"])
    return []


def _status_lines(view: View, names: list[str], lang: str, width: float) -> list[str]:
    """The status, or over one group of squares close up that it shows only some of them (the
    message above the picture has the status; where its words need more than three lines
    beside the overview's GROUP_OVERVIEW px, the overview gives them the room of its usual
    width rather than cut one)."""
    if _group_close_up(view):
        areas = view["areas"]
        text = t(lang, "carcassonne.board.group_shown", count=sum(areas), group=view["area"] + 1,
                 groups=len(areas), shown=areas[view["area"]])
        if len(_wrap(text, MIN_TEXT, width, len(text))) > 3:
            width += GROUP_OVERVIEW - OVERVIEW[0]
    else:
        text = translate(view["status"], lang, names)
    return _wrap(text, MIN_TEXT, width, 3)


def _asked(view: View) -> int | None:
    return view["to_act"][0] if view["to_act"] and not view["over"] else None


def _header_height(view: View, names: list[str], lang: str, focused: bool) -> int:
    """As tall as the status's lines (and the tiles left), and the drawn tile or the overview
    (which stands in the header whenever the landscape is shown around the decision, but in
    the fourth panel's room beside three rotations)."""
    overview = focused and not _overview_among_panels(view)
    lines = len(_status_lines(view, names, lang, _status_width(view, overview)))
    if _tiles_left_shown(view, lines):
        lines += 1
    height = 14 + lines * LINE + 8
    if overview:
        return max(height, HEADER_OVERVIEW)
    return max(height, HEADER) if _drawn_shown(view) else height


def _overview_among_panels(view: View) -> bool:
    """Whether the overview stands where a fourth rotation's panel would (three rotations)."""
    return _focused(view) and len(_rotations(view)) == 3


def _drawn_shown(view: View) -> bool:
    """The drawn tile stands in the header, but while turning it (its rotations show it)."""
    return bool(view.get("drawn")) and not _rotations(view)


def _tiles_left_shown(view: View, lines: int) -> bool:
    """The tiles left, under the status, unless the status says it (placing) or fills the room."""
    return not view["over"] and view["phase"] != "place" and lines < 3


def _status_width(view: View, overview: bool) -> float:
    right = WIDTH - MARGIN
    if _drawn_shown(view):
        right -= DRAWN_TILE + MARGIN
    if overview:  # (over one group close up the overview finding the others is wider)
        right -= (GROUP_OVERVIEW if _group_close_up(view) else _overview_width(view)) + OVERVIEW_NUMBERS + MARGIN
    return right - _status_left(view)


def _overview_width(view: View) -> int:
    """The header overview's width while the tile is placed, turned or a follower placed (not
    over one group close up): room for its columns at OVERVIEW_BIGGEST_TILE px, OVERVIEW[0] at
    least, the status's lines beside it OVERVIEW_WIDEST at most."""
    x0, _, x1, _ = _overview_bounds(view)
    return max(OVERVIEW[0], min(OVERVIEW_WIDEST, (x1 - x0 + 1) * OVERVIEW_BIGGEST_TILE))


def _status_left(view: View) -> int:
    return MARGIN + BADGE + 12 if _asked(view) is not None else MARGIN + 8


def _header(draw: ImageDraw.ImageDraw, view: View, names: list[str], lang: str,
            overview: Window | Overview | None, height: int, legend_right: float = 0,
            drawn_at: tuple[int, int] | None = None) -> None:
    """Whose turn and what they do (with their badge), the tiles left, the drawn tile (top right,
    or under the status at `drawn_at`), and the overview of the whole landscape framing the part
    shown (right of the legend where it stands under the status, to `legend_right`)."""
    left = _status_left(view)
    lines = _status_lines(view, names, lang, _status_width(view, overview is not None))
    y = 14
    asked = _asked(view)
    if asked is not None:
        badge(draw, (MARGIN + BADGE / 2, y + LINE / 2), asked)
    for line in lines:
        draw.text((left, y + LINE / 2), line, font=font(MIN_TEXT), fill=INK, anchor="lm")
        y += LINE
    if _tiles_left_shown(view, len(lines)):
        draw.text((left, y + LINE / 2), t(lang, "carcassonne.board.tiles_left", count=view["pile"]),
                  font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    right = WIDTH - MARGIN
    if _drawn_shown(view):
        x, top = drawn_at or (right - DRAWN_TILE, 12)
        paste_tile(draw, view["drawn"], 0, DRAWN_TILE, (x, top))
        draw.rectangle((x, top, x + DRAWN_TILE, top + DRAWN_TILE), outline=INK, width=3)
        if drawn_at is None:
            right = x - MARGIN
    if overview is not None:
        box_w = OVERVIEW[0] if _group_close_up(view) else _overview_width(view)
        if _group_close_up(view):  # the other groups' numbers want room: what the status leaves too
            widest = max((font(MIN_TEXT).getlength(line) for line in lines), default=0)
            widest = max(widest, legend_right - left, DRAWN_TILE if drawn_at else 0)
            box_w = max(box_w, int(right - (left + widest + MARGIN + OVERVIEW_NUMBERS)))
        _overview(draw, view, overview, right, max(OVERVIEW[1], height - OVERVIEW_MARKS), box_w)


def _overview_in_slot(draw: ImageDraw.ImageDraw, view: View, window: Window | Overview, slot: Frame) -> None:
    """The overview in the room a fourth panel would take (three rotations), in its middle."""
    left, top, right, bottom = (int(v) for v in slot)
    box_w, box_h = right - left - OVERVIEW_NUMBERS - 6, bottom - top - OVERVIEW_MARKS
    s = _overview_tile(window["bounds"], box_w, box_h)
    x0, _, x1, _ = window["bounds"]
    spare = box_w - (x1 - x0 + 1) * s
    _overview(draw, view, window, right - 6 - spare // 2, box_h, box_w, top + 6)


def _overview_tile(bounds: Bounds, box_w: int, box_h: int) -> int:
    """The overview's tile size: the whole landscape in `box_w` x `box_h` px."""
    x0, y0, x1, y1 = bounds
    return max(3, min(box_w // (x1 - x0 + 1), box_h // (y1 - y0 + 1), OVERVIEW_BIGGEST_TILE))


def _overview(draw: ImageDraw.ImageDraw, view: View, window: Window | Overview, right: int, box_h: int,
              box_w: int = OVERVIEW[0], at: int = 12) -> None:
    """The whole landscape small, the part drawn large framed in black and white, the other
    groups of squares offered (while one is shown close up) thinly framed white, the last
    round's tiles framed yellow (the texts name their squares), and grid marks under and left
    of it (the columns' letters, the rows' numbers): where a square named lies, even off the part;
    as large as `box_w` x `box_h` hold it, on a card with its grid marks."""
    x0, y0, x1, y1 = window["bounds"]
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    s = _overview_tile(window["bounds"], box_w, box_h)
    left = right - cols * s
    top = at + (box_h - rows * s) // 2
    ground = (left - 6, top - 6, right + 6, top + rows * s + 6)
    # a card round the overview and its grid marks: its letters are told from the close-up's
    # letters just under it (the same columns' names, elsewhere)
    draw.rounded_rectangle((left - OVERVIEW_NUMBERS - 2, ground[1], ground[2], top + rows * s + OVERVIEW_CARD),
                           radius=8, outline=MUTED, width=3)
    draw.rectangle(ground, fill=PANEL, outline=MUTED, width=2)
    for tile in view["tiles"]:
        px, py = left + (tile["x"] - x0) * s, top + (tile["y"] - y0) * s
        if s >= 6:
            paste_tile(draw, tile["code"], tile["rot"], s, (px, py))
        else:
            draw.rectangle((px, py, px + s - 1, py + s - 1), fill=FIELD)
    for tile in view["tiles"][-view["seats"]:]:
        px, py = left + (tile["x"] - x0) * s, top + (tile["y"] - y0) * s
        draw.rectangle((px - 2, py - 2, px + s + 1, py + s + 1), outline=HIGHLIGHT, width=2 if s < 12 else 3)
    if view["phase"] == "place" and s >= 6:  # every square where the tile fits, as on the close-up
        for square in view.get("squares") or []:
            px, py = left + (square["x"] - x0) * s, top + (square["y"] - y0) * s
            draw.rectangle((px + 1, py + 1, px + s - 2, py + s - 2), fill=EMPTY, outline=INK, width=2 if s >= 12 else 1)
    group_frames: dict[int, Frame] = {}
    for k, (gx0, gy0, gx1, gy1) in enumerate(square_group_boxes(view)):
        if k != view.get("area"):  # the other groups of squares (their buttons name their corners)
            frame = _framed((left + (gx0 - x0) * s - 2, top + (gy0 - y0) * s - 2, left + (gx1 - x0 + 1) * s + 2,
                             top + (gy1 - y0 + 1) * s + 2), ground)
            draw.rectangle(frame, outline=INK, width=2)
            draw.rectangle((frame[0] + 2, frame[1] + 2, frame[2] - 2, frame[3] - 2), outline=WHITE, width=2)
            group_frames[k] = frame
    frames = window["frames"] if "frames" in window else []
    for fx, fy, fcols, frows in frames or [(window["x0"], window["y0"], window["cols"], window["rows"])]:
        fx0, fy0 = max(fx, x0), max(fy, y0)
        fx1, fy1 = min(fx + fcols - 1, x1), min(fy + frows - 1, y1)
        frame = _framed((left + (fx0 - x0) * s - 2, top + (fy0 - y0) * s - 2, left + (fx1 - x0 + 1) * s + 2,
                         top + (fy1 - y0 + 1) * s + 2), ground)
        draw.rectangle(frame, outline=INK, width=5)
        draw.rectangle((frame[0] + 5, frame[1] + 5, frame[2] - 5, frame[3] - 5), outline=WHITE, width=2)
    for k, centre in overview_tag_places(group_frames, ground).items():
        number_plate(draw, centre, str(k + 1))
    marks_y = top + rows * s + 8 + LINE / 2 - 4
    for k in _marked(cols, s, max(text_width_plain(column_name(x)) for x in range(x0, x1 + 1)) + MARKS_APART):
        draw.text((left + k * s + s / 2, marks_y), column_name(x0 + k), font=font(MIN_TEXT), fill=MUTED, anchor="mm")
    for k in _marked(rows, s, ROW_MARK + MARKS_APART):
        draw.text((left - 10, top + k * s + s / 2), row_name(y0 + k), font=font(MIN_TEXT), fill=MUTED, anchor="rm")


def overview_tag_places(frames: dict[int, Frame], ground: Frame) -> dict[int, tuple[float, float]]:
    """Where each other group's number (its menu's "2 · Squares 8–12") stands on the overview:
    in its frame's middle, or the nearest place to it (a quarter plate at a time) whose plate
    stays on the overview's ground and clear of the plates placed before (frames far apart
    keep their numbers inside them; frames close together share the room round them)."""
    places: dict[int, tuple[float, float]] = {}
    boxes: list[Frame] = []
    # the smallest frames first: a large frame has room for its number away from its middle
    def area(item: tuple[int, Frame]) -> tuple[float, int]:
        (left, top, right, bottom) = item[1]
        return (right - left) * (bottom - top), item[0]

    for k, (fx0, fy0, fx1, fy1) in sorted(frames.items(), key=area):
        width, height = plate_size(str(k + 1))
        half_w, half_h = width / 2 + 3, height / 2 + 3
        mid_x, mid_y = (fx0 + fx1) / 2, (fy0 + fy1) / 2
        low_x, high_x = ground[0] + half_w, ground[2] - half_w
        low_y, high_y = ground[1] + half_h, ground[3] - half_h
        step = height / 4
        # (each place once: on a small overview most of the steps stop at its edges)
        xs = {min(max(mid_x + i * step, low_x), high_x) for i in range(-40, 41)}
        ys = {min(max(mid_y + j * step, low_y), high_y) for j in range(-40, 41)}
        # The places inside the frame come first, nearest its middle first; those outside it (all
        # the rest of up to 81 x 81, some 4 ms to order) are ordered only where none inside is clear.
        inside = _nearest([(x, y) for x in xs if fx0 <= x <= fx1 for y in ys if fy0 <= y <= fy1], mid_x, mid_y)
        found = _clear_spot(inside, half_w, half_h, boxes)
        if found is None:
            outside = _nearest([(x, y) for x in xs for y in ys if not (fx0 <= x <= fx1 and fy0 <= y <= fy1)],
                               mid_x, mid_y)
            found = _clear_spot(outside, half_w, half_h, boxes) or (inside or outside)[0]
        x, y = found
        places[k] = (x, y)
        boxes.append((x - half_w, y - half_h, x + half_w, y + half_h))
    return places


def _nearest(spots: list[tuple[float, float]], mid_x: float, mid_y: float) -> list[tuple[float, float]]:
    """`spots` nearest (mid_x, mid_y) first (the sum of the distances across and down), then top
    to bottom, left to right."""
    return sorted(spots, key=lambda spot: (abs(spot[0] - mid_x) + abs(spot[1] - mid_y), spot[1], spot[0]))


def _clear_spot(spots: list[tuple[float, float]], half_w: float, half_h: float,
                boxes: list[Frame]) -> tuple[float, float] | None:
    """The first of `spots` where a plate of half_w x half_h either side stays clear of `boxes`."""
    return next(((x, y) for x, y in spots
                 if all(x + half_w <= b[0] or b[2] <= x - half_w or y + half_h <= b[1] or b[3] <= y - half_h
                        for b in boxes)), None)


def _framed(frame: Frame, ground: Frame) -> Frame:
    """A frame on the overview FRAME_LEAST px wide and tall at least (round a group of one
    square on small tiles: 11 px on a phone), grown round its middle, kept on the overview's
    ground."""
    left, top, right, bottom = frame
    grow_x, grow_y = max(0.0, (FRAME_LEAST - (right - left)) / 2), max(0.0, (FRAME_LEAST - (bottom - top)) / 2)
    left, right = left - grow_x, right + grow_x
    top, bottom = top - grow_y, bottom + grow_y
    shift_x = max(0.0, ground[0] - left) - max(0.0, right - ground[2])
    shift_y = max(0.0, ground[1] - top) - max(0.0, bottom - ground[3])
    return left + shift_x, top + shift_y, right + shift_x, bottom + shift_y


def _marked(count: int, step: float, room: float) -> list[int]:
    """Which of `count` columns (or rows) `step` px apart carry their grid mark, each mark
    `room` px from the next: the first, the last, and as many evenly between as fit."""
    if count == 1 or (count - 1) * step < room:
        return [0]
    # the most marks whose nearest two (rounded to whole columns) still stand `room` apart
    between = next(n for n in range(count - 1, 0, -1) if ((count - 1) // n) * step >= room)
    return sorted({round(k * (count - 1) / between) for k in range(between + 1)})


PANEL_GAP = 24  # between the panels of squares lying apart (their grounds' edges 18 px apart)


def _square_panels(view: View, *, top: int, bottom: int) -> tuple[list[Panel], Overview]:
    """The squares where the tile fits in two or three panels, one for each place they lie
    (the engine's close-up: view["closeup"]), beside or above each other as the engine
    arranged them, each with its column letters and row numbers, their tiles as large as the
    room allows (CAPS["place"] at most; 160 px at least, tested). Returns the panels (each with
    its window) and, for the overview, the whole landscape's bounds and the boxes to frame."""
    tree = view["closeup"]

    def extent(node: dict[str, Any], size: int) -> tuple[int, int]:
        if "box" in node:
            _, _, cols, rows = node["box"]
            return LABEL_W + cols * size, LABEL_H + rows * size
        (arrange, parts), = node.items()
        sizes = [extent(part, size) for part in parts]
        gaps = PANEL_GAP * (len(parts) - 1)
        if arrange == "side":
            return sum(w for w, _ in sizes) + gaps, max(h for _, h in sizes)
        return max(w for w, _ in sizes), sum(h for _, h in sizes) + gaps

    room_w, room_h = WIDTH - 2 * MARGIN, bottom - top
    size = next(s for s in range(CAPS["place"], 20, -1)
                if extent(tree, s)[0] <= room_w and extent(tree, s)[1] <= room_h)
    panels: list[Panel] = []

    def place(node: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
        """Put the node's panels in the room (x, y, w, h), each part in the middle of its share."""
        node_w, node_h = extent(node, size)
        x, y = x + (w - node_w) // 2, y + (h - node_h) // 2
        if "box" in node:
            x0, y0, cols, rows = node["box"]
            panels.append({"window": {"x0": x0, "y0": y0, "cols": cols, "rows": rows, "size": size,
                                      "left": int(x) + LABEL_W, "top": int(y) + LABEL_H, "part": True}})
            return
        (arrange, parts), = node.items()
        for part in parts:
            part_w, part_h = extent(part, size)
            if arrange == "side":
                place(part, x, y, part_w, node_h)
                x += part_w + PANEL_GAP
            else:
                place(part, x, y, node_w, part_h)
                y += part_h + PANEL_GAP

    place(tree, MARGIN, top, room_w, room_h)
    cells = [(tile["x"], tile["y"]) for tile in view["tiles"]] + [(sq["x"], sq["y"]) for sq in view["squares"]]
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    shown: Overview = {"part": True, "bounds": (min(xs), min(ys), max(xs), max(ys)),
             "frames": [(p["window"]["x0"], p["window"]["y0"], p["window"]["cols"], p["window"]["rows"])
                        for p in panels]}
    return panels, shown


def _square_panel(draw: ImageDraw.ImageDraw, view: View, window: Window) -> None:
    """One place of the landscape with squares offered, on a ground of its own (it lies apart
    from the panel beside it, which shows another place)."""
    size = window["size"]
    right, bottom = window["left"] + window["cols"] * size, window["top"] + window["rows"] * size
    draw.rectangle((window["left"] - 3, window["top"] - 3, right + 3, bottom + 3), fill=PANEL, outline=MUTED, width=2)
    draw_landscape(draw, view, window)


STRIP = 122  # the rotations' strip when the whole landscape is shown while turning the tile


def _rotation_strip(draw: ImageDraw.ImageDraw, view: View, top: int) -> None:
    """The rotations that fit in a row under the header, numbered like the buttons (when the
    whole landscape is shown while turning the tile)."""
    rots = _rotations(view)
    size, gap, number_w = STRIP - 12, 40, 40
    left = (WIDTH - len(rots) * (number_w + size) - (len(rots) - 1) * gap) // 2
    for k, rot in enumerate(rots):
        x = left + k * (number_w + size + gap)
        draw.text((x + number_w / 2, top + size / 2), str(k + 1), font=font(48), fill=INK, anchor="mm")
        paste_tile(draw, view["drawn"], rot, size, (x + number_w, top))
        draw.rectangle((x + number_w, top, x + number_w + size, top + size), outline=INK, width=3)


def _rotation_panels(view: View, *, top: int, bottom: int) -> tuple[list[Panel], Overview, Frame | None]:
    """Where each rotation that fits is shown on the chosen square amid its neighbours (how its
    edges meet theirs): one panel beside another, or two rows of two. Returns the panels (each
    with its rotation, number and window), the part they show, for the overview, and with three
    rotations the fourth panel's room, where the overview stands (the header has none to spare
    over two rows of panels)."""
    rots = _rotations(view)
    square = view["square"]
    cols = 1 if len(rots) == 1 else 2
    rows = 1 if len(rots) <= 2 else 2
    gap_x, gap_y = 40, 20
    room_w = WIDTH - 2 * MARGIN - (cols - 1) * gap_x
    room_h = bottom - top - (rows - 1) * gap_y
    size = min(CAPS["rotate"] + 30, (room_w // cols - LABEL_W) // 3, (room_h // rows - LABEL_H) // 3)
    panel_w, panel_h = LABEL_W + 3 * size, LABEL_H + 3 * size
    left = (WIDTH - cols * panel_w - (cols - 1) * gap_x) // 2
    top += (bottom - top - rows * panel_h - (rows - 1) * gap_y) // 2
    panels: list[Panel] = []
    for k, rot in enumerate(rots):
        x = left + (k % cols) * (panel_w + gap_x)
        y = top + (k // cols) * (panel_h + gap_y)
        window: Window = {"x0": square["x"] - 1, "y0": square["y"] - 1, "cols": 3, "rows": 3, "size": size,
                  "left": x + LABEL_W, "top": y + LABEL_H, "part": True}
        panels.append({"rot": rot, "number": k + 1, "x": x, "y": y, "window": window})
    xs = [tile["x"] for tile in view["tiles"]] + [square["x"]]
    ys = [tile["y"] for tile in view["tiles"]] + [square["y"]]
    shown: Overview = {"x0": square["x"] - 1, "y0": square["y"] - 1, "cols": 3, "rows": 3, "size": size, "part": True,
             "bounds": (min(xs), min(ys), max(xs), max(ys))}
    slot: Frame | None = None
    if len(rots) == 3:  # (_overview_among_panels)
        x, y = left + panel_w + gap_x, top + panel_h + gap_y
        slot = (x, y, x + panel_w, y + panel_h)
    return panels, shown, slot


def _rotation_panel(draw: ImageDraw.ImageDraw, view: View, panel: Panel) -> None:
    """One rotation on the chosen square amid its neighbours, its number on the tile's top left
    corner (where no edge is matched), as on its button."""
    square = view["square"]
    candidate = {"code": view["drawn"], "x": square["x"], "y": square["y"], "rot": panel["rot"]}
    draw_landscape(draw, view, panel["window"], candidate)
    r = 34  # its digit at the marks' standard (MARK_TEXT: 41 px of ink, 11 px on a phone)
    cx, cy = panel["window"]["left"] + panel["window"]["size"] + 6, panel["window"]["top"] + panel["window"]["size"] + 6
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=WHITE)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    mark_text(draw, (cx, cy), str(panel["number"]), WHITE, MARK_TEXT)


# ----------------------------------------------------------------------------------------
# The score track (robber step)


TRACK_COLUMNS = 25
CELL = (WIDTH - 30) // TRACK_COLUMNS
TRACK_X = (WIDTH - CELL * TRACK_COLUMNS) // 2
CELL_H = 44
CHIP = 58  # a figure's chip on the track: its pitch (the disc is 2 px narrower), round a MARK_TEXT digit
POINTER = 8  # between a row of spaces and the chips that point into it


def _track_layout(view: View) -> TrackLayout:
    """Where every figure on the score track goes: the 50 spaces in two rows of 25, and over
    the first row / under the second, each space's figures as a row of numbered chips (every
    player, then every robber), in as many lanes as needed so no chip covers another."""
    figures: dict[int, list[tuple[str, int]]] = {}
    for p in view["players"]:
        figures.setdefault(p["space"], []).append(("player", p["seat"]))
    for p in view["players"]:
        if p["robber"] is not None:
            figures.setdefault(p["robber"], []).append(("robber", p["seat"]))
    chains: list[Chain] = []
    lanes_of_row: list[int] = []
    right = TRACK_X + TRACK_COLUMNS * CELL
    for row in (0, 1):
        lane_ends: list[float] = []
        for space in sorted(figures):
            if space // TRACK_COLUMNS != row:
                continue
            group = figures[space]
            centre = TRACK_X + (space % TRACK_COLUMNS) * CELL + CELL / 2
            width = len(group) * CHIP
            left = min(max(centre - width / 2, TRACK_X), right - width)
            lane = next((k for k, end in enumerate(lane_ends) if left >= end + 2), len(lane_ends))
            if lane == len(lane_ends):
                lane_ends.append(left + width)
            else:
                lane_ends[lane] = left + width
            chains.append({"row": row, "space": space, "left": left, "lane": lane, "figures": group,
                           "centre": centre})
        lanes_of_row.append(max(1 - row, len(lane_ends)))  # the first row's lane stays (all start on 0)
    height = (lanes_of_row[0] * CHIP + POINTER + 2 * CELL_H + 4
              + (POINTER + lanes_of_row[1] * CHIP if lanes_of_row[1] else 0))
    return {"chains": chains, "lanes": lanes_of_row, "height": height}


def _track(draw: ImageDraw.ImageDraw, view: View, layout: TrackLayout, top: int) -> None:
    spaces = view["track_spaces"]
    cells_top = (top + layout["lanes"][0] * CHIP + POINTER, top + layout["lanes"][0] * CHIP + POINTER + CELL_H + 4)
    taken = {chain["space"] for chain in layout["chains"]}
    for space in range(spaces):
        row, col = divmod(space, TRACK_COLUMNS)
        x, y = TRACK_X + col * CELL, cells_top[row]
        busy = space in taken
        draw.rectangle((x, y, x + CELL - 2, y + CELL_H), fill=ROW_HIGHLIGHT if busy else (236, 230, 214),
                       outline=INK if busy else MUTED, width=3 if busy else 1)
        if space % 5 == 0:
            draw.text((x + CELL / 2 - 1, y + CELL_H / 2), str(space), font=font(MIN_TEXT), fill=MUTED, anchor="mm")

    def chain_y(chain: Chain) -> float:
        """The top of a chain's chips."""
        if chain["row"] == 0:
            return cells_top[0] - POINTER - (chain["lane"] + 1) * CHIP
        return cells_top[1] + CELL_H + POINTER + chain["lane"] * CHIP

    for chain in layout["chains"]:  # a pointer from the space to its chips, under the chips
        chips_top = chain_y(chain)
        width = len(chain["figures"]) * CHIP
        cx = min(max(chain["centre"], chain["left"] + CHIP / 2), chain["left"] + width - CHIP / 2)
        start = (chain["centre"], cells_top[0] if chain["row"] == 0 else cells_top[1] + CELL_H)
        draw.line([start, (cx, chips_top + CHIP / 2)], fill=INK, width=3)
    for chain in layout["chains"]:
        chips_top = chain_y(chain)
        for k, (what, seat) in enumerate(chain["figures"]):
            _track_chip(draw, chain["left"] + k * CHIP + CHIP / 2, chips_top + CHIP / 2, seat, robber=what == "robber")


def _track_chip(draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, *, robber: bool,
                pitch: int = CHIP) -> None:
    """A figure on the track: the player's counting figure, a disc in the seat colour, or the
    player's robber, a black square ringed in the seat colour; both carry the seat number, on
    the track at the marks' standard (41 px of ink). The legend's smaller chip (`pitch`) only
    shows what a chip looks like: its digit is plain 40 px type."""
    r = pitch / 2 - 1
    colour = seat_colour(seat)
    if robber:
        draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=6, fill=ROBBER_MARK, outline=colour, width=5)
        fill = WHITE
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
        fill = ink_on(colour)
    if pitch >= CHIP:
        mark_text(draw, (cx, cy), str(seat + 1), fill, MARK_TEXT)
    else:
        draw.text((cx, cy), str(seat + 1), font=font(MIN_TEXT), fill=fill, anchor="mm")


# ----------------------------------------------------------------------------------------
# The players' table and the legend


def _table_height(view: View) -> int:
    return TABLE_HEADING + len(view["players"]) * TABLE_ROW


def _columns(lang: str, right: int = WIDTH - MARGIN, robber: bool = True) -> Columns:
    """Where the table's columns stand: points, followers at home, robber (right to left from
    `right`, each as wide as its heading or widest value; without the robber column where the
    table stands beside the overview)."""
    robber_w = max(text_width_plain(t(lang, "carcassonne.board.robber_heading")),
                   text_width_plain(t(lang, "carcassonne.board.robber_home")),
                   text_width_plain(t(lang, "carcassonne.board.robber_beside")) + 8 + 2 * (BADGE + 4),
                   text_width_plain(t(lang, "carcassonne.board.robber_beside_many", count=4)))
    home_w = max(text_width_plain(t(lang, "carcassonne.board.followers_heading")),
                 text_width_plain(t(lang, "carcassonne.board.followers", count=7)))
    # (beside the overview the points' heading reaches over the names' column: the heading's row
    # has nothing else there)
    points_w = max(text_width_plain(t(lang, "carcassonne.board.points_heading")) if robber else 0, 80)
    robber_at = right - robber_w if robber else right + 28
    home = robber_at - 28 - home_w
    points_right = home - 28
    return {"robber": robber_at, "home": home, "points_right": points_right,
            "name_width": points_right - points_w - 20 - (MARGIN + BADGE + 12)}


def _table_right_least(names: list[str], lang: str) -> int:
    """The least right edge of the players' table beside the overview: its names (NAME_LEAST px
    at most), points and followers at home."""
    name_room = min(NAME_LEAST, max(int(text_width_plain(name)) + 1 for name in names))
    return name_room - _columns(lang, 0, robber=False)["name_width"]


def _table(draw: ImageDraw.ImageDraw, view: View, names: list[str], lang: str, top: int,
           by_overview: int | None = None) -> None:
    """One row per player under a heading: badge and name, points, followers at home, and
    whether their robber is at home or beside whom on the track; beside the overview (its right
    edge `by_overview`) without the robber column, the last tile's frame explained in the legend."""
    right = WIDTH - MARGIN if by_overview is None else by_overview
    columns = _columns(lang, right, robber=by_overview is None)
    winners = set((view.get("outcome") or {}).get("winners") or [])
    for k, p in enumerate(view["players"]):  # the rows highlighted first: under the heading's descenders
        row_top = top + TABLE_HEADING + k * TABLE_ROW
        if p["seat"] in view["to_act"] or p["seat"] in winners:
            draw.rectangle((8, row_top + 2, right + MARGIN - 8, row_top + TABLE_ROW - 2), fill=ROW_HIGHLIGHT)
    y = top + TABLE_HEADING / 2
    if not view["over"] and by_overview is None:  # what the yellow frame means, where the names leave room
        _legend_item(draw, "last", t(lang, "carcassonne.board.legend.last_tile"), MARGIN, y)
    draw.text((columns["points_right"], y), t(lang, "carcassonne.board.points_heading"), font=font(MIN_TEXT),
              fill=MUTED, anchor="rm")
    draw.text((columns["home"], y), t(lang, "carcassonne.board.followers_heading"), font=font(MIN_TEXT),
              fill=MUTED, anchor="lm")
    if by_overview is None:
        draw.text((columns["robber"], y), t(lang, "carcassonne.board.robber_heading"), font=font(MIN_TEXT),
                  fill=MUTED, anchor="lm")
    spaces = {p["seat"]: p["space"] for p in view["players"]}
    for k, p in enumerate(view["players"]):
        seat = p["seat"]
        y = top + TABLE_HEADING + k * TABLE_ROW + TABLE_ROW / 2
        badge(draw, (MARGIN + BADGE / 2, y), seat)
        draw.text((MARGIN + BADGE + 12, y), _fit_text(names[seat], MIN_TEXT, columns["name_width"]),
                  font=font(MIN_TEXT), fill=INK, anchor="lm")
        draw.text((columns["points_right"], y), str(p["score"]), font=font(48), fill=INK, anchor="rm")
        draw.text((columns["home"], y), t(lang, "carcassonne.board.followers", count=p["followers"]),
                  font=font(MIN_TEXT), fill=INK, anchor="lm")
        if by_overview is not None:
            continue
        if p["robber"] is None:
            draw.text((columns["robber"], y), t(lang, "carcassonne.board.robber_home"), font=font(MIN_TEXT),
                      fill=MUTED, anchor="lm")
            continue
        word = t(lang, "carcassonne.board.robber_beside")
        beside = [other for other, space in spaces.items() if other != seat and space == p["robber"]]
        x = columns["robber"] + text_width_plain(word) + 8
        if x + len(beside) * (BADGE + 4) > WIDTH - MARGIN:  # beside many: their number in words
            word, beside = t(lang, "carcassonne.board.robber_beside_many", count=len(beside)), []
        draw.text((columns["robber"], y), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
        for other in beside:
            badge(draw, (x + BADGE / 2, y), other)
            x += BADGE + 4


def _legend_items(view: View, lang: str, last: bool = False) -> list[tuple[str, str]]:
    """(icon, words) of every kind of mark the board shows (`last`: the last tiles' frame too,
    where the players' table's heading, which says it otherwise, has no room for it)."""
    items = [("last", t(lang, "carcassonne.board.legend.last_tile"))] if last else []
    items += [(kind, t(lang, f"carcassonne.board.legend.{FOLLOWER_OF_KIND[kind]}"))
              for kind in ("city", "road", "cloister", "field")]
    if view["phase"] == "robber":
        items.append(("figure", t(lang, "carcassonne.board.legend.figure")))
        items.append(("robber", t(lang, "carcassonne.board.legend.robber")))
    return items


def _legend_rows(view: View, lang: str, left: float = MARGIN, right: float = WIDTH - MARGIN,
                 last: bool = False) -> list[list[LegendItem]]:
    """The legend's items in rows from `left` to `right` (the image's width): (icon, words, x)."""
    rows: list[list[LegendItem]] = [[]]
    x = left
    for icon, words in _legend_items(view, lang, last):
        width = LEGEND_ICON + 8 + text_width_plain(words)
        if rows[-1] and x + width > right:
            rows.append([])
            x = left
        rows[-1].append((icon, words, x))
        x += width + 24
    return rows


def _legend(draw: ImageDraw.ImageDraw, rows: list[list[LegendItem]], top: int) -> None:
    for k, row in enumerate(rows):
        for icon, words, x in row:
            _legend_item(draw, icon, words, x, top + k * LINE + LINE / 2)


def _legend_item(draw: ImageDraw.ImageDraw, icon: str, words: str, x: float, y: float) -> None:
    cx = x + LEGEND_ICON / 2
    if icon == "last":
        draw.rectangle((x + 4, y - 18, x + LEGEND_ICON - 4, y + 18), fill=FIELD, outline=HIGHLIGHT, width=6)
    elif icon in ("figure", "robber"):
        _track_chip(draw, cx, y, 0, robber=icon == "robber", pitch=LEGEND_ICON)
    else:
        shape(draw, cx, y, icon, 34, MUTED)
    draw.text((x + LEGEND_ICON + 8, y), words, font=font(MIN_TEXT), fill=INK, anchor="lm")
