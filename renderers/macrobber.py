"""Mac Robber board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image whose every text is at least `MIN_TEXT` (a phone shows
the board about 300 px wide), and every letter or number in a piece (a cube's letter, a
courtyard's count, a clan's plate, a raid card's value) and every estate picture stands
`MIN_MARK` tall (41 px, 11 px on the phone). One set of marks throughout: an action cube is drawn
in its colour with the initial of the colour's word as the moves' buttons say it ("Y" for yellow,
"Ge" for Gelb), in the display, in the courtyards and in the legend alike; the legend names each
colour with the buttons' words and what its cube is in a courtyard and on an estate.

From the top: the status line; the round, the cubes in the bag, the estates left (and the
numbers removed estates showed); the display (once the actions are over, the cubes drawn and what
they were used for); the score track, whose red part says that the game can end there, with a
numbered disc per clan; the points of the last round's scoring per clan; one panel per clan (seat
number disc, the Biggest Following flag, name, courtyard cubes with their counts, cards held,
score; six estate places drawn as meadows with cattle, castle or monastery, and in words the start
player and who must act now or has won); the raid of this turn round by round (or, labelled, the
previous turn's with its outcome); at the bottom a band with the legend, or on a seat's own image
its raid cards, large. A seat's image while it decides nothing from its hand is its raid cards
alone (`hand_alone`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MARK_TEXT,
    MIN_TEXT,
    MUTED,
    PLATE,
    SEAT_COLOURS,
    WHITE,
    Ink,
    PieceOnPlain,
    RowsPart,
    board_of_parts,
    composed_on_plain,
    fit,
    fixed_palette,
    font,
    ink_box,
    keep_drawn,
    marks,
    note_text,
    seat_names,
    seat_plate,
    texts_recorded,
    to_palette,
    unrecorded,
    wrap,
)

View = dict[str, Any]
"""A public or a seat's view of a game, as `games.macrobber` gives it."""

WIDTH, HEIGHT = 1080, 1350
MARGIN = 18
SMALL = MIN_TEXT      # the smallest text (and most texts): 40 px
LINE = 46             # one line of SMALL text
PANEL = (236, 229, 214)
ACTIVE = (255, 244, 205)
SLOT = (214, 206, 190)
RED_ZONE = (226, 120, 110)
MEADOW = (178, 212, 134)
MEADOW_DARK = (120, 160, 82)
STONE = (150, 140, 128)
FLAG = (150, 40, 30)
CARD = (250, 250, 246)
CUBE = {"y": (236, 196, 40), "b": (52, 104, 204), "g": (58, 150, 72), "r": (196, 48, 40)}
COLOURS = ("y", "b", "g", "r")
ACTIONS = ("warrior", "piper", "monks", "cattle", "castle", "monastery", "bard", "estate")
ESTATE_ART = ("castle", "monastery", "cattle")  # the estate pictures, under blue, green and red
P = "macrobber."
TRACK_MAX = 50

LEGEND_ROWS = 4  # colours, courtyard, estate, Biggest Following
BAND = LEGEND_ROWS * LINE + 16
"""The band at the bottom: the legend on the public board, a seat's raid cards on its own image."""
PRIVATE_TOP = HEIGHT - MARGIN - BAND
COURTYARD_X = 300  # a clan's courtyard starts here on its panel's top line (the name before it)
ESTATE_STEP = 88   # six estate places of 82 px: "free" keeps its 40 px


HAND_ALONE_HEIGHT = BAND + 2 * MARGIN
"""A seat's image while it decides nothing from its hand: its cards alone (`hand_alone`)."""


def render(view: View, names: list[str], lang: str = "en") -> Image.Image:
    if hand_alone(view):
        # Drawn while the layout tests record the texts drawn (a composed image pastes them).
        composed = None if texts_recorded() else _composed_hand(view["private"], lang, HAND_ALONE_HEIGHT, MARGIN)
        if composed is not None:
            return composed
        image = Image.new("RGB", (WIDTH, HAND_ALONE_HEIGHT), BACKGROUND)
        _hand(_Canvas(image), view["private"], lang, MARGIN)
        return to_palette(image, _palette())
    who = seat_names(names, view["seats"])
    # The board from parts, each drawn and quantized only when it changed (`board_of_parts`): the
    # status and the display (new at almost every move), the track, the last scoring, the clans'
    # panels, the raid, and the band at the bottom.
    header = Image.new("RGB", (WIDTH, TOP_ROOM), BACKGROUND)
    y = _display(_Canvas(header), view, who, lang, _header(_Canvas(header), view, who, lang))
    if y > TOP_ROOM:  # never so far: drawn again on an image tall enough
        header = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
        y = _display(_Canvas(header), view, who, lang, _header(_Canvas(header), view, who, lang))
    parts = [RowsPart(0, y, None, partial(_paste_rows, header.crop((0, 0, WIDTH, y))))]
    scores = tuple(player["score"] for player in view["players"])
    parts.append(RowsPart(y, y + TRACK_H, ("macrobber.track", lang, view["red_zone"], scores),
                          partial(_track_rows, view, lang)))
    y += TRACK_H
    scoring = view["last_scoring"]
    parts.append(RowsPart(y, y + (LINE + 4 if scoring else 0), ("macrobber.scoring", lang, repr(scoring)),
                          partial(_scoring_rows, view, lang)))
    y += LINE + 4 if scoring else 0
    raid_lines = _raid_lines(view, who, lang)
    bottom = PRIVATE_TOP - 8 - (LINE * len(raid_lines) + 6 if raid_lines else 0)
    panels, y = _panel_parts(view, who, lang, y, bottom)
    parts += panels
    # the raid right under the panels
    parts.append(RowsPart(y, PRIVATE_TOP, ("macrobber.raid", tuple(raid_lines)), partial(_raid_rows, raid_lines)))
    # The board above the band is the same on every image, so a move's public board and DM
    # images share its drawing.
    parts.append(_band_part(view, lang, PRIVATE_TOP))
    image = board_of_parts((WIDTH, HEIGHT), parts, _palette(), _Canvas)
    image.info["private_top"] = PRIVATE_TOP  # below it only the band (private_rows)
    return image


