"""Raub Ritter board renderer: draws only what a view (public or a seat's) holds.

Layout (phone first: upright 1080 x 1350, fixed so the board never jumps around in the channel):
the status on top; the board window, showing the laid tiles plus one free ring around them (grey
where the area limit forbids laying), with the fixed square labels; under it one box per player
(seat number, name, points, knights, tiles) and the viewer's hand. The size of the area comes from
the view (7 x 7 up to 10 x 10). Every knight and flag carries its seat number, so owners are told
apart without colour; the move history is in the message text, not on the image.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import name_seats
from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, PHONE_SIZE, fit, font, seat_names,
                              text_width)

WIDTH, HEIGHT = PHONE_SIZE
HEADER = 96
BOARD_BOX = (6, HEADER, WIDTH - 6, HEADER + 900)   # left, top, right, bottom of the board area incl. labels
LABEL_STRIP = 36
PANEL_TOP = BOARD_BOX[3] + 8

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
    _draw_board(draw, view, _letters(lang))
    _draw_panel(draw, view, drawn_names, lang)
    # A fixed palette is ~30x faster than an adaptive quantize and keeps the PNG small.
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Every colour this module paints exactly, then a colour cube and greys for the
    anti-aliased edges of text."""
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, *PLAYER_COLOURS.values(), *TERRAIN_FILL.values(),
             *TERRAIN_MARK.values(), *BUILDING_FILL.values(), EMPTY_FILL, OUTSIDE_FILL, GRID_LINE,
             FACE_DOWN, HATCH, BUILDING_INK, OUTLINE, SNOW, FACE_DOWN_LETTER, PANEL_ACTIVE, PANEL_IDLE, WHITE]
    colours = list(dict.fromkeys(exact))
    colours += [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    colours = list(dict.fromkeys(colours))
    grey = 0
    while len(colours) < 256:
        grey = (grey + 37) % 256
        colours.append((grey, grey, grey))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours[:256] for channel in colour])
    return palette


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
    bounds = view.get("bounds") or {}
    min_c = max(0, lo_c - 1, bounds.get("min_col", 0))
    max_c = min(grid["cols"] - 1, hi_c + 1, bounds.get("max_col", grid["cols"] - 1))
    min_r = max(0, lo_r - 1, bounds.get("min_row", 0))
    max_r = min(grid["rows"] - 1, hi_r + 1, bounds.get("max_row", grid["rows"] - 1))
    return min_c, max_c, min_r, max_r


def _start_span(size: int, limit: int) -> tuple[int, int]:
    # The grid is 2 * limit - start, with the starting area centred in it.
    start = 2 * limit - size
    return limit - start, limit - 1


def _letters(lang: str) -> dict[str, str]:
    """The building letters on the tiles, in the table's language (C/V/T, B/D/S)."""
    return {building: t(lang, f"raubritter.board.letter_{building}") for building in BUILDING_LETTER}


