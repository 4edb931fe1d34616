"""Raub Ritter board renderer: draws only what a view (public or a seat's) holds.

Layout (phone first: upright 1080 x 1350): the status on top; the board window, showing the laid
tiles plus one free ring around them (grey where the area limit forbids laying), with the square
labels, its squares as large as the room left by the panel allows (a young area's few tiles are
drawn big; free squares fill a window narrower than the room); under it one box per player (seat
number, name, points, knights, tiles), then a legend of terrains and marks, or on a seat's own
image its hand, large. On a tile: the building with its letter top left, the tag of the player
who laid it in their last turn top right, the top knight's seat number bottom left and the
stack's height bottom right. Every knight and tag carries its seat number, so owners are told
apart without colour; the move history is in the message text, not on the image.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import name_seats
from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, PHONE_SIZE, fit, fixed_palette, font,
                              keep_drawn, note_text, seat_names, to_palette, unrecorded, wrap)

WIDTH, HEIGHT = PHONE_SIZE
HEADER = 96
COL_LABELS = 40      # the strip above the board with the column letters
ROW_LABELS = 52      # the strip left of it with the row numbers
CELL_CAP = 240       # the largest square (a young area's few tiles)
GAP = 8
BOX_BASE = 66        # a player box: the name row, then DETAIL_LINE per line of detail
DETAIL_LINE = 36
DETAIL_SIZE = 31
LEGEND_LINE = 46
HAND_TILE = 140      # the viewer's hand, at the bottom of a seat's own image

# Neutral paints (named so the PNG palette can hold each exactly).
HATCH = (176, 172, 166)
BUILDING_INK = (40, 34, 30)
OUTLINE = (20, 20, 20)
SNOW = (245, 245, 245)
FACE_DOWN_LETTER = (240, 234, 220)
PANEL_ACTIVE = (255, 250, 238)
PANEL_IDLE = (236, 229, 214)
WHITE = (255, 255, 255)

# Raub Ritter's own player colours (tile backs and knights), in shades from the Okabe-Ito
# palette that red-green colour-blind players can tell apart (green is a bluish green, not the
# forest's, and red a vermilion); every mark carries the seat number as well.
PLAYER_COLOURS = {"blue": (0, 114, 178), "yellow": (240, 228, 66), "green": (0, 158, 115), "red": (213, 94, 0)}
TEXT_ON = {"blue": WHITE, "yellow": INK, "green": WHITE, "red": WHITE}

TERRAIN_FILL = {"plain": (214, 226, 150), "forest": (92, 150, 80), "mountain": (170, 160, 150), "lake": (110, 170, 225)}
TERRAIN_MARK = {"plain": (176, 196, 110), "forest": (36, 96, 40), "mountain": (110, 100, 92), "lake": (232, 244, 255)}
BUILDING_FILL = {"castle": (120, 110, 110), "village": (196, 120, 70), "town": (178, 60, 50)}
BUILDING_LETTER = {"castle": "C", "village": "V", "town": "T"}
EMPTY_FILL = (236, 230, 214)
OUTSIDE_FILL = (196, 192, 186)
GRID_LINE = (170, 160, 145)
FACE_DOWN = (180, 168, 150)


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    drawn_names = seat_names(names, view["seats"])
    _draw_header(draw, view, drawn_names, lang)
    layout = _layout(view, lang)
    _draw_board(draw, view, layout, _letters(lang))
    _draw_panel(draw, view, drawn_names, lang, layout)
    # A fixed palette is ~30x faster than an adaptive quantize and keeps the PNG small.
    image = to_palette(image, _palette())
    if layout.hand or layout.legend:
        # Below it only the seat's hand (private_rows), or on the public board the legend: the
        # same board above, so a move's public board and DM images share its drawing.
        image.info["private_top"] = PRIVATE_TOP
    return image


PRIVATE_TOP = HEIGHT - GAP - HAND_TILE  # the band at the bottom: a seat's hand, or the legend


def private_layout(view: dict, lang: str) -> bool:
    """What the board above the bottom band depends on of a view: only whether the band is
    there, with a seat's hand or the public legend (renderers.render_pngs draws the board once
    for views alike in this)."""
    hand, legend = _bands(view)
    return hand or legend


def _bands(view: dict) -> tuple[bool, bool]:
    """Whether the bottom band holds the viewer's hand, or the legend (the public board while
    the game goes on; at the end nothing is left to lay or move)."""
    private = bool(view.get("private")) and view["viewer"] is not None
    return private, not private and not view["over"]


def private_rows(view: dict, names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (its hand), as `render` draws them (drawn
    on an image of those rows alone: a whole one per seat was most of the memory drawing took)."""
    image = Image.new("RGB", (WIDTH, HEIGHT - top), BACKGROUND)
    _draw_band(ImageDraw.Draw(image), view, lang, top)
    return to_palette(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour this module paints exactly, then a colour cube and greys for the
    anti-aliased edges of text."""
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, *PLAYER_COLOURS.values(), *TERRAIN_FILL.values(),
             *TERRAIN_MARK.values(), *BUILDING_FILL.values(), EMPTY_FILL, OUTSIDE_FILL, GRID_LINE,
             FACE_DOWN, HATCH, BUILDING_INK, OUTLINE, SNOW, FACE_DOWN_LETTER, PANEL_ACTIVE, PANEL_IDLE, WHITE]
    return fixed_palette(*exact)


# ----------------------------------------------------------------------------------------
# Layout: the board window takes what the panel leaves


@dataclass
class Layout:
    window: tuple[int, int, int, int]   # min_col, max_col, min_row, max_row shown
    cell: int
    x0: int                             # the board's top left corner (labels outside it)
    y0: int
    panel_top: int
    box_h: int                          # each player box
    details: list[list[str]]            # per player (in view order): the lines under the name
    legend: bool                        # the two legend lines under the boxes
    hand: bool                          # the viewer's hand tiles at the bottom


def _layout(view: dict, lang: str) -> Layout:
    """Fixed parts first (header, player boxes, legend or hand), then the largest squares that
    let the window of laid tiles plus one free ring fit in what is left; a window narrower than
    the room gets more free squares (within the area's bounds) rather than empty margins."""
    private, legend = _bands(view)
    box_w = _box_width()
    details = [_detail_lines(view, player, lang, box_w - 28) for player in view["players"]]
    box_h = BOX_BASE + DETAIL_LINE * max(1, max(len(lines) for lines in details))
    rows = -(-len(view["players"]) // 2)
    boxes_h = rows * box_h + (rows - 1) * GAP
    band_h = HAND_TILE + GAP if private or legend else 0  # the hand, or the legend in the same room
    panel_h = boxes_h + band_h
    left, right = 6 + ROW_LABELS, WIDTH - 6
    top, bottom = HEADER + COL_LABELS, HEIGHT - GAP - panel_h - GAP
    avail_w, avail_h = right - left, bottom - top
    min_c, max_c, min_r, max_r = _window(view)
    cell = min(CELL_CAP, avail_w // (max_c - min_c + 1), avail_h // (max_r - min_r + 1))
    lo_c, hi_c, lo_r, hi_r = _allowed(view)
    min_c, max_c = _widen(min_c, max_c, lo_c, hi_c, avail_w // cell)
    min_r, max_r = _widen(min_r, max_r, lo_r, hi_r, avail_h // cell)
    board_w, board_h = cell * (max_c - min_c + 1), cell * (max_r - min_r + 1)
    x0 = left + (avail_w - board_w) // 2
    spare = avail_h - board_h
    y0 = top + spare // 2
    panel_top = y0 + board_h + GAP + (spare - spare // 2)
    return Layout((min_c, max_c, min_r, max_r), cell, x0, y0, panel_top, box_h, details, legend, private)


def _box_width() -> int:
    return (WIDTH - 16 - GAP) // 2


def _allowed(view: dict) -> tuple[int, int, int, int]:
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


def _window(view: dict) -> tuple[int, int, int, int]:
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


def _draw_board(draw: ImageDraw.ImageDraw, view: dict, layout: Layout,
                letters: dict[str, str] = BUILDING_LETTER) -> None:
    min_c, max_c, min_r, max_r = layout.window
    cell, x0, y0 = layout.cell, layout.x0, layout.y0
    grid = view["grid"]
    label_size = max(MIN_TEXT, min(40, cell // 3))
    for i, c in enumerate(range(min_c, max_c + 1)):
        draw.text((x0 + i * cell + cell // 2, y0 - 6), grid["col_labels"][c], font=font(label_size),
                  fill=INK, anchor="ms")
    for j, r in enumerate(range(min_r, max_r + 1)):
        draw.text((x0 - 8, y0 + j * cell + cell // 2), grid["row_labels"][r], font=font(label_size),
                  fill=INK, anchor="rm")

    def origin(col: int, row: int) -> tuple[int, int]:
        return x0 + (col - min_c) * cell, y0 + (row - min_r) * cell

    bounds = view["bounds"]
    open_squares = set(view.get("open_squares", []))
    laid = {(t["col"], t["row"]): t for t in view["tiles"]}
    dot = max(5, cell // 16)
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
            elif grid["col_labels"][c] + grid["row_labels"][r] in open_squares:
                draw.ellipse((x + cell // 2 - dot, y + cell // 2 - dot, x + cell // 2 + dot, y + cell // 2 + dot),
                             fill=MUTED)

    if not laid and view["phase"] == "keep":
        lo_c, hi_c = _start_span(grid["cols"], grid["limit"])
        lo_r, hi_r = _start_span(grid["rows"], grid["limit"])
        for c in range(lo_c, hi_c + 1):
            for r in range(lo_r, hi_r + 1):
                x, y = origin(c, r)
                draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), fill=FACE_DOWN, outline=INK, width=2)
                draw.text((x + cell // 2, y + cell // 2), "A", font=font(max(MIN_TEXT, cell // 2)), fill=FACE_DOWN_LETTER,
                          anchor="mm")

    # The last turn of each player: a frame in the layer's colour and a tag with the seat number.
    last = {}
    for turn in view.get("recent_turns", []):
        for square in turn["squares"]:
            last[square] = turn["seat"]
    letter_key = tuple(sorted(letters.items()))
    for (c, r), tile in laid.items():
        x, y = origin(c, r)
        patch, texts = _tile_image(cell, tile["terrain"], tile.get("building"), tuple(tile["knights"][-1:]),
                                   len(tile["knights"]), tuple(view["colours"]), letter_key, last.get(tile["square"]))
        draw.im.paste(patch.im, (x, y, x + patch.width, y + patch.height))
        for (left, top, right, bottom), text, size in texts:
            note_text((left + x, top + y, right + x, bottom + y), text, size)

    index = {t["square"]: (t["col"], t["row"]) for t in view["tiles"]}
    # This turn: a dark frame with a white line inside, distinct from every seat colour.
    frame = _frame_width(cell)
    for square in view.get("this_turn", []):
        if square in index:
            x, y = origin(*index[square])
            draw.rectangle((x, y, x + cell, y + cell), outline=INK, width=frame)
            draw.rectangle((x + frame, y + frame, x + cell - frame, y + cell - frame), outline=WHITE, width=2)
    if view.get("pending_castle") in index:  # the castle waiting for its knights: gold inside a dark line
        x, y = origin(*index[view["pending_castle"]])
        draw.rectangle((x, y, x + cell, y + cell), outline=INK, width=2)
        draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), outline=HIGHLIGHT, width=frame)


def _frame_width(cell: int) -> int:
    return max(4, cell // 22)


SIGN_BELOW = 34
"""Under this height a building is drawn as a sign (its letter on a plate of its colour): the
icon would be smaller than its letter."""


@lru_cache(maxsize=64)
def _geometry(cell: int) -> dict[str, int]:
    """Where the marks sit on a tile of `cell` pixels: the building (and mountain) top left,
    the last-turn tag top right, the top knight bottom left and the stack height bottom right
    (a cross, then the number), so no two ever overlap, down to the smallest squares (76 px
    when a seat's hand shares the image with a full 10 x 10 area)."""
    pad = _frame_width(cell) + (1 if cell < 90 else 2)
    radius = max(17, round(cell * 0.2))
    tag = max(34, round(cell * 0.32))
    number = max(MIN_TEXT, int(radius * 1.5))      # the seat number and the height
    digit = _width("4", number)
    disc_right = pad + 2 * radius
    arm = max(3, min(round(number * 0.2), (cell - pad - digit - 3 - disc_right - 4) // 2))
    return {"pad": pad, "radius": radius, "tag": tag, "number": number,
            "disc_x": pad + radius, "disc_y": cell - pad - radius,
            "height_right": cell - pad,                       # the height's number ends here
            "cross_x": cell - pad - digit - 3 - arm, "arm": arm,  # and its cross is centred here
            "top_w": cell - 2 * pad - tag - 4,          # the building's room, left of the tag
            "top_h": cell - 2 * pad - 2 * radius - 3}   # and above the knight


def _draw_tile(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, tile: dict, seat_colours: list[str],
               letters: dict[str, str] = BUILDING_LETTER, last_seat: int | None = None, *,
               in_hand: bool = False, texts: list | None = None) -> None:
    """A laid tile; `in_hand`: a tile of the viewer's hand, where no knight will stand, so its
    building fills the tile."""
    terrain = tile["terrain"]
    draw.rectangle((x, y, x + cell, y + cell), fill=TERRAIN_FILL[terrain], outline=GRID_LINE)
    g = _geometry(cell)
    pad, tag = g["pad"], g["tag"]
    mark = TERRAIN_MARK[terrain]
    left, top, w, h = x + pad, y + pad, g["top_w"], g["top_h"]
    if in_hand:  # the building large, bottom left, clear of the trees top right
        w = h = round(cell * 0.55)
        top = y + cell - pad - h
    if terrain == "forest" and last_seat is None:  # two trees where the tag would be
        tx0, ty0 = x + cell - pad - tag, y + pad
        for fx, fy, size in ((0.3, 0.55, 0.55), (0.72, 0.62, 0.5)):
            cx, base = tx0 + fx * tag, ty0 + fy * tag + size * tag / 2
            draw.polygon([(cx - size * tag / 2.4, base), (cx + size * tag / 2.4, base), (cx, base - size * tag)],
                         fill=mark)
    elif terrain == "mountain":  # two peaks in the building's corner (mountains have none)
        right = x + cell - pad - (tag + 4 if last_seat is not None else 0)
        w2 = right - left
        base = top + h
        draw.polygon([(left, base), (left + w2 * 0.42, top), (left + w2 * 0.84, base)], fill=mark)
        draw.polygon([(left + w2 * 0.45, base), (left + w2 * 0.72, top + h * 0.35), (right, base)], fill=mark)
        draw.polygon([(left + w2 * 0.42 - w2 * 0.09, top + h * 0.3), (left + w2 * 0.42, top),
                      (left + w2 * 0.42 + w2 * 0.09, top + h * 0.3)], fill=SNOW)
    elif terrain == "lake":  # waves (lakes hold no building and no knight)
        width = max(2, cell // 30)
        for wy in (0.42, 0.6, 0.78):
            for wx in (0.1, 0.5):
                draw.arc((x + wx * cell, y + (wy - 0.08) * cell, x + (wx + 0.3) * cell, y + (wy + 0.08) * cell),
                         200, 340, fill=mark, width=width)
    building = tile.get("building")
    if building:
        _draw_building(draw, left, top, w if in_hand else min(w, round(cell * 0.55)), h, building, letters, texts)
    if in_hand:
        return
    if last_seat is not None:
        colour_name = seat_colours[last_seat]
        colour = PLAYER_COLOURS[colour_name]
        draw.rectangle((x, y, x + cell, y + cell), outline=colour, width=_frame_width(cell))
        tx, ty = x + cell - pad - tag, y + pad
        draw.rounded_rectangle((tx, ty, tx + tag, ty + tag), radius=max(4, tag // 6), fill=colour, outline=OUTLINE,
                               width=2)
        _say(draw, texts, (tx + tag / 2, ty + tag / 2), str(last_seat + 1), max(MIN_TEXT, int(tag * 0.8)),
             fill=TEXT_ON[colour_name], anchor="mm")
    if tile["knights"]:
        _draw_stack(draw, x, y, cell, tile["knights"], seat_colours, texts)


@keep_drawn(4 * 2**20)  # the same few dozen tiles stand on every turn's board; a young area's are large
def _tile_image(cell: int, terrain: str, building: str | None, top_knight: tuple[int, ...], height: int,
                colours: tuple[str, ...], letters: tuple[tuple[str, str], ...],
                last_seat: int | None) -> tuple[Image.Image, tuple]:
    """A laid tile's picture and the texts on it, boxes relative to its corner."""
    image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
    texts: list = []
    knights = [0] * (height - 1) + list(top_knight) if height else []
    with unrecorded():
        _draw_tile(ImageDraw.Draw(image), 0, 0, cell, {"terrain": terrain, "building": building, "knights": knights},
                   list(colours), dict(letters), last_seat, texts=texts)
    return image, tuple(texts)


_text_mask = _tile_image  # what the layout tests clear to see every text drawn afresh


def _say(draw: ImageDraw.ImageDraw, texts: list | None, xy, text: str, size: int, **kwargs) -> None:
    """Write on a tile, noting the box when the tile is drawn to be pasted later."""
    draw.text(xy, text, font=font(size), **kwargs)
    if texts is not None:
        box = draw.textbbox(xy, text, font=font(size), anchor=kwargs.get("anchor"),
                            stroke_width=kwargs.get("stroke_width", 0))
        texts.append((tuple(int(v) for v in box), text, size))


def _draw_building(draw: ImageDraw.ImageDraw, left: float, top: float, w: float, h: float, building: str,
                   letters: dict[str, str] = BUILDING_LETTER, texts: list | None = None) -> None:
    """The building in the box (left, top, w, h), its letter large in its body, so colour and
    shape are never the only cue."""
    fill, ink = BUILDING_FILL[building], BUILDING_INK
    if h < SIGN_BELOW:  # too small for the icon: the letter on a plate of the building's colour
        draw.rounded_rectangle((left, top, left + w, top + h), radius=4, fill=fill, outline=ink, width=2)
        _say(draw, texts, (left + w / 2, top + h / 2 + 1), letters[building], MIN_TEXT, fill=WHITE, anchor="mm",
             stroke_width=2, stroke_fill=ink)
        return
    roof = h * 0.28
    body_top = top + roof
    if building == "castle":  # a keep with battlements
        draw.rectangle((left, body_top, left + w, top + h), fill=fill, outline=ink, width=2)
        merlon = w / 5
        for i in (0, 2, 4):
            draw.rectangle((left + i * merlon, top, left + (i + 1) * merlon, body_top), fill=fill, outline=ink,
                           width=2)
        hall = (left, left + w)
    elif building == "village":  # one house under a roof
        draw.rectangle((left + w * 0.06, body_top, left + w * 0.94, top + h), fill=fill, outline=ink, width=2)
        draw.polygon([(left, body_top + 1), (left + w / 2, top), (left + w, body_top + 1)], fill=ink)
        hall = (left + w * 0.06, left + w * 0.94)
    else:  # town: a hall and a church tower
        tower = w * 0.26
        draw.rectangle((left, body_top, left + w - tower, top + h), fill=fill, outline=ink, width=2)
        draw.polygon([(left - 1, body_top + 1), (left + (w - tower) / 2, top + roof * 0.2),
                      (left + w - tower + 1, body_top + 1)], fill=ink)
        draw.rectangle((left + w - tower, top + roof * 0.6, left + w, top + h), fill=fill, outline=ink, width=2)
        draw.polygon([(left + w - tower - 1, top + roof * 0.6 + 1), (left + w - tower / 2, top - roof * 0.2),
                      (left + w + 1, top + roof * 0.6 + 1)], fill=ink)
        hall = (left, left + w - tower)
    size = max(MIN_TEXT, min(int((h - roof) * 0.95), int(w * 0.8)))
    _say(draw, texts, ((hall[0] + hall[1]) / 2, (body_top + top + h) / 2 + 1), letters[building], size,
         fill=WHITE, anchor="mm", stroke_width=2, stroke_fill=ink)


def _draw_stack(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, knights: list[int],
                seat_colours: list[str], texts: list | None = None) -> None:
    """The top knight (the one that scores) as a disc with its seat number, bottom left; the
    stack's height bottom right as a cross and a number ("×3"), apart from the disc so the two
    numbers never read as one."""
    g = _geometry(cell)
    top = seat_colours[knights[-1]]
    cx, cy, radius, size = x + g["disc_x"], y + g["disc_y"], g["radius"], g["number"]
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PLAYER_COLOURS[top],
                 outline=OUTLINE, width=3)
    _say(draw, texts, (cx, cy), str(knights[-1] + 1), size, fill=TEXT_ON[top], anchor="mm")
    if len(knights) > 1:
        _say(draw, texts, (x + g["height_right"], cy), str(len(knights)), size, fill=INK, anchor="rm",
             stroke_width=2, stroke_fill=WHITE)
        mx, arm = x + g["cross_x"], g["arm"]
        for paint, width in ((WHITE, max(3, size // 10) + 4), (INK, max(3, size // 10))):
            for dx in (-arm, arm):
                draw.line((mx - arm, cy - dx, mx + arm, cy + dx), fill=paint, width=width)


# ----------------------------------------------------------------------------------------
# Panel


def _draw_header(draw: ImageDraw.ImageDraw, view: dict, names: list[str], lang: str) -> None:
    """The status, large: whose turn and what to do."""
    draw.rectangle((0, 0, WIDTH, HEADER - 8), fill=INK)
    status = translate(view["status"], lang, names)
    size = 34
    lines = _wrap(draw, status, size, WIDTH - 32)
    if len(lines) > 1:  # two lines (of 32, or 30 px) so both sit inside the dark band
        size = 32
        lines = _wrap(draw, status, size, WIDTH - 32)
    if len(lines) > 2:
        size = 30
        lines = _wrap(draw, status, size, WIDTH - 32)
    if len(lines) > 2:
        lines = [lines[0], _fit(draw, " ".join(lines[1:]), size, WIDTH - 32)]
    step = size + 8
    middle = (HEADER - 8) / 2
    for i, line in enumerate(lines):
        draw.text((16, middle + (i - (len(lines) - 1) / 2) * step), line, font=font(size), fill=WHITE, anchor="lm")


BUILDING_POINTS = {"castle": 1, "village": 2, "town": 3}


def score_breakdown(view: dict) -> list[dict[str, int]]:
    """Per seat, the buildings its knights top (each scores: castle 1, village 2, town 3), read
    from the tiles in the view: how each score is made."""
    counts = [{"castle": 0, "village": 0, "town": 0} for _ in range(view["seats"])]
    for tile in view["tiles"]:
        if tile["knights"] and tile.get("building") in BUILDING_POINTS:
            counts[tile["knights"][-1]][tile["building"]] += 1
    return counts


def _detail_lines(view: dict, player: dict, lang: str, width: int) -> list[str]:
    """The words under a player's name (knights, pile and hand; at the end how the points were
    made), in parts joined by " · " and wrapped between parts, so nothing is ever cut."""
    seat = player["seat"]
    mine = score_breakdown(view)[seat]
    if view["over"] and sum(BUILDING_POINTS[b] * n for b, n in mine.items()) == player["points"]:
        text = t(lang, "raubritter.board.breakdown", castles=mine["castle"], villages=mine["village"],
                 towns=mine["town"], knights=player["knights_left"])
    else:
        text = t(lang, "raubritter.board.knights_tiles", knights=player["knights_left"], pile=player["pile"],
                 hand=len(player["hand_backs"]))
    lines: list[str] = []
    for part in text.split(" · "):
        if lines and _width(f"{lines[-1]} · {part}", DETAIL_SIZE) <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.extend([part] if _width(part, DETAIL_SIZE) <= width else wrap(part, DETAIL_SIZE, width))
    return lines


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict, names: list[str], lang: str, layout: Layout) -> None:
    """One box per player, two to a row: seat disc, name, points, then knights and tiles left
    (at the end: how the points were made); under them the legend, or on a seat's own image its
    hand, large."""
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    players = view["players"]
    box_w, box_h = _box_width(), layout.box_h
    for index, player in enumerate(players):
        seat = player["seat"]
        x = 8 + (index % 2) * (box_w + GAP)
        y = layout.panel_top + (index // 2) * (box_h + GAP)
        colour = PLAYER_COLOURS[player["colour"]]
        active = seat in view["to_act"]
        won = seat in winners
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=12,
                               fill=PANEL_ACTIVE if active or won else PANEL_IDLE,
                               outline=HIGHLIGHT if active else (INK if won else GRID_LINE), width=6 if active or won else 2)
        radius = 25
        cx, cy = x + 12 + radius, y + 10 + radius
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=OUTLINE, width=3)
        draw.text((cx, cy), str(seat + 1), font=font(34), fill=TEXT_ON[player["colour"]], anchor="mm")
        if view["phase"] == "keep":
            corner = t(lang, "raubritter.board.chosen" if player["chosen"] else "raubritter.board.choosing")
        else:
            corner = t(lang, "raubritter.board.points", count=player["points"])
        if won:
            corner = f"{t(lang, 'raubritter.board.winner')} · {corner}"
        corner_w = _width(corner, 32)
        draw.text((x + box_w - 14, cy), corner, font=font(32), fill=INK, anchor="rm")
        draw.text((cx + radius + 10, cy), _fit(draw, names[seat], 32, box_w - corner_w - 2 * radius - 56),
                  font=font(32), fill=INK, anchor="lm")
        for i, line in enumerate(layout.details[index]):
            draw.text((x + 14, y + BOX_BASE - 4 + i * DETAIL_LINE + DETAIL_LINE // 2), line, font=font(DETAIL_SIZE),
                      fill=INK, anchor="lm")
    _draw_band(draw, view, lang)


def _draw_band(draw: ImageDraw.ImageDraw, view: dict, lang: str, top: int = 0) -> None:
    """The band at the bottom: the viewer's hand, or on the public board the legend's two lines
    in its middle (on an image whose first row is the board's row `top`)."""
    hand, legend = _bands(view)
    if legend:
        y = PRIVATE_TOP + (HAND_TILE - 2 * LEGEND_LINE) // 2 - top
        _draw_legend(draw, 12, y, lang)
        _draw_marks_legend(draw, 12, y + LEGEND_LINE, lang, view["colours"])
    if hand:
        _draw_hand(draw, view, lang, PRIVATE_TOP - top)


def _draw_hand(draw: ImageDraw.ImageDraw, view: dict, lang: str, y: int) -> None:
    """The viewer's hand tiles, large, with the tile chosen to keep framed; before them the
    viewer's own seat disc, so a player sees whose hand this is."""
    private = view["private"]
    seat = view["viewer"]
    colour = view["colours"][seat]
    radius, mid = 28, y + HAND_TILE // 2
    draw.ellipse((12, mid - radius, 12 + 2 * radius, mid + radius), fill=PLAYER_COLOURS[colour], outline=OUTLINE,
                 width=3)
    draw.text((12 + radius, mid), str(seat + 1), font=font(36), fill=TEXT_ON[colour], anchor="mm")
    label = t(lang, "raubritter.board.your_hand")
    lx = 12 + 2 * radius + 10
    draw.text((lx, mid), label, font=font(34), fill=INK, anchor="lm")
    tx = lx + 16 + _width(label, 34)
    tiles = private["hand"]
    size = min(HAND_TILE, (WIDTH - 8 - tx - 12 * max(0, len(tiles) - 1)) // max(1, len(tiles)))
    for tile in tiles:
        _draw_tile(draw, tx, y, size, {"terrain": tile["terrain"], "building": tile["building"],
                                       "colour": view["colours"][view["viewer"]], "knights": []},
                   view["colours"], _letters(lang), in_hand=True)
        chosen = private.get("keep_choice") == tile["code"]
        draw.rectangle((tx, y, tx + size, y + size), outline=HIGHLIGHT if chosen else INK, width=7 if chosen else 2)
        tx += size + 12


def _draw_legend(draw, x: int, y: int, lang: str) -> None:
    """Terrain colours with the knights a stack must leave there (lakes: no entry)."""
    label = t(lang, "raubritter.board.leave")
    mid = y + LEGEND_LINE // 2 - 2
    draw.text((x, mid), label, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    lx = x + _width(label, MIN_TEXT) + 14
    for terrain, need in (("plain", "1"), ("forest", "2"), ("mountain", "3"), ("lake", "×")):
        draw.rectangle((lx, mid - 20, lx + 40, mid + 20), fill=TERRAIN_FILL[terrain], outline=INK)
        draw.text((lx + 20, mid), need, font=font(MIN_TEXT + 1), fill=INK if terrain != "forest" else WHITE,
                  anchor="mm")
        word = t(lang, f"raubritter.board.terrain_{terrain}")
        draw.text((lx + 48, mid), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
        lx += 48 + _width(word, MIN_TEXT) + 20


def _draw_marks_legend(draw, x: int, y: int, lang: str, colours: list[str]) -> None:
    """What the frames and numbers on the tiles mean: this turn's tiles, each player's last
    turn (the tag's number is the player's), and a stack of knights (the top one scores)."""
    mid = y + LEGEND_LINE // 2 - 2
    side = 42
    lx = x
    # This turn: the dark frame with the white line.
    draw.rectangle((lx, mid - side // 2, lx + side, mid + side // 2), fill=TERRAIN_FILL["plain"], outline=INK, width=5)
    draw.rectangle((lx + 5, mid - side // 2 + 5, lx + side - 5, mid + side // 2 - 5), outline=WHITE, width=2)
    lx += side + 8
    word = t(lang, "raubritter.board.legend_this_turn")
    draw.text((lx, mid), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
    lx += _width(word, MIN_TEXT) + 24
    # Last turn: the tag with a seat number, as on the tiles.
    colour = colours[0]
    draw.rounded_rectangle((lx, mid - 20, lx + 40, mid + 20), radius=6, fill=PLAYER_COLOURS[colour], outline=OUTLINE,
                           width=2)
    draw.text((lx + 20, mid), "1", font=font(MIN_TEXT + 2), fill=TEXT_ON[colour], anchor="mm")
    lx += 48
    word = t(lang, "raubritter.board.legend_last_turn")
    draw.text((lx, mid), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
    lx += _width(word, MIN_TEXT) + 24
    # A stack: the height, then what it means.
    word = t(lang, "raubritter.board.legend_stack")
    draw.text((lx, mid), _fit(draw, word, MIN_TEXT, WIDTH - 8 - lx), font=font(MIN_TEXT), fill=INK, anchor="lm")


def _wrap(draw, text: str, size: int, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if line and _width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + ([line] if line else [])


def _fit(draw, text: str, size: int, width: int) -> str:
    """The text at this size, shortened at a word boundary if it must be (never inside a word)."""
    return _fitted(text, size, int(width))


@lru_cache(maxsize=512)
def _fitted(text: str, size: int, width: int) -> str:
    return fit(text, size, width, smallest=size)[0]


@lru_cache(maxsize=2048)
def _width(text: str, size: int) -> int:
    """The advance of `text` at `size` (measuring a CJK face is slow, and a board measures the
    same words every turn)."""
    return int(font(size).getlength(text) + 0.5)
