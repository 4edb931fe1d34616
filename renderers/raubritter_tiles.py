"""A Raub Ritter tile's picture: terrain, building, last-turn tag, top knight and stack height.

Each mark has its own quarter of the tile (building top left, tag top right, knight bottom
left, height bottom right), every letter and number at least `MIN_TEXT`, so on a phone none is
too small to read or runs into another, down to `CELL_MIN` squares (renderers/raubritter.py
lays out the board; docs/raubritter.md says why the whole area is drawn).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import BACKGROUND, INK, MARK_TEXT, MIN_TEXT, font, keep_drawn, unrecorded

TEXT = MIN_TEXT          # every letter and number on a tile, at least
CELL_MIN = 84            # the smallest square whose four marks still keep the standard (geometry)

BUILDING_INK = (40, 34, 30)
OUTLINE = (20, 20, 20)
SNOW = (245, 245, 245)
WHITE = (255, 255, 255)
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


def digit_size(room: int) -> int:
    """The largest font step whose digits fit a disc (or square) `room` pixels across, at least
    TEXT: a digit's box is about 0.56 x 0.73 of the size, so its corners stay inside."""
    fitting = [size for size in (TEXT, 48, MARK_TEXT, 64, 80) if size * 0.92 <= room + 2]
    return fitting[-1] if fitting else TEXT


