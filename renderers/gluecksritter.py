"""Die Glücksritter board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image whose every text is at least `MIN_TEXT` (40 px, about
11 px where a phone's client shows the board 300 px wide). From the top: the title and round,
the sack and the document pile in words, the status (wrapped, never cut); the six fields in
three rows of two, each numbered like the card buttons with its name and a small drawing of
what it gives, and on its second line its prices in words (alone / shared), the dungeon with a
numbered disc per knight in it, or the coins on 5 and 6 with what this round's Ducat card added;
then one row per player, one line each: the seat number in a coloured disc, the name, silver and
gold coins "= Ducats", the castle (a wall and a tower, each with how many are built of the four
a castle needs, "3/4", filled in the seat's colour once one is built), the documents
held as a sealed parchment with the count, and their two cards, whether they have chosen, or at
the end who won. Below, on the public board the legend of the row's marks, the haggle or the
raid and the newest events, oldest first as in the turn message; on a seat's own image its secret
cards and its documents as sealed parchments with their names first (nothing is added when it
has neither, so the bot can leave the DM without an image).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from games.gluecksritter.data import (
    CASTLE_TOWERS,
    CASTLE_WALLS,
    DOCUMENT_PRICE,
    DOCUMENTS,
    TOWER_PRICE,
    WALL_PRICE,
    YELLOW,
)
from i18n import t, translate
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MARK_RADIUS,
    MARK_TEXT,
    MIN_TEXT,
    MUTED,
    SEAT_COLOURS,
    WHITE,
    Ink,
    NotComposable,
    PackedImages,
    PaletteDraw,
    PieceOnPlain,
    RowsPart,
    board_of_parts,
    composed_on_plain,
    fit,
    fixed_palette,
    font,
    ink_box,
    mark_text,
    note_text,
    palette_board,
    recording_texts,
    texts_recorded,
    to_palette,
    wrap,
)

WIDTH, HEIGHT = 1080, 1350
MARGIN = 16
SMALL = MIN_TEXT      # every text: 40 px
LINE = 48             # the pitch of lines of 40 px text (its boxes never touch)
DEPTH = 60            # from where a line of 40 px text is drawn to the lowest its glyphs reach, and a little more
PANEL = (236, 229, 214)
ACTIVE = (255, 247, 222)
FIELD_FILL = (226, 214, 190)
SILVER_FILL = (200, 204, 210)
GOLD_FILL = (232, 186, 60)
STONE = (150, 140, 128)
EMPTY_SLOT = (250, 246, 238)
DUNGEON = (90, 84, 80)
CARD_FILL = (252, 250, 244)
SEAL = (190, 40, 40)
SEAL_YELLOW = (226, 184, 30)
PARCHMENT = (244, 232, 200)
P = "gluecksritter."
COIN = MARK_RADIUS  # a coin's radius: its count's digits are MIN_MARK tall


def render(view: dict[str, Any], names: list[str], lang: str = "en") -> Image.Image:
    if hand_alone(view):
        return _hand_alone_image(view, lang)
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(view["seats"])]
    status = _status_lines(translate(view["status"], lang, seat_names))
    fields_top = _fields_top(len(status))
    table_top = fields_top + 3 * FIELD_H + 2 * FIELD_GAP + 10
    row_h = _row_height(view, lang, table_top)
    y = table_top + view["seats"] * row_h
    # The board from parts, each drawn and quantized only when it changed (`board_of_parts`): the
    # header (new at every move), the fields' three rows, the players' rows, then the strip.
    header_bottom = fields_top + HEADER_SPILL
    header = partial(_header_rows, view, status, lang, fields_top, header_bottom)
    parts = [RowsPart(0, header_bottom, None, header, partial(_in_palette, header_bottom, header))]
    parts += _field_parts(view, lang, fields_top, header_bottom)
    parts += _player_parts(view, seat_names, lang, table_top, row_h)
    parts.append(RowsPart(y, y + 4, ("gluecksritter.gap",), _nothing))
    parts += _bottom_parts(view, seat_names, lang, y + 4, HEIGHT)
    image = board_of_parts((WIDTH, HEIGHT), parts, _palette())
    # Below it the seat's documents and the events (private_rows); on the public board the
    # legend and the events, under the same board, so a move's public board and DM images share
    # its drawing.
    image.info["private_top"] = y + 4
    return image


def private_layout(view: dict[str, Any], lang: str) -> int:
    """What the board above a seat's documents depends on of that seat's view: the room they
    take (renderers.render_pngs draws the board once for seats alike in this); -1 for a seat's
    own things alone, with no board."""
    return -1 if hand_alone(view) else _bottom_room(view, lang)


def hand_alone(view: dict[str, Any]) -> bool:
    """Whether a seat's image is its own things alone (its documents): it decides nothing now,
    so its DM is not kept current with the table (bot.turns), and a board in it would go stale
    (who is still choosing, the coins, the castles). The board is the channel's."""
    return private_shown(view) and not (view.get("private") or {}).get("deciding", True)


def _hand_alone_image(view: dict[str, Any], lang: str) -> Image.Image:
    """The seat's documents alone, as they stand under the board on its image while it decides."""
    rows = max(1, _document_rows(view, lang))
    height = DOC_ROW * rows - 8 + 2 * MARGIN
    if not texts_recorded():  # straight in the palette, as `_in_palette` draws a part
        composed = _in_palette(height, lambda draw, y: _private(draw, view, view["private"], lang, y + MARGIN))
        if composed is not None:
            return composed
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    _private(ImageDraw.Draw(image), view, view["private"], lang, MARGIN)
    return to_palette(image, _palette())