TOP_ROOM = 400
"""The rows drawn for the status and the display (they take some 180 to 360)."""


def _paste_rows(drawn: Image.Image, draw: ImageDraw.ImageDraw, y: int) -> None:
    """Rows drawn before (the status and the display), put at row `y`."""
    draw._image.paste(drawn, (0, y))


def _nothing(draw: ImageDraw.ImageDraw, y: int) -> None:
    """Rows of plain background."""


def private_layout(view: View, lang: str) -> bool:
    """What the board above the bottom band depends on of a view: nothing (the band holds a
    seat's cards or the public legend), so renderers.render_pngs draws it once for all views;
    only a seat's image of its cards alone has no board."""
    return not hand_alone(view)


def hand_alone(view: View) -> bool:
    """Whether a seat's image is its cards alone: it decides nothing from its hand now, so its DM
    is not kept current with the table (bot.turns), and a board in it would go stale (who must
    act, the cards and points of the others). The board is the channel's."""
    private = view.get("private") or {}
    return private_shown(view) and not private.get("deciding", True)


def private_rows(view: View, names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (its cards, or the legend), as `render`
    draws them."""
    parts = [RowsPart(0, PRIVATE_TOP - top, ("macrobber.blank",), _nothing), _band_part(view, lang, PRIVATE_TOP - top)]
    return board_of_parts((WIDTH, HEIGHT - top), parts, _palette(), _Canvas)


def _band_part(view: View, lang: str, top: int) -> RowsPart:
    """The band at the bottom, from row `top` (PRIVATE_TOP on the board): a seat's own cards, or
    on the public board the legend (the same on every public board in a language)."""
    if private_shown(view):  # drawn once in the seat's DM, as a rule: not kept
        return RowsPart(top, top + BAND + MARGIN, None, partial(_hand_rows, view["private"], lang),
                        partial(_composed_hand, view["private"], lang, BAND + MARGIN, 4))
    return RowsPart(top, top + BAND + MARGIN, ("macrobber.legend", lang), partial(_legend_rows, view, lang))


def _hand_rows(private: dict[str, Any], lang: str, draw: ImageDraw.ImageDraw, y: int) -> None:
    _hand(draw, private, lang, y + 4)


def _legend_rows(view: View, lang: str, draw: _Canvas, y: int) -> None:
    _legend(draw, view, lang, y + 8)


def private_shown(view: View) -> bool:
    """Whether a seat's image draws anything the public board does not (its cards): without
    it the seat's image is the public board, and a DM needs no image."""
    private = view.get("private") or {}
    return bool(private.get("hand")) or private.get("face_down") is not None


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: the board's own colours first, then a colour cube and greys (a fixed
    palette quantizes several times faster than a median cut)."""
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, WHITE, PANEL, ACTIVE, SLOT, RED_ZONE, MEADOW, MEADOW_DARK, STONE,
             FLAG, CARD, *CUBE.values(), *SEAT_COLOURS]
    return fixed_palette(*exact)


@lru_cache(maxsize=2048)
def _fit(text: str, size: int, width: float, smallest: int = SMALL) -> tuple[str, int]:
    """`renderers.common.fit`, remembered (a board fits the same words every turn)."""
    return fit(text, size, int(width), smallest)


@lru_cache(maxsize=512)
def _wrap(text: str, size: int, width: float) -> tuple[str, ...]:
    return tuple(wrap(text, size, int(width)))


@lru_cache(maxsize=4096)
def _width(text: str, size: int = SMALL) -> float:
    return font(size).getlength(text)


# ----------------------------------------------------------------------------------------
# Pieces


def _letter(lang: str, colour: str) -> str:
    """A cube's mark: the initial of its colour's word as the buttons say it."""
    return t(lang, P + "board.letter." + colour)


Box = tuple[float, float, float, float]
"""left, top, right, bottom."""


class PieceText(NamedTuple):
    """A text drawn on a piece: its box relative to the piece's corner, its words, its size."""

    box: Box
    text: str
    size: int


class Piece(NamedTuple):
    """A piece drawn once (`keep_drawn`) and pasted where it stands, with the texts it holds."""

    tile: Image.Image
    texts: tuple[PieceText, ...]


class _Canvas(ImageDraw.ImageDraw):
    """A drawing that knows its image, so that pieces drawn once (cubes, estates) are pasted."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image


def _paste(draw: _Canvas, piece: Piece, x: float, y: float) -> None:
    """A piece drawn once (`keep_drawn`): its image pasted at (x, y), its texts told to the
    layout records where they now stand."""
    tile, texts = piece
    at_x, at_y = int(round(x)), int(round(y))
    draw.image.paste(tile, (at_x, at_y), tile)
    for (left, top, right, bottom), text, size in texts:
        note_text((left + at_x, top + at_y, right + at_x, bottom + at_y), text, size)


def _cube(draw: _Canvas, x: float, y: float, width: float, height: float, colour: str, label: str = "",
          faded: bool = False, struck: bool = False) -> None:
    """An action cube: a block in its colour with a lighter top face, and its colour's letter;
    `struck`: crossed out (to be drawn again), the letter on top of the cross."""
    with marks():  # its letter is a mark: MIN_MARK tall
        _paste(draw, _cube_piece(colour, int(width), int(height), label, faded or struck, struck), x, y)


CUBE_H = 52
"""A cube's height: the tallest letter ("Bl", 46 px of ink at MARK_TEXT) with its outline and a
pixel of air."""
TOP_LINE = CUBE_H  # a clan panel's top line: its courtyard's cubes are the tallest in it


@keep_drawn(2**20)
def _cube_piece(colour: str, width: int, height: int, label: str, faded: bool, struck: bool = False) -> Piece:
    tile = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    fill: tuple[int, ...] = CUBE[colour] if not faded else tuple((c + 245) // 2 for c in CUBE[colour])
    draw.rounded_rectangle((0, 0, width, height), radius=max(3, height // 7), fill=fill, outline=INK, width=2)
    top = tuple(min(255, c + 40) for c in fill)
    draw.rounded_rectangle((4, 4, width - 4, max(8, height * 0.2)), radius=3, fill=top)
    if struck:  # crossed out corner to corner; the letter's halo keeps it clear of the cross
        draw.line((3, 3, width - 3, height - 3), fill=INK, width=6)
        draw.line((3, height - 3, width - 3, 3), fill=INK, width=6)
    if not label:
        return Piece(tile, ())
    ink = INK if colour == "y" or faded else WHITE
    left, top_ink, right, bottom = ink_box(label, MARK_TEXT)  # the letters' ink centred in the cube
    at = (width / 2 - (left + right) / 2, height / 2 - (top_ink + bottom) / 2)
    with unrecorded():  # struck: the letter's halo keeps it off the cross (no halo is width 0)
        draw.text(at, label, font=font(MARK_TEXT), fill=ink, anchor="ls", stroke_width=2 if struck else 0,
                  stroke_fill=fill if struck else None)
    return Piece(tile, (PieceText(draw.textbbox(at, label, font=font(MARK_TEXT), anchor="ls"), label, MARK_TEXT),))


@lru_cache(maxsize=4)
def _cube_width(lang: str) -> int:
    """Wide enough for the widest letter ("Ge" at MARK_TEXT) with a border's breadth either side."""
    return max(CUBE_H - 6, max(_ink_width(_letter(lang, c)) for c in COLOURS) + 14)