@lru_cache(maxsize=64)
def geometry(cell: int) -> dict[str, int]:
    """Where the marks sit on a tile of `cell` pixels, each in its own quarter: the building (and
    a mountain's peaks) top left, the last-turn tag top right, the top knight's disc bottom left
    and the stack's height bottom right, with a gap between quarters, so no two ever touch, down
    to CELL_MIN (where each quarter is just large enough for a TEXT digit)."""
    pad = frame_width(cell) + 1
    inner = cell - 2 * pad
    gap = max(4, inner // 14)
    quarter = (inner - gap) // 2
    radius = min(quarter // 2, max(17, round(cell * 0.2)))
    number = digit_size(2 * radius)                      # the seat number on the disc
    tag = min(quarter, max(2 * radius, round(cell * 0.3)))
    height_w = _advance("4", number) + 12                     # the stack's height plate
    height_h = min(2 * radius, number + 4)
    return {"pad": pad, "gap": gap, "quarter": quarter, "radius": radius, "number": number, "tag": tag,
            "tag_number": digit_size(tag),
            "disc_x": pad + radius, "disc_y": cell - pad - radius,
            "height_box": (cell - pad - height_w, cell - pad - radius - height_h // 2, cell - pad,
                           cell - pad - radius - height_h // 2 + height_h),
            "top_w": inner - tag - gap,                     # the building's room, left of the tag
            "top_h": inner - 2 * radius - gap}              # and above the knight


def draw_tile(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, tile: dict[str, Any], seat_colours: list[str],
               letters: dict[str, str] = BUILDING_LETTER, last_seat: int | None = None, *,
               in_hand: bool = False, texts: list[Any] | None = None) -> None:
    """A laid tile; `in_hand`: a tile of the viewer's hand, where no knight will stand, so its
    building fills the tile."""
    terrain = tile["terrain"]
    draw.rectangle((x, y, x + cell, y + cell), fill=TERRAIN_FILL[terrain], outline=GRID_LINE)
    g = geometry(cell)
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
        right = x + cell - pad - (tag + g["gap"] if last_seat is not None else 0)
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
        _draw_building(draw, left, top, w if in_hand else min(w, max(g["quarter"], round(cell * 0.55))), h,
                       building, letters, texts)
    if in_hand:
        return
    if last_seat is not None:
        colour_name = seat_colours[last_seat]
        colour = PLAYER_COLOURS[colour_name]
        draw.rectangle((x, y, x + cell, y + cell), outline=colour, width=frame_width(cell))
        tx, ty = x + cell - pad - tag, y + pad
        draw.rounded_rectangle((tx, ty, tx + tag, ty + tag), radius=max(4, tag // 6), fill=colour, outline=OUTLINE,
                               width=2)
        _say(draw, texts, (tx + tag / 2, ty + tag / 2), str(last_seat + 1), g["tag_number"],
             fill=TEXT_ON[colour_name], anchor="mm")
    if tile["knights"]:
        _draw_stack(draw, x, y, cell, tile["knights"], seat_colours, texts)


@keep_drawn(4 * 2**20)  # the same few dozen tiles stand on every turn's board; a young area's are large
def tile_image(cell: int, terrain: str, building: str | None, top_knight: tuple[int, ...], height: int,
                colours: tuple[str, ...], letters: tuple[tuple[str, str], ...],
                last_seat: int | None) -> tuple[Image.Image, tuple[Any, ...]]:
    """A laid tile's picture and the texts on it, boxes relative to its corner."""
    image = Image.new("RGB", (cell + 1, cell + 1), BACKGROUND)
    texts: list[Any] = []
    knights = [0] * (height - 1) + list(top_knight) if height else []
    with unrecorded():
        draw_tile(ImageDraw.Draw(image), 0, 0, cell, {"terrain": terrain, "building": building, "knights": knights},
                   list(colours), dict(letters), last_seat, texts=texts)
    return image, tuple(texts)


def _say(draw: ImageDraw.ImageDraw, texts: list[Any] | None, xy, text: str, size: int, **kwargs) -> None:
    """Write on a tile, noting the box when the tile is drawn to be pasted later. Anchor "mm"
    centres the letters' ink itself (a digit on a small disc must sit in its middle, not where
    the font's line would put it)."""
    if kwargs.get("anchor") == "mm":
        xy, kwargs["anchor"] = _ink_centred(xy, text, size), "ls"
    draw.text(xy, text, font=font(size), **kwargs)
    if texts is not None:
        box = draw.textbbox(xy, text, font=font(size), anchor=kwargs.get("anchor"),
                            stroke_width=kwargs.get("stroke_width", 0))
        texts.append((tuple(int(v) for v in box), text, size))


def _ink_centred(centre, text: str, size: int) -> tuple[float, float]:
    """Where to put the baseline's left end so that the text's ink is centred on `centre`."""
    left, top, right, bottom = _ink_box(text, size)
    return centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2


@lru_cache(maxsize=256)
def _ink_box(text: str, size: int) -> tuple[int, int, int, int]:
    return font(size).getbbox(text, anchor="ls")


def centre_text(draw: ImageDraw.ImageDraw, centre, text: str, size: int, fill) -> None:
    """A number or letter with its ink centred on `centre` (on a disc, a plate, a swatch)."""
    draw.text(_ink_centred(centre, text, size), text, font=font(size), fill=fill, anchor="ls")


def _draw_building(draw: ImageDraw.ImageDraw, left: float, top: float, w: float, h: float, building: str,
                   letters: dict[str, str] = BUILDING_LETTER, texts: list[Any] | None = None) -> None:
    """The building in the box (left, top, w, h), its letter large in its body, so colour and
    shape are never the only cue."""
    fill, ink = BUILDING_FILL[building], BUILDING_INK
    if h < SIGN_BELOW:  # too small for the icon: the letter on a plate of the building's colour
        side = min(w, h)
        draw.rounded_rectangle((left, top, left + side, top + side), radius=5, fill=fill, outline=ink, width=2)
        _say(draw, texts, (left + side / 2, top + side / 2), letters[building], digit_size(side), fill=WHITE,
             anchor="mm")
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
    size = digit_size(min(int(h - roof), int(hall[1] - hall[0])))
    _say(draw, texts, ((hall[0] + hall[1]) / 2, (body_top + top + h) / 2), letters[building], size,
         fill=WHITE, anchor="mm")


def _draw_stack(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, knights: list[int],
                seat_colours: list[str], texts: list[Any] | None = None) -> None:
    """The top knight (the one that scores) as a disc in its colour with its seat number, bottom
    left; the stack's height on a white plate bottom right, in the next quarter of the tile, so
    the two numbers never read as one."""
    g = geometry(cell)
    top = seat_colours[knights[-1]]
    cx, cy, radius = x + g["disc_x"], y + g["disc_y"], g["radius"]
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PLAYER_COLOURS[top],
                 outline=OUTLINE, width=3)
    _say(draw, texts, (cx, cy), str(knights[-1] + 1), g["number"], fill=TEXT_ON[top], anchor="mm")
    if len(knights) > 1:
        left, top_y, right, bottom = g["height_box"]
        draw_height(draw, (x + left, y + top_y, x + right, y + bottom), len(knights), g["number"], texts)


def draw_height(draw: ImageDraw.ImageDraw, box, height: int, size: int, texts: list[Any] | None = None) -> None:
    """A stack's height: its number on a white plate (square, where the knight is round)."""
    left, top, right, bottom = box
    draw.rectangle(box, fill=WHITE, outline=OUTLINE, width=2)
    _say(draw, texts, ((left + right) / 2, (top + bottom) / 2), str(height), size, fill=INK, anchor="mm")


@lru_cache(maxsize=256)
def _advance(text: str, size: int) -> int:
    return int(font(size).getlength(text) + 0.5)