def private_rows(view: dict[str, Any], names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (its documents and secret choice, the raid
    line, the events), as `render` draws them."""
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(view["seats"])]
    return board_of_parts((WIDTH, HEIGHT - top), _bottom_parts(view, seat_names, lang, 0, HEIGHT - top), _palette())


_BASES: dict[tuple[str, int], tuple[Image.Image, tuple[int, int], list[Any]]] = {}


def _base_for(lang: str, fields_top: int) -> tuple[Image.Image, tuple[int, int]]:
    """The static layer of `lang` with the fields at `fields_top`, drawn once: the box of it that
    is not plain background, and where that box stands; on later boards its texts are reported
    to the layout tests' recorder as if drawn again (`note_text`)."""
    kept = _BASES.get((lang, fields_top))
    if kept is None:
        with recording_texts() as texts:
            image = _base(lang, fields_top)
        box = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).getbbox() or (0, 0, 0, 0)
        if len(_BASES) > 8:
            _BASES.clear()
        kept = _BASES[(lang, fields_top)] = (image.crop(box), box[:2], list(texts))
        return kept[0], kept[1]
    base, at, texts = kept
    for record in texts:
        note_text(record.box, record.text, record.size)
    return base, at


def _base(lang: str, fields_top: int) -> Image.Image:
    """The parts that never change: the background and the six fields' frames, numbers, names,
    drawings, prices and the dungeon's word (drawn once per language and header height)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row in range(3):
        _base_row(draw, lang, fields_top, row)
    return image


def _base_row(draw: ImageDraw.ImageDraw, lang: str, fields_top: int, row: int) -> None:
    """The base's row `row` of two fields (0: fields 1 and 2), with the fields at `fields_top`."""
    prices = {1: DOCUMENT_PRICE, 2: WALL_PRICE, 3: TOWER_PRICE}
    for number in (2 * row + 1, 2 * row + 2):
        x, y, box_w, box_h = _field_box(number, fields_top)
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=14, fill=FIELD_FILL, outline=STONE, width=2)
        draw.ellipse((x + 8, y + 3, x + 66, y + 61), fill=INK)
        mark_text(draw, (x + 37, y + 32), str(number), WHITE)
        _text(draw, (x + 74, y + 32), t(lang, P + f"field.{number}"), SMALL, box_w - 74 - 80, anchor="lm")
        _picture(draw, number, x + box_w - 42, y + 32)
        if number in prices:
            alone, shared = prices[number]
            _text(draw, (x + 16, y + FIELD_LINE2), t(lang, P + "board.prices", alone=alone, shared=shared), SMALL,
                  box_w - 28, anchor="lm")
        elif number == 4:
            draw.text((x + 16, y + FIELD_LINE2), t(lang, P + "board.dungeon"), font=font(SMALL), fill=DUNGEON,
                      anchor="lm")


HEADER_STATUS = 116   # the status's first line (under the title and the facts)
FIELD_GAP = 8
FIELD_H = 116
FIELD_LINE2 = 86      # the middle of a field's second line, from its top
HEADER_SPILL = sum(font(SMALL).getmetrics()) - LINE - 8 + 2
"""How far the status's last line may reach into the fields' first row (its descenders): the
header, drawn anew at every move, takes these rows of the fields with it."""


def _fields_top(status_lines: int) -> int:
    """Where the fields start: under a status of two lines (three when it needs them), so the
    board keeps its place from turn to turn."""
    return HEADER_STATUS + max(2, status_lines) * LINE + 8


def _field_box(number: int, top: int) -> tuple[int, int, int, int]:
    cols = 2
    box_w = (WIDTH - 2 * MARGIN - (cols - 1) * FIELD_GAP) // cols
    index = number - 1
    x = MARGIN + (index % cols) * (box_w + FIELD_GAP)
    y = top + (index // cols) * (FIELD_H + FIELD_GAP)
    return x, y, box_w, FIELD_H


_PALETTE_EXACT = [BACKGROUND, INK, MUTED, HIGHLIGHT, WHITE, PANEL, ACTIVE, FIELD_FILL, SILVER_FILL, GOLD_FILL, STONE,
                  EMPTY_SLOT, DUNGEON, CARD_FILL, SEAL, SEAL_YELLOW, PARCHMENT, *SEAT_COLOURS]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return fixed_palette(*_PALETTE_EXACT)


# ----------------------------------------------------------------------------------------
# Helpers


@lru_cache(maxsize=8192)
def _length(text: str, size: int) -> float:
    """The width of `text` (remembered: a board measures the same words every turn)."""
    return font(size).getlength(text)


@lru_cache(maxsize=2048)
def _fitted(text: str, size: int, width: int) -> tuple[str, int]:
    return fit(text, size, width, SMALL)


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    return tuple(wrap(text, size, width))


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, width: float, fill: Ink = INK,
          anchor: str = "la") -> None:
    """`text` on one line within `width`: shrunk down to SMALL, then shortened at a word."""
    text, size = _fitted(text, size, int(width))
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)


def _on(colour: Sequence[int]) -> tuple[int, int, int]:
    r, g, b = colour[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def _marker(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, radius: int) -> None:
    """A seat's mark: its colour and its number (1..n), so colour is never the only clue."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=2)
    mark_text(draw, centre, str(seat + 1), _on(colour))


def _coin(draw: ImageDraw.ImageDraw, centre: tuple[float, float], count: int | None, gold: bool,
          radius: int = COIN) -> None:
    """A silver or gold coin with how many there are, at the marks' standard (none: the coin
    alone, for the legend); a count of two digits widens it to an oval that holds them."""
    x, y = centre
    half = max(radius, _coin_half(count))
    draw.ellipse((x - half, y - radius, x + half, y + radius), fill=GOLD_FILL if gold else SILVER_FILL,
                 outline=INK, width=2)
    if count is not None:
        mark_text(draw, centre, str(count), INK)



def _coin_half(count: int | None) -> int:
    """Half the width of a coin holding `count`: its digits' ink and a rim."""
    if count is None:
        return 0
    left, _, right, _ = ink_box(str(count), MARK_TEXT)
    return (right - left) // 2 + 9


# ----------------------------------------------------------------------------------------
# Parts


def _status_lines(status: str) -> list[str]:
    """The status in lines of 40 px: all of it, up to three lines (a longer one, only possible
    with six long names, ends its third line with an ellipsis)."""
    lines = list(_wrapped(status, SMALL, WIDTH - 2 * MARGIN))
    if len(lines) > 3:
        lines = lines[:2] + [_fitted(" ".join(lines[2:]), SMALL, WIDTH - 2 * MARGIN)[0]]
    return lines


