"""A Raub Ritter tile's picture: terrain, building, top knight, stack height and last-turn tag.

Every letter and number on a tile is a mark of at least `MARK_TEXT` type (41 px of ink,
`MIN_MARK`: 11 px where a phone shows the board 300 px wide), never smaller: a young area's
large squares hold four of them in their quarters; a full area's squares (some 84 to 110 px,
as wide as ten columns leave) hold one row of two, so there the stack's two numbers stand along
the bottom and the building is told by its picture (see `geometry`). renderers/raubritter.py
lays out the board; docs/raubritter.md says why the whole area is drawn.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypedDict

from PIL import Image, ImageDraw

from renderers.common import BACKGROUND, INK, MARK_TEXT, WHITE, Ink, font, ink_box, keep_drawn, unrecorded

Box = tuple[int, int, int, int]
"""left, top, right, bottom, in whole pixels."""
TileText = tuple[Box, str, int]
"""A letter or number on a tile: its box relative to the tile's corner, its text, its size."""

CELL_MIN = 84            # the smallest square whose row of two marks (`geometry`) still fits

BUILDING_INK = (40, 34, 30)
OUTLINE = (20, 20, 20)
SNOW = (245, 245, 245)
GRID_LINE = (170, 160, 145)

# Raub Ritter's own player colours (tile backs and knights), the colours the players are named by
# ("Carol (red)"), in shades red-green colour-blind players can tell apart: blue, yellow and a
# bluish green from the Okabe-Ito palette, and a crimson red (darker than the others, so it stays
# apart from the green under deuteranopia; the Okabe-Ito vermilion read as orange); every mark
# carries the seat number as well.
PLAYER_COLOURS = {"blue": (0, 114, 178), "yellow": (240, 228, 66), "green": (0, 158, 115), "red": (196, 20, 36)}
TEXT_ON = {"blue": WHITE, "yellow": INK, "green": WHITE, "red": WHITE}

TERRAIN_FILL = {"plain": (214, 226, 150), "forest": (92, 150, 80), "mountain": (170, 160, 150), "lake": (110, 170, 225)}
TERRAIN_MARK = {"plain": (176, 196, 110), "forest": (36, 96, 40), "mountain": (110, 100, 92), "lake": (232, 244, 255)}
# Dark enough that their white letters stand out (contrast 5:1 or more), on every terrain.
# A town is plum, not red: a red player's tag stands beside it.
BUILDING_FILL = {"castle": (84, 76, 92), "village": (160, 82, 30), "town": (128, 40, 120)}
BUILDING_LETTER = {"castle": "C", "village": "V", "town": "T"}
PAINTS = [BUILDING_INK, OUTLINE, SNOW, WHITE, GRID_LINE, *PLAYER_COLOURS.values(), *TERRAIN_FILL.values(),
          *TERRAIN_MARK.values(), *BUILDING_FILL.values()]
"""Every colour a tile is painted in exactly (for the board's PNG palette)."""


