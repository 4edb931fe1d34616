"""Raub Ritter board renderer: draws only what a view (public or a seat's) holds.

Phone first: a 390 px phone's client shows the upright 1080 x 1350 image about 300 px wide, so
every number, letter and word on it is at least `MIN_TEXT` (40 px). The whole area is always
drawn, never a part of it: in Raub Ritter the squares where a tile may go lie all round the
area from the first rounds on, and a knight's line can cross it, so the decision is the whole
area (docs/raubritter.md). It fits because the board gets the room:

- on top the status; under it the board window (the laid tiles plus one free ring, clipped to
  where the area limit still allows laying), its squares as large as the room allows, with the
  column letters above and the row numbers left of it, and on each square where a tile may go
  now its name ("D5", the name the menus and `/move` use);
- on the table's image, one box per player (seat disc, name, points; knights and tiles left, at
  the end how the points were made), then as much of the legend as leaves the squares at least
  `LEGEND_CELL` wide (a young area: all of it; a full four-player area: what fits);
- on a seat's own image (its DM), no boxes (the table's image has them), the board larger, the
  legend's lines its spare height holds, and at the bottom the seat's hand, large, with its own
  knights and tiles left.

A tile's picture is renderers/raubritter_tiles.py's, every letter and number on it a mark of
`MIN_MARK` (41 px of ink, 11 px on the phone): on a young area's large squares the building's
letter top left, the tag of the player who laid it in their last turn top right, the top
knight's seat number on a rounded plate of its colour bottom left and the stack's height on a
white plate bottom right; on a full area's squares (84 to 110 px, room for one row of such
marks) the stack's two numbers along the bottom and the building as its picture above and behind
them, its letter only while no knight stands in front of it, and the last turn as a frame in
the layer's colour. Every knight carries its seat number, so owners are told apart without
colour; the move history is in the message text.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from games.core import msg
from i18n import t, translate
from renderers import View
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MARK_RADIUS,
    MARK_TEXT,
    MIN_TEXT,
    PHONE_SIZE,
    WHITE,
    Ink,
    fit,
    fixed_palette,
    font,
    ink_box,
    keep_drawn,
    kept_part,
    kept_piece,
    mark_text,
    marks,
    note_text,
    seat_names,
    texts_recorded,
    to_palette,
    unrecorded,
    wrap,
)
from renderers.raubritter_tiles import (
    BUILDING_LETTER,
    CELL_MIN,
    GRID_LINE,
    OUTLINE,
    PAINTS,
    PLAYER_COLOURS,
    TERRAIN_FILL,
    TEXT_ON,
    centre_text,
    centred_text_image,
    draw_height,
    draw_knight,
    draw_tile,
    frame_width,
    geometry,
    hand_tile_image,
    plate_size,
    tile_image,
)

WIDTH, HEIGHT = PHONE_SIZE
TEXT = MIN_TEXT          # every word and number on the board, at least
LINE = 48                # a line of TEXT
GAP = 8
COL_LABELS = 44          # the strip above the board with the column letters
CELL_CAP = 240           # the largest square (a young area's few tiles)
LEGEND_CELL = 90         # the legend gives up its lines rather than the squares going under this
BOX_TOP = 62             # a player box: the row with the seat disc (its number a mark), name and points
DISC = MARK_RADIUS - 1   # a seat's disc beside its name or hand
DETAIL_LINE = 44         # then one per line of detail
BOX_PAD = 6
HAND_TILE = 136          # the viewer's hand, at the bottom of a seat's own image
HAND_BAND = HAND_TILE + GAP
HEADER_LINES = 2         # the status takes at most this many lines

# Neutral paints (named so the PNG palette can hold each exactly).
HATCH = (176, 172, 166)
FACE_DOWN_LETTER = (250, 246, 236)
PANEL_ACTIVE = (255, 250, 238)
PANEL_IDLE = (236, 229, 214)

EMPTY_FILL = (236, 230, 214)
OUTSIDE_FILL = (196, 192, 186)
FACE_DOWN = (150, 138, 120)


def render(view: View, names: list[str], lang: str = "en") -> Image.Image:
    if hand_alone(view):
        return _hand_alone_image(view, lang)
    drawn_names = seat_names(names, view["seats"])
    layout = _layout(view, drawn_names, lang)
    if texts_recorded() or not _composable(view, layout):
        return _drawn_whole(view, drawn_names, lang, layout)
    return _composed(view, drawn_names, lang, layout)


def _drawn_whole(view: View, drawn_names: list[str], lang: str, layout: Layout) -> Image.Image:
    """The board drawn whole on one image and quantized at once: what the layout tests record,
    and the pictures `_composed` must give pixel for pixel."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, layout)
    _draw_board(draw, view, layout, _letters(lang))
    if layout.boxes:
        _draw_panel(draw, view, drawn_names, lang, layout)
    if layout.legend:
        # The legend changes with the words, the colours and the size of the squares alone: kept
        # for the moves that leave them be. Its box runs from the middle of the gap above it down
        # to the seat's hand (or the image's foot): nothing else is drawn there.
        bottom = PRIVATE_TOP if layout.hand else HEIGHT
        kept_part(image, (0, layout.legend_top - GAP // 2, WIDTH, bottom), _legend_key(view, lang, layout),
                  partial(_draw_legend, draw, layout, view["colours"], lang))
    if layout.hand:
        _draw_band(draw, view, lang)
    # A fixed palette is ~30x faster than an adaptive quantize and keeps the PNG small.
    image = to_palette(image, _palette())
    if layout.hand:  # below it only the seat's hand (private_rows): seats' images share the rest
        image.info["private_top"] = PRIVATE_TOP
    return image


def _legend_key(view: View, lang: str, layout: Layout) -> tuple[Any, ...]:
    return ("raubritter.legend", tuple(map(tuple, layout.legend)), tuple(view["colours"]), lang,
            geometry(layout.cell)["two_rows"])


PRIVATE_TOP = HEIGHT - HAND_BAND  # the band at the bottom of a seat's own image: its hand


def private_layout(view: View, lang: str) -> str:
    """What the image above the bottom band depends on of a view besides the table: a seat's own
    image (board and hand) is laid out apart from the table's (board, boxes, legend), so
    renderers.render_pngs draws the board once for all the seats' images and once for the table."""
    if hand_alone(view):
        return "alone"  # no board at all: nothing shared with the others
    return "hand" if _is_private(view) else "table"


def _is_private(view: View) -> bool:
    return bool(view.get("private")) and view.get("viewer") is not None


def private_shown(view: View) -> bool:
    """Whether a seat's image draws anything the public board does not (its hand's faces):
    without tiles in hand the seat's image is the public board, and a DM needs no image."""
    return _is_private(view) and bool(view["private"].get("hand"))


def hand_alone(view: View) -> bool:
    """Whether a seat's image is its hand alone (with its knights and tiles left): it decides
    nothing now, so its DM is not kept current with the table (bot.turns), and a board in it
    would go stale (whose turn it is, the tiles laid since). The board is the channel's."""
    return private_shown(view) and not view["private"].get("deciding", True)


HAND_ALONE_PAD = 12
"""Above and below the hand on an image of the hand alone."""


def _hand_alone_image(view: View, lang: str) -> Image.Image:
    """The seat's hand alone: its seat disc, its tiles large, its knights and tiles left right of
    them, or on a line below them where the tiles leave no room."""
    below = not _counts_beside(view, lang)
    height = 2 * HAND_ALONE_PAD + HAND_TILE + (LINE if below else 0)
    if not texts_recorded():
        return _hand_composed(view, lang, height, HAND_ALONE_PAD, below)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    _draw_hand(ImageDraw.Draw(image), view, lang, HAND_ALONE_PAD, counts_below=below)
    return to_palette(image, _palette())


def private_rows(view: View, names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (its hand), as `render` draws them (drawn
    on an image of those rows alone: a whole one per seat was most of the memory drawing took)."""
    if not texts_recorded():
        return _hand_composed(view, lang, HEIGHT - top, PRIVATE_TOP - top, False)
    image = Image.new("RGB", (WIDTH, HEIGHT - top), BACKGROUND)
    _draw_band(ImageDraw.Draw(image), view, lang, top)
    return to_palette(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour this module paints exactly, then a colour cube and greys for the
    anti-aliased edges of text."""
    exact = [BACKGROUND, INK, HIGHLIGHT, *PAINTS, EMPTY_FILL, OUTSIDE_FILL, FACE_DOWN, HATCH, FACE_DOWN_LETTER,
             PANEL_ACTIVE, PANEL_IDLE]
    return fixed_palette(*exact)


# ----------------------------------------------------------------------------------------
# Layout: the board takes what the status, the boxes and the band leave


LegendItem = tuple[str, str, int]
"""One item of the legend: (kind, words, width); see _legend_items."""


@dataclass
class Layout:
    window: tuple[int, int, int, int]   # min_col, max_col, min_row, max_row shown
    cell: int
    x0: int                             # the board's top left corner (labels outside it)
    y0: int
    header: list[str]                   # the status, in lines
    boxes: bool                         # one box per player under the board (the table's image)
    panel_top: int
    box_h: int                          # each player box
    details: list[list[str]]            # per player (in view order): the lines under the name
    legend: list[list[LegendItem]]      # the legend's lines shown
    legend_top: int
    hand: bool                          # the viewer's hand at the bottom (a seat's own image)


def _layout(view: View, names: list[str], lang: str) -> Layout:
    """The fixed parts first (status, player boxes, hand), then the largest squares that let the
    window of laid tiles plus one free ring fit in what is left; on the table's image the legend
    keeps the lines that leave the squares at least LEGEND_CELL (all, while the area is young),
    and should the squares still come out under CELL_MIN, the status keeps one line. A window
    narrower than the room gets more free squares (within the area's bounds) rather than empty
    margins."""
    status = translate(view["status"], lang, names)
    layout = _laid_out(view, lang, _header_lines(status, HEADER_LINES))
    if layout.cell < CELL_MIN and len(layout.header) > 1:
        layout = _laid_out(view, lang, _header_lines(status, 1))
    return layout


def _laid_out(view: View, lang: str, header: list[str]) -> Layout:
    hand = _is_private(view)
    boxes = not hand
    details = [_detail_lines(view, player, lang, _box_width() - 2 * BOX_PAD - 8) for player in view["players"]] \
        if boxes else []
    box_h = BOX_TOP + DETAIL_LINE * max(1, max((len(lines) for lines in details), default=1)) + BOX_PAD
    rows = -(-len(view["players"]) // 2) if boxes else 0
    boxes_h = rows * box_h + max(0, rows - 1) * GAP + (GAP if boxes else 0)
    legend_lines = [] if view["over"] else _legend_lines(view["colours"], lang)
    window = _window(view)
    left, right = 6 + _row_label_width(view), WIDTH - 6
    top = _header_height(header) + GAP + COL_LABELS

    def fitting(legend_rows: int) -> tuple[int, int, int]:
        legend_h = legend_rows * LINE + (GAP if legend_rows else 0)
        bottom = HEIGHT - GAP - (HAND_BAND if hand else boxes_h) - legend_h
        avail_w, avail_h = right - left, bottom - GAP - top
        min_c, max_c, min_r, max_r = window
        return min(CELL_CAP, avail_w // (max_c - min_c + 1), avail_h // (max_r - min_r + 1)), avail_w, avail_h

    shown = len(legend_lines)
    # The table's legend gives way to squares under LEGEND_CELL (the marks' meanings first, the
    # terrains' knights last); a seat's image only shows the lines its room leaves over (its
    # squares are as wide as the image allows, the height has some to spare).
    least = max(LEGEND_CELL, fitting(0)[0]) if hand else LEGEND_CELL
    while shown and fitting(shown)[0] < least:
        shown -= 1
    cell, avail_w, avail_h = fitting(shown)
    lo_c, hi_c, lo_r, hi_r = _allowed(view)
    min_c, max_c = _widen(window[0], window[1], lo_c, hi_c, avail_w // cell)
    min_r, max_r = _widen(window[2], window[3], lo_r, hi_r, avail_h // cell)
    board_w, board_h = cell * (max_c - min_c + 1), cell * (max_r - min_r + 1)
    x0 = left + (avail_w - board_w) // 2
    spare = avail_h - board_h
    y0 = top + spare // 2
    panel_top = y0 + board_h + GAP + (spare - spare // 2) + GAP
    legend_top = panel_top + boxes_h if boxes else panel_top
    return Layout((min_c, max_c, min_r, max_r), cell, x0, y0, header, boxes, panel_top, box_h, details,
                  legend_lines[:shown], legend_top, hand)


def _box_width() -> int:
    return (WIDTH - 16 - GAP) // 2


def _row_label_width(view: View) -> int:
    """Room for the row numbers left of the board: the widest that can be shown, and a gap."""
    labels = view["grid"]["row_labels"]
    return max(_width(label, TEXT) for label in labels) + 14


def _allowed(view: View) -> tuple[int, int, int, int]:
    """The columns and rows a tile may still go to (the grid within the area's bounds)."""
    grid, bounds = view["grid"], view.get("bounds") or {}
    return (max(0, bounds.get("min_col", 0)), min(grid["cols"] - 1, bounds.get("max_col", grid["cols"] - 1)),
            max(0, bounds.get("min_row", 0)), min(grid["rows"] - 1, bounds.get("max_row", grid["rows"] - 1)))


def _widen(low: int, high: int, lowest: int, highest: int, count: int) -> tuple[int, int]:
    """Grow [low, high] to `count` lines within [lowest, highest], alternately on each side."""
    after = True
    while high - low + 1 < count and (low > lowest or high < highest):
        if (after and high < highest) or low <= lowest:
            high += 1
        else:
            low -= 1
        after = not after
    return low, high


# ----------------------------------------------------------------------------------------
# Board


def _window(view: View) -> tuple[int, int, int, int]:
    """Columns and rows to show: the laid tiles (or the starting area before it is turned up,
    taken as the middle of the grid) plus one ring, clipped to the grid."""
    grid = view["grid"]
    tiles = view["tiles"]
    if tiles:
        cols = [t["col"] for t in tiles]
        rows = [t["row"] for t in tiles]
        lo_c, hi_c, lo_r, hi_r = min(cols), max(cols), min(rows), max(rows)
    else:
        lo_c, hi_c = _start_span(grid["cols"], grid["limit"])
        lo_r, hi_r = _start_span(grid["rows"], grid["limit"])
    # The ring stops at the area's limit: squares where nothing may ever be laid are not worth
    # the room on a phone.
    min_c, max_c, min_r, max_r = _allowed(view)
    return max(min_c, lo_c - 1), min(max_c, hi_c + 1), max(min_r, lo_r - 1), min(max_r, hi_r + 1)


def _start_span(size: int, limit: int) -> tuple[int, int]:
    # The grid is 2 * limit - start, with the starting area centred in it.
    start = 2 * limit - size
    return limit - start, limit - 1


def _letters(lang: str) -> dict[str, str]:
    """The building letters on the tiles, in the table's language (C/V/T, B/D/S)."""
    return {building: t(lang, f"raubritter.board.letter_{building}") for building in BUILDING_LETTER}


def square_box(layout: Layout, col: int, row: int) -> tuple[int, int, int, int]:
    """Where a square of the window stands on the image."""
    min_c, _, min_r, _ = layout.window
    x, y = layout.x0 + (col - min_c) * layout.cell, layout.y0 + (row - min_r) * layout.cell
    return x, y, x + layout.cell, y + layout.cell


def _draw_board(draw: ImageDraw.ImageDraw, view: View, layout: Layout,
                letters: dict[str, str] = BUILDING_LETTER) -> None:
    min_c, max_c, min_r, max_r = layout.window
    cell, x0, y0 = layout.cell, layout.x0, layout.y0
    grid = view["grid"]
    label = font(TEXT)
    for i, c in enumerate(range(min_c, max_c + 1)):
        draw.text((x0 + i * cell + cell // 2, y0 - 8), grid["col_labels"][c], font=label, fill=INK, anchor="ms")
    for j, r in enumerate(range(min_r, max_r + 1)):
        draw.text((x0 - 10, y0 + j * cell + cell // 2), grid["row_labels"][r], font=label, fill=INK, anchor="rm")

    def origin(col: int, row: int) -> tuple[int, int]:
        return x0 + (col - min_c) * cell, y0 + (row - min_r) * cell

    bounds = view["bounds"]
    open_squares = set(view.get("open_squares", []))
    laid = {(t["col"], t["row"]): t for t in view["tiles"]}
    for c in range(min_c, max_c + 1):
        for r in range(min_r, max_r + 1):
            if (c, r) in laid:
                continue
            x, y = origin(c, r)
            inside = bounds["min_col"] <= c <= bounds["max_col"] and bounds["min_row"] <= r <= bounds["max_row"]
            draw.rectangle((x, y, x + cell, y + cell), fill=EMPTY_FILL if inside else OUTSIDE_FILL, outline=GRID_LINE)
            if not inside:  # hatched: the area limit forbids laying here
                for k in range(-cell, cell, max(8, cell // 6)):
                    draw.line((x + max(0, k), y + max(0, -k), x + min(cell, cell + k), y + min(cell, cell - k)),
                              fill=HATCH, width=2)
                continue
            name = grid["col_labels"][c] + grid["row_labels"][r]
            if name in open_squares:  # a tile may go here now: its name, as the menus and /move say it
                draw.rectangle((x + 3, y + 3, x + cell - 3, y + cell - 3), outline=INK, width=2)
                _draw_name(draw, x, y, cell, name)

    if not laid and view["phase"] == "keep":
        lo_c, hi_c = _start_span(grid["cols"], grid["limit"])
        lo_r, hi_r = _start_span(grid["rows"], grid["limit"])
        for c in range(lo_c, hi_c + 1):
            for r in range(lo_r, hi_r + 1):
                x, y = origin(c, r)
                draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), fill=FACE_DOWN, outline=INK, width=2)
                with marks():  # the backs' letter, as large as the square holds
                    centre_text(draw, (x + cell // 2, y + cell // 2), "A", max(MARK_TEXT, cell // 2),
                                FACE_DOWN_LETTER)

    # The last turn of each player: a frame in the layer's colour and a tag with the seat number.
    last = _last_turns(view)
    letter_key = tuple(sorted(letters.items()))
    colours = tuple(view["colours"])
    with marks():  # a tile's letter and numbers: as large as its quarters hold (MIN_MARK from 125 px)
        for (c, r), tile in laid.items():
            x, y = origin(c, r)
            knights = tile["knights"]
            patch, texts = tile_image(cell, tile["terrain"], tile.get("building"), tuple(knights[-1:]), len(knights),
                                      colours, letter_key, last.get(tile["square"]))
            draw.im.paste(patch.im, (x, y, x + patch.width, y + patch.height))
            for (left, top, right, bottom), text, size in texts:
                note_text((left + x, top + y, right + x, bottom + y), text, size)

    index = {t["square"]: (t["col"], t["row"]) for t in view["tiles"]}
    # This turn: a dark frame with a white line inside, distinct from every seat colour.
    frame = frame_width(cell)
    for square in view.get("this_turn", []):
        if square in index:
            x, y = origin(*index[square])
            draw.rectangle((x, y, x + cell, y + cell), outline=INK, width=frame)
            draw.rectangle((x + frame, y + frame, x + cell - frame, y + cell - frame), outline=WHITE, width=2)
    if view.get("pending_castle") in index:  # the castle waiting for its knights: gold inside a dark line
        x, y = origin(*index[view["pending_castle"]])
        draw.rectangle((x, y, x + cell, y + cell), outline=INK, width=2)
        draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=HIGHLIGHT, width=frame)


def _draw_name(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, name: str) -> None:
    """An open square's name centred on it: pasted as drawn before where its picture stands on
    the square's plain inside (the frame takes the 3rd and 4th pixel in from its edges), drawn
    where it would not, and while the layout tests record texts."""
    centre = (x + cell // 2, y + cell // 2)
    size = _name_size(cell)
    if not texts_recorded():
        patch, corner_x, corner_y = centred_text_image(name, size, INK, EMPTY_FILL)
        left, top = centre[0] + corner_x, centre[1] + corner_y
        if left >= x + 5 and top >= y + 5 and left + patch.width <= x + cell - 4 and \
                top + patch.height <= y + cell - 4:
            draw.im.paste(patch.im, (left, top, left + patch.width, top + patch.height))
            return
    centre_text(draw, centre, name, size, INK)


def _name_size(cell: int) -> int:
    """An open square's name: as large as its square comfortably holds, never under TEXT."""
    return TEXT if cell < 150 else 48 if cell < 200 else 64


# ----------------------------------------------------------------------------------------
# Status, player boxes


@lru_cache(maxsize=256)
def _header_lines(status: str, most: int) -> list[str]:
    """The status in at most `most` lines of TEXT (a longer one is shortened at a word)."""
    lines = wrap(status, TEXT, WIDTH - 32)
    if len(lines) > most:
        lines = lines[:most - 1] + [_fitted(" ".join(lines[most - 1:]), TEXT, WIDTH - 32)]
    return lines


def _header_height(lines: list[str]) -> int:
    return len(lines) * LINE + 16


def _draw_header(draw: ImageDraw.ImageDraw, layout: Layout) -> None:
    """The status on a dark band: whose turn and what to do."""
    height = _header_height(layout.header)
    draw.rectangle((0, 0, WIDTH, height), fill=INK)
    for i, line in enumerate(layout.header):
        draw.text((16, 8 + i * LINE + LINE // 2), line, font=font(TEXT), fill=WHITE, anchor="lm")


BUILDING_POINTS = {"castle": 1, "village": 2, "town": 3}


def score_breakdown(view: View) -> list[dict[str, int]]:
    """Per seat, the buildings its knights top (each scores: castle 1, village 2, town 3), read
    from the tiles in the view: how each score is made."""
    counts = [{"castle": 0, "village": 0, "town": 0} for _ in range(view["seats"])]
    for tile in view["tiles"]:
        if tile["knights"] and tile.get("building") in BUILDING_POINTS:
            counts[tile["knights"][-1]][tile["building"]] += 1
    return counts


def _detail_lines(view: View, player: dict[str, Any], lang: str, width: int) -> list[str]:
    """The words under a player's name (knights and tiles left; at the end how the points were
    made), in parts joined by " · " and wrapped between parts, so nothing is ever cut."""
    seat = player["seat"]
    mine = score_breakdown(view)[seat]
    if view["over"] and sum(BUILDING_POINTS[b] * n for b, n in mine.items()) == player["points"]:
        text = t(lang, "raubritter.board.breakdown", castles=mine["castle"], villages=mine["village"],
                 towns=mine["town"], knights=player["knights_left"])
    else:
        text = _knights_and_tiles(player, lang)
    parts = text.split(" · ")
    if seat in ((view.get("outcome") or {}).get("winners") or ()):  # by the knights left (ties go by them)
        parts.insert(len(parts) - 1, t(lang, "raubritter.board.winner"))
    lines: list[str] = []
    for part in parts:
        if lines and _width(f"{lines[-1]} · {part}", TEXT) <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.extend([part] if _width(part, TEXT) <= width else wrap(part, TEXT, width))
    return lines


def _knights_and_tiles(player: dict[str, Any], lang: str) -> str:
    """"12 knights · 20 tiles": what a player has left to place and to lay (pile and hand)."""
    tiles = msg("raubritter.board.tiles", count=player["pile"] + len(player["hand_backs"]))
    return t(lang, "raubritter.board.knights_tiles", knights=player["knights_left"], tiles=tiles)


def _draw_panel(draw: ImageDraw.ImageDraw, view: View, names: list[str], lang: str, layout: Layout) -> None:
    """One box per player, two to a row: seat disc, name, points, then knights and tiles left
    (at the end: how the points were made)."""
    box_w, box_h = _box_width(), layout.box_h
    for box in _boxes(view, layout):
        player, seat = box.player, box.player["seat"]
        # A player's box depends on its own part of the view alone: kept for the moves that leave it be.
        key = ("raubritter.box", repr(player), names[seat], lang, box.active, box.won, view["phase"],
               tuple(box.details), box_w, box_h)
        kept_part(draw._image, (box.x, box.y, box.x + box_w + 1, box.y + box_h + 1), key,
                  partial(_draw_box, draw, player, names[seat], lang, box.x, box.y, box_w, box_h, box.active,
                          box.won, view["phase"], box.details))


@dataclass(frozen=True)
class _Box:
    """Where a player's box stands in the panel, and what of the view it shows beside the player."""

    player: View
    x: int
    y: int
    active: bool
    won: bool
    details: list[str]


def _boxes(view: View, layout: Layout) -> list[_Box]:
    """The players' boxes, two to a row, in seat order."""
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    box_w, box_h = _box_width(), layout.box_h
    return [_Box(player, 8 + (index % 2) * (box_w + GAP), layout.panel_top + (index // 2) * (box_h + GAP),
                 player["seat"] in view["to_act"], player["seat"] in winners, layout.details[index])
            for index, player in enumerate(view["players"])]


def _draw_box(draw: ImageDraw.ImageDraw, player: View, name: str, lang: str, x: int, y: int, box_w: int, box_h: int,
              active: bool, won: bool, phase: str, details: list[str]) -> None:
    _draw_box_panel(draw, (x, y, x + box_w, y + box_h), active, won)
    cx, cy = _disc_centre(x, y)
    _draw_disc(draw, cx, cy, player)
    corner = _corner_words(player, lang, phase)
    corner_w = _width(corner, TEXT)
    draw.text((x + box_w - BOX_PAD - 6, cy), corner, font=font(TEXT), fill=INK, anchor="rm")
    name_x = cx + DISC + 10
    draw.text((name_x, cy), _fitted(name, TEXT, x + box_w - BOX_PAD - 6 - corner_w - 16 - name_x),
              font=font(TEXT), fill=INK, anchor="lm")
    for i, line in enumerate(details):
        draw.text((x + BOX_PAD + 6, y + BOX_TOP + i * DETAIL_LINE + DETAIL_LINE // 2), line, font=font(TEXT),
                  fill=INK, anchor="lm")


def _draw_box_panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], active: bool, won: bool,
                    ink: Callable[[Ink], Any] = lambda colour: colour) -> None:
    """A player's box's panel: a rounded rectangle in `_panel_colours` (each given as `ink` has it:
    the colour, or its index in the palette)."""
    _, fill, frame = _panel_colours(active, won)
    draw.rounded_rectangle(box, radius=12, fill=ink(fill), outline=ink(frame), width=6 if active or won else 2)


def _panel_colours(active: bool, won: bool) -> tuple[Ink, Ink, Ink]:
    """A box's panel's colours: the background round its corners, its fill and its frame."""
    frame = HIGHLIGHT if active else (INK if won else GRID_LINE)
    return BACKGROUND, PANEL_ACTIVE if active or won else PANEL_IDLE, frame


def _disc_centre(x: int, y: int) -> tuple[int, int]:
    """The centre of the seat's disc on a player's box whose corner is at (x, y)."""
    return x + BOX_PAD + 4 + DISC, y + BOX_TOP // 2 + 3


def _draw_disc(draw: ImageDraw.ImageDraw, cx: int, cy: int, player: View) -> None:
    """A box's seat disc round (cx, cy), with the seat's number."""
    draw.ellipse((cx - DISC, cy - DISC, cx + DISC, cy + DISC), fill=PLAYER_COLOURS[player["colour"]], outline=OUTLINE,
                 width=3)
    mark_text(draw, (cx, cy), str(player["seat"] + 1), TEXT_ON[player["colour"]])


def _corner_words(player: View, lang: str, phase: str) -> str:
    """The words in a box's top right corner: whether the player chose, or their points."""
    if phase == "keep":
        return t(lang, "raubritter.board.chosen" if player["chosen"] else "raubritter.board.choosing")
    return t(lang, "raubritter.board.points", count=player["points"])


# ----------------------------------------------------------------------------------------
# The hand (a seat's own image) and the legend (the table's)


def _draw_band(draw: ImageDraw.ImageDraw, view: View, lang: str, top: int = 0) -> None:
    """The band at the bottom of a seat's own image: its hand (on an image whose first row is
    the board's row `top`)."""
    _draw_hand(draw, view, lang, PRIVATE_TOP - top)


def _hand_geometry(view: View, lang: str) -> tuple[int, int]:
    """Where the hand's tiles start (after the seat disc and "Your hand:") and their size."""
    lx = 12 + 2 * DISC + 12
    tx = lx + 16 + _width(t(lang, "raubritter.board.your_hand"), TEXT)
    count = len(view["private"]["hand"])
    return tx, min(HAND_TILE, (WIDTH - 8 - tx - 12 * max(0, count - 1)) // max(1, count))


def _counts_beside(view: View, lang: str) -> bool:
    """Whether the viewer's knights and tiles left fit right of its hand, in two lines."""
    player = next((p for p in view["players"] if p["seat"] == view["viewer"]), None)
    if player is None:
        return True  # nothing to show
    tx, size = _hand_geometry(view, lang)
    end = tx + (size + 12) * len(view["private"]["hand"])
    counts = _knights_and_tiles(player, lang).split(" · ")
    return len(counts) == 2 and all(_width(part, TEXT) <= WIDTH - 12 - (end + 12) for part in counts)


def _draw_hand(draw: ImageDraw.ImageDraw, view: View, lang: str, y: int, counts_below: bool = False) -> None:
    """The viewer's hand tiles, large, with the tile chosen to keep framed; before them the
    viewer's own seat disc, so a player sees whose hand this is; after them the viewer's knights
    and tiles left (the table's image has everyone's), or with `counts_below` on a line under them."""
    private = view["private"]
    seat = view["viewer"]
    colour = view["colours"][seat]
    radius, mid = DISC, y + HAND_TILE // 2
    draw.ellipse((12, mid - radius, 12 + 2 * radius, mid + radius), fill=PLAYER_COLOURS[colour], outline=OUTLINE,
                 width=3)
    mark_text(draw, (12 + radius, mid), str(seat + 1), TEXT_ON[colour])
    label = t(lang, "raubritter.board.your_hand")
    lx = 12 + 2 * radius + 12
    draw.text((lx, mid), label, font=font(TEXT), fill=INK, anchor="lm")
    tx, size = _hand_geometry(view, lang)
    tiles = private["hand"]
    letters = _letters(lang)
    letter_key = tuple(sorted(letters.items()))
    for tile in tiles:
        if texts_recorded():  # drawn, for the layout tests (pasted, it is the same)
            with marks():
                draw_tile(draw, tx, y, size, {"terrain": tile["terrain"], "building": tile["building"],
                                               "knights": []}, [], letters, in_hand=True)
        else:
            patch = hand_tile_image(size, tile["terrain"], tile["building"], letter_key)
            draw.im.paste(patch.im, (tx, y, tx + patch.width, y + patch.height))
        chosen = private.get("keep_choice") == tile["code"]
        draw.rectangle((tx, y, tx + size, y + size), outline=HIGHLIGHT if chosen else INK, width=7 if chosen else 2)
        tx += size + 12
    player = next((p for p in view["players"] if p["seat"] == seat), None)
    if player is None:
        return
    if counts_below:  # one line under the tiles, from their left edge
        text = _fitted(_knights_and_tiles(player, lang), TEXT, WIDTH - 12 - lx)
        draw.text((lx, y + HAND_TILE + LINE // 2 + 4), text, font=font(TEXT), fill=INK, anchor="lm")
        return
    counts = _knights_and_tiles(player, lang).split(" · ")
    room = WIDTH - 12 - (tx + 12)
    if len(counts) == 2 and all(_width(part, TEXT) <= room for part in counts):
        for i, part in enumerate(counts):  # two lines, right of the tiles
            draw.text((tx + 12, mid + (i - 0.5) * LINE), part, font=font(TEXT), fill=INK, anchor="lm")


def _legend_items(colours: list[str], lang: str) -> list[LegendItem]:
    """The legend's parts in order: (kind, words, width); kinds: the label, a terrain with the
    knights a stack must leave there, this turn's frame, the last-turn tag, a stack."""
    items: list[LegendItem] = []
    label = t(lang, "raubritter.board.leave")
    items.append(("label", label, _width(label, TEXT)))
    for terrain in ("plain", "forest", "mountain", "lake"):
        word = t(lang, f"raubritter.board.terrain_{terrain}")
        items.append((terrain, word, SWATCH + SWATCH_GAP + _width(word, TEXT)))
    for kind, key, mark in (("this_turn", "legend_this_turn", SWATCH), ("last_turn", "legend_last_turn", SWATCH),
                            ("stack", "legend_stack", _stack_mark_width())):
        word = t(lang, f"raubritter.board.{key}")
        items.append((kind, word, mark + SWATCH_GAP + _width(word, TEXT)))
    return items


SWATCH = 44  # a MARK_TEXT digit (41 px of ink) fills it
SWATCH_GAP = 8   # between a legend item's mark and its words
ITEM_GAP = 14    # between items (each begins with its own mark)


def _stack_mark_width() -> int:
    """The legend's stack: the knight's plate, then the height's, as on a tile."""
    return 2 * LEGEND_PLATE[0] + LEGEND_STACK_GAP


LEGEND_PLATE = plate_size(MARK_TEXT)  # the legend's knight and height: a tile's plates
LEGEND_STACK_GAP = 8


def _legend_lines(colours: list[str], lang: str) -> list[list[LegendItem]]:
    """The legend's items flowed into lines as wide as the image: the terrains first (what a
    knights move needs), then what the marks on the tiles mean."""
    return _flow(tuple(colours), lang)


@lru_cache(maxsize=16)
def _flow(colours: tuple[str, ...], lang: str) -> list[list[LegendItem]]:
    lines: list[list[LegendItem]] = []
    width = 0
    for item in _legend_items(list(colours), lang):
        starts_marks = item[0] == "this_turn"
        if not lines or starts_marks or width + ITEM_GAP + item[2] > WIDTH - 24:
            lines.append([item])
            width = item[2]
        else:
            lines[-1].append(item)
            width += ITEM_GAP + item[2]
    return lines


def _draw_legend(draw: ImageDraw.ImageDraw, layout: Layout, colours: list[str], lang: str) -> None:
    """The legend's lines that fit: terrain colours with the knights a stack must leave there
    (lakes: no entry), this turn's frame, the last-turn tag (its number is the player's) and a
    stack (the top knight's seat, then the height)."""
    tagged = geometry(layout.cell)["two_rows"]  # the tiles carry the last turn's tag
    for row, items in enumerate(layout.legend):
        mid = layout.legend_top + row * LINE + LINE // 2
        x = 12
        for kind, word, width in items:
            lx = x
            if kind in TERRAIN_FILL:
                draw.rectangle((lx, mid - SWATCH // 2, lx + SWATCH, mid + SWATCH // 2), fill=TERRAIN_FILL[kind],
                               outline=INK)
                if kind == "lake":  # no entry: a cross as tall as the marks (MIN_MARK)
                    for start, end in (((lx + 3, mid - 20), (lx + SWATCH - 3, mid + 20)),
                                       ((lx + 3, mid + 20), (lx + SWATCH - 3, mid - 20))):
                        draw.line((start, end), fill=INK, width=5)
                else:
                    need = {"plain": "1", "forest": "2", "mountain": "3"}[kind]
                    mark_text(draw, (lx + SWATCH // 2, mid), need, WHITE if kind == "forest" else INK)
                lx += SWATCH + SWATCH_GAP
            elif kind == "this_turn":
                draw.rectangle((lx, mid - SWATCH // 2, lx + SWATCH, mid + SWATCH // 2), fill=TERRAIN_FILL["plain"],
                               outline=INK, width=5)
                draw.rectangle((lx + 5, mid - SWATCH // 2 + 5, lx + SWATCH - 5, mid + SWATCH // 2 - 5), outline=WHITE,
                               width=2)
                lx += SWATCH + SWATCH_GAP
            elif kind == "last_turn":
                colour = colours[0]
                if tagged:  # as on a young area's tiles: the seat's tag
                    draw.rounded_rectangle((lx, mid - SWATCH // 2, lx + SWATCH, mid + SWATCH // 2), radius=5,
                                           fill=PLAYER_COLOURS[colour], outline=OUTLINE, width=2)
                    mark_text(draw, (lx + SWATCH // 2, mid), "1", TEXT_ON[colour])
                else:  # a full area's tiles keep only the frame in the layer's colour
                    draw.rectangle((lx, mid - SWATCH // 2, lx + SWATCH, mid + SWATCH // 2),
                                   fill=TERRAIN_FILL["plain"], outline=PLAYER_COLOURS[colour], width=5)
                lx += SWATCH + SWATCH_GAP
            elif kind == "stack":  # seat 1 on top of three knights, as on a tile
                plate_w, plate_h = LEGEND_PLATE
                top = mid - plate_h // 2
                with marks():
                    draw_knight(draw, (lx, top, lx + plate_w, top + plate_h), 0, colours[0])
                    hx = lx + plate_w + LEGEND_STACK_GAP
                    draw_height(draw, (hx, top, hx + plate_w, top + plate_h), 3)
                lx = hx + plate_w + SWATCH_GAP
            draw.text((lx, mid), word, font=font(TEXT), fill=INK, anchor="lm")
            x += width + ITEM_GAP


_text_mask = tile_image  # what the layout tests clear to see every text drawn afresh


def _fitted(text: str, size: int, width: int) -> str:
    """The text at this size, shortened at a word boundary if it must be (never inside a word)."""
    return _fitted_cached(text, size, int(width))


@lru_cache(maxsize=512)
def _fitted_cached(text: str, size: int, width: int) -> str:
    return fit(text, size, width, smallest=size)[0]


@lru_cache(maxsize=2048)
def _width(text: str, size: int) -> int:
    """The advance of `text` at `size` (measuring a CJK face is slow, and a board measures the
    same words every turn)."""
    return int(font(size).getlength(text) + 0.5)


# ----------------------------------------------------------------------------------------
# The board composed in its palette
#
# Most of a board is the same from one move to the next (a tile laid, a few knights moved,
# whose turn). So the usual board is not drawn whole on an RGB image and quantized (filling and
# quantizing its 1.5 million pixels was most of what it cost): it is composed straight in its
# palette from pieces, each drawn on an image of its own, quantized alone and kept (a laid
# tile, a square's name, a label, the status, a player's box, the legend); the plain squares and
# the frames, in colours the palette holds exactly, are painted in it. Quantizing goes pixel by
# pixel and every piece covers its box as the whole drawing does, so the pixels are those of
# `_drawn_whole`, which the tests compare on whole games.


def _composable(view: View, layout: Layout) -> bool:
    """Whether `_composed` gives this board: no square of the window outside the area's bounds
    (hatched); such a board is drawn whole."""
    bounds = view["bounds"]
    min_c, max_c, min_r, max_r = layout.window
    inside: bool = bounds["min_col"] <= min_c and max_c <= bounds["max_col"] and \
        bounds["min_row"] <= min_r and max_r <= bounds["max_row"]
    return inside


def _composed(view: View, drawn_names: list[str], lang: str, layout: Layout) -> Image.Image:
    """The board `_drawn_whole` draws, composed in its palette (see above)."""
    palette = _palette()
    image = Image.new("P", (WIDTH, HEIGHT), _index(BACKGROUND))
    image.putpalette(palette.getpalette() or [])
    if not _compose_board(image, view, layout, _letters(lang)):
        return _drawn_whole(view, drawn_names, lang, layout)
    header = kept_piece(("raubritter.header", tuple(layout.header)), partial(_header_piece, layout))
    image.paste(header, (0, 0))
    if layout.boxes:
        _compose_panel(image, view, drawn_names, lang, layout)
    if layout.legend:
        # Its lines alone (and half a gap round them): the background under them is the image's.
        top = layout.legend_top - GAP // 2
        bottom = min(PRIVATE_TOP if layout.hand else HEIGHT, layout.legend_top + len(layout.legend) * LINE + GAP // 2)
        legend = kept_piece(("raubritter.legend piece", _legend_key(view, lang, layout), bottom - top),
                            partial(_legend_piece, layout, view["colours"], lang, top, bottom))
        image.paste(legend, (0, top))
    if layout.hand:
        image.paste(private_rows(view, drawn_names, lang, PRIVATE_TOP), (0, PRIVATE_TOP))
        image.info["private_top"] = PRIVATE_TOP
    return image


@lru_cache(maxsize=64)
def _index(colour: tuple[int, int, int]) -> int:
    """The palette index quantizing gives `colour` (one the palette holds exactly)."""
    index: int = to_palette(Image.new("RGB", (1, 1), colour), _palette()).getpixel((0, 0))  # type: ignore[assignment]
    return index


def _compose_board(image: Image.Image, view: View, layout: Layout, letters: dict[str, str]) -> bool:
    """`_draw_board`'s squares, labels and frames, in the same order, in the palette image; False
    (nothing to use) where an open square's name would not stand on its plain inside."""
    min_c, max_c, min_r, max_r = layout.window
    cell, x0, y0 = layout.cell, layout.x0, layout.y0
    grid = view["grid"]
    for i, c in enumerate(range(min_c, max_c + 1)):
        _paste_label(image, grid["col_labels"][c], "ms", x0 + i * cell + cell // 2, y0 - 8)
    for j, r in enumerate(range(min_r, max_r + 1)):
        _paste_label(image, grid["row_labels"][r], "rm", x0 - 10, y0 + j * cell + cell // 2)

    def origin(col: int, row: int) -> tuple[int, int]:
        return x0 + (col - min_c) * cell, y0 + (row - min_r) * cell

    open_squares = set(view.get("open_squares", []))
    laid = {(t["col"], t["row"]): t for t in view["tiles"]}
    name_size = _name_size(cell)
    empty, framed = _square_piece(cell, "empty").im, _square_piece(cell, "open").im
    for c in range(min_c, max_c + 1):
        for r in range(min_r, max_r + 1):
            if (c, r) in laid:
                continue
            x, y = origin(c, r)
            name = grid["col_labels"][c] + grid["row_labels"][r]
            if name not in open_squares:
                image.im.paste(empty, (x, y, x + cell + 1, y + cell + 1))
            else:
                image.im.paste(framed, (x, y, x + cell + 1, y + cell + 1))
                piece, corner_x, corner_y = _name_piece(name, name_size)
                left, top = x + cell // 2 + corner_x, y + cell // 2 + corner_y
                if not (left >= x + 5 and top >= y + 5 and left + piece.width <= x + cell - 4 and
                        top + piece.height <= y + cell - 4):  # `_draw_name` draws it on the square
                    if not _name_inside(name, name_size, cell):
                        return False
                    image.im.paste(_named_square_piece(cell, name).im, (x, y, x + cell + 1, y + cell + 1))
                    continue
                image.im.paste(piece.im, (left, top, left + piece.width, top + piece.height))

    if not laid and view["phase"] == "keep":
        lo_c, hi_c = _start_span(grid["cols"], grid["limit"])
        lo_r, hi_r = _start_span(grid["rows"], grid["limit"])
        back = _square_piece(cell, "back")
        for c in range(lo_c, hi_c + 1):
            for r in range(lo_r, hi_r + 1):
                x, y = origin(c, r)
                image.im.paste(back.im, (x + 2, y + 2, x + 2 + back.width, y + 2 + back.height))

    last = _last_turns(view)
    letter_key = tuple(sorted(letters.items()))
    colours = tuple(view["colours"])
    for (c, r), tile in laid.items():
        x, y = origin(c, r)
        knights = tile["knights"]
        patch = _tile_piece(cell, tile["terrain"], tile.get("building"), tuple(knights[-1:]), len(knights), colours,
                            letter_key, last.get(tile["square"]))
        image.im.paste(patch.im, (x, y, x + patch.width, y + patch.height))

    index = {t["square"]: (t["col"], t["row"]) for t in view["tiles"]}
    frame = frame_width(cell)
    draw, ink = ImageDraw.Draw(image), _index(INK)
    for square in view.get("this_turn", []):
        if square in index:
            x, y = origin(*index[square])
            draw.rectangle((x, y, x + cell, y + cell), outline=ink, width=frame)
            draw.rectangle((x + frame, y + frame, x + cell - frame, y + cell - frame), outline=_index(WHITE), width=2)
    if view.get("pending_castle") in index:
        x, y = origin(*index[view["pending_castle"]])
        draw.rectangle((x, y, x + cell, y + cell), outline=ink, width=2)
        draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=_index(HIGHLIGHT), width=frame)
    return True


@keep_drawn(2**19)  # a board's plain squares and the starting area's backs, in its two or three square sizes
def _square_piece(cell: int, kind: str) -> Image.Image:
    """A square as `_draw_board` paints it, in the palette: an "empty" one or an "open" one (its
    frame, without its name), its whole box; or a tile of the starting area face down ("back"),
    from 2 pixels inside its square (the rest is the empty square's)."""
    if kind == "back":
        image = Image.new("RGB", (cell - 3, cell - 3), BACKGROUND)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, cell - 4, cell - 4), fill=FACE_DOWN, outline=INK, width=2)
        centre_text(draw, (cell // 2 - 2, cell // 2 - 2), "A", max(MARK_TEXT, cell // 2), FACE_DOWN_LETTER)
    else:
        image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, cell, cell), fill=EMPTY_FILL, outline=GRID_LINE)
        if kind == "open":
            draw.rectangle((3, 3, cell - 3, cell - 3), outline=INK, width=2)
    return to_palette(image, _palette())


def _paste_label(image: Image.Image, text: str, anchor: str, x: int, y: int) -> None:
    """A column letter or row number as `_draw_board` draws it at (x, y) on the background."""
    piece, left, top = _label_piece(text, anchor)
    image.im.paste(piece.im, (x + left, y + top, x + left + piece.width, y + top + piece.height))


LABEL_MARGIN = 2  # background round a label's ink box on its piece


@keep_drawn(2**18)  # a board's column letters and row numbers
def _label_piece(text: str, anchor: str) -> tuple[Image.Image, int, int]:
    """A label drawn at (0, 0) with `anchor`, on a piece of its ink box and a margin of the
    background, in the palette, with where the piece's corner stands from (0, 0)."""
    left, top, right, bottom = (int(v) for v in font(TEXT).getbbox(text, anchor=anchor))
    left, top = left - LABEL_MARGIN, top - LABEL_MARGIN
    image = Image.new("RGB", (right - left + LABEL_MARGIN + 1, bottom - top + LABEL_MARGIN + 1), BACKGROUND)
    ImageDraw.Draw(image).text((-left, -top), text, font=font(TEXT), fill=INK, anchor=anchor)
    return to_palette(image, _palette()), left, top


def _name_inside(name: str, size: int, cell: int) -> bool:
    """Whether an open square's name, its ink centred on the square, stays inside the square's box
    with a pixel or two to spare (the widest names on a full area's smallest squares cross its
    frame, never its edge)."""
    left, top, right, bottom = ink_box(name, size)
    return max(right - left, bottom - top) + 6 <= cell


@keep_drawn(2**17)  # the open squares whose names cross their frames on a full area's smallest squares
def _named_square_piece(cell: int, name: str) -> Image.Image:
    """An open square whose name crosses its frame, its whole box as `_draw_board` draws it (the
    square, its frame, then its name drawn over them), in the palette."""
    image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, cell, cell), fill=EMPTY_FILL, outline=GRID_LINE)
    draw.rectangle((3, 3, cell - 3, cell - 3), outline=INK, width=2)
    _draw_name(draw, 0, 0, cell, name)
    return to_palette(image, _palette())


@keep_drawn(3 * 2**17)  # a board's open squares' names: the same few dozen from move to move
def _name_piece(text: str, size: int) -> tuple[Image.Image, int, int]:
    """An open square's name as `_draw_name` pastes it, in the palette."""
    image, corner_x, corner_y = centred_text_image.__wrapped__(text, size, INK, EMPTY_FILL)
    return to_palette(image, _palette()), corner_x, corner_y


@keep_drawn(2 * 2**20)  # the same few dozen tiles stand on every turn's board (a quarter of their RGB bytes)
def _tile_piece(cell: int, terrain: str, building: str | None, top_knight: tuple[int, ...], height: int,
                colours: tuple[str, ...], letters: tuple[tuple[str, str], ...], last_seat: int | None) -> Image.Image:
    """A laid tile's picture (`tile_image`, not kept in RGB) in the palette: its ground (all but the
    stack), which tiles alike share at this size, with its stack's plates pasted on it (when the
    window grows, every tile comes anew at the new size: some 40 tiles, 20 grounds)."""
    ground = _tile_ground_piece(cell, terrain, building, height > 0, last_seat,
                                None if last_seat is None else colours[last_seat], letters)
    if not height:
        return ground
    g = geometry(cell)
    plates = [(g["knight"], _plate_piece(g["knight"], g["size"], top_knight[0], colours[top_knight[0]]))]
    if height > 1:
        plates.append((g["height"], _plate_piece(g["height"], g["size"], height, None)))
    if any(plate is None for _, plate in plates):  # a plate's ink spills over its edge: drawn whole
        patch, _ = tile_image.__wrapped__(cell, terrain, building, top_knight, height, colours, letters, last_seat)
        return to_palette(patch, _palette())
    image = ground.copy()
    for (left, top, _, _), plate in plates:
        assert plate is not None
        piece, mask = plate
        image.im.paste(piece.im, (left, top, left + piece.width, top + piece.height), mask.im)
    return image


@keep_drawn(2**19)  # the grounds of a board's tiles (some 20 kinds), at its sizes
def _tile_ground_piece(cell: int, terrain: str, building: str | None, occupied: bool, last_seat: int | None,
                       last_colour: str | None, letters: tuple[tuple[str, str], ...]) -> Image.Image:
    """A laid tile as `draw_tile` draws it before its stack (terrain, scenery, building, the last
    turn's tag or frame; `occupied`: knights stand on it, which leaves a full area's building its
    letter out), in the palette."""
    image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
    colours = [last_colour or ""] * (1 + (last_seat or 0))
    with unrecorded():
        draw_tile(ImageDraw.Draw(image), 0, 0, cell, {"terrain": terrain, "building": building,
                                                      "knights": [0] if occupied else []},
                  colours, dict(letters), last_seat, stack=False)
    return to_palette(image, _palette())


PLATE_GROUNDS = ((0, 0, 0), (255, 255, 255))
"""Two grounds a plate is drawn on: where both drawings agree the plate covers the pixel."""


@keep_drawn(2**17)  # the seats' knights and the stacks' heights at a board's two or three square sizes
def _plate_piece(box: tuple[int, int, int, int], size: int, number: int,
                 colour: str | None) -> tuple[Image.Image, Image.Image] | None:
    """A stack's plate as `draw_tile` draws it over its ground in `box` (the top knight of seat
    `number` in `colour`, or the stack's height `number` with `colour` None), in the palette, with
    the mask of the pixels it paints (a knight's plate has rounded corners); None where a pixel
    is a blend of the plate's ink and the ground under it (then no piece gives it)."""
    left, top, right, bottom = box
    drawn = []
    for ground in PLATE_GROUNDS:
        image = Image.new("RGB", (right - left + 1, bottom - top + 1), ground)
        draw = ImageDraw.Draw(image)
        inside = (0, 0, right - left, bottom - top)
        with unrecorded():
            if colour is None:
                draw_height(draw, inside, number, size)
            else:
                draw_knight(draw, inside, number, colour, size)
        drawn.append(image)
    on_black, on_white = drawn
    # Black against white where the plate leaves its ground be, nothing where it paints: any
    # other difference is a pixel of both.
    difference = ImageChops.difference(on_black, on_white)
    if not {colour for _, colour in difference.getcolors(2) or [(0, None)]} <= {(0, 0, 0), (255, 255, 255)}:
        return None
    return to_palette(on_black, _palette()), ImageChops.invert(difference.convert("L"))


def _header_piece(layout: Layout) -> Image.Image:
    image = Image.new("RGB", (WIDTH, _header_height(layout.header) + 1), BACKGROUND)
    _draw_header(ImageDraw.Draw(image), layout)
    return to_palette(image, _palette())


def _last_turns(view: View) -> dict[str, int]:
    """Square -> the seat whose last turn laid or moved onto it (its frame and tag)."""
    last = {}
    for turn in view.get("recent_turns", []):
        for square in turn["squares"]:
            last[square] = turn["seat"]
    return last


def _compose_panel(image: Image.Image, view: View, names: list[str], lang: str, layout: Layout) -> None:
    """`_draw_panel`'s boxes, each a piece kept for the moves that leave its player be."""
    box_w, box_h = _box_width(), layout.box_h
    for box in _boxes(view, layout):
        player, seat = box.player, box.player["seat"]
        key = ("raubritter.box piece", repr(player), names[seat], lang, box.active, box.won, view["phase"],
               tuple(box.details), box_w, box_h)
        image.paste(kept_piece(key, partial(_box_piece, player, names[seat], lang, box_w, box_h, box.active, box.won,
                                            view["phase"], box.details)), (box.x, box.y))


def _box_piece(player: View, name: str, lang: str, box_w: int, box_h: int, active: bool, won: bool, phase: str,
               details: list[str]) -> Image.Image:
    composed = _box_composed(player, name, lang, box_w, box_h, active, won, phase, details)
    if composed is not None:
        return composed
    image = Image.new("RGB", (box_w + 1, box_h + 1), BACKGROUND)
    _draw_box(ImageDraw.Draw(image), player, name, lang, 0, 0, box_w, box_h, active, won, phase, details)
    return to_palette(image, _palette())


def _legend_piece(layout: Layout, colours: list[str], lang: str, top: int, bottom: int) -> Image.Image:
    image = Image.new("RGB", (WIDTH, bottom - top), BACKGROUND)
    _draw_legend(ImageDraw.Draw(image), replace(layout, legend_top=layout.legend_top - top), colours, lang)
    return to_palette(image, _palette())


# ----------------------------------------------------------------------------------------
# The hand composed in its palette
#
# A seat's hand (the strip under its board, or its image of the hand alone) changes with every
# tile it lays, so it is drawn anew for most of its images: not on an RGB image quantized whole
# (some 170,000 pixels filled and quantized each time), but composed in the palette from pieces
# that every table shares (a seat's disc, a word, a tile of the hand at its size), each drawn on
# the background of its own box and quantized alone, as `_draw_hand` draws them apart on the
# background, and the tiles' frames painted in colours the palette holds exactly.


def _hand_composed(view: View, lang: str, height: int, y: int, counts_below: bool) -> Image.Image:
    """What `_draw_hand` draws at row `y` on the background of an image `height` rows tall, in the
    palette."""
    image = Image.new("P", (WIDTH, height), _index(BACKGROUND))
    image.putpalette(_palette().getpalette() or [])
    private, seat = view["private"], view["viewer"]
    mid = y + HAND_TILE // 2
    disc = _disc_piece(seat, view["colours"][seat])
    left, top = 12 - DISC_MARGIN, mid - DISC - DISC_MARGIN
    image.im.paste(disc.im, (left, top, left + disc.width, top + disc.height))
    lx = 12 + 2 * DISC + 12
    _paste_hand_text(image, t(lang, "raubritter.board.your_hand"), lx, mid)
    tx, size = _hand_geometry(view, lang)
    letter_key = tuple(sorted(_letters(lang).items()))
    draw = ImageDraw.Draw(image)
    for tile in private["hand"]:
        patch = _hand_tile_piece(size, tile["terrain"], tile["building"], letter_key)
        image.im.paste(patch.im, (tx, y, tx + patch.width, y + patch.height))
        chosen = private.get("keep_choice") == tile["code"]
        draw.rectangle((tx, y, tx + size, y + size), outline=_index(HIGHLIGHT if chosen else INK),
                       width=7 if chosen else 2)
        tx += size + 12
    player = next((p for p in view["players"] if p["seat"] == seat), None)
    if player is None:
        return image
    if counts_below:
        _paste_hand_text(image, _fitted(_knights_and_tiles(player, lang), TEXT, WIDTH - 12 - lx), lx,
                         y + HAND_TILE + LINE // 2 + 4)
        return image
    counts = _knights_and_tiles(player, lang).split(" · ")
    room = WIDTH - 12 - (tx + 12)
    if len(counts) == 2 and all(_width(part, TEXT) <= room for part in counts):
        for i, part in enumerate(counts):  # mid -/+ half a line, as `_draw_hand` puts them
            _paste_hand_text(image, part, tx + 12, mid + (2 * i - 1) * LINE // 2)
    return image


DISC_MARGIN = 4  # background round a hand's seat disc on its piece (its number stays inside the disc)


@keep_drawn(2**16)  # the four seats' discs in their colours
def _disc_piece(seat: int, colour: str) -> Image.Image:
    """A seat's disc with its number as `_draw_hand` draws it, on a piece of its box and a margin
    of the background, in the palette."""
    side = 2 * DISC + 2 * DISC_MARGIN + 1
    image = Image.new("RGB", (side, side), BACKGROUND)
    draw = ImageDraw.Draw(image)
    low, high = DISC_MARGIN, DISC_MARGIN + 2 * DISC
    draw.ellipse((low, low, high, high), fill=PLAYER_COLOURS[colour], outline=OUTLINE, width=3)
    mark_text(draw, (low + DISC, low + DISC), str(seat + 1), TEXT_ON[colour])
    return to_palette(image, _palette())


def _paste_hand_text(image: Image.Image, text: str, x: int, y: int) -> None:
    """A word of the hand as `_draw_hand` draws it at (x, y), anchored left and middle."""
    piece, left, top = _hand_text_piece(text)
    image.im.paste(piece.im, (x + left, y + top, x + left + piece.width, y + top + piece.height))


@keep_drawn(3 * 2**16)  # "Your hand:" and the seats' knights and tiles left, in a language or two
def _hand_text_piece(text: str) -> tuple[Image.Image, int, int]:
    """A word of the hand, as `_label_piece` draws a label, anchored left and middle."""
    return _label_piece.__wrapped__(text, "lm")


@keep_drawn(2**19)  # the tiles in the hands of a few tables, at their sizes (a third of their RGB bytes)
def _hand_tile_piece(size: int, terrain: str, building: str | None,
                     letters: tuple[tuple[str, str], ...]) -> Image.Image:
    """A tile of a seat's hand (`hand_tile_image`, not kept in RGB) in the palette."""
    return to_palette(hand_tile_image.__wrapped__(size, terrain, building, letters), _palette())


# ----------------------------------------------------------------------------------------
# A player's box composed in its palette
#
# A box changes with its player's turn, points and knights, so at many tables most boxes a move
# shows are new. Composed in the palette it is its panel (a rounded rectangle in colours the
# palette holds exactly, painted in it), its seat's disc and its words, each drawn over the panel
# in a box of its own that nothing else touches, as `_draw_box` draws them there; the pieces are
# kept by what they show and where, so the boxes of every table share them.


def _box_composed(player: View, name: str, lang: str, box_w: int, box_h: int, active: bool, won: bool, phase: str,
                  details: list[str]) -> Image.Image | None:
    """`_draw_box`'s box at (0, 0) in the palette; None where a word's box would touch another's or
    the disc (then it is drawn whole)."""
    cx, cy = _disc_centre(0, 0)
    corner = _corner_words(player, lang, phase)
    name_x = cx + DISC + 10
    words = [(corner, "rm", box_w - BOX_PAD - 6, cy),
             (_fitted(name, TEXT, box_w - BOX_PAD - 6 - _width(corner, TEXT) - 16 - name_x), "lm", name_x, cy),
             *((line, "lm", BOX_PAD + 6, BOX_TOP + i * DETAIL_LINE + DETAIL_LINE // 2)
               for i, line in enumerate(details))]
    if len({_index(colour) for colour in _panel_colours(active, won)}) < 3:
        return None  # the panel's colours could not be told apart in it (`_box_word_piece`)
    taken = [(cx - DISC, cy - DISC, cx + DISC + 1, cy + DISC + 1)]
    pieces = []
    for text, anchor, x, y in words:
        piece, box = _box_word_piece(text, anchor, x, y, box_w, box_h, active, won)
        if any(box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]
               for other in taken):
            return None
        taken.append(box)
        pieces.append((piece, box))
    image = _panel(box_w, box_h, active, won).copy()
    image.paste(_box_disc_piece(box_w, box_h, active, won, player["seat"], player["colour"]), taken[0][:2])
    for piece, box in pieces:
        image.im.paste(piece.im, box)
    return image


@keep_drawn(2**17)  # the panels of a board's boxes: idle and to act (each box's is a copy)
def _panel(box_w: int, box_h: int, active: bool, won: bool) -> Image.Image:
    """A player's box before its disc and words, in the palette: its rounded rectangle painted in
    the indices quantizing gives its colours."""
    image = Image.new("P", (box_w + 1, box_h + 1), _index(_panel_colours(active, won)[0]))
    image.putpalette(_palette().getpalette() or [])
    _draw_box_panel(ImageDraw.Draw(image), (0, 0, box_w, box_h), active, won, _index)
    return image


@keep_drawn(2**16)  # the seats' discs on their boxes, idle, to act or won
def _box_disc_piece(box_w: int, box_h: int, active: bool, won: bool, seat: int, colour: str) -> Image.Image:
    """A box's seat disc with its number, and the panel under the disc's corners, as `_draw_box`
    draws them, in the palette."""
    image = Image.new("RGB", (box_w + 1, box_h + 1), BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_box_panel(draw, (0, 0, box_w, box_h), active, won)
    cx, cy = _disc_centre(0, 0)
    _draw_disc(draw, cx, cy, {"seat": seat, "colour": colour})
    return to_palette(image.crop((cx - DISC, cy - DISC, cx + DISC + 1, cy + DISC + 1)), _palette())


@keep_drawn(3 * 2**16)  # the boxes' words: points, names, knights and tiles left
def _box_word_piece(text: str, anchor: str, x: int, y: int, box_w: int, box_h: int, active: bool,
                    won: bool) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """A word of a player's box as `_draw_box` draws it at (x, y) over its panel (the last line's
    lowest ink may touch the panel's frame), on the box of its line and a margin, within the
    box, in the palette, with that box."""
    left, top, right, bottom = (int(v) for v in font(TEXT).getbbox(text, anchor=anchor))
    box = (max(0, x + left - LABEL_MARGIN), max(0, y + top - LABEL_MARGIN),
           min(box_w + 1, x + right + LABEL_MARGIN + 1), min(box_h + 1, y + bottom + LABEL_MARGIN + 1))
    image = _panel(box_w, box_h, active, won).crop(box)
    # The panel's pixels in the colours it was painted in (quantizing takes PANEL_ACTIVE for a
    # neighbour of it: the word's edges are blended with the colour drawn, not the one kept).
    palette = _palette().getpalette() or []
    for colour in _panel_colours(active, won):
        palette[3 * _index(colour):3 * _index(colour) + 3] = [int(value) for value in colour]
    image.putpalette(palette)
    image = image.convert("RGB")
    ImageDraw.Draw(image).text((x - box[0], y - box[1]), text, font=font(TEXT), fill=INK, anchor=anchor)
    return to_palette(image, _palette()), box