def _header_rows(view: dict[str, Any], status: list[str], lang: str, fields_top: int, bottom: int,
                 draw: ImageDraw.ImageDraw, y: int) -> None:
    """The header as the board's first part (`y`, its top on `draw`'s image, is the board's top),
    down to `bottom`: with the base's first rows, which the status's last line may reach."""
    if isinstance(draw, PaletteDraw):
        draw._image.paste(_spill_in_palette(lang, fields_top, bottom), (0, fields_top + y))
    elif not texts_recorded():
        _paste_base(draw, lang, fields_top, fields_top, bottom, y)
    _header(draw, view, status, lang)


def _in_palette(rows: int, draw_rows: Callable[[ImageDraw.ImageDraw, int], object]) -> Image.Image | None:
    """A part of the board (`draw_rows`, `rows` tall) drawn straight in the palette (`PaletteDraw`):
    the pixels drawing it in RGB and quantizing gives, without filling and quantizing its pixels
    (the header, the events and a seat's documents are new at almost every move of a table).
    None where it cannot be drawn so exactly (then it is drawn in RGB)."""
    image, draw = palette_board((WIDTH, rows), _palette())
    try:
        draw_rows(draw, 0)
    except NotComposable:
        return None
    return image


@lru_cache(maxsize=8)
def _spill_in_palette(lang: str, fields_top: int, bottom: int) -> Image.Image:
    """The base's rows from `fields_top` to `bottom` (the fields' top edge, where the status's
    last line may reach) across the board, in the palette (a few KB). Only colours the palette
    holds exactly may stand there, so that the status is blended over them as in RGB; otherwise
    the header is drawn in RGB (`NotComposable`)."""
    rows = Image.new("RGB", (WIDTH, bottom - fields_top), BACKGROUND)
    base, (left, base_top) = _base_for(lang, fields_top)
    first, last = max(fields_top, base_top), min(bottom, base_top + base.height)
    if first < last:
        rows.paste(base.crop((0, first - base_top, base.width, last - base_top)), (left, first - fields_top))
    exact = {colour[:3] for colour in _PALETTE_EXACT}
    if any(colour not in exact for _, colour in rows.getcolors(WIDTH * rows.height) or [(0, (-1, -1, -1))]):
        raise NotComposable("the fields' edge in colours the palette does not hold exactly")
    return to_palette(rows, _palette())


def _nothing(draw: ImageDraw.ImageDraw, y: int) -> None:
    """Rows of plain background."""


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], status: list[str], lang: str) -> None:
    """Title and round; the sack and the document pile in words; the status."""
    title = t(lang, P + "board.title")
    draw.text((MARGIN, 36), title, font=font(48), fill=INK, anchor="lm")
    x = MARGIN + _length(title, 48) + 24
    draw.text((x, 36), t(lang, P + "board.round", round=view["round"]), font=font(SMALL), fill=MUTED, anchor="lm")
    sack = view["sack"]
    facts = t(lang, P + "board.sack", silver=sack[0], gold=sack[1]) + " · " + \
        t(lang, P + "board.pile_words", count=view["pile"])
    _text(draw, (MARGIN, 66), facts, SMALL, WIDTH - 2 * MARGIN, fill=MUTED)
    for k, line in enumerate(status):
        draw.text((MARGIN, HEADER_STATUS + k * LINE), line, font=font(SMALL), fill=INK)


def _picture(draw: ImageDraw.ImageDraw, number: int, cx: int, cy: int) -> None:
    """A small drawing of what a field gives, some 50 px: a sealed document, a wall, a tower,
    the dungeon's grate, a money chest (taxes) and a toll barrier (customs)."""
    if number == 1:
        _parchment(draw, cx, cy, 18, 24)
        for k in range(3):
            draw.line((cx - 10, cy - 12 + 8 * k, cx + 8, cy - 12 + 8 * k), fill=MUTED, width=2)
    elif number == 2:
        for row in range(3):
            off = 0 if row % 2 == 0 else 9
            for k in range(3):
                left = cx - 24 + off + k * 17
                if left + 15 <= cx + 27:
                    draw.rectangle((left, cy + 6 - row * 13, left + 15, cy + 17 - row * 13), fill=STONE, outline=INK)
    elif number == 3:
        _tower(draw, cx - 16, cy - 24, 32, 48, STONE)
        draw.rectangle((cx - 4, cy + 6, cx + 4, cy + 16), fill=INK)
    elif number == 4:
        draw.rectangle((cx - 22, cy - 22, cx + 22, cy + 22), fill=DUNGEON, outline=INK, width=2)
        for k in range(4):
            draw.line((cx - 14 + 9 * k, cy - 22, cx - 14 + 9 * k, cy + 22), fill=STONE, width=3)
    elif number == 5:
        draw.rounded_rectangle((cx - 24, cy - 6, cx + 24, cy + 22), radius=4, fill=(140, 90, 40), outline=INK, width=2)
        draw.chord((cx - 24, cy - 22, cx + 24, cy + 10), 180, 360, fill=(160, 106, 50), outline=INK)
        draw.rectangle((cx - 5, cy - 2, cx + 5, cy + 8), fill=GOLD_FILL, outline=INK)
    elif number == 6:
        draw.rectangle((cx - 24, cy - 2, cx - 17, cy + 24), fill=STONE, outline=INK)
        draw.polygon([(cx - 21, cy - 5), (cx + 26, cy - 15), (cx + 26, cy - 7), (cx - 21, cy + 3)], fill=WHITE,
                     outline=INK)
        for k in range(3):
            draw.line((cx - 9 + 13 * k, cy - 5 - 2 * k, cx - 4 + 13 * k, cy - 6 - 2 * k), fill=SEAL, width=5)