def _draw_board(draw: ImageDraw.ImageDraw, view: dict, letters: dict[str, str] = BUILDING_LETTER) -> None:
    min_c, max_c, min_r, max_r = _window(view)
    n_cols, n_rows = max_c - min_c + 1, max_r - min_r + 1
    left, top, right, bottom = BOARD_BOX
    cell = min(150, (right - left - LABEL_STRIP) // n_cols, (bottom - top - LABEL_STRIP) // n_rows)
    board_w, board_h = cell * n_cols, cell * n_rows
    x0 = left + LABEL_STRIP + (right - left - LABEL_STRIP - board_w) // 2
    y0 = top + LABEL_STRIP + (bottom - top - LABEL_STRIP - board_h) // 2
    grid = view["grid"]
    label_size = max(MIN_TEXT, min(34, cell // 3))
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
                draw.ellipse((x + cell // 2 - 5, y + cell // 2 - 5, x + cell // 2 + 5, y + cell // 2 + 5), fill=MUTED)

    if not laid and view["phase"] == "keep":
        lo_c, hi_c = _start_span(grid["cols"], grid["limit"])
        lo_r, hi_r = _start_span(grid["rows"], grid["limit"])
        for c in range(lo_c, hi_c + 1):
            for r in range(lo_r, hi_r + 1):
                x, y = origin(c, r)
                draw.rectangle((x + 2, y + 2, x + cell - 2, y + cell - 2), fill=FACE_DOWN, outline=INK, width=2)
                draw.text((x + cell // 2, y + cell // 2), "A", font=font(max(MIN_TEXT, cell // 2)), fill=FACE_DOWN_LETTER,
                          anchor="mm")

    for (c, r), tile in laid.items():
        _draw_tile(draw, *origin(c, r), cell, tile, view["colours"], letters)

    # Highlights: the last turns in the layer's colour, this turn (and a castle awaiting knights) bold.
    index = {t["square"]: (t["col"], t["row"]) for t in view["tiles"]}
    for turn in view.get("recent_turns", []):
        colour = PLAYER_COLOURS[view["colours"][turn["seat"]]]
        for square in turn["squares"]:
            if square in index:
                x, y = origin(*index[square])
                draw.rectangle((x + 1, y + 1, x + cell - 1, y + cell - 1), outline=colour, width=4)
    # This turn: a dark frame with a white line inside, distinct from every seat colour.
    for square in view.get("this_turn", []):
        if square in index:
            x, y = origin(*index[square])
            draw.rectangle((x, y, x + cell, y + cell), outline=INK, width=7)
            draw.rectangle((x + 7, y + 7, x + cell - 7, y + cell - 7), outline=WHITE, width=2)
    if view.get("pending_castle") in index:  # the castle waiting for its knights
        x, y = origin(*index[view["pending_castle"]])
        draw.rectangle((x + 9, y + 9, x + cell - 9, y + cell - 9), outline=HIGHLIGHT, width=5)


def _draw_tile(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, tile: dict, seat_colours: list[str],
               letters: dict[str, str] = BUILDING_LETTER) -> None:
    terrain = tile["terrain"]
    draw.rectangle((x, y, x + cell, y + cell), fill=TERRAIN_FILL[terrain], outline=GRID_LINE)
    mark = TERRAIN_MARK[terrain]
    s = cell / 100  # icon shapes are drawn on a 100-unit tile
    if terrain == "forest":  # trees along the left edge
        for tx, ty in ((14, 30), (14, 62), (30, 88)):
            draw.polygon([(x + (tx - 9) * s, y + (ty + 8) * s), (x + (tx + 9) * s, y + (ty + 8) * s),
                          (x + tx * s, y + (ty - 12) * s)], fill=mark)
    elif terrain == "mountain":  # two peaks
        draw.polygon([(x + 8 * s, y + 80 * s), (x + 40 * s, y + 22 * s), (x + 72 * s, y + 80 * s)], fill=mark)
        draw.polygon([(x + 45 * s, y + 80 * s), (x + 68 * s, y + 40 * s), (x + 92 * s, y + 80 * s)], fill=mark)
        draw.polygon([(x + 32 * s, y + 36 * s), (x + 40 * s, y + 22 * s), (x + 48 * s, y + 36 * s)], fill=SNOW)
    elif terrain == "lake":  # waves
        for wy in (36, 54, 72):
            for wx in (14, 44):
                draw.arc((x + wx * s, y + (wy - 8) * s, x + (wx + 20) * s, y + (wy + 8) * s), 200, 340,
                         fill=mark, width=max(2, cell // 30))
    elif terrain == "plain":  # a few tufts
        for tx, ty in ((12, 84), (24, 90)):
            draw.line((x + tx * s, y + ty * s, x + (tx + 4) * s, y + (ty - 8) * s), fill=mark, width=max(2, cell // 40))
    building = tile.get("building")
    if building:
        _draw_building(draw, x, y, s, building, letters)
    # The owner's colour as a corner flag (the tile's back colour).
    owner = PLAYER_COLOURS[tile["colour"]]
    draw.polygon([(x + cell, y), (x + cell - 22 * s, y), (x + cell, y + 22 * s)], fill=owner, outline=OUTLINE)
    if tile["knights"]:
        _draw_stack(draw, x, y, cell, tile["knights"], seat_colours)


def _draw_building(draw: ImageDraw.ImageDraw, x: int, y: int, s: float, building: str,
                   letters: dict[str, str] = BUILDING_LETTER) -> None:
    fill, ink = BUILDING_FILL[building], BUILDING_INK
    if building == "castle":  # a keep with battlements
        draw.rectangle((x + 30 * s, y + 20 * s, x + 64 * s, y + 50 * s), fill=fill, outline=ink, width=2)
        for bx in (30, 43, 56):
            draw.rectangle((x + bx * s, y + 12 * s, x + (bx + 8) * s, y + 20 * s), fill=fill, outline=ink, width=2)
        draw.rectangle((x + 43 * s, y + 36 * s, x + 51 * s, y + 50 * s), fill=ink)
    elif building == "village":  # one house
        draw.rectangle((x + 34 * s, y + 30 * s, x + 60 * s, y + 50 * s), fill=fill, outline=ink, width=2)
        draw.polygon([(x + 30 * s, y + 31 * s), (x + 47 * s, y + 14 * s), (x + 64 * s, y + 31 * s)], fill=ink)
    else:  # town: a hall and a church tower
        draw.rectangle((x + 26 * s, y + 28 * s, x + 52 * s, y + 50 * s), fill=fill, outline=ink, width=2)
        draw.polygon([(x + 23 * s, y + 29 * s), (x + 39 * s, y + 16 * s), (x + 55 * s, y + 29 * s)], fill=ink)
        draw.rectangle((x + 54 * s, y + 18 * s, x + 68 * s, y + 50 * s), fill=fill, outline=ink, width=2)
        draw.polygon([(x + 52 * s, y + 19 * s), (x + 61 * s, y + 4 * s), (x + 70 * s, y + 19 * s)], fill=ink)
    # The letter too, so colour is never the only cue: top left, inside the highlight frames,
    # outlined in white so the building behind never hides it.
    draw.text((x + max(10, 4 * s), y + max(8, 2 * s)), letters[building], font=font(max(MIN_TEXT, int(26 * s))),
              fill=ink, stroke_width=2, stroke_fill=WHITE)


def _draw_stack(draw: ImageDraw.ImageDraw, x: int, y: int, cell: int, knights: list[int],
                seat_colours: list[str]) -> None:
    """The top knight as a big disc with its seat number; the knights below as small bars, and
    the stack height beside the disc when there is more than one."""
    s = cell / 100
    colours = seat_colours
    top = colours[knights[-1]]
    cx, cy, radius = x + 63 * s, y + 72 * s, 23 * s
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=PLAYER_COLOURS[top],
                 outline=OUTLINE, width=3)
    draw.text((cx, cy), str(knights[-1] + 1), font=font(max(MIN_TEXT, int(34 * s))), fill=TEXT_ON[top], anchor="mm")
    if len(knights) > 1:
        # The height above the disc, right of the building: beside the disc's number it read
        # as one number ("×4" and "2" as "×42").
        draw.text((x + 96 * s, y + 47 * s), f"×{len(knights)}", font=font(max(MIN_TEXT, int(28 * s))), fill=INK,
                  anchor="rd", stroke_width=2, stroke_fill=WHITE)
    for i, knight in enumerate(knights[:-1]):  # bottom first, upwards
        bar_y = y + (92 - i * 9) * s
        draw.rectangle((x + 88 * s, bar_y - 7 * s, x + 98 * s, bar_y), fill=PLAYER_COLOURS[colours[knight]],
                       outline=OUTLINE)


# ----------------------------------------------------------------------------------------
# Panel


def _draw_header(draw: ImageDraw.ImageDraw, view: dict, names: list[str], lang: str) -> None:
    """The status, large: whose turn and what to do."""
    draw.rectangle((0, 0, WIDTH, HEADER - 8), fill=INK)
    status = translate(view["status"], lang, names)
    size = 34
    lines = _wrap(draw, status, size, WIDTH - 32)
    if len(lines) > 2:
        size = 30
        lines = _wrap(draw, status, size, WIDTH - 32)
    if len(lines) > 2:
        lines = [lines[0], _fit(draw, " ".join(lines[1:]), size, WIDTH - 32)]
    top = (HEADER - 8 - len(lines) * (size + 6)) // 2
    for i, line in enumerate(lines):
        draw.text((16, top + i * (size + 6)), line, font=font(size), fill=WHITE)


BUILDING_POINTS = {"castle": 1, "village": 2, "town": 3}


def score_breakdown(view: dict) -> list[dict[str, int]]:
    """Per seat, the buildings its knights top (each scores: castle 1, village 2, town 3), read
    from the tiles in the view: how each score is made."""
    counts = [{"castle": 0, "village": 0, "town": 0} for _ in range(view["seats"])]
    for tile in view["tiles"]:
        if tile["knights"] and tile.get("building") in BUILDING_POINTS:
            counts[tile["knights"][-1]][tile["building"]] += 1
    return counts


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict, names: list[str], lang: str) -> None:
    """One box per player, two to a row: seat disc, name, points, knights and tiles left (at the
    end: how the points were made); then the terrain legend where there is room."""
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    private = view.get("private") if view["viewer"] is not None else None
    bottom = HEIGHT - 8 - (96 if private else 0)
    players = view["players"]
    columns = 2
    rows = -(-len(players) // columns)
    box_w = (WIDTH - 16 - 8 * (columns - 1)) // columns
    box_h = min(150, (bottom - PANEL_TOP - 8 * (rows - 1)) // rows)
    legend = not private and bottom - PANEL_TOP - rows * (box_h + 8) >= 60
    if not legend and not private:
        box_h = min(170, (bottom - PANEL_TOP - 8 * (rows - 1)) // rows)
    breakdown = score_breakdown(view)
    for index, player in enumerate(players):
        seat = player["seat"]
        x = 8 + (index % columns) * (box_w + 8)
        y = PANEL_TOP + (index // columns) * (box_h + 8)
        colour = PLAYER_COLOURS[player["colour"]]
        active = seat in view["to_act"]
        won = seat in winners
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=12,
                               fill=PANEL_ACTIVE if active or won else PANEL_IDLE,
                               outline=HIGHLIGHT if active else (INK if won else GRID_LINE), width=6 if active or won else 2)
        radius = 26
        cx, cy = x + 12 + radius, y + 10 + radius
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=OUTLINE, width=3)
        draw.text((cx, cy), str(seat + 1), font=font(34), fill=TEXT_ON[player["colour"]], anchor="mm")
        if view["phase"] == "keep":
            corner = t(lang, "raubritter.board.chosen" if player["chosen"] else "raubritter.board.choosing")
        else:
            corner = t(lang, "raubritter.board.points", count=player["points"])
        corner_w = text_width(draw, corner, 32)
        draw.text((x + box_w - 12, y + 12), corner, font=font(32), fill=INK, anchor="ra")
        name = ("🏆 " if False else "") + names[seat]
        draw.text((cx + radius + 10, y + 12), _fit(draw, name, 32, box_w - corner_w - 2 * radius - 50),
                  font=font(32), fill=INK)
        mine = breakdown[seat]
        if view["over"] and sum(BUILDING_POINTS[b] * n for b, n in mine.items()) == player["points"]:
            detail = t(lang, "raubritter.board.breakdown", castles=mine["castle"], villages=mine["village"],
                       towns=mine["town"], knights=player["knights_left"])
        else:
            detail = t(lang, "raubritter.board.knights_tiles", knights=player["knights_left"], pile=player["pile"],
                       hand=len(player["hand_backs"]))
        draw.text((x + 14, y + box_h - 12), _fit(draw, detail, MIN_TEXT + 1, box_w - 28), font=font(MIN_TEXT + 1),
                  fill=INK, anchor="ld")
        if won:
            draw.text((x + box_w - 12, y + 52), t(lang, "raubritter.board.winner"), font=font(MIN_TEXT),
                      fill=INK, anchor="ra")

    if legend:
        _draw_legend(draw, 12, HEIGHT - 54, lang)

    if private:
        y = HEIGHT - 100
        label = t(lang, "raubritter.board.your_hand")
        draw.text((12, y + 44), label, font=font(30), fill=INK, anchor="lm")
        tx = 24 + text_width(draw, label, 30)
        for tile in private["hand"]:
            size = 88
            _draw_tile(draw, tx, y, size, {"terrain": tile["terrain"], "building": tile["building"],
                                           "colour": view["colours"][view["viewer"]], "knights": []},
                       view["colours"], _letters(lang))
            chosen = private.get("keep_choice") == tile["code"]
            draw.rectangle((tx, y, tx + size, y + size), outline=HIGHLIGHT if chosen else INK, width=5 if chosen else 2)
            tx += size + 12


def _draw_legend(draw, x: int, y: int, lang: str) -> None:
    """Terrain colours with the knights a stack must leave there (lakes: no entry)."""
    label = t(lang, "raubritter.board.leave")
    draw.text((x, y + 20), label, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    lx = x + text_width(draw, label, MIN_TEXT) + 14
    for terrain, need in (("plain", "1"), ("forest", "2"), ("mountain", "3"), ("lake", "×")):
        draw.rectangle((lx, y, lx + 40, y + 40), fill=TERRAIN_FILL[terrain], outline=INK)
        draw.text((lx + 20, y + 20), need, font=font(MIN_TEXT + 1), fill=INK, anchor="mm")
        word = t(lang, f"raubritter.board.terrain_{terrain}")
        draw.text((lx + 48, y + 20), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
        lx += 48 + text_width(draw, word, MIN_TEXT) + 20


def _wrap(draw, text: str, size: int, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if line and text_width(draw, candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + ([line] if line else [])


def _fit(draw, text: str, size: int, width: int) -> str:
    """The text at this size, shortened at a word boundary if it must be (never inside a word)."""
    return fit(text, size, width, smallest=size)[0]