def frame_width(cell: int) -> int:
    return max(4, cell // 22)


SIGN_BELOW = 70
"""Under this height a building is drawn as a sign (its letter on a plate of its colour): the
icon's body would be lower than its letter."""
PLATE_LINE = 2   # a plate's outline
ROW_GAP = 2      # between the two rows of marks
STACK_GAP = 12   # between a stack's knight and its height, so the two never read as one number
BADGE_RAISE = 9  # a full area's stack height stands this much higher than its knight


@lru_cache(maxsize=8)
def digit_ink(size: int) -> tuple[int, int]:
    """The widest and the tallest ink of a digit at `size` (a building's letter is as tall)."""
    face = font(size)
    boxes = [face.getmask(char).getbbox() for char in "123456789"]
    return max(box[2] - box[0] for box in boxes), max(box[3] - box[1] for box in boxes)


def plate_size(size: int) -> tuple[int, int]:
    """A plate that holds any digit at `size` with its outline and a pixel of air (narrow: the
    two plates of a stack stand as far apart as a square allows, so they never read as one
    number)."""
    width, height = digit_ink(size)
    return width + 2 * (PLATE_LINE + 1), height + 2 * (PLATE_LINE + 1)


class TileGeometry(TypedDict):
    """Where the marks sit on a tile (see `geometry`); boxes relative to the tile's corner."""

    pad: int                   # inside the frame
    size: int                  # the marks' type
    two_rows: bool             # a young area's large square (else one row of marks)
    plate: tuple[int, int]     # a knight's or height's plate: width, height
    row_top: int               # the stack's row
    knight: Box
    height: Box
    tag: Box | None            # the last-turn tag (two rows only)
    building: Box
    scenery: Box               # trees or peaks
    roof_bottom: int


@lru_cache(maxsize=64)
def geometry(cell: int) -> TileGeometry:
    """Where the marks sit on a tile of `cell` pixels. Every letter and number on it is a mark at
    MARK_TEXT or larger (MIN_MARK: 11 px on a phone), so the layout depends on how many rows of
    marks the square holds:

    - two rows (`two_rows`: a young area's squares, 110 px and more): the building top left (its
      picture with its letter, or its letter on a plate of its colour), the tag of the player who
      laid it in their last turn top right, the top knight's seat bottom left and the stack's
      height bottom right, each in its own quarter;
    - one row (a full area's squares, some 84 to 110 px): the stack along the bottom, the
      building's picture above and behind it (its roof and colour tell castle, village and town
      apart; its letter stands in its body while no knight stands in front of it), the terrain's
      trees or peaks beside the roof, and no tag: the last turn is the frame in the layer's
      colour (whose turn it was the message says in words)."""
    pad = frame_width(cell) + 1
    inner = cell - 2 * pad
    size = MARK_TEXT
    for bigger in (80, 64):
        if 2 * plate_size(bigger)[1] + ROW_GAP <= inner * 0.7:
            size = bigger
            break
    plate_w, plate_h = plate_size(size)
    two_rows = 2 * plate_h + ROW_GAP <= inner
    # a stack's two plates a fifth of the square apart (a pixel less of air on the narrowest),
    # with two more pixels of air where the square has room
    plate_w = max(plate_w - 2, min(plate_w + 4, (inner - STACK_GAP) // 2))
    row_top = cell - pad - plate_h
    knight = (pad, row_top, pad + plate_w, cell - pad)
    tag: Box | None
    if two_rows:
        height = (cell - pad - plate_w, row_top, cell - pad, cell - pad)
        tag = (cell - pad - plate_h, pad, cell - pad, pad + plate_h)
        building = (pad, pad, tag[0] - ROW_GAP, row_top - ROW_GAP)
        scenery = (tag[0], pad, cell - pad, tag[3])  # the trees where no tag stands
    else:
        # the height a little raised, as a badge beside the knight: the two numbers of a stack,
        # and those of the next square, never stand on one line to read as one number
        height = (cell - pad - plate_w, row_top - BADGE_RAISE, cell - pad, cell - pad - BADGE_RAISE)
        tag = None
        # the building's body runs on behind the knight: its roof above the row tells it apart
        right = min(pad + round(inner * 0.6), height[0] - ROW_GAP - 1)
        building = (pad, pad, max(right, knight[2] + 4), cell - pad)
        scenery = (building[2] + ROW_GAP + 1, pad, cell - pad, height[1] - ROW_GAP)
    return {"pad": pad, "size": size, "two_rows": two_rows, "plate": (plate_w, plate_h), "row_top": row_top,
            "knight": knight, "height": height, "tag": tag, "building": building, "scenery": scenery,
            "roof_bottom": row_top - ROW_GAP}


def draw_tile(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, tile: Mapping[str, Any], seat_colours: list[str],
               letters: dict[str, str] = BUILDING_LETTER, last_seat: int | None = None, *,
               in_hand: bool = False, texts: list[TileText] | None = None, stack: bool = True) -> None:
    """A laid tile; `in_hand`: a tile of the viewer's hand, where no knight will stand, so its
    building fills the tile; `stack` False: all but its knights' plates (drawn last, on top)."""
    terrain = tile["terrain"]
    draw.rectangle((x, y, x + cell, y + cell), fill=TERRAIN_FILL[terrain], outline=GRID_LINE)
    g = geometry(cell)
    pad = g["pad"]
    mark = TERRAIN_MARK[terrain]
    building = tile.get("building")
    knights = tile["knights"]
    if in_hand:  # the building large, bottom left, clear of the trees top right
        side = round(cell * 0.55)
        _draw_scenery(draw, terrain, mark, (x + cell - pad - round(cell * 0.3), y + pad, x + cell - pad,
                                            y + pad + round(cell * 0.3)))
        if building:
            _draw_building(draw, x + pad, y + cell - pad - side, side, side, building, letters, texts)
        return
    if g["two_rows"]:
        _draw_two_rows(draw, x, y, cell, g, terrain, mark, building, letters, last_seat, seat_colours, texts)
    else:
        _draw_one_row(draw, x, y, cell, g, terrain, mark, building, letters, bool(knights), texts)
    if last_seat is not None:
        draw.rectangle((x, y, x + cell, y + cell), outline=PLAYER_COLOURS[seat_colours[last_seat]],
                       width=frame_width(cell))
    if knights and stack:
        _draw_stack(draw, x, y, cell, knights, seat_colours, texts)


def _draw_two_rows(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, g: TileGeometry, terrain: str,
                   mark: Ink, building: str | None, letters: dict[str, str], last_seat: int | None,
                   seat_colours: list[str], texts: list[TileText] | None) -> None:
    """A large square: building top left, tag (or trees) top right; the stack follows below."""
    pad = g["pad"]
    left, top, right, bottom = g["building"]
    sx0, sy0, sx1, sy1 = g["scenery"]
    if terrain == "forest" and last_seat is None:  # two trees where the tag would be
        _draw_scenery(draw, terrain, mark, (x + sx0, y + sy0, x + sx1, y + sy1))
    elif terrain == "mountain":  # peaks in the building's corner (mountains have none)
        right_edge = right if last_seat is not None else cell - pad
        _draw_scenery(draw, terrain, mark, (x + left, y + top, x + right_edge, y + bottom))
    elif terrain == "lake":
        _draw_scenery(draw, terrain, mark, (x, y, x + cell, y + cell))
    if building:
        _draw_building(draw, x + left, y + top, right - left, bottom - top, building, letters, texts, g["size"])
    tag = g["tag"]
    if last_seat is not None and tag is not None:  # two rows always have the tag's corner
        colour_name = seat_colours[last_seat]
        tx0, ty0, tx1, ty1 = tag
        draw.rounded_rectangle((x + tx0, y + ty0, x + tx1, y + ty1), radius=5, fill=PLAYER_COLOURS[colour_name],
                               outline=OUTLINE, width=PLATE_LINE)
        _say(draw, texts, (x + (tx0 + tx1) / 2, y + (ty0 + ty1) / 2), str(last_seat + 1), g["size"],
             fill=TEXT_ON[colour_name], anchor="mm")


def _draw_one_row(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, g: TileGeometry, terrain: str, mark: Ink,
                  building: str | None, letters: dict[str, str], occupied: bool,
                  texts: list[TileText] | None) -> None:
    """A full area's square: the building's picture above and behind the row of the stack, its
    letter in its body while no knight stands in front of it; trees or peaks beside its roof."""
    pad = g["pad"]
    sx0, sy0, sx1, sy1 = g["scenery"]
    roof_bottom = g["roof_bottom"]
    if terrain == "lake":
        _draw_scenery(draw, terrain, mark, (x, y, x + cell, y + cell))
    elif terrain == "mountain":  # no building: the peaks take the roof's room (all of it, unoccupied)
        _draw_scenery(draw, terrain, mark, (x + pad, y + pad, x + cell - pad,
                                            y + (roof_bottom if occupied else cell - pad)))
    elif terrain == "forest":
        _draw_scenery(draw, terrain, mark, (x + sx0, y + sy0, x + sx1, y + sy1))
    if building:
        left, top, right, bottom = g["building"]
        _draw_building(draw, x + left, y + top, right - left, bottom - top, building,
                       letters if not occupied else None, texts, g["size"], roof=roof_bottom - top)


def _draw_scenery(draw: ImageDraw.ImageDraw, terrain: str, mark: Ink, box: Box) -> None:
    """The terrain's own picture in `box`: two trees, two peaks or waves (plains have none)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= 4 or h <= 4:
        return
    if terrain == "forest":
        side = min(w, h)
        tx0 = x1 - side
        for fx, fy, size in ((0.3, 0.55, 0.55), (0.72, 0.62, 0.5)):
            cx, base = tx0 + fx * side, y0 + fy * side + size * side / 2
            draw.polygon([(cx - size * side / 2.4, base), (cx + size * side / 2.4, base), (cx, base - size * side)],
                         fill=mark)
    elif terrain == "mountain":
        draw.polygon([(x0, y1), (x0 + w * 0.42, y0), (x0 + w * 0.84, y1)], fill=mark)
        draw.polygon([(x0 + w * 0.45, y1), (x0 + w * 0.72, y0 + h * 0.35), (x1, y1)], fill=mark)
        draw.polygon([(x0 + w * 0.42 - w * 0.09, y0 + h * 0.3), (x0 + w * 0.42, y0),
                      (x0 + w * 0.42 + w * 0.09, y0 + h * 0.3)], fill=SNOW)
    elif terrain == "lake":
        width = max(2, w // 30)
        for wy in (0.42, 0.6, 0.78):
            for wx in (0.1, 0.5):
                draw.arc((x0 + wx * w, y0 + (wy - 0.08) * h, x0 + (wx + 0.3) * w, y0 + (wy + 0.08) * h),
                         200, 340, fill=mark, width=width)


@keep_drawn(2**17)  # the boards drawn whole (the layout tests, a hatched window); the usual ones keep their
# tiles in the palette (renderers.raubritter._tile_piece 2 MiB, _square_piece 512 KiB, _tile_ground_piece 512 KiB
# and _plate_piece 128 KiB: what this kept; and _box_word_piece 192 KiB, _panel 128 KiB, _box_disc_piece 64 KiB;
# the other 384 KiB it gave up)
def tile_image(cell: int, terrain: str, building: str | None, top_knight: tuple[int, ...], height: int,
                colours: tuple[str, ...], letters: tuple[tuple[str, str], ...],
                last_seat: int | None) -> tuple[Image.Image, tuple[TileText, ...]]:
    """A laid tile's picture and the texts on it, boxes relative to its corner."""
    image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
    texts: list[TileText] = []
    knights = [0] * (height - 1) + list(top_knight) if height else []
    with unrecorded():
        draw_tile(ImageDraw.Draw(image), 0, 0, cell, {"terrain": terrain, "building": building, "knights": knights},
                   list(colours), dict(letters), last_seat, texts=texts)
    return image, tuple(texts)


@keep_drawn(2**18)  # the hands drawn whole (the layout tests); the usual ones keep their tiles in the palette
# (renderers.raubritter._hand_tile_piece 512 KiB, _hand_text_piece 192 KiB, _disc_piece 64 KiB: what this kept)
def hand_tile_image(size: int, terrain: str, building: str | None,
                    letters: tuple[tuple[str, str], ...]) -> Image.Image:
    """A tile of a seat's hand as `draw_tile` draws it there (`in_hand`: no knight, no owner's
    mark). Its terrain's rectangle covers its whole box, so pasting it is drawing it there."""
    image = Image.new("RGB", (size + 1, size + 1), BACKGROUND)
    with unrecorded():
        draw_tile(ImageDraw.Draw(image), 0, 0, size, {"terrain": terrain, "building": building, "knights": []}, [],
                   dict(letters), in_hand=True)
    return image


def _say(draw: ImageDraw.ImageDraw, texts: list[TileText] | None, xy: tuple[float, float], text: str, size: int,
         **kwargs: Any) -> None:
    """Write on a tile, noting the box when the tile is drawn to be pasted later. Anchor "mm"
    centres the letters' ink itself (a digit on a small disc must sit in its middle, not where
    the font's line would put it)."""
    if kwargs.get("anchor") == "mm":
        xy, kwargs["anchor"] = _ink_centred(xy, text, size), "ls"
    draw.text(xy, text, font=font(size), **kwargs)
    if texts is not None:
        box = draw.textbbox(xy, text, font=font(size), anchor=kwargs.get("anchor"),
                            stroke_width=kwargs.get("stroke_width", 0))
        left, top, right, bottom = box
        texts.append(((int(left), int(top), int(right), int(bottom)), text, size))


def _ink_centred(centre: tuple[float, float], text: str, size: int) -> tuple[float, float]:
    """Where to put the baseline's left end so that the text's ink is centred on `centre`."""
    left, top, right, bottom = ink_box(text, size)
    return centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2


@keep_drawn(2**18)  # the names of the boards drawn whole; the usual ones keep theirs in the palette (the other
# 768 KiB, renderers.raubritter._name_piece and _label_piece)
def centred_text_image(text: str, size: int, fill: Ink, ground: Ink) -> tuple[Image.Image, int, int]:
    """`text` as `centre_text` draws it on `ground`, on a picture of its ink and a pixel round it,
    with where that picture's corner stands from the centre (whole pixels: the text keeps the
    fraction of a pixel it is drawn at, so pasting it on `ground` is drawing it there)."""
    left, top, right, bottom = ink_box(text, size)
    x, y = _ink_centred((0, 0), text, size)
    corner_x, corner_y = math.floor(x) + left - 1, math.floor(y) + top - 1
    image = Image.new("RGB", (math.ceil(x - corner_x + right) + 2, math.ceil(y - corner_y + bottom) + 2), ground)
    ImageDraw.Draw(image).text((x - corner_x, y - corner_y), text, font=font(size), fill=fill, anchor="ls")
    return image, corner_x, corner_y


def centre_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int, fill: Ink) -> None:
    """A number or letter with its ink centred on `centre` (on a disc, a plate, a swatch)."""
    draw.text(_ink_centred(centre, text, size), text, font=font(size), fill=fill, anchor="ls")


def _draw_building(draw: ImageDraw.ImageDraw, left: float, top: float, w: float, h: float, building: str,
                   letters: dict[str, str] | None = BUILDING_LETTER, texts: list[TileText] | None = None,
                   size: int = MARK_TEXT, roof: float | None = None) -> None:
    """The building in the box (left, top, w, h): its picture (a castle's battlements, a village's
    roof, a town's hall and spire, each in its colour) with its letter in its body, so colour is
    never the only cue; `roof`: how tall the roof is (the body below it may hold knights in front
    of it, and `letters` None leaves the letter out: a knight stands where it would be). A box
    too low for the picture around a MARK_TEXT letter holds the letter on a plate of the
    building's colour."""
    fill, ink = BUILDING_FILL[building], BUILDING_INK
    ink_w, ink_h = digit_ink(size)
    # a sign: the letter on a plate of its colour (a building drawn whole, roof None, has its letter)
    if roof is None and letters is not None and (h < SIGN_BELOW or h * 0.72 < ink_h + 6):
        side = min(w, h)
        draw.rounded_rectangle((left, top, left + side, top + side), radius=5, fill=fill, outline=ink,
                               width=PLATE_LINE)
        _say(draw, texts, (left + side / 2, top + side / 2), letters[building], size, fill=WHITE, anchor="mm")
        return
    roof = h * 0.28 if roof is None else roof
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
    else:  # town: a hall and a church tower with its spire
        tower = w * 0.3
        draw.rectangle((left, body_top, left + w - tower, top + h), fill=fill, outline=ink, width=2)
        draw.polygon([(left - 1, body_top + 1), (left + (w - tower) / 2, top + roof * 0.4),
                      (left + w - tower + 1, body_top + 1)], fill=ink)
        shoulder = top + roof * 0.55
        draw.rectangle((left + w - tower, shoulder, left + w, top + h), fill=fill, outline=ink, width=2)
        draw.polygon([(left + w - tower - 1, shoulder + 1), (left + w - tower / 2, top),
                      (left + w + 1, shoulder + 1)], fill=ink)
        hall = (left, left + w - tower)
    if letters is None:
        return
    while size < 80 and _fits(size + (8 if size < 64 else 16), hall[1] - hall[0], top + h - body_top):
        size += 8 if size < 64 else 16
    _say(draw, texts, ((hall[0] + hall[1]) / 2, (body_top + top + h) / 2), letters[building], size,
         fill=WHITE, anchor="mm")


def _fits(size: int, width: float, height: float) -> bool:
    ink_w, ink_h = digit_ink(size)
    return ink_w + 8 <= width and ink_h + 8 <= height


def _draw_stack(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, knights: list[int],
                seat_colours: list[str], texts: list[TileText] | None = None) -> None:
    """The top knight (the one that scores): its seat number on a rounded plate of its colour,
    bottom left; the stack's height on a white square plate bottom right, apart from it, so the
    two numbers never read as one."""
    g = geometry(cell)
    left, top, right, bottom = g["knight"]
    draw_knight(draw, (x + left, y + top, x + right, y + bottom), knights[-1], seat_colours[knights[-1]],
                g["size"], texts)
    if len(knights) > 1:
        left, top, right, bottom = g["height"]
        draw_height(draw, (x + left, y + top, x + right, y + bottom), len(knights), g["size"], texts)


def draw_knight(draw: ImageDraw.ImageDraw, box: Box, seat: int, colour: str, size: int = MARK_TEXT,
                texts: list[TileText] | None = None) -> None:
    """A stack's top knight: its seat number on a rounded plate of its colour."""
    left, top, right, bottom = box
    draw.rounded_rectangle(box, radius=max(6, (right - left) // 4), fill=PLAYER_COLOURS[colour], outline=OUTLINE,
                           width=PLATE_LINE)
    _say(draw, texts, ((left + right) / 2, (top + bottom) / 2), str(seat + 1), size, fill=TEXT_ON[colour],
         anchor="mm")


def draw_height(draw: ImageDraw.ImageDraw, box: Box, height: int, size: int = MARK_TEXT,
                texts: list[TileText] | None = None) -> None:
    """A stack's height: its number on a white plate (square, where the knight is rounded)."""
    left, top, right, bottom = box
    draw.rectangle(box, fill=WHITE, outline=OUTLINE, width=PLATE_LINE)
    _say(draw, texts, ((left + right) / 2, (top + bottom) / 2), str(height), size, fill=INK, anchor="mm")