def _parchment(draw: ImageDraw.ImageDraw, cx: float, cy: float, half_w: int, half_h: int, seal: Ink = SEAL) -> None:
    """A document: a parchment with its seal at the lower right corner, off its middle (where a
    count stands)."""
    draw.rounded_rectangle((cx - half_w, cy - half_h, cx + half_w, cy + half_h), radius=4, fill=PARCHMENT,
                           outline=INK, width=2)
    r = max(7, half_w * 2 // 5)
    draw.ellipse((cx + half_w - r, cy + half_h - r, cx + half_w + r, cy + half_h + r), fill=seal, outline=INK)


def _wall(draw: ImageDraw.ImageDraw, left: float, top: float, width: int, height: int, fill: Ink) -> None:
    """A wall piece: a block with a crenellated top (built or not is told by its fill)."""
    merlon = max(6, height // 6)
    draw.rectangle((left, top + merlon, left + width, top + height), fill=fill, outline=INK, width=2)
    step = width / 5
    for k in (0, 2, 4):
        draw.rectangle((left + k * step, top, left + (k + 1) * step, top + merlon), fill=fill, outline=INK)


def _tower(draw: ImageDraw.ImageDraw, left: float, top: float, width: int, height: int, fill: Ink) -> None:
    """A tower piece: a body under a pointed roof."""
    roof = height * 7 // 20
    inset = max(2, width // 7)  # a slender body under a roof as wide as the piece: a tower, not a house
    draw.rectangle((left + inset, top + roof, left + width - inset, top + height), fill=fill, outline=INK, width=2)
    draw.polygon([(left, top + roof + 1), (left + width / 2, top), (left + width, top + roof + 1)], fill=fill,
                 outline=INK)


FIELD_ROW = FIELD_H + FIELD_GAP


def _field_parts(view: dict[str, Any], lang: str, fields_top: int, top: int) -> list[RowsPart]:
    """The fields' three rows as parts of the board from row `top` (each with the gap under it,
    the last with the room above the players): the first the same on every board of a language
    and header height; the second and the third, drawn anew, with the knights in the dungeon and
    the coins on fields 5 and 6 and what this round's Ducat card added to them."""
    # The dungeon and the coins belong to a table (the coins change about every other move): kept,
    # they would take the room of the players' rows in `KEPT_PARTS` (some 130 KB each, found again
    # less often than a row).
    keys = [("gluecksritter.fields", lang), None, None]
    bottoms = [fields_top + FIELD_ROW, fields_top + 2 * FIELD_ROW, fields_top + 3 * FIELD_H + 2 * FIELD_GAP + 10]
    tops = [top, *bottoms[:2]]
    rows = [partial(_field_row, view, lang, fields_top, row, top, bottom) for row, (top, bottom) in
            enumerate(zip(tops, bottoms))]
    return [RowsPart(top, bottom, key, draw_rows, partial(_in_palette, bottom - top, draw_rows))
            for top, bottom, key, draw_rows in zip(tops, bottoms, keys, rows)]


def _field_row(view: dict[str, Any], lang: str, fields_top: int, row: int, top: int, bottom: int,
               draw: ImageDraw.ImageDraw, at_y: int) -> None:
    """The fields' row `row` (rows `top` to `bottom` of the board) drawn with its top at row
    `at_y` of `draw`'s image: its rows of the base, then what changes on it."""
    shift = at_y - top  # from the board's rows to the image's
    if isinstance(draw, PaletteDraw):
        rows = _base_rows_in_palette(lang, fields_top, top, bottom)
        draw._image.im.paste(rows.im, (0, at_y, WIDTH, at_y + rows.height))
    elif texts_recorded():  # its texts recorded where they stand
        _base_row(draw, lang, fields_top + shift, row)
    else:
        _paste_base(draw, lang, fields_top, top, bottom, shift)
    if row == 1:
        _dungeon(draw, view, lang, fields_top + shift)
    elif row == 2:
        _field_coins(draw, view, lang, fields_top + shift)


FIELD_ROWS = PackedImages(2**18, "gluecksritter.FIELD_ROWS")
"""The base's rows of each row of fields in the palette, packed (some 10 KB each, 256 KiB): the
same on every board of a language and header height, under the dungeon and the coins, which are
drawn anew at every move straight in the palette (`_field_row` on a `PaletteDraw`); a row
unpacked costs a tenth of one filled, pasted and quantized."""


def _base_rows_in_palette(lang: str, fields_top: int, top: int, bottom: int) -> Image.Image:
    """The base's rows `top` to `bottom` across the board (with the fields at `fields_top`), in
    the palette (its indices only: pasted into a board's core)."""
    key = (lang, fields_top, top, bottom)
    found = FIELD_ROWS.unpacked(key)
    if found is None:
        rows = Image.new("RGB", (WIDTH, bottom - top), BACKGROUND)
        _paste_base(ImageDraw.Draw(rows), lang, fields_top, top, bottom, -top)
        found = FIELD_ROWS.pack(key, to_palette(rows, _palette()))
    return found


def _paste_base(draw: ImageDraw.ImageDraw, lang: str, fields_top: int, top: int, bottom: int, shift: int) -> None:
    """The base's rows `top` to `bottom` (of the board with the fields at `fields_top`), pasted
    `shift` rows lower on `draw`'s image."""
    base, (left, base_top) = _base_for(lang, fields_top)
    first, last = max(top, base_top), min(bottom, base_top + base.height)
    if first < last:
        draw._image.paste(base.crop((0, first - base_top, base.width, last - base_top)), (left, first + shift))


def _dungeon(draw: ImageDraw.ImageDraw, view: dict[str, Any], lang: str, top: int) -> None:
    """The knights in the dungeon (field 4), the fields at `top`."""
    x, y, box_w, _ = _field_box(4, top)
    jailed = [s for s, p in enumerate(view["players"]) if p["dungeon"]]
    left = x + 16 + _length(t(lang, P + "board.dungeon"), SMALL) + 14
    for k, seat in enumerate(jailed):
        _marker(draw, (left + 30 + k * 64, y + FIELD_LINE2), seat, MARK_RADIUS - 1)


def _field_coins(draw: ImageDraw.ImageDraw, view: dict[str, Any], lang: str, top: int) -> None:
    """The coins on fields 5 and 6 and what this round's Ducat card added to them, the fields at
    `top`."""
    for number in (5, 6):
        x, y, box_w, _ = _field_box(number, top)
        silver, gold = view["fields"][str(number)]
        silver_x = x + 16 + max(COIN, _coin_half(silver))
        gold_x = silver_x + max(COIN, _coin_half(silver)) + 6 + max(COIN, _coin_half(gold))
        _coin(draw, (silver_x, y + FIELD_LINE2), silver, False)
        _coin(draw, (gold_x, y + FIELD_LINE2), gold, True)
        if view.get("ducat_card"):
            added = view["ducat_card"][number - 5]
            words_x = gold_x + max(COIN, _coin_half(gold)) + 10
            _text(draw, (words_x, y + FIELD_LINE2), t(lang, P + "board.card_added", count=added), SMALL,
                  x + box_w - 12 - words_x, fill=MUTED, anchor="lm")


# The player rows' columns (x on the image): the seat's disc, the name, the coins and their
# worth, the castle, the documents and the cards (or whether chosen, or the winner).
SEAT_X = 52
NAME_X, NAME_W = 88, 222
SILVER_X, GOLD_X, DUCATS_X = 352, 432, 474  # a coin's slot holds a two-digit count's oval
CASTLE_X = 560       # a wall, its count, a tower, its count: pieces and digits MIN_MARK tall or more
WALL_W, TOWER_W, PIECE_H = 42, 44, 52
COUNT_GAP, CASTLE_GAP = 3, 8  # from a piece to its count; from the walls' count to the tower
_COUNT_W = max(ink_box(str(n), MARK_TEXT)[2] - ink_box(str(n), MARK_TEXT)[0] for n in range(CASTLE_WALLS + 1))
DOCUMENTS_X = 838
CARDS_X = 882
ROW_MIN, ROW_MAX = 76, 110


def _row_height(view: dict[str, Any], lang: str, top: int) -> int:
    room = HEIGHT - top - _bottom_room(view, lang) - 12
    seats: int = view["seats"]
    return max(ROW_MIN, min(ROW_MAX, room // seats))


def _player_parts(view: dict[str, Any], names: list[str], lang: str, top: int, row_h: int) -> list[RowsPart]:
    """The players' rows from `top`, each a part of the board."""
    acting = set(view["to_act"])
    winners = set(view.get("winners") or [])
    parts = []
    for seat, p in enumerate(view["players"]):
        y = top + seat * row_h
        # A player's row depends on its own part of the view alone: kept for the moves that leave it be.
        key = ("gluecksritter.row", repr(p), names[seat], lang, row_h, seat in acting, seat in winners, view["phase"])
        arguments = (view, p, seat, names[seat], lang, row_h, seat in acting, seat in winners)
        parts.append(RowsPart(y, y + row_h, key, partial(_player_row, *arguments),
                              partial(_composed_player, *arguments)))
    return parts


def _player_row(view: dict[str, Any], p: dict[str, Any], seat: int, name: str, lang: str, row_h: int, acting: bool,
                winner: bool, draw: ImageDraw.ImageDraw, y: int) -> None:
    _player(draw, view, p, seat, name, lang, y, row_h, acting, winner)


def _player(draw: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any], seat: int, name: str, lang: str,
            y: int, row_h: int, acting: bool, winner: bool) -> None:
    """A player's row from its top at `y` (of the view it reads the phase alone)."""
    _player_frame(draw, y, row_h, acting, winner)
    for item in _player_items(view, p, seat, name, lang, row_h, winner):
        item.draw(draw, item.at[0], item.at[1] + y)


def _player_frame(draw: ImageDraw.ImageDraw, y: int, row_h: int, acting: bool, winner: bool,
                  in_palette: bool = False) -> None:
    """A player's row's rounded box (in the palette's indices of its colours, on a palette image)."""
    fill = ACTIVE if acting else PANEL
    outline = HIGHLIGHT if acting or winner else STONE
    inks: tuple[int | Ink, int | Ink] = (_index(fill), _index(outline)) if in_palette else (fill, outline)
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 6), radius=14, fill=inks[0], outline=inks[1],
                           width=4 if acting or winner else 2)


def _player_items(view: dict[str, Any], p: dict[str, Any], seat: int, name: str, lang: str, row_h: int,
                  winner: bool) -> list[PieceOnPlain]:
    """The things in a player's row in the order they are drawn, each at its place from the row's
    top: the seat's disc, the name, the coins, the Ducats, the castle, the documents and the cards."""
    mid = (row_h - 6) // 2
    silver, gold, ducats = p["silver"], p["gold"], f"= {p['ducats']}"
    walls, towers, documents = p["walls"], p["towers"], str(p["documents"])
    cards, chosen = tuple(p["cards"] or ()), p.get("chosen")
    choosing = view["phase"] == "choose"
    return [
        PieceOnPlain(("marker", seat), (SEAT_X, mid), (-34, -34, 34, 34),
                     lambda draw, x, y: _marker(draw, (x, y), seat, MARK_RADIUS - 1)),
        PieceOnPlain(("name", name), (NAME_X, mid), (-4, -40, NAME_W + 4, 40),
                     lambda draw, x, y: _text(draw, (x, y), name, SMALL, NAME_W, anchor="lm")),
        PieceOnPlain(("coin", silver, False), (SILVER_X, mid), (-60, -34, 60, 34),
                     lambda draw, x, y: _coin(draw, (x, y), silver, False)),
        PieceOnPlain(("coin", gold, True), (GOLD_X, mid), (-60, -34, 60, 34),
                     lambda draw, x, y: _coin(draw, (x, y), gold, True)),
        PieceOnPlain(("text", ducats), (DUCATS_X, mid), (-4, -40, 90, 40),
                     lambda draw, x, y: draw.text((x, y), ducats, font=font(SMALL), fill=INK, anchor="lm")),
        PieceOnPlain(("castle", walls, towers, seat), (CASTLE_X, mid), (-4, -40, 270, 40),
                     lambda draw, x, y: _castle(draw, x, y, walls, towers, seat)),
        PieceOnPlain(("documents", documents), (DOCUMENTS_X, mid), (-30, -36, 36, 36),
                     lambda draw, x, y: _documents(draw, x, y, documents)),
        PieceOnPlain(("choice", winner, cards, choosing, chosen, lang), (CARDS_X, mid), (-4, -36, 190, 36),
                     lambda draw, x, y: _choice(draw, view, p, seat, y, lang, winner, x)),
    ]


def _documents(draw: ImageDraw.ImageDraw, x: float, mid: float, documents: str) -> None:
    """The parchment with how many documents a player holds."""
    _parchment(draw, x, mid, 26, 32)
    mark_text(draw, (x - 3, mid - 3), documents, INK)


def _composed_player(view: dict[str, Any], p: dict[str, Any], seat: int, name: str, lang: str, row_h: int,
                     acting: bool, winner: bool) -> Image.Image | None:
    """A player's row (`_player_row`) put together in the palette: its box painted in it, each
    thing in it pasted as the pixels it changes on the row's plain fill (the same discs, coins,
    castles and cards at every table: `renderers.common.composed_on_plain`)."""
    return composed_on_plain((WIDTH, row_h), _palette(), _index,
                             lambda image: _player_frame(ImageDraw.Draw(image), 0, row_h, acting, winner, True),
                             ACTIVE if acting else PANEL, _player_items(view, p, seat, name, lang, row_h, winner),
                             "gluecksritter.row")


@lru_cache(maxsize=16)
def _index(colour: Ink) -> int:
    """The palette index quantizing gives `colour`."""
    index: int = to_palette(Image.new("RGB", (1, 1), colour), _palette()).getpixel((0, 0))  # type: ignore[assignment]
    return index


def _castle(draw: ImageDraw.ImageDraw, x: float, mid: float, walls: int, towers: int, seat: int) -> None:
    """A wall and a tower, each followed by how many the seat has built of the four of each that
    complete the castle ("3/4"): the count a digit at the marks' standard, the piece filled in the
    seat's colour once one is built (the row's disc carries the seat number), empty before."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    top = mid - PIECE_H // 2
    _wall(draw, x, top, WALL_W, PIECE_H, colour if walls else EMPTY_SLOT)
    tower_x = _castle_count(draw, x + WALL_W + COUNT_GAP, mid, walls, CASTLE_WALLS) + CASTLE_GAP
    _tower(draw, tower_x, top, TOWER_W, PIECE_H, colour if towers else EMPTY_SLOT)
    _castle_count(draw, tower_x + TOWER_W + COUNT_GAP, mid, towers, CASTLE_TOWERS)


def _castle_count(draw: ImageDraw.ImageDraw, left: float, mid: float, built: int, needed: int) -> float:
    """"3/4" from `left`: the pieces built as a mark, of how many are needed in muted words; where
    it ends (the same for every count, so the rows' castles line up)."""
    _, ink_top, _, ink_bottom = ink_box(str(built), MARK_TEXT)
    mark_text(draw, (left + _COUNT_W / 2, mid), str(built), INK)
    baseline = mid - (ink_top + ink_bottom) / 2  # the digit's: "/4" stands on the same line
    left += _COUNT_W + 2
    of = f"/{needed}"
    draw.text((left, baseline), of, font=font(SMALL), fill=MUTED, anchor="ls")
    return left + _length(of, SMALL)


def _choice(draw: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any], seat: int, mid: float, lang: str,
            winner: bool, x: float = CARDS_X) -> None:
    """The two cards once revealed; while choosing, whether the player has chosen; at the end,
    the winners in words (the others' last cards, if revealed); from `x` (CARDS_X on the row)."""
    if winner:
        _text(draw, (x, mid), t(lang, P + "board.winner"), SMALL, WIDTH - MARGIN - 8 - CARDS_X, anchor="lm")
    elif p["cards"]:
        for k, card in enumerate(p["cards"]):
            left = x + k * 88
            draw.rounded_rectangle((left, mid - 32, left + 78, mid + 32), radius=10, fill=CARD_FILL, outline=INK,
                                   width=3)
            mark_text(draw, (left + 39, mid), str(card), INK)
    elif view["phase"] == "choose":
        word = t(lang, P + ("board.chosen" if p["chosen"] else "board.choosing"))
        _text(draw, (x, mid), word, SMALL, WIDTH - MARGIN - 8 - CARDS_X, fill=INK if p["chosen"] else MUTED,
              anchor="lm")


def private_shown(view: dict[str, Any]) -> bool:
    """Whether a seat's image draws anything the public board does not (its documents or its
    secret cards): without it the seat's image is the public board, and a DM needs no image."""
    private = view.get("private")
    return private is not None and bool(private["hand"] or _own_choice(view))


SizedDocument = tuple[str, list[str], int]
"""A document card to place: its code ("more": the count of those left out), its lines, its width."""
DocumentCard = tuple[str, tuple[int, int, int, int], list[str]]
"""A placed document card: its code, its box relative to the row's top, its lines."""

DOC_H = 108         # a document card: two lines of 40 px
DOC_ROW = DOC_H + 8
LEGEND_H = 60


def _raid_lines(view: dict[str, Any]) -> int:
    """How many lines the haggle (two) or the raid (one) takes under the players."""
    if view.get("haggle"):
        return 2
    return 1 if _raid(view) else 0


def _raid(view: dict[str, Any]) -> tuple[dict[str, Any], bool] | None:
    """The raid to show: this round's, or while choosing the last round's (then True)."""
    if view.get("raid"):
        return view["raid"], False
    previous = view.get("previous")
    if view["phase"] == "choose" and previous and previous["raid"]:
        return previous["raid"], True
    return None


def _bottom_room(view: dict[str, Any], lang: str) -> int:
    """The room under the players. The public board needs the haggle or raid lines, the legend
    and two lines of events (the newest, whole); a seat's image its documents (every image keeps
    room for one row of them, so a seat's image and the public board are the same board above
    it; only a seat whose documents take more rows gets a tighter board) and, where they fit, the
    same lines."""
    rows = 1
    if private_shown(view):
        rows = max(1, _document_rows(view, lang))
    lines = _raid_lines(view) * LINE
    return max(lines + LEGEND_H + 2 * LINE, rows * DOC_ROW + lines) + 8


def _own_choice(view: dict[str, Any]) -> list[Any]:
    private = view.get("private") or {}
    cards = (private.get("choice") or {}).get("cards") or []
    viewer = view.get("viewer")
    if cards and viewer is not None and not view["players"][viewer]["cards"]:
        return list(cards)
    return []


def _bottom_parts(view: dict[str, Any], names: list[str], lang: str, top: int, height: int) -> list[RowsPart]:
    """From `top` down to `height`, as parts of a board: on a seat's own image its secret choice
    and documents first (they always fit: the rows above made room); on the public board the
    legend. Then the haggle or raid lines where they fit, and the newest events that fit whole
    (`_events`, new at every move)."""
    if private_shown(view):
        # A seat's documents and secret cards change far less often than the board above them
        # and the events below: kept for the moves that leave them be (to the row under the
        # last card, where nothing else is drawn).
        end = top + DOC_ROW * max(1, _document_rows(view, lang)) - 8
        key = ("gluecksritter.private", repr(view["private"]), tuple(_own_choice(view)), lang, view["seats"])
        private = partial(_private_rows, view, lang)
        kept = RowsPart(top, end + 2, key, private, partial(_in_palette, end + 2 - top, private))
        events_top = end + 4
    else:  # the same on every public board in a language
        kept = RowsPart(top, top + LEGEND_H, ("gluecksritter.legend", lang), partial(_legend_rows, lang))
        events_top = top + LEGEND_H
    arguments = (view, names, lang, events_top - kept.bottom, height - kept.bottom)
    events = RowsPart(kept.bottom, height, None, partial(_events, *arguments), partial(_composed_events, *arguments))
    return [kept, events]


def _private_rows(view: dict[str, Any], lang: str, draw: ImageDraw.ImageDraw, y: int) -> None:
    _private(draw, view, view["private"], lang, y)


def _legend_rows(lang: str, draw: ImageDraw.ImageDraw, y: int) -> None:
    _legend(draw, y, lang)


def _events(view: dict[str, Any], names: list[str], lang: str, top: int, height: int, draw: ImageDraw.ImageDraw,
            at_y: int) -> None:
    """The haggle or raid lines where they fit, then the newest events that fit whole, oldest
    first (the order of the turn message), from row `top` to `height` below the row `at_y`."""
    _draw_lines(draw, _event_lines(view, names, lang, top, height), at_y)


EventLine = tuple[int, str, Ink]
"""A line under the board: the row it is drawn from, its words, its ink."""


def _event_lines(view: dict[str, Any], names: list[str], lang: str, top: int, height: int) -> tuple[EventLine, ...]:
    """The lines `_events` draws, from row `top` down to `height`."""
    width = WIDTH - 2 * MARGIN
    y = top
    lines = []
    haggle, shown_raid = view.get("haggle"), _raid(view)
    if haggle:
        a, b = haggle["knights"]
        lines.append(t(lang, P + "board.haggle_between", first=names[a], second=names[b]))
        offers = ", ".join(f"{names[s]} {n}" for s, n in haggle["offers"]) or t(lang, P + "board.no_offer")
        lines.append(t(lang, P + "board.offers", offers=offers))
    elif shown_raid:
        raid, previous = shown_raid
        die = {"sack": "board.die_sack", "castle": "board.die_castle", None: "board.die_alibi"}[raid["die"]]
        said = "board.raid_previous" if previous else "board.raid"
        lines.append(f"{t(lang, P + said, thief=names[raid['thief']], victim=names[raid['victim']])} · "
                     f"{t(lang, P + die)}")
    lines = [line for text in lines for line in _wrapped(text, SMALL, width)]  # long names: more lines, never cut
    placed: list[EventLine] = []
    if y + LINE * len(lines) + DEPTH - LINE <= height:
        for line in lines:
            placed.append((y, line, INK))
            y += LINE
    shown: list[tuple[str, ...]] = []
    for entry in reversed(view.get("log") or []):  # the newest that fit whole ...
        wrapped = _wrapped(translate(entry, lang, names), SMALL, width)
        if y + LINE * (len(wrapped) + sum(len(lines) for lines in shown)) + DEPTH - LINE > height:
            break
        shown.append(wrapped)
    for wrapped in reversed(shown):  # ... oldest first, as the turn message tells them
        for line in wrapped:
            placed.append((y, line, MUTED))
            y += LINE
    return tuple(placed)


_LAST_EVENTS: list[tuple[tuple[tuple[EventLine, ...], int], Image.Image | None]] = []
"""The events' rows last composed (at most one, some 250 KB), by their lines and height: the
public board and the seats' strips of a move show the same lines, mostly at the same rows."""


def _composed_events(view: dict[str, Any], names: list[str], lang: str, top: int, height: int) -> Image.Image | None:
    """The events' rows (`_events`) straight in the palette (`_in_palette`), shared by the images
    of a move whose lines stand alike (the composed rows are only ever pasted, never drawn on)."""
    lines = _event_lines(view, names, lang, top, height)
    key = (lines, height)
    last = _LAST_EVENTS[:1]  # one read: boards are drawn in worker threads
    if last and last[0][0] == key:
        return last[0][1]
    composed = _in_palette(height, lambda draw, at_y: _draw_lines(draw, lines, at_y))
    _LAST_EVENTS[:] = [(key, composed)]
    return composed


def _draw_lines(draw: ImageDraw.ImageDraw, lines: tuple[EventLine, ...], at_y: int) -> None:
    for y, line, fill in lines:
        draw.text((MARGIN, at_y + y), line, font=font(SMALL), fill=fill)


def _legend(draw: ImageDraw.ImageDraw, y: int, lang: str) -> None:
    """What the row's marks mean, on one line: the coins and their worth in Ducats, a wall, a
    tower, a document."""
    items = [("coins", t(lang, P + "board.legend_ducats")), ("wall", t(lang, P + "board.legend_wall")),
             ("tower", t(lang, P + "board.legend_tower")), ("document", t(lang, P + "board.legend_documents"))]
    marks = {"coins": 92, "wall": WALL_W, "tower": TOWER_W, "document": 36}
    gap = 36
    total = sum(marks[kind] + 10 + _length(words, SMALL) for kind, words in items) + gap * (len(items) - 1)
    x: float = MARGIN + max(0, (WIDTH - 2 * MARGIN - total) // 2)
    mid = y + LEGEND_H // 2
    for kind, words in items:
        if kind == "coins":
            _coin(draw, (x + 22, mid), None, False, 22)
            _coin(draw, (x + 70, mid), None, True, 22)
        elif kind == "wall":
            _wall(draw, x, mid - PIECE_H // 2, WALL_W, PIECE_H, STONE)
        elif kind == "tower":
            _tower(draw, x, mid - PIECE_H // 2, TOWER_W, PIECE_H, STONE)
        else:
            _parchment(draw, x + 16, mid - 2, 16, 20)
        x += marks[kind] + 10
        draw.text((x, mid), words, font=font(SMALL), fill=INK, anchor="lm")
        x += _length(words, SMALL) + gap


def _private(draw: ImageDraw.ImageDraw, view: dict[str, Any], private: dict[str, Any], lang: str, y: int) -> int:
    """The viewer's own documents as sealed parchments with their names (and "armed" for a
    yellow one set to fire), after their secret choice of cards (a seat's own image only;
    nothing is drawn when both are empty)."""
    x: float = MARGIN
    cards = _own_choice(view)
    if cards:
        label = t(lang, P + "board.your_cards")
        draw.text((x, y + DOC_H // 2), label, font=font(SMALL), fill=INK, anchor="lm")
        x += _length(label, SMALL) + 12
        for card in cards:
            draw.rounded_rectangle((x, y + 14, x + 68, y + DOC_H - 14), radius=8, fill=CARD_FILL, outline=INK, width=3)
            mark_text(draw, (x + 34, y + DOC_H // 2), str(card), INK)
            x += 78
    rows = 0
    for code, (left, top, right, bottom), lines in _document_cards(view, lang):
        rows = max(rows, top // DOC_ROW + 1)
        top, bottom = y + top, y + bottom
        yellow = DOCUMENTS.get(code, ("red", 1))[0] == YELLOW
        draw.rounded_rectangle((left, top, right, bottom), radius=8, fill=PARCHMENT, outline=INK, width=2)
        seal_y = (top + bottom) // 2
        if code in DOCUMENTS:  # not on the card that counts the documents left out
            draw.ellipse((left + 12, seal_y - 13, left + 38, seal_y + 13), fill=SEAL_YELLOW if yellow else SEAL,
                         outline=INK)
        first = (top + bottom) // 2 - (len(lines) - 1) * 23
        for k, line in enumerate(lines):
            draw.text((left + (50 if code in DOCUMENTS else 14), first + k * 46), line, font=font(SMALL), fill=INK,
                      anchor="lm")
    return y + DOC_ROW * max(1, rows) - 8


def _own_cards_width(view: dict[str, Any], lang: str) -> int:
    """The room the viewer's secret cards take before their documents."""
    if not _own_choice(view):
        return 0
    return int(_length(t(lang, P + "board.your_cards"), SMALL) + 12 + 78 * len(_own_choice(view)) + 10)


def _document_rows(view: dict[str, Any], lang: str) -> int:
    cards = _document_cards(view, lang)
    return max([top // DOC_ROW + 1 for _, (_, top, _, _), _ in cards] or [1 if _own_choice(view) else 0])


def _most_document_rows(seats: int) -> int:
    """How many rows of documents fit under the players' rows at their lowest, with a status of
    three lines (two for six players)."""
    table_top = _fields_top(3) + 3 * FIELD_H + 2 * FIELD_GAP + 10
    return max(1, (HEIGHT - table_top - seats * ROW_MIN - 12) // DOC_ROW)


def _document_cards(view: dict[str, Any], lang: str) -> list[DocumentCard]:
    """Where each of the viewer's documents goes: (code, box relative to the row's top, lines):
    a seal at the left, then the name on one or two lines (a word is never split) and "armed"
    for a yellow document set to fire. Each card goes into the first row with room for it (the
    first row starts after the secret cards); documents beyond the rows that fit are counted on
    a last card, "+2 more" (the DM's text names them all)."""
    private = view["private"]
    armed = private.get("armed") or {}
    sized: list[SizedDocument] = []
    for code in dict.fromkeys(private["hand"]):
        name = t(lang, P + f"doc.{code}")
        copies = private["hand"].count(code)
        if copies > 1:
            name = f"{copies}× {name}"
        longest = max(_length(word, SMALL) for word in name.split())
        lines = list(_wrapped(name, SMALL, max(250, math.ceil(longest))))
        if armed.get(code):  # an armed Gift or Alibi, a Veto with its target: "armed" under the name
            lines = [" ".join(lines), t(lang, P + "board.armed")]
        sized.append((code, lines, int(max(_length(line, SMALL) for line in lines)) + 64))
    most, first_left = _most_document_rows(view["seats"]), MARGIN + _own_cards_width(view, lang)
    placed = _first_fit(sized, most, first_left)
    kept = len(sized)
    while placed is None:
        kept -= 1
        more = [t(lang, P + "board.more_documents", count=len(sized) - kept)]
        placed = _first_fit(sized[:kept] + [("more", more, int(_length(more[0], SMALL)) + 28)], most, first_left)
    return placed


def _first_fit(sized: list[SizedDocument], rows: int, first_left: int) -> list[DocumentCard] | None:
    """The cards' boxes, each in the first of `rows` rows with room for it (None if one has no
    room)."""
    ends = [first_left] + [MARGIN] * (rows - 1)
    placed: list[DocumentCard] = []
    for code, lines, width in sized:
        row = next((r for r, end in enumerate(ends) if end + width <= WIDTH - MARGIN), None)
        if row is None:
            return None
        left, top = ends[row], row * DOC_ROW
        placed.append((code, (left, top, left + width, top + DOC_H), lines))
        ends[row] = left + width + 10
    return placed
