"""Carcassonne's landscape on the board image: which part is drawn (the window), the tiles, the grid's
letters and numbers along its edges, the squares offered or chosen, and the marks on it.

Marks are followers (in their seat colour, with the seat number) and free spots (white, with
their choice number), shaped by role: knight square, thief triangle, monk disc, farmer wide
oval. A mark is never smaller than its number needs at the marks' standard (MARK_TEXT, 41 px of
ink), so on small tiles (the whole landscape late in a game) marks, drawn snug round their
numbers, spill over the tiles round theirs and are pushed apart until none touches another;
only on the smallest tiles (under SPILLING_TILE) or where marks jam are they drawn smaller (40 px
type).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, Literal, NotRequired, TypedDict, final

from PIL import Image, ImageDraw

from games.carcassonne.closeup import COLUMNS, rows_shown
from games.carcassonne.data import ORIENTED
from games.carcassonne.grid import column_name, row_name
from renderers import View
from renderers.carcassonne_tiles import MASTER, WHITE, city_mask, mask_value, shield_boxes, tile_image
from renderers.common import (
    HIGHLIGHT,
    INK,
    MARK_TEXT,
    MIN_TEXT,
    MUTED,
    SEAT_COLOURS,
    Ink,
    PaletteDraw,
    font,
    ink_on,
    keep_drawn,
    mark_text,
    quantized_piece,
)
from renderers.common import marks as marks_drawn

Cell = tuple[int, int]  # a square of the landscape (x, y)
Bounds = tuple[int, int, int, int]  # squares (x0, y0, x1, y1), both corners included
Rect = tuple[float, float, float, float]  # pixels (left, top, right, bottom)
TileKind = tuple[str, int]  # a tile's (code, rotation)


@final  # no other keys: the overview's description (renderers.carcassonne.Overview) is told apart by them
class Window(TypedDict):
    """A part of the landscape drawn: its first column and row (`x0`, `y0`), how many
    (`cols`, `rows`), the tile size in px, where its top left corner lies in the image, and
    whether it is a part of a larger landscape (the header's overview then frames it)."""
    x0: int
    y0: int
    cols: int
    rows: int
    size: int
    left: int
    top: int
    part: bool
    bounds: NotRequired[Bounds]  # the whole landscape's, for the overview
    room_right: NotRequired[int]  # px free east of the part drawn (marks pushed apart may use it)


class Mark(TypedDict):
    """Something drawn on the landscape that others keep off: a follower or a free spot (with
    `seat`, `text` and `code`), or a square's or group's number (`fixed`, with its `half` size)."""
    x: float  # its centre, px
    y: float
    tile: tuple[float, float, int]  # the tile it belongs to: left, top, size (px)
    kind: str  # city, road, cloister, field (a follower's shape), number or tag
    m: int  # the mark's size, px
    count: int  # figures drawn (a crop circle's second follower stands behind the first)
    seat: NotRequired[int | None]  # the follower's seat, None for a free spot
    text: NotRequired[str]  # the seat's number or the spot's choice number
    code: NotRequired[TileKind | None]  # its tile's kind (whose shields it keeps off)
    placed: NotRequired[bool]  # a free spot: put apart from the others already
    fixed: NotRequired[bool]  # a square's or group's number: never moves
    snug: NotRequired[bool]  # drawn snug round its number (the whole landscape's small tiles: `_extent`)
    half: NotRequired[tuple[float, float]]  # a number's half width and height

EMPTY = (226, 219, 200)
GRID = (70, 90, 50)
TARGET = (255, 255, 255)
PANEL = (250, 246, 236)
LABEL_H = 44        # the row of column letters over the landscape
LABEL_W = 60        # the column of row numbers left of it
BIGGEST_TILE = 240
CAPS = {"place": 200, "rotate": 170, "follower": 200}  # tile size while placing, at most


@lru_cache(maxsize=512)
def text_width_plain(text: str, size: int = MIN_TEXT) -> int:
    """How wide `text` is drawn at `size` (kept: the same labels every board)."""
    return int(math.ceil(font(size).getlength(text)))


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def groups_shown(view: View) -> bool:
    """Whether the whole landscape shows every group of squares framed and numbered: while a
    group is picked, and when the whole landscape is asked for while one is shown close up
    (its tiles too small for the squares' numbers at the marks' standard)."""
    return view["phase"] == "place" and bool(view.get("areas")) and (
        view.get("area") is None or view.get("landscape") == "whole")


def offered_squares(view: View) -> list[dict[str, Any]]:
    """The squares of the current choice: all of them, or the chosen group's."""
    squares: list[dict[str, Any]] = view.get("squares") or []
    if view.get("area") is not None and view.get("areas") and not groups_shown(view):
        first = sum(view["areas"][:view["area"]])
        return squares[first:first + view["areas"][view["area"]]]
    return squares


def _must_show(view: View) -> list[Cell]:
    """The squares the decision is about: where the tile fits (all of them, or the group chosen),
    the chosen square, or the tile just laid (with the squares round them)."""
    phase = view["phase"]
    if phase == "place":  # the part of the landscape the engine shows the squares in (each with a
        # tile it joins), or the squares offered; and the last tile (the texts name it) where it lies near
        box = (view.get("closeup") or {}).get("box")
        if box:
            cells = [(box[0], box[1]), (box[0] + box[2] - 1, box[1] + box[3] - 1)]
        else:
            cells = [(sq["x"], sq["y"]) for sq in offered_squares(view)] or [(t["x"], t["y"]) for t in view["tiles"]]
        x0, y0, x1, y1 = bounds(cells + [(view["tiles"][-1]["x"], view["tiles"][-1]["y"])])
        if x1 - x0 < COLUMNS and y1 - y0 < rows_shown(view["seats"]):
            cells.append((view["tiles"][-1]["x"], view["tiles"][-1]["y"]))
        return cells
    centre = view["square"] if phase == "rotate" and view.get("square") else view["tiles"][-1]
    return [(centre["x"] + dx, centre["y"] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


def bounds(cells: Sequence[Cell]) -> Bounds:
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return min(xs), min(ys), max(xs), max(ys)


def choose_window(view: View, *, left: int, top: int, right: int, bottom: int, focused: bool) -> Window:
    """Which columns and rows are drawn, at what tile size, where. The whole landscape (with the
    squares offered) if it fits nearly as large as the decision's part would; else that part,
    grown round it to fill the room at its size (`part` is then true)."""
    content = [(tile["x"], tile["y"]) for tile in view["tiles"]]
    # every square where the tile fits, of every group: a group shown close up is a part whenever
    # others lie off it (the overview frames them)
    content += [(sq["x"], sq["y"]) for sq in (view.get("squares") or [] if view["phase"] == "place" else [])]
    if view.get("square"):
        content.append((view["square"]["x"], view["square"]["y"]))
    x0, y0, x1, y1 = bounds(content)
    room_w, room_h = right - left, bottom - top
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    size = min(BIGGEST_TILE, room_w // cols, room_h // rows)
    part = False
    if focused:
        mx0, my0, mx1, my1 = bounds(_must_show(view))
        mx0, my0, mx1, my1 = max(mx0, x0), max(my0, y0), min(mx1, x1), min(my1, y1)
        near = min(CAPS[view["phase"]], room_w // (mx1 - mx0 + 1), room_h // (my1 - my0 + 1))
        # much larger than the whole: show the part, as much as fits (the squares close up
        # whenever that makes them larger at all)
        if near > size * (1.1 if view["phase"] == "place" else 1.25):
            size = near
            shown_cols, shown_rows = min(cols, room_w // size), min(rows, room_h // size)
            x0 = max(x0, min(mx0 - (shown_cols - (mx1 - mx0 + 1)) // 2, x1 - shown_cols + 1))
            y0 = max(y0, min(my0 - (shown_rows - (my1 - my0 + 1)) // 2, y1 - shown_rows + 1))
            part = shown_cols < cols or shown_rows < rows
            cols, rows = shown_cols, shown_rows
    ox = left + (room_w - cols * size) // 2
    oy = top + (room_h - rows * size) // 2
    return {"x0": x0, "y0": y0, "cols": cols, "rows": rows, "size": size, "left": ox, "top": oy, "part": part,
            "bounds": bounds(content), "room_right": right - (ox + cols * size)}


def inside(window: Window, x: int, y: int) -> bool:
    return 0 <= x - window["x0"] < window["cols"] and 0 <= y - window["y0"] < window["rows"]


def origin(window: Window, x: int, y: int) -> tuple[int, int]:
    size = window["size"]
    return window["left"] + (x - window["x0"]) * size, window["top"] + (y - window["y0"]) * size


# ----------------------------------------------------------------------------------------
# The landscape


def paste_tile(draw: ImageDraw.ImageDraw, code: str, rot: int, size: int, xy: tuple[int, int]) -> None:
    """A tile's art at `size` px with its top left corner at `xy`: on a board composed in its
    palette (`PaletteDraw`), the art quantized alone, as quantizing the whole board gives it."""
    if isinstance(draw, PaletteDraw):
        draw.paste_quantized(_tile_in_palette(code, rot, size, draw.colours), xy)
    else:
        draw._image.paste(tile_image(code, rot, size), xy)


@keep_drawn(3 * 2**20)  # a third of their RGB's bytes (`tile_image`): the kinds of some twenty tables' landscapes
def _tile_in_palette(code: str, rot: int, size: int, colours: bytes) -> Image.Image:
    return quantized_piece(tile_image(code, rot, size), colours)


def draw_landscape(draw: ImageDraw.ImageDraw, view: View, window: Window,
                   candidate: dict[str, Any] | None = None) -> None:
    """The part of the landscape in `window`, its grid labels, the squares offered or chosen,
    the followers and the free spots; `candidate` is a rotation of the drawn tile shown on the
    square chosen."""
    size = window["size"]
    _grid_labels(draw, window)
    codes: dict[Cell, TileKind] = {}
    tiles = view["tiles"] + ([candidate] if candidate else [])
    if candidate:  # the empty squares round the chosen one, faintly, to show the grid
        for k in range(window["cols"] * window["rows"]):
            px, py = origin(window, window["x0"] + k % window["cols"], window["y0"] + k // window["cols"])
            draw.rectangle((px, py, px + size, py + size), fill=PANEL, outline=EMPTY, width=2)
    for tile in tiles:
        codes[(tile["x"], tile["y"])] = (tile["code"], tile["rot"])
        if inside(window, tile["x"], tile["y"]):
            paste_tile(draw, tile["code"], tile["rot"], size, origin(window, tile["x"], tile["y"]))
    for tile in tiles:
        if inside(window, tile["x"], tile["y"]):
            px, py = origin(window, tile["x"], tile["y"])
            draw.rectangle((px, py, px + size, py + size), outline=GRID, width=1)
    last = view["tiles"][-1]
    if not view["over"] and inside(window, last["x"], last["y"]):
        px, py = origin(window, last["x"], last["y"])
        draw.rectangle((px - 2, py - 2, px + size + 2, py + size + 2), outline=HIGHLIGHT, width=max(5, size // 16))
    number_size = 64 if size >= 120 else 48 if size >= 80 else MIN_TEXT  # 64 px on a group close-up too (132 px late)
    numbers: list[Mark] = []  # the squares' numbers (or the groups' tags): marks pushed apart keep off them
    picking_group = groups_shown(view)
    if view["phase"] == "place":
        for sq in offered_squares(view):
            if inside(window, sq["x"], sq["y"]):
                px, py = origin(window, sq["x"], sq["y"])
                inset = 3 if size >= 60 else 1  # a small square leaves its number all the room
                draw.rectangle((px + inset, py + inset, px + size - inset, py + size - inset), fill=EMPTY, outline=INK,
                               width=2)
                if picking_group:
                    continue  # each group carries its number instead, as its button does
                with marks_drawn():
                    draw.text((px + size / 2, py + size / 2), str(sq["n"]), font=font(number_size), fill=INK,
                              anchor="mm")
                x0, y0, x1, y1 = font(number_size).getbbox(str(sq["n"]), anchor="mm")
                numbers.append({"x": px + size / 2 + (x0 + x1) / 2, "y": py + size / 2 + (y0 + y1) / 2,
                                "half": ((x1 - x0) / 2 + 2, (y1 - y0) / 2 + 2), "fixed": True, "kind": "number",
                                "m": 0, "count": 1, "tile": (px, py, size)})
    if picking_group:
        _group_frames(draw, view, window)
        numbers += _group_tags(draw, view, window)
    if candidate:
        px, py = origin(window, candidate["x"], candidate["y"])
        draw.rectangle((px, py, px + size, py + size), outline=INK, width=5)
        draw.rectangle((px + 5, py + 5, px + size - 5, py + size - 5), outline=TARGET, width=2)
    elif view.get("square") and inside(window, view["square"]["x"], view["square"]["y"]):
        # the square chosen: white and ringed in black, apart from the yellow of the last tile
        px, py = origin(window, view["square"]["x"], view["square"]["y"])
        draw.rectangle((px + 2, py + 2, px + size - 2, py + size - 2), fill=TARGET, outline=INK,
                       width=max(5, size // 14))
        draw.text((px + size / 2, py + size / 2), "?", font=font(64 if size >= 100 else number_size), fill=INK,
                  anchor="mm")
    marks = _follower_marks(view, window, codes)
    marks += _spot_marks(view, window, codes)
    _separate(marks, window, numbers)
    for mark in marks:
        draw_mark(draw, mark)


def square_group_boxes(view: View) -> list[Bounds]:
    """Where each group of squares lies (the menu offers them by group): its columns and rows,
    (x0, y0, x1, y1)."""
    squares: list[dict[str, Any]] = view.get("squares") or []
    boxes: list[Bounds] = []
    first = 0
    for count in view.get("areas") or []:
        if squares[first:first + count]:
            boxes.append(bounds([(sq["x"], sq["y"]) for sq in squares[first:first + count]]))
        first += count
    return boxes


GROUP_TAG = 34  # the radius of a group's number disc: a MARK_TEXT digit or two


def _group_frames(draw: ImageDraw.ImageDraw, view: View, window: Window) -> None:
    """Each group of squares framed (black, lined white), so the menu's "2 · Squares 6–9" is
    seen as one place on the landscape."""
    size = window["size"]
    for x0, y0, x1, y1 in square_group_boxes(view):
        left, top = origin(window, x0, y0)
        right, bottom = left + (x1 - x0 + 1) * size, top + (y1 - y0 + 1) * size
        draw.rounded_rectangle((left - 3, top - 3, right + 3, bottom + 3), radius=8, outline=INK, width=5)
        draw.rounded_rectangle((left + 2, top + 2, right - 2, bottom - 2), radius=6, outline=TARGET, width=2)


def group_tag_places(view: View, window: Window) -> list[tuple[float, float]]:
    """Where each group's number stands: on one of its squares (empty ground, no follower
    there), the first in reading order whose disc touches no other group's, nor leaves the
    landscape shown."""
    size = window["size"]
    squares: list[dict[str, Any]] = view.get("squares") or []
    places: list[tuple[float, float]] = []
    first = 0
    right, bottom = window["left"] + window["cols"] * size, window["top"] + window["rows"] * size
    for count in view.get("areas") or []:
        group = squares[first:first + count]
        first += count
        centres = [(origin(window, sq["x"], sq["y"])[0] + size / 2, origin(window, sq["x"], sq["y"])[1] + size / 2)
                   for sq in group if inside(window, sq["x"], sq["y"])]
        free = [(x, y) for x, y in centres
                if window["left"] + GROUP_TAG <= x <= right - GROUP_TAG
                and window["top"] + GROUP_TAG <= y <= bottom - GROUP_TAG
                and all(math.hypot(x - ox, y - oy) > 2 * GROUP_TAG + 4 for ox, oy in places)]
        places.append((free or centres)[0])
    return places


def _group_tags(draw: ImageDraw.ImageDraw, view: View, window: Window) -> list[Mark]:
    """Each group's number (its button's: "2 · Squares 6–9") in a black disc on one of its
    squares, at the marks' standard; returned as boxes the followers' marks keep off."""
    tags: list[Mark] = []
    for number, (x, y) in enumerate(group_tag_places(view, window), 1):
        draw.ellipse((x - GROUP_TAG - 3, y - GROUP_TAG - 3, x + GROUP_TAG + 3, y + GROUP_TAG + 3), fill=TARGET)
        draw.ellipse((x - GROUP_TAG, y - GROUP_TAG, x + GROUP_TAG, y + GROUP_TAG), fill=INK)
        mark_text(draw, (x, y), str(number), TARGET, MARK_TEXT)
        tags.append({"x": x, "y": y, "half": (GROUP_TAG + 5, GROUP_TAG + 5), "fixed": True, "kind": "tag", "m": 0,
                     "count": 1, "tile": (x - GROUP_TAG, y - GROUP_TAG, 2 * GROUP_TAG)})
    return tags


def _grid_labels(draw: ImageDraw.ImageDraw, window: Window) -> None:
    """Column letters over the part shown and row numbers left of it: the squares' names."""
    size = window["size"]
    widest = max(text_width_plain(column_name(window["x0"] + k)) for k in range(window["cols"]))
    step = max(1, math.ceil((widest + 8) / size))
    for k in range(0, window["cols"], step):
        x = window["left"] + k * size + size / 2
        # (high enough that a "Q"'s tail clears a group's frame on the first row)
        draw.text((x, window["top"] - LABEL_H / 2 - 10), column_name(window["x0"] + k), font=font(MIN_TEXT),
                  fill=MUTED, anchor="mm")
    step = max(1, math.ceil(44 / size))
    for k in range(0, window["rows"], step):
        y = window["top"] + k * size + size / 2
        draw.text((window["left"] - 10, y), row_name(window["y0"] + k), font=font(MIN_TEXT), fill=MUTED,
                  anchor="rm")


MARK_STANDARD = 62  # the least mark whose number is MARK_TEXT (41 px of ink): mark_text_size
ROOMY_TILE = 108    # the least tile that holds such a mark inside (a thief's triangle is 100 px wide)


SPILLING_TILE = 36  # the least tile whose marks are drawn at the marks' standard, spilling over its neighbours


def _mark_size(size: int) -> int:
    """A follower's or spot's mark: some 40 % of the tile, never so small its number falls under
    the marks' standard (MARK_TEXT, 41 px of ink). On the whole landscape's small tiles (some
    44-100 px late in a game) such a mark is larger than its tile: it spills over the tiles
    round it, drawn over them, and marks are pushed apart where they would touch (`_separate`).
    On still smaller tiles (a landscape spread wide, drawn small over the robber step's track)
    marks that large would hide the landscape and jam: there the number is 40 px type (29 px
    of ink)."""
    if size < SPILLING_TILE:
        return 46
    return max(MARK_STANDARD, min(72, int(size * 0.4)))


SNUG = {"city": (0.42, 0.46), "road": (0.64, 0.76), "cloister": (0.5, 0.5), "field": (0.58, 0.48)}
"""Half the width and height of a snug mark by kind, per px of mark size: on the whole landscape's
small tiles a mark spills over the tiles round it, so it hugs its number, its ink centred (a sixth to
a third less of the landscape hidden than the close-ups' roomier shapes, the number as large)."""
SNUG_ROAD_NUMBER = 0.31  # a snug thief's number this far under its middle (the triangle's wide part)


def _extent(kind: str, m: float, snug: bool = False) -> tuple[float, float]:
    """Half the width and height of a mark of `kind` at mark size `m` (`snug`: hugging its number)."""
    if snug:
        w, h = SNUG.get(kind, SNUG["city"])
        return m * w, m * h
    if kind == "road":
        return m * 0.8, m * 0.72
    if kind == "field":
        return m * 0.66, m * 0.5
    if kind == "cloister":
        return m * 0.57, m * 0.57
    return m / 2, m / 2


def _mark_extent(mark: Mark) -> tuple[float, float]:
    return _extent(mark["kind"], mark["m"], mark.get("snug", False))


def cloister_spot(code_rot: TileKind | None) -> tuple[float, float]:
    """A monk stands beside the chapel, not on it: in the corner away from the tile's road."""
    edges = ORIENTED[code_rot].edges if code_rot else "FFFF"
    for (u, v), sides in (((0.78, 0.78), (1, 2)), ((0.22, 0.78), (2, 3)), ((0.78, 0.22), (0, 1)),
                          ((0.22, 0.22), (3, 0))):
        if all(edges[side] != "R" for side in sides):
            return u, v
    return 0.78, 0.78


def _follower_marks(view: View, window: Window, codes: dict[Cell, TileKind]) -> list[Mark]:
    """The followers in the part shown, one mark per figure (a crop circle's second follower on
    the same road is drawn as a second figure behind the first)."""
    size = window["size"]
    m = _mark_size(size)
    snug = size < ROOMY_TILE
    counted: dict[tuple[int, int, int, str, float, float], int] = {}
    for f in view["meeples"]:
        if inside(window, f["x"], f["y"]):
            key = (f["seat"], f["x"], f["y"], f["kind"], f["sx"], f["sy"])
            counted[key] = counted.get(key, 0) + 1
    marks: list[Mark] = []
    for (seat, x, y, kind, sx, sy), count in counted.items():
        if kind == "cloister":
            sx, sy = cloister_spot(codes.get((x, y)))
        px, py = origin(window, x, y)
        marks.append({"x": px + sx * size, "y": py + sy * size, "tile": (px, py, size), "kind": kind, "m": m,
                      "seat": seat, "count": count, "text": str(seat + 1), "code": codes.get((x, y)), "snug": snug})
    return marks


def _spot_marks(view: View, window: Window, codes: dict[Cell, TileKind]) -> list[Mark]:
    """The free spots on the tile just laid, each a white figure of the follower that would stand
    there, numbered like the buttons, nudged apart where spots lie close."""
    spots = [spot for spot in view.get("spots") or [] if inside(window, spot["x"], spot["y"])]
    if not spots:
        return []
    size = window["size"]
    m = _mark_size(size)
    px, py = origin(window, spots[0]["x"], spots[0]["y"])
    places: list[tuple[float, float]] = []
    for spot in spots:
        sx, sy = (cloister_spot(codes.get((spot["x"], spot["y"]))) if spot["kind"] == "cloister"
                  else (spot["sx"], spot["sy"]))
        places.append((sx * size, sy * size))
    snug = size < ROOMY_TILE
    gap = 2 * max(_extent(spot["kind"], m, snug)[0] for spot in spots) + 6
    # on a tile too small for its spots' marks (the whole landscape asked for), round it
    grow = max(0.0, (gap * (1 if len(spots) == 1 else 2) - size) / 2)
    places = _spread([(x + grow, y + grow) for x, y in places], gap, size + 2 * grow)
    return [{"x": px + sx - grow, "y": py + sy - grow, "tile": (px, py, size), "kind": spot["kind"], "m": m,
             "seat": None, "count": 1, "text": str(spot["n"]), "placed": True,
             "code": codes.get((spot["x"], spot["y"])), "snug": snug}
            for spot, (sx, sy) in zip(spots, places)]


def _spread(points: list[tuple[float, float]], gap: float, size: float) -> list[tuple[float, float]]:
    """The points nudged apart until each is `gap` from the others (numbered marks that would
    cover each other), kept inside a square of `size`."""
    moving = [list(p) for p in points]
    low, high = min(gap / 2, size / 2), max(size - gap / 2, size / 2)
    for _ in range(40):
        moved = False
        for i, a in enumerate(moving):
            for b in moving[i + 1:]:
                dx, dy = b[0] - a[0], b[1] - a[1]
                dist = math.hypot(dx, dy)
                if dist >= gap:
                    continue
                if dist < 1e-6:
                    dx, dy, dist = 1.0, 0.3, math.hypot(1.0, 0.3)
                push = (gap - dist) / 2 + 0.5
                for p, sign in ((a, -1), (b, 1)):
                    p[0] = min(max(p[0] + sign * dx / dist * push, low), high)
                    p[1] = min(max(p[1] + sign * dy / dist * push, low), high)
                moved = True
        if not moved:
            break
    return [(x, y) for x, y in moving]


def box(mark: Mark) -> Rect:
    w, h, extra = _box_shape(mark)
    return mark["x"] - w, mark["y"] - h - extra, mark["x"] + w + extra, mark["y"] + h


def _box_shape(mark: Mark) -> tuple[float, float, int]:
    """A mark's box round its centre: half its width and height, and the room of the figure
    drawn behind a mark of several followers (above and to the right)."""
    w, h = mark["half"] if "half" in mark else _mark_extent(mark)
    return w, h, 6 if mark["count"] > 1 else 0  # the figure behind


def _kept_within(mark: Mark, window: Window) -> tuple[float, float, float, float]:
    """The lowest and highest x and y a mark's centre is kept within when marks are pushed
    apart: on the landscape shown, clear of the grid's letters and numbers (east of it where
    the image has room)."""
    size = window["size"]
    w, h = _mark_extent(mark)
    east = window["left"] + window["cols"] * size + min(window.get("room_right", 0), w)
    return (window["left"] + w + 2, east - w - 2,
            window["top"] + h + 2, window["top"] + window["rows"] * size - h - 2)


def _separate(marks: list[Mark], window: Window, fixed: Sequence[Mark] = ()) -> None:
    """Every mark inside its tile where the tile has room for it, and no two marks touching:
    on small tiles, marks of neighbouring tiles are pushed apart, and off the `fixed` boxes
    (the squares' numbers)."""
    for mark in marks:
        if mark.get("placed"):
            continue
        px, py, size = mark["tile"]
        w, h = _mark_extent(mark)
        mark["x"] = min(max(mark["x"], px + w + 3), px + size - w - 3) if size > 2 * w + 6 else px + size / 2
        mark["y"] = min(max(mark["y"], py + h + 3), py + size - h - 3) if size > 2 * h + 6 else py + size / 2
    _off_shields(marks)
    size = window["size"]
    roomy = size >= 2 * _extent("road", _mark_size(size), size < ROOMY_TILE)[0] + 8
    if roomy and not any(mark.get("placed") for mark in marks):
        return  # every mark lies inside its own tile: none can touch another tile's
    reach = 2 * max(max(_mark_extent(mark)) for mark in marks) + 20 if marks else 0
    everything = marks + list(fixed)
    # What stays the same while the marks are pushed: each one's box round its centre (`box`),
    # whether it is settled, and the bounds it is kept within.
    shapes = {id(mark): _box_shape(mark) for mark in everything}
    settled = {id(mark): _settled(mark) for mark in everything}
    bounds = {id(mark): _kept_within(mark, window) for mark in marks}
    fresh = -6
    for step in range(80):
        # only marks near each other can touch (as they are pushed, others come near: the pairs
        # are looked at again every few steps, and before the pushes end)
        if step - fresh >= 6:
            pairs = [(a, b) for i, a in enumerate(marks) for b in everything[i + 1:]
                     if abs(a["x"] - b["x"]) <= reach and abs(a["y"] - b["y"]) <= reach]
            fresh = step
        moved = False
        for a, b in pairs:
            # `box(a)` and `box(b)`, from the marks' shapes worked out once (some 9,000 boxes a
            # crowded board): the same sums in the same order, so the same floats
            aw, ah, a_extra = shapes[id(a)]
            bw, bh, b_extra = shapes[id(b)]
            ax, ay, bx, by = a["x"], a["y"], b["x"], b["y"]
            ax0, ay0, ax1, ay1 = ax - aw, ay - ah - a_extra, ax + aw + a_extra, ay + ah
            bx0, by0, bx1, by1 = bx - bw, by - bh - b_extra, bx + bw + b_extra, by + bh
            over_x, over_y = min(ax1, bx1) - max(ax0, bx0) + 2, min(ay1, by1) - max(ay0, by0) + 2
            if over_x <= 0 or over_y <= 0:
                continue
            # the shorter way apart; where marks jam (each push undone by another), the other way too
            key: Literal["x", "y"] = "x" if (over_x < over_y) != (step >= 40 and step % 2 == 1) else "y"
            over = over_x if key == "x" else over_y
            sign = 1 if b[key] >= a[key] else -1
            # a follower on a close-up tile stays where it was put (in its tile, off the shields)
            # and a free spot spilling round the tile just laid goes the whole way
            if b.get("fixed"):  # a square's number never moves
                share_a, share_b = 1.0, 0.0
            elif settled[id(a)] == settled[id(b)]:
                share_a, share_b = 0.5, 0.5
            else:
                share_a, share_b = (0.0, 1.0) if settled[id(a)] else (1.0, 0.0)
            a[key] -= sign * (over * share_a + 0.5 * (share_a > 0))
            b[key] += sign * (over * share_b + 0.5 * (share_b > 0))
            moved = True
        for mark in marks:  # marks pushed apart (spots spilling round a small tile, followers on
            # small tiles at the edge) stay on the landscape shown, clear of the grid's letters and
            # numbers (east of it where the image has room: a crowded landscape drawn small)
            low_x, high_x, low_y, high_y = bounds[id(mark)]
            x = min(max(mark["x"], low_x), high_x)
            y = min(max(mark["y"], low_y), high_y)
            moved = moved or (x, y) != (mark["x"], mark["y"])
            mark["x"], mark["y"] = x, y
        if not moved and fresh == step:
            break
        if not moved:
            fresh = -6  # the pairs once more before ending
    _unjam(marks, window, fixed)
    _off_shields(marks)  # a mark pushed onto a shield moves off it again


# where a jammed mark may go: places round it, the nearest first (4 px apart, at most 180 px away)
_AROUND = sorted(((dx, dy) for dx in range(-180, 181, 4) for dy in range(-180, 181, 4)
                  if dx * dx + dy * dy <= 180 * 180), key=lambda d: d[0] * d[0] + d[1] * d[1])


def _settled(mark: Mark) -> bool:
    """A square's number, or a follower on a tile large enough to hold its mark (put inside its
    tile, off the shields)."""
    return bool(mark.get("fixed")) or not mark.get("placed") and mark["tile"][2] >= 150


def _unjam(marks: list[Mark], window: Window, fixed: Sequence[Mark] = ()) -> None:
    """Marks still touching others after the pushes (a crowded landscape drawn small, each push
    undone by another): each moves to the nearest place touching none (nor a `fixed` box),
    within the bounds the pushes keep to. A mark that finds none after three looks (a landscape
    drawn so small, the robber step's track under it, that its marks jam) is drawn smaller, its
    number under the marks' standard but clear (never over another)."""
    everything = marks + list(fixed)
    for look in range(3):  # a second and third look: one moved may have left another its only place
        # every box worked out once a look, and a mark's again when it moves (not each mark's
        # boxes of all the others: thousands a crowded board)
        boxes = [box(mark) for mark in everything]
        for index, mark in enumerate(marks):
            others = [boxes[at] for at, other in enumerate(everything) if other is not mark]
            if all(_apart(boxes[index], other) for other in others):
                continue
            for m in (mark["m"], *(JAMMED_MARKS if look == 2 else ())):
                if m > mark["m"]:
                    continue
                place = _free_place({**mark, "m": m}, window, others)
                if place is not None:
                    mark["x"], mark["y"], mark["m"] = place[0], place[1], m
                    boxes[index] = box(mark)
                    break


JAMMED_MARKS = (56, 46)  # the smaller marks a jammed one tries (their numbers 48 and 40 px type)


def _free_place(mark: Mark, window: Window, others: list[Rect]) -> tuple[float, float] | None:
    """The nearest place for `mark` (its centre) touching none of `others`, within the bounds
    the pushes keep to and 180 px of where it stands; None if there is none."""
    (x0, y0, x1, y1), near, places = places_round(mark, window, others)
    blocker = near[0] if near else None
    for dx, dy in places:
        # `_apart` of the moved box and each of `near`, written out (thousands of places a jammed
        # mark: the same sums and comparisons, without a call for each): the box that was in the
        # way of the place before is looked at first, as it is often in the way of the next one
        # too; whether any is in the way does not depend on the order they are looked at in.
        a0, a1, a2, a3 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        if blocker is not None and not (a2 + 2 <= blocker[0] or blocker[2] + 2 <= a0 or a3 + 2 <= blocker[1]
                                        or blocker[3] + 2 <= a1):
            continue
        for other in near:
            if not (a2 + 2 <= other[0] or other[2] + 2 <= a0 or a3 + 2 <= other[1] or other[3] + 2 <= a1):
                blocker = other
                break
        else:
            return mark["x"] + dx, mark["y"] + dy
    return None


def places_round(mark: Mark, window: Window,
                 others: list[Rect]) -> tuple[Rect, list[Rect], Iterator[tuple[float, float]]]:
    """Where `_free_place` looks for `mark`: its box, the boxes of `others` near enough to be in
    the way, and the moves (dx, dy) it tries, the nearest first, within the bounds the pushes
    keep to (`_kept_within`) and 180 px."""
    x0, y0, x1, y1 = box(mark)
    low_x, high_x, low_y, high_y = _kept_within(mark, window)
    low_x, high_x, low_y, high_y = low_x - mark["x"], high_x - mark["x"], low_y - mark["y"], high_y - mark["y"]
    near = [o for o in others if o[2] >= x0 - 190 and o[0] <= x1 + 190 and o[3] >= y0 - 190 and o[1] <= y1 + 190]
    # the nearest free place lies mostly against another mark: beside it (its top, middle or
    # bottom level with the mark's) or over or under it; failing those, anywhere round
    beside: set[tuple[float, float]] = set()
    for o in near:
        for dx in (o[0] - 3 - x1, o[2] + 3 - x0):
            beside.update((dx, dy) for dy in (0, o[1] - y0, o[3] - y1))
        for dy in (o[1] - 3 - y1, o[3] + 3 - y0):
            beside.update((dx, dy) for dx in (0, o[0] - x0, o[2] - x1))
    moves = sorted(beside, key=lambda d: d[0] * d[0] + d[1] * d[1]) + _AROUND
    places = ((dx, dy) for dx, dy in moves
              if low_x <= dx <= high_x and low_y <= dy <= high_y and dx * dx + dy * dy <= 180 * 180)
    return (x0, y0, x1, y1), near, places


def _apart(a: Rect, b: Rect, gap: float = 2) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


def _off_shields(marks: list[Mark]) -> None:
    """A mark on a tile with room for it is moved off the tile's pennant shields (a thief's
    triangle over a shield hid the pennant): the least move that clears them, staying inside
    its tile (a knight inside its city), near its spot and touching no other mark; where the
    mark cannot clear them so, it is drawn smaller (never under the standard's least)."""
    for mark in marks:
        code = mark.get("code")
        if not code:
            continue
        px, py, size = mark["tile"]
        shields = [(px + a * size, py + b * size, px + c * size, py + d * size)
                   for a, b, c, d in shield_boxes(*code)]
        if not shields or all(_apart(box(mark), shield) for shield in shields):
            continue
        others = [box(other) for other in marks if other is not mark and _apart(box(mark), box(other))]
        # the whole landscape's roomy tiles keep the number at the marks' standard, shield or not
        least = MARK_STANDARD if SPILLING_TILE <= size < 150 else 46
        for m in range(mark["m"], least - 1, -6):
            place = _clear_place({**mark, "m": m}, shields + others)
            if place:
                mark["x"], mark["y"], mark["m"] = place[0], place[1], m
                break


def _clear_place(mark: Mark, boxes: list[Rect]) -> tuple[int, int] | None:
    """The nearest place for `mark` in its tile (within 40 % of the tile's side, a knight in its
    city) touching none of `boxes`."""
    px, py, size = mark["tile"]
    w, h = _mark_extent(mark)
    if size < 2 * w + 6 or size < 2 * h + 12:
        return None
    code = mark.get("code")
    inside = city_mask(*code) if mark["kind"] == "city" and code else None
    best: tuple[float, int, int] | None = None
    for x in range(int(px + w + 3), int(px + size - w - 3) + 1, 4):
        for y in range(int(py + h + 9), int(py + size - h - 3) + 1, 4):
            distance = (x - mark["x"]) ** 2 + (y - mark["y"]) ** 2
            if distance > (0.4 * size) ** 2 or (best is not None and distance >= best[0]):
                continue
            moved = box({**mark, "x": x, "y": y})
            if not all(_apart(moved, other) for other in boxes):
                continue
            if inside is not None and mask_value(inside, (min(MASTER - 1, int((x - px) / size * MASTER)),
                                                          min(MASTER - 1, int((y - py) / size * MASTER)))) < 128:
                continue
            best = (distance, x, y)
    return (best[1], best[2]) if best else None


def draw_mark(draw: ImageDraw.ImageDraw, mark: Mark) -> None:
    """A follower (in its seat colour, with the seat number) or a free spot (white, with its
    choice number): knight square, thief triangle, monk disc, farmer wide oval."""
    colour = WHITE if mark["seat"] is None else seat_colour(mark["seat"])
    if mark["count"] > 1:
        shape(draw, mark["x"] + 6, mark["y"] - 6, mark["kind"], mark["m"], colour, mark.get("snug", False))
    shape(draw, mark["x"], mark["y"], mark["kind"], mark["m"], colour, mark.get("snug", False))
    ink = ink_on(colour)
    halo = WHITE if ink == INK else INK
    x, y, text_size = mark_text_place(mark)
    with marks_drawn():  # a number inside a piece (tests/renderers/standard.py: mark_problems)
        draw.text((x, y), mark["text"], font=font(text_size), fill=ink, anchor="mm", stroke_width=2,
                  stroke_fill=halo)


def mark_text_place(mark: Mark) -> tuple[float, float, int]:
    """Where a mark's number stands and its type size: inside the shape, clear of its outline."""
    below = SNUG_ROAD_NUMBER if mark.get("snug") else 0.22
    y = mark["y"] + (mark["m"] * below if mark["kind"] == "road" else 0)
    size = mark_text_size(mark["m"])
    if mark.get("snug"):  # its ink in the middle (a digit's ink sits under its line's middle)
        left, top, right, bottom = font(size).getbbox(mark["text"], anchor="mm")
        return mark["x"] - (left + right) / 2, y - (top + bottom) / 2, size
    return mark["x"], y, size


def mark_text_size(m: float) -> int:
    """The type of a mark's number: the larger the mark, the larger its number (40 px at least;
    on close-ups, tiles of 155 px and more, the marks' standard: MARK_TEXT, 41 px of ink)."""
    return 64 if m >= 72 else MARK_TEXT if m >= 62 else 48 if m >= 56 else MIN_TEXT


def shape(draw: ImageDraw.ImageDraw, cx: float, cy: float, kind: str, m: float, colour: Ink,
          snug: bool = False) -> None:
    w, h = _extent(kind, m, snug)
    line = 3
    if kind == "city":
        draw.rectangle((cx - w, cy - h, cx + w, cy + h), fill=colour, outline=INK, width=line)
    elif kind == "road":
        draw.polygon([(cx, cy - h), (cx + w, cy + h), (cx - w, cy + h)], fill=colour, outline=INK, width=line)
    else:
        draw.ellipse((cx - w, cy - h, cx + w, cy + h), fill=colour, outline=INK, width=line)