@lru_cache(maxsize=64)
def _ink_width(text: str) -> int:
    left, _, right, _ = ink_box(text, MARK_TEXT)
    return int(right - left)


def _flag(draw: ImageDraw.ImageDraw, x: float, y: float, height: float) -> None:
    """The Biggest Following marker: a pennant on a pole, `height` tall from (x, y)."""
    draw.line((x + 4, y, x + 4, y + height), fill=INK, width=4)
    draw.polygon([(x + 6, y + 2), (x + 38, y + height * 0.28), (x + 6, y + height * 0.56)], fill=FLAG, outline=INK)


def _estate(draw: _Canvas, box: Box, kind: str | None, lang: str) -> None:
    """An estate place: a dashed empty plot (not yet acquired), or a meadow with a hedge, empty
    (free, with the word) or holding its cattle, castle or monastery."""
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    _paste(draw, _estate_piece(kind, x1 - x0, y1 - y0, lang), x0, y0)


@keep_drawn(2**20)
def _estate_piece(kind: str | None, width: int, height: int, lang: str) -> Piece:
    tile = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    if kind is None:
        for x in range(0, width, 14):
            draw.line((x, 0, min(x + 7, width), 0), fill=STONE, width=2)
            draw.line((x, height, min(x + 7, width), height), fill=STONE, width=2)
        for y in range(0, height, 14):
            draw.line((0, y, 0, min(y + 7, height)), fill=STONE, width=2)
            draw.line((width, y, width, min(y + 7, height)), fill=STONE, width=2)
        return Piece(tile, ())
    draw.rounded_rectangle((0, 0, width, height), radius=10, fill=MEADOW, outline=MEADOW_DARK, width=3)
    cx, cy = width / 2, height / 2
    if kind == "":
        word = t(lang, P + "board.free")
        with unrecorded():
            draw.text((cx, cy), word, font=font(SMALL), fill=INK, anchor="mm")
        return Piece(tile, (PieceText(draw.textbbox((cx, cy), word, font=font(SMALL), anchor="mm"), word, SMALL),))
    inset = max(2, min(6, (height - ART_HEIGHT) // 2))  # the picture at least ART_HEIGHT tall
    _estate_art(draw, kind, (inset, inset, width - inset, height - inset))
    return Piece(tile, ())


ART_HEIGHT = 42
"""An estate's picture (cattle, castle, monastery: on which the scoring turns) stands at least
this tall (MIN_MARK), in the panels and in the legend."""


ART_EXTENT = {"cattle": (-40, -34, 44, 30), "castle": (-38, -38, 30, 30), "monastery": (-40, -44, 34, 30)}
"""What each estate picture covers around its centre, in units of its scale."""


def _estate_art(draw: ImageDraw.ImageDraw, kind: str, box: Box) -> None:
    """Cattle, a castle or a monastery, as large as `box` allows, in its middle."""
    left, top, right, bottom = ART_EXTENT[kind]
    scale = min((box[2] - box[0]) / (right - left), (box[3] - box[1]) / (bottom - top))
    cx = (box[0] + box[2]) / 2 - (left + right) / 2 * scale
    cy = (box[1] + box[3]) / 2 - (top + bottom) / 2 * scale
    {"cattle": _cow, "castle": _castle, "monastery": _monastery}[kind](draw, cx, cy, scale)


def _cow(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    red = CUBE["r"]
    body = (cx - 30 * s, cy - 14 * s, cx + 22 * s, cy + 14 * s)
    draw.rounded_rectangle(body, radius=10 * s, fill=red, outline=INK, width=2)
    for lx in (-24, -12, 6, 16):  # legs
        draw.rectangle((cx + lx * s, cy + 12 * s, cx + (lx + 6) * s, cy + 30 * s), fill=red, outline=INK)
    draw.rounded_rectangle((cx + 16 * s, cy - 22 * s, cx + 40 * s, cy + 2 * s), radius=6 * s, fill=red, outline=INK,
                           width=2)
    draw.line((cx + 18 * s, cy - 22 * s, cx + 12 * s, cy - 34 * s), fill=(250, 250, 246), width=max(2, int(5 * s)))
    draw.line((cx + 38 * s, cy - 22 * s, cx + 44 * s, cy - 34 * s), fill=(250, 250, 246), width=max(2, int(5 * s)))
    draw.line((cx - 30 * s, cy - 8 * s, cx - 40 * s, cy + 8 * s), fill=INK, width=max(2, int(3 * s)))  # tail


def _castle(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    blue = CUBE["b"]
    draw.rectangle((cx - 30 * s, cy - 12 * s, cx + 30 * s, cy + 30 * s), fill=blue, outline=INK, width=2)
    for tx in (-38, 18):  # two towers with battlements
        draw.rectangle((cx + tx * s, cy - 30 * s, cx + (tx + 20) * s, cy + 30 * s), fill=blue, outline=INK, width=2)
        for bx in (0, 8, 16):
            draw.rectangle((cx + (tx + bx) * s, cy - 38 * s, cx + (tx + bx + 4) * s, cy - 30 * s), fill=blue,
                           outline=INK)
    draw.chord((cx - 10 * s, cy + 6 * s, cx + 10 * s, cy + 44 * s), 180, 360, fill=INK)  # gate
    draw.rectangle((cx - 10 * s, cy + 25 * s, cx + 10 * s, cy + 30 * s), fill=INK)


def _monastery(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float) -> None:
    green = CUBE["g"]
    draw.rectangle((cx - 34 * s, cy - 2 * s, cx + 14 * s, cy + 30 * s), fill=green, outline=INK, width=2)
    draw.polygon([(cx - 40 * s, cy - 2 * s), (cx - 10 * s, cy - 22 * s), (cx + 20 * s, cy - 2 * s)], fill=green,
                 outline=INK)
    draw.rectangle((cx + 14 * s, cy - 24 * s, cx + 34 * s, cy + 30 * s), fill=green, outline=INK, width=2)  # bell tower
    draw.line((cx + 24 * s, cy - 44 * s, cx + 24 * s, cy - 26 * s), fill=INK, width=max(2, int(4 * s)))  # cross
    draw.line((cx + 17 * s, cy - 38 * s, cx + 31 * s, cy - 38 * s), fill=INK, width=max(2, int(4 * s)))
    draw.chord((cx - 18 * s, cy + 8 * s, cx - 4 * s, cy + 40 * s), 180, 360, fill=INK)  # door


# ----------------------------------------------------------------------------------------
# Parts


def _header(draw: ImageDraw.ImageDraw, view: View, who: list[str], lang: str) -> int:
    """The status (one line at 48 px, or two at 40), then the facts of the game in words."""
    status = translate(view["status"], lang, who)
    y = 12
    room = WIDTH - 2 * MARGIN
    # on baselines: a line of 40 px type holds its accents and descenders in LINE pixels
    if _width(status, 48) <= room:
        draw.text((MARGIN, y + 44), status, font=font(48), fill=INK, anchor="ls")
        y += 58
    else:
        lines = list(_wrap(status, SMALL, room))
        if len(lines) > 2:
            lines = [lines[0], _fit(" ".join(lines[1:]), SMALL, room)[0]]
        for line in lines:
            draw.text((MARGIN, y + 36), line, font=font(SMALL), fill=INK, anchor="ls")
            y += LINE
    facts = [t(lang, P + "board.round", round=view["round"]),
             t(lang, P + "board.bag", count=view["bag"]),
             t(lang, P + "board.estates_left", count=view["estates_left"])]
    if view["revealed"]:
        facts.append(t(lang, P + "board.revealed", numbers=", ".join(map(str, view["revealed"]))))
    for line in _lines(facts, room):
        draw.text((MARGIN, y + 36), line, font=font(SMALL), fill=MUTED, anchor="ls")
        y += LINE
    return y + 8


def _lines(parts: list[str], room: float) -> list[str]:
    """Parts joined by " · " on as few lines as fit `room`, never splitting a part."""
    lines: list[str] = []
    for part in parts:
        if lines and _width(lines[-1] + " · " + part) <= room:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


@dataclass(frozen=True)
class _Words:
    """Words in the flowed lines of the cubes drawn: the label as it is, or the turn's story
    (`fitted` to the room left on its line)."""

    text: str
    width: float
    fitted: bool


@dataclass(frozen=True)
class _CubeGroup:
    """A group of cubes drawn in the flowed lines: the draw (number 0) or the redraw after a "+",
    with how many of each colour."""

    number: int
    counts: Sequence[int]
    width: float


def _display(draw: _Canvas, view: View, who: list[str], lang: str, y: int) -> int:
    """The display while it lasts (a cube chosen to be drawn again is crossed out behind its
    letter); once the actions are over, the cubes drawn (faded) and what they were used for, so
    the row tells the turn's story until the next player draws."""
    height = 66
    left, right = MARGIN + 14, WIDTH - MARGIN - 14
    shown = sum(view["display"])
    drawn = view.get("drawn")
    cube_w = _cube_width(lang)
    if shown or (drawn is None and not view["done"]):
        _frame(draw, y, height)
        label = t(lang, P + "board.display")
        draw.text((left, y + height / 2), label, font=font(SMALL), fill=INK, anchor="lm")
        x = left + _width(label) + 16
        if not shown:
            draw.text((x, y + height / 2), "–", font=font(SMALL), fill=MUTED, anchor="lm")
            return y + height + 8
        marked = list(view["marked"])
        for c, colour in enumerate(COLOURS):
            for index in range(view["display"][c]):
                # chosen to be drawn again: crossed out, its letter still on top
                _cube(draw, x, y + (height - CUBE_H) / 2, cube_w, CUBE_H, colour, _letter(lang, colour),
                      struck=index < marked[c])
                x += cube_w + 6
        if view["used"]:
            draw.text((x + 10, y + height / 2), t(lang, P + "board.used", count=view["used"]), font=font(SMALL),
                      fill=MUTED, anchor="lm")
        return y + height + 8
    done = [t(lang, P + "board.did." + verb) for verb in view["done"] if verb in ACTIONS]
    if drawn is None:
        words = t(lang, P + "board.this_turn", actions=", ".join(done))
        _frame(draw, y, height)
        text, size = _fit(words, SMALL, right - left)
        draw.text((left, y + height / 2), text, font=font(size), fill=INK, anchor="lm")
        return y + height + 8
    words = t(lang, P + "board.done", actions=", ".join(done)) if done else t(lang, P + "board.no_action")
    label = t(lang, P + "board.drawn")
    groups = [drawn["cubes"]] + ([drawn["redrew"]] if drawn["redrew"] else [])
    # The label, each group of cubes (a redraw after a "+") and the words, flowed into lines:
    # a group of cubes never splits, and a line that holds cubes is as tall as the display.
    items: list[_Words | _CubeGroup] = [_Words(label, _width(label) + 12, fitted=False)]
    items += [_CubeGroup(number, counts, (36 if number else 0) + sum(counts) * (cube_w + 4) + 8)
              for number, counts in enumerate(groups)]
    items.append(_Words(words, _width(words), fitted=True))
    lines: list[list[_Words | _CubeGroup]] = [[]]
    x = left
    for item in items:
        if lines[-1] and x + item.width > right:
            lines.append([])
            x = left
        lines[-1].append(item)
        x += item.width
    heights = [height if any(isinstance(item, _CubeGroup) for item in line) else LINE for line in lines]
    _frame(draw, y, sum(heights))
    top = y
    for line, line_height in zip(lines, heights):
        x, middle = left, top + line_height / 2
        for item in line:
            if isinstance(item, _CubeGroup):
                if item.number:
                    draw.text((x + 4, middle), "+", font=font(SMALL), fill=INK, anchor="lm")
                    x += 36
                for c, colour in enumerate(COLOURS):
                    for _ in range(item.counts[c]):
                        _cube(draw, x, middle - CUBE_H / 2, cube_w, CUBE_H, colour, _letter(lang, colour),
                              faded=True)
                        x += cube_w + 4
                x += 8
                continue
            text, size = _fit(item.text, SMALL, right - x) if item.fitted else (item.text, SMALL)
            draw.text((x, middle), text, font=font(size), fill=INK, anchor="lm")
            x += item.width
        top += line_height
    return top + 8


def _frame(draw: ImageDraw.ImageDraw, y: float, height: float) -> None:
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=12, fill=PANEL, outline=STONE, width=2)


def _track(draw: ImageDraw.ImageDraw, view: View, lang: str, y: int) -> int:
    """The score track 0 to 50 with its numbers inside the bar; the red part says in words that
    the game can end there; under it a numbered disc per clan, joined to its score."""
    left, right = MARGIN + 4, WIDTH - MARGIN - 4
    top, bar = y, 44
    span = right - left
    zone = view["red_zone"]
    zx = left + span * zone / TRACK_MAX
    draw.rectangle((left, top, zx, top + bar), fill=SLOT, outline=INK, width=2)
    draw.rectangle((zx, top, right, top + bar), fill=RED_ZONE, outline=INK, width=2)
    middle = top + bar / 2
    for mark in range(0, zone, 10):  # notches at the edges, each number after its notch
        mx = left + span * mark / TRACK_MAX
        draw.line((mx, top, mx, top + 8), fill=INK, width=2)
        draw.line((mx, top + bar - 8, mx, top + bar), fill=INK, width=2)
        if mark < zone - 5:
            draw.text((mx + 8, middle), str(mark), font=font(SMALL), fill=INK, anchor="lm")
    # the red zone's first number closes the grey part; the track's end closes the red part, and
    # the words saying what the red part means take the room between them
    draw.text((zx - 8, middle), str(zone), font=font(SMALL), fill=INK, anchor="rm")
    end = str(TRACK_MAX)
    draw.text((right - 8, middle), end, font=font(SMALL), fill=INK, anchor="rm")
    room = right - 8 - _width(end) - 16 - (zx + 14)
    if room >= _width("…"):
        text, size = _fit(t(lang, P + "board.red_zone"), SMALL, room)
        draw.text((zx + 14, middle), text, font=font(size), fill=INK, anchor="lm")
    # One row of discs under the track: each as near its score as the others allow, joined to it
    # by a line, so that equal scores stand side by side instead of on top of each other, apart.
    spots = sorted((left + span * max(0, min(TRACK_MAX, p["score"])) / TRACK_MAX, seat)
                   for seat, p in enumerate(view["players"]))
    half = PLATE[0] / 2  # each clan's plate, its number at the marks' standard
    gap = PLATE[0] + 10
    xs = [x for x, _ in spots]
    for k in range(1, len(xs)):
        xs[k] = max(xs[k], xs[k - 1] + gap)
    shift = max(0.0, xs[-1] - (right - half)) if xs else 0.0
    xs = [x - shift for x in xs]
    for k in range(len(xs) - 2, -1, -1):
        xs[k] = min(xs[k], xs[k + 1] - gap)
    xs = [max(x, left + half) for x in xs]
    for (score_x, seat), x in zip(spots, xs):
        draw.line((score_x, top + bar, x, top + bar + 4), fill=INK, width=2)
        seat_plate(draw, (x, top + bar + 4 + PLATE[1] / 2), seat)
    return top + bar + 4 + PLATE[1] + 6


TRACK_H = 44 + 4 + PLATE[1] + 6
"""The rows the track takes with the clans' plates under it (`_track`)."""


def _track_rows(view: View, lang: str, draw: ImageDraw.ImageDraw, y: int) -> None:
    _track(draw, view, lang, y)


def _scoring_rows(view: View, lang: str, draw: ImageDraw.ImageDraw, y: int) -> None:
    _scoring(draw, view, lang, y)


def _scoring(draw: ImageDraw.ImageDraw, view: View, lang: str, y: int) -> int:
    """The last round's scoring in one line: "Round 2 scoring:" and each clan's disc with its
    points."""
    scoring = view["last_scoring"]
    if not scoring:
        return y
    label = t(lang, P + "board.scoring", round=scoring["round"])
    points = [t(lang, P + "board.points", points=row["total"]) for row in scoring["rows"]]
    x = MARGIN + _width(label) + 12
    draw.text((MARGIN, y + 22), label, font=font(SMALL), fill=INK, anchor="lm")
    used = sum(PLATE[0] + 6 + _width(text) for text in points)
    gap = max(8.0, min(28.0, (WIDTH - MARGIN - x - used) / max(1, len(points) - 1)))
    for seat, text in enumerate(points):
        seat_plate(draw, (x + PLATE[0] / 2, y + 23), seat)
        draw.text((x + PLATE[0] + 6, y + 22), text, font=font(SMALL), fill=INK, anchor="lm")
        x += PLATE[0] + 6 + _width(text) + gap
    return y + LINE + 4


def _panel_parts(view: View, who: list[str], lang: str, top: int, bottom: int) -> tuple[list[RowsPart], int]:
    """One panel per clan, as parts of the board from `top` (and where they end, above `bottom`):
    on the top line its disc, the Biggest Following flag, the name, the courtyard's cubes with
    their counts, the cards held and the score; under it the six estate places, and in words
    the start player and why the panel is highlighted: the clans who must act now (at the end:
    the winners)."""
    seats: int = view["seats"]
    step = min(190, (bottom - top) // seats)
    height = step - 6
    pad = max(2, min(12, (height - TOP_LINE - 50) // 3))
    estate_height = min(76, height - TOP_LINE - 3 * pad)
    inset = (height - TOP_LINE - pad - estate_height) // 2  # the two lines stand in the middle of the panel
    marked = set(view["winners"] or []) if view["over"] else set(view["to_act"])
    cube_w = _cube_width(lang)
    parts = []
    for seat, player in enumerate(view["players"]):
        y = top + seat * step
        lit = seat in marked
        # A clan's panel depends on its own part of the view alone: kept for the moves that leave it be.
        key = ("macrobber.panel", repr(player), who[seat], lang, step, height, pad, estate_height, inset, lit,
               view["over"], seat == view["follower"], seat == view["start"])
        arguments = (seat, player, who[seat], lang, height, pad, estate_height, inset, lit, view["over"],
                     seat == view["follower"], seat == view["start"], cube_w)
        parts.append(RowsPart(y, y + step, key, partial(_panel_rows, *arguments),
                              partial(_composed_panel, step, *arguments)))
    return parts, top + seats * step


def _panel_rows(seat: int, player: View, name: str, lang: str, height: int, pad: int, estate_height: int, inset: int,
                lit: bool, over: bool, follower: bool, start: bool, cube_w: int, draw: _Canvas, y: int) -> None:
    _panel(draw, seat, player, name, lang, y, height, pad, estate_height, inset, lit, over, follower, start, cube_w)


def _panel(draw: _Canvas, seat: int, player: View, name: str, lang: str, y: int, height: int, pad: int,
           estate_height: int, inset: int, lit: bool, over: bool, follower: bool, start: bool, cube_w: int) -> None:
    """A clan's panel, from its top at `y`."""
    _panel_frame(draw, y, height, lit)
    for item in _panel_items(seat, player, name, lang, height, pad, estate_height, inset, lit, over, follower, start,
                             cube_w):
        item.draw(draw, item.at[0], item.at[1] + y)


def _panel_frame(draw: ImageDraw.ImageDraw, y: int, height: int, lit: bool, in_palette: bool = False) -> None:
    """The panel's rounded box (in the palette's indices of its colours, on a palette image)."""
    colours = (ACTIVE, HIGHLIGHT) if lit else (PANEL, STONE)
    fill, outline = (_index(colours[0]), _index(colours[1])) if in_palette else colours
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=PANEL_RADIUS, fill=fill, outline=outline,
                           width=_panel_rim(lit))


PANEL_RADIUS = 14


def _panel_rim(lit: bool) -> int:
    return 5 if lit else 2


def _panel_items(seat: int, player: View, name: str, lang: str, height: int, pad: int, estate_height: int,
                 inset: int, lit: bool, over: bool, follower: bool, start: bool, cube_w: int) -> list[PieceOnPlain]:
    """The things on a clan's panel in the order they are drawn, each at its place from the
    panel's top: on the top line its disc, the Biggest Following flag, the score, the name, the
    courtyard's cubes with their counts and the cards held; under it the six estate places, and
    the notes."""
    items = []
    line = inset + TOP_LINE // 2
    items.append(PieceOnPlain(("plate", seat), (MARGIN + 30, line), (-30, -30, 30, 30),
                              lambda draw, x, y: seat_plate(draw, (x, y), seat)))
    x: float = MARGIN + 60
    if follower:
        items.append(PieceOnPlain(("flag",), (x, line - 22), (-4, -4, 44, 48),
                                  lambda draw, x, y: _flag(draw, x, y, 44)))
        x += 46
    score = str(player["score"])
    score_left = WIDTH - MARGIN - 14 - _width(score, 56)
    items.append(PieceOnPlain(("score", score), (WIDTH - MARGIN - 14, line), (-120, -40, 4, 40),
                              lambda draw, x, y: draw.text((x, y), score, font=font(56), fill=INK, anchor="rm")))
    shown, size = _fit(name, SMALL, COURTYARD_X - 12 - x)
    items.append(PieceOnPlain(("text", shown, size), (x, line), (-4, -40, int(COURTYARD_X - x), 40),
                              partial(_line_text, shown, size)))
    x = COURTYARD_X
    for c, colour in enumerate(("y", "b", "g")):
        letter = _letter(lang, colour)
        items.append(PieceOnPlain(("cube", colour, cube_w, letter), (x, line - CUBE_H / 2),
                                  (-2, -2, cube_w + 4, CUBE_H + 4), partial(_courtyard_cube, cube_w, colour, letter)))
        count = str(player["courtyard"][c])
        items.append(PieceOnPlain(("count", count), (x + cube_w + 4, line), (-4, -40, 120, 40), partial(_count, count)))
        x += cube_w + 4 + max(_width(count, MARK_TEXT), _width("88", MARK_TEXT)) + 12
    cards, size = _fit(t(lang, P + "board.cards", count=player["cards"]), SMALL, score_left - 14 - x)
    items.append(PieceOnPlain(("text", cards, size), (x, line), (-4, -40, int(score_left - x), 40),
                              partial(_line_text, cards, size)))
    row_top = inset + TOP_LINE + pad
    estates = player["estates"]
    for index in range(6):
        ex = MARGIN + 12 + index * ESTATE_STEP
        kind = estates[index] if index < len(estates) else None
        items.append(PieceOnPlain(("estate", kind, ESTATE_STEP - 6, estate_height, lang if kind == "" else ""),
                                  (ex, row_top), (-2, -2, ESTATE_STEP, estate_height + 4),
                                  partial(_estate_at, kind, ESTATE_STEP - 6, estate_height, lang)))
    notes = [t(lang, P + "board.start")] if start else []
    if lit:
        notes.append(t(lang, P + ("board.lit_won" if over else "board.lit_to_act")))
    if notes:
        notes_x = MARGIN + 12 + 6 * ESTATE_STEP + 8
        text, size = _fit(" · ".join(notes), SMALL, WIDTH - MARGIN - 14 - notes_x)
        items.append(PieceOnPlain(("text", text, size), (notes_x, row_top + estate_height / 2),
                                  (-4, -40, WIDTH - MARGIN - notes_x, 40), partial(_line_text, text, size)))
    return items


def _line_text(text: str, size: int, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.text((x, y), text, font=font(size), fill=INK, anchor="lm")


def _count(count: str, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    with marks():  # how many of the cube's character the clan has: as large as the cube's letter
        draw.text((x, y), count, font=font(MARK_TEXT), fill=INK, anchor="lm")


def _courtyard_cube(cube_w: int, colour: str, letter: str, draw: _Canvas, x: float, y: float) -> None:
    _cube(draw, x, y, cube_w, CUBE_H, colour, letter)


def _estate_at(kind: str | None, width: int, height: int, lang: str, draw: _Canvas, x: float, y: float) -> None:
    _estate(draw, (x, y, x + width, y + height), kind, lang)


def _composed_panel(step: int, seat: int, player: View, name: str, lang: str, height: int, pad: int,
                    estate_height: int, inset: int, lit: bool, over: bool, follower: bool, start: bool,
                    cube_w: int) -> Image.Image | None:
    """The rows of a clan's panel (`_panel_rows`) put together in the palette: the box painted
    in it, each thing on it pasted as the pixels it changes on the panel's plain fill (the same
    cubes, estates, numbers and words at every table: `renderers.common.composed_on_plain`)."""
    items = _panel_items(seat, player, name, lang, height, pad, estate_height, inset, lit, over, follower, start,
                         cube_w)
    return composed_on_plain((WIDTH, step), _palette(), _index,
                             lambda image: _panel_frame(ImageDraw.Draw(image), 0, height, lit, in_palette=True),
                             ACTIVE if lit else PANEL, items, "macrobber.panel", _Canvas)


@lru_cache(maxsize=16)
def _index(colour: Ink) -> int:
    """The palette index quantizing gives `colour`."""
    index: int = to_palette(Image.new("RGB", (1, 1), colour), _palette()).getpixel((0, 0))  # type: ignore[assignment]
    return index


class RaidLine(NamedTuple):
    """A line of the raid: its words, and on its first line the attacker's and the defender's
    seats (their plates before the words)."""

    text: str
    clans: tuple[int, int] | None


def _raid_lines(view: View, who: list[str], lang: str) -> list[RaidLine]:
    """The raid to show: the running raid of this turn round by round (the status line names
    it), or, until the player after its attacker has done their actions, that raid labelled as
    the last one with its outcome; an older raid is not shown."""
    raid = view["raid"]
    if raid is None:
        return []
    attacker, defender = raid["attacker"], raid["defender"]
    # the player of the turn before: a round's first turn follows the last of the round before,
    # whose start player sat one seat back
    previous = (view["active"] - (2 if view["turn"] == 0 else 1)) % view["seats"]
    acting = view["phase"] in ("redraw", "act", "bard")
    if not raid["open"] and not (attacker == previous and acting or view["over"]):
        return []
    rounds = []
    for number, (a, ap, d, dp) in enumerate(raid["rounds"], 1):
        sign = "<" if a + ap < d + dp else (">" if a + ap > d + dp else "=")
        rounds.append(t(lang, P + "board.raid_round", round=number, a=f"{a}{'+1' if ap else ''}", sign=sign,
                        d=f"{d}{'+1' if dp else ''}"))
    if raid["played"]:
        rounds.append(t(lang, P + "board.raid_face_down", round=len(raid["rounds"]) + 1))
    if raid["open"]:
        if not rounds:
            return []
        first, *rest = _lines(rounds, WIDTH - 2 * MARGIN - 96)
        return [RaidLine(first, (attacker, defender))] + [RaidLine(line, None)
                                                          for line in _lines(rest, WIDTH - 2 * MARGIN)]
    result = raid.get("result") or "tie"
    loot = raid.get("loot")
    if result == "won" and loot in ("cattle", "castle", "monastery"):
        outcome = t(lang, P + "board.raid_took." + loot, attacker=who[attacker])
    else:
        outcome = t(lang, P + "board.raid_result." + result, attacker=who[attacker], defender=who[defender])
    rounds.append(outcome)  # after the rounds, on their line where it fits
    head = t(lang, P + "board.last_raid", attacker=who[attacker], defender=who[defender])
    return [RaidLine(head, (attacker, defender))] + [RaidLine(line, None)
                                                     for line in _lines(rounds, WIDTH - 2 * MARGIN)]


def _raid_rows(lines: list[RaidLine], draw: ImageDraw.ImageDraw, y: int) -> None:
    """The raid's lines, under the panels from their foot at row `y` down to the band."""
    y += 6
    for line in lines:
        _raid_line(draw, line, y)
        y += LINE


def _raid_line(draw: ImageDraw.ImageDraw, line: RaidLine, y: int) -> None:
    x = MARGIN
    if line.clans is not None:
        attacker, defender = line.clans
        seat_plate(draw, (x + PLATE[0] / 2, y + 22), attacker, (PLATE[0], LINE - 2))
        seat_plate(draw, (x + PLATE[0] * 1.5 + 4, y + 22), defender, (PLATE[0], LINE - 2))
        x += 2 * PLATE[0] + 4 + 10
    shown, size = _fit(line.text, SMALL, WIDTH - MARGIN - x)
    draw.text((x, y + 22), shown, font=font(size), fill=INK, anchor="lm")


# ----------------------------------------------------------------------------------------
# The band: the legend, or a seat's cards


@lru_cache(maxsize=4)
def _legend_table(lang: str) -> tuple[float, ...]:
    """Where the colour table's columns start, measured once per language, after the column
    of the row labels. Three rows: each cube with its colour's word; what it is in a courtyard;
    what its cubes build on an estate. Yellow builds nothing on an estate, so the estate row's
    label may reach into yellow's column ("Landgut" is wider than "Hof"): the columns keep the
    room between them that a cube as large as the marks' standard leaves."""
    cube_w = _cube_width(lang)
    widths = []
    for colour in COLOURS:
        cells = [cube_w + 8 + _width(t(lang, P + "colour." + colour))]
        if colour != "r":
            cells.append(_width(t(lang, P + "board.role." + colour)))
        art = dict(zip(("b", "g", "r"), ESTATE_ART)).get(colour)
        if art:
            cells.append(LEGEND_MEADOW + 8 + _width(t(lang, P + "board." + art)))
        widths.append(max(cells))
    estate_label = _width(t(lang, P + "board.estate")) + 16
    label_w = _width(t(lang, P + "board.courtyard")) + 20
    while True:
        gap = (WIDTH - 2 * MARGIN - label_w - sum(widths)) / len(COLOURS)
        second = MARGIN + label_w + gap / 2 + widths[0] + gap  # the first column with an estate
        if MARGIN + estate_label <= second:
            break
        label_w += MARGIN + estate_label - second
    xs, x = [], MARGIN + label_w + gap / 2
    for width in widths:
        xs.append(x)
        x += width + gap
    return tuple(xs)


LEGEND_MEADOW = 60  # the legend's estate pictures: the widest (cattle) at ART_HEIGHT


def _legend(draw: _Canvas, view: View, lang: str, top: int) -> None:
    """What the board's marks mean: the colour table and the Biggest Following flag."""
    cube_w = _cube_width(lang)
    xs = _legend_table(lang)
    rows = [top + LINE * k + LINE / 2 for k in range(LEGEND_ROWS)]
    draw.text((MARGIN, rows[1]), t(lang, P + "board.courtyard"), font=font(SMALL), fill=INK, anchor="lm")
    draw.text((MARGIN, rows[2]), t(lang, P + "board.estate"), font=font(SMALL), fill=INK, anchor="lm")
    for colour, x in zip(COLOURS, xs):
        _cube(draw, x, rows[0] - CUBE_H / 2, cube_w, CUBE_H, colour, _letter(lang, colour))
        draw.text((x + cube_w + 8, rows[0]), t(lang, P + "colour." + colour), font=font(SMALL), fill=INK,
                  anchor="lm")
        if colour != "r":
            draw.text((x, rows[1]), t(lang, P + "board.role." + colour), font=font(SMALL), fill=MUTED, anchor="lm")
        art = dict(zip(("b", "g", "r"), ESTATE_ART)).get(colour)
        if art:
            # as tall as the estates' pictures, clear of the descenders of the words above it ("piper")
            meadow = (x, rows[2] - 18, x + LEGEND_MEADOW, rows[2] + ART_HEIGHT - 14)
            draw.rounded_rectangle(meadow, radius=6, fill=MEADOW, outline=MEADOW_DARK, width=2)
            _estate_art(draw, art, (meadow[0] + 2, meadow[1] + 2, meadow[2] - 2, meadow[3] - 2))
            draw.text((x + LEGEND_MEADOW + 8, rows[2]), t(lang, P + "board." + art), font=font(SMALL), fill=MUTED,
                      anchor="lm")
    _flag(draw, MARGIN + 4, rows[3] - 20, 40)
    text, size = _fit(t(lang, P + "board.follower_legend"), SMALL, WIDTH - 2 * MARGIN - 52)
    draw.text((MARGIN + 52, rows[3]), text, font=font(size), fill=INK, anchor="lm")


def _hand(draw: ImageDraw.ImageDraw, private: dict[str, Any], lang: str, y: int) -> None:
    """The viewer's raid cards, drawn large as cards with their values (a seat's own image only)."""
    for item in _hand_items(private, lang, y):
        item.draw(draw, *item.at)


def _hand_items(private: dict[str, Any], lang: str, y: int) -> list[PieceOnPlain]:
    """The things `_hand` draws from row `y`, in order: the label, the card played face down (in
    words), and the cards (or a dash for none)."""
    label = t(lang, P + "board.your_cards")
    items = [PieceOnPlain(("text", label, SMALL, INK), (MARGIN, y + 22), (-4, -40, WIDTH - MARGIN, 40),
                          partial(_words, label, SMALL, INK))]
    face_down = private.get("face_down")
    if face_down is not None:
        x = MARGIN + _width(label) + 30
        text, size = _fit(t(lang, P + "board.your_face_down", card=face_down), SMALL, WIDTH - MARGIN - x)
        items.append(PieceOnPlain(("text", text, size, MUTED), (x, y + 22), (-4, -40, int(WIDTH - MARGIN - x), 40),
                                  partial(_words, text, size, MUTED)))
    hand = private.get("hand") or []
    top = y + LINE + 4
    bottom = y + BAND - 10
    if not hand:
        items.append(PieceOnPlain(("text", "–", 64, MUTED), (MARGIN, (top + bottom) / 2), (-4, -60, 80, 60),
                                  partial(_words, "–", 64, MUTED)))
        return items
    gap = 12
    width = min(116, (WIDTH - 2 * MARGIN + gap) / len(hand) - gap)
    size = 80 if width >= 70 else 64
    x = MARGIN
    for value in hand:
        items.append(PieceOnPlain(("card", value, width, size, bottom - top), (x, top),
                                  (-4, -4, int(width) + 6, bottom - top + 6),
                                  partial(_card, str(value), width, bottom - top, size)))
        x += width + gap
    return items


def _words(text: str, size: int, fill: Ink, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.text((x, y), text, font=font(size), fill=fill, anchor="lm")


def _card(value: str, width: float, height: int, size: int, draw: ImageDraw.ImageDraw, x: float, top: float) -> None:
    """A raid card from (x, top): its value large in the middle."""
    draw.rounded_rectangle((x, top, x + width, top + height), radius=10, fill=CARD, outline=INK, width=3)
    with marks():
        draw.text((x + width / 2, (top + top + height) / 2), value, font=font(size), fill=INK, anchor="mm")


def _composed_hand(private: dict[str, Any], lang: str, height: int, y: int) -> Image.Image | None:
    """Rows of plain background `height` tall with the viewer's cards (`_hand` from row `y`) put
    together in the palette: the same labels and cards at every table
    (`renderers.common.composed_on_plain`)."""
    return composed_on_plain((WIDTH, height), _palette(), _index, lambda image: None, BACKGROUND,
                             _hand_items(private, lang, y), "macrobber.hand", _Canvas)
