"""The Knatsch table, phone first: upright 1080 x 1350, every text at least `MIN_TEXT` (40 px, some
11 px where a phone's client shows the board about 300 px wide), every number in a piece (a seat's
plate, a number on a card chip, a die not rolled yet) a mark of `MARK_TEXT` (41 px of ink,
`MIN_MARK`) and every die at least `DIE_MIN`, its pips as tall as a mark.

Drawn only from the view (see games/knatsch/views.py); every word from the catalogues
(`knatsch.board.po`, and engine texts through `i18n.translate`). Layout:

  +-----------------------------------------+
  | status (whose turn, what to do)         |  one to three lines
  +--------------------+--------------------+
  | stack 1 top card   | stack 2 top card   |  name, dice to beat, what it does
  +--------------------+--------------------+
  | king: dice to beat                      |  (left out during a roll that needs its room)
  | the roll: six dice, 3 a row (numbered   |  what is rolled for, the dice, the best
  | by position, like the buttons) | best,  |  result, what to beat, beats it or not;
  | what to beat, beats it or not           |  between rolls whose turn and the ways to win
  +-----------------------------------------+
  | one row per player: seat number plate, |
  | name, the nearest win, card chips       |
  | (a castle's chip names it: its arms in  |
  | words and its dice on a plate, "blue    |
  | [4-4-4+2]"), wrapped onto another line  |
  | where there is room                     |
  +-----------------------------------------+

Seat marks carry the seat number; seat colours (renderers.common) differ from the coat-of-arms
colours of the castle cards. The move history lives in the message text, not on the image.
Six players, a roll and a three-line status fit together: the rows take one chip line each and
the roll panel what is left (`ROLL_MIN` at least), which the tests check on whole games.
"""
from __future__ import annotations

import re
from functools import lru_cache, partial
from typing import Any, Literal, NamedTuple, TypedDict, Unpack

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers import common
from renderers.common import (
    BACKGROUND,
    HIGHLIGHT,
    INK,
    MARK_TEXT,
    MIN_TEXT,
    MUTED,
    PHONE_SIZE,
    SEAT_COLOURS,
    WHITE,
    Ink,
    NotComposable,
    PaletteDraw,
    RowsPart,
    board_with_rows,
    fixed_palette,
    font,
    ink_box,
    keep_drawn,
    kept_part,
    marks,
    note_text,
    palette_board,
    piece_in_palette,
    rows_in_palette,
    seat_names,
    seat_plate,
    stamp_text,
    text_mask,
    texts_recorded,
)
from renderers.common import fit as _fit_words
from renderers.common import wrap as _wrap_text

View = dict[str, Any]
"""A public or a seat's view of a game, or a part of one (a player, a card, a roll), as
`games.knatsch.views` gives it."""
Rgb = tuple[int, int, int]

WIDTH, HEIGHT = PHONE_SIZE
MARGIN = 12
TEXT = MIN_TEXT      # the board's type; headings of a roomy panel are larger
LINE = 48            # one line of TEXT
GAP = 6              # between the board's parts
PAPER = (255, 252, 245)
LINE_COLOUR = (200, 190, 172)
RED_DIE = (196, 30, 36)
YELLOW_DIE = (246, 200, 30)
LOCKED_DIE = (150, 146, 140)
DIE_CARD = (40, 100, 190)
GOOD = (0, 128, 80)
BAD = (190, 40, 30)

ARMS_COLOURS = {
    "red": (200, 40, 40), "blue": (35, 85, 200), "green": (30, 140, 60),
    "yellow": (240, 200, 30), "purple": (125, 55, 165), "black": (30, 30, 30),
}
SPECIAL_FILL = (226, 232, 244)
TOURNAMENT_FILL = (250, 222, 130)

PIPS = {
    1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}
DIE_MIN = 58
"""The smallest die drawn: its pips (a tenth of the die across) span 42 px from the first row's top
to the last row's bottom, the marks' standard (`MIN_MARK`, 11 px on a phone)."""


def _pip_radius(size: int) -> int:
    return max(3, round(size / 10))


def _light(colour: Rgb) -> bool:
    red, green, blue = colour
    return red * 0.299 + green * 0.587 + blue * 0.114 > 150


@lru_cache(maxsize=8192)
def _width(text: str, size: int) -> float:
    return font(size).getlength(text)


def _fit(text: str, size: int, width: float, smallest: int = MIN_TEXT) -> tuple[str, int]:
    """`renderers.common.fit`: the type shrunk down to `smallest`, then the text cut with an
    ellipsis, whole words first ("Bartholomew the…", not "Bartholomew the Unrea…"), to fit
    `width`; a text that fits as it is is measured once."""
    if _width(text, size) <= width:
        return text, size
    return _fit_words(text, size, width, smallest)


@lru_cache(maxsize=2048)
def wrap(text: str, size: int, width: float) -> tuple[str, ...]:
    """`renderers.common.wrap`, kept: the panel tries several layouts with the same texts, and
    the same words come back board after board."""
    return tuple(_wrap_text(text, size, width))


class TextOptions(TypedDict, total=False):
    """How `_row_text` sets a text besides where: passed on to `_text`."""

    fill: Ink
    width: float | None
    bold: bool
    smallest: int


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Ink = INK,
          width: float | None = None, anchor: str = "la", bold: bool = False, smallest: int = MIN_TEXT) -> int:
    """`text` at `xy` (shrunk and cut to `width`, if given) stamped from its kept mask (set at the
    whole pixel nearest, bold as a stroke of a pixel in its own ink); returns the size it was set
    in."""
    if width is not None:
        text, size = _fit(text, size, width, smallest)
    if not text:
        return size
    mask, left, top = text_mask(text, size, anchor, 1 if bold else 0)
    x, y = round(xy[0] + left), round(xy[1] + top)
    stamp_text(draw, (x, y), mask, fill)
    width, height = mask.size
    note_text((x, y, x + max(1, width), y + max(1, height)), text, int(font(size).size))
    return size


def _row_text(draw: ImageDraw.ImageDraw, x: float, top: float, text: str, size: int = TEXT, anchor: str = "lm",
              height: float = LINE, **kwargs: Unpack[TextOptions]) -> int:
    """A text in the line from `top` down `height` pixels, its letters (accents and descenders
    too) inside the line: "lm" puts the font's middle, a little above the letters' own, at y."""
    return _text(draw, (x, top + height / 2 - size // 10), text, size, anchor=anchor, **kwargs)


def _mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: Ink = INK,
          bold: bool = False) -> None:
    """A number inside a piece (a die, a chip's plate), its ink centred on `centre`, at
    `MARK_TEXT` and recorded as a mark (the layout tests hold it to `MIN_MARK`)."""
    left, top, right, bottom = ink_box(text, MARK_TEXT)
    with marks():
        _text(draw, (centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2), text, MARK_TEXT,
              fill=fill, anchor="ls", bold=bold)


def _die(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, value: int | None, fill: Rgb = WHITE,
         pip: Rgb = INK, outline: Rgb = INK, width: int = 2) -> None:
    """A die `size` wide at (x, y) showing `value`; none (not rolled yet): a "?" on its face."""
    at = round(x), round(y)
    if isinstance(draw, PaletteDraw):
        indexed, opacity = _die_face_in_palette(size, value or 0, fill, pip, outline, width)
        draw._image.paste(indexed, at, opacity)
    else:
        face = _die_face(size, value or 0, fill, pip, outline, width)
        draw._image.paste(face, at, face)
    if not value:
        _mark(draw, (at[0] + size / 2, at[1] + size / 2), "?", MUTED)


@keep_drawn(2**19)
def _die_face(size: int, value: int, fill: Rgb, pip: Rgb, outline: Rgb, width: int) -> Image.Image:
    """A die's face (no pips for 0, a die not rolled yet), drawn once: the same faces come back
    on every board, and pasting one is much faster than drawing its rounded corners again (some
    17 faces, 0.37 MiB, at a hundred tables; a board composed in its palette pastes them from
    `_die_face_in_palette`)."""
    face = Image.new("RGBA", (size + 1, size + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(face)
    draw.rounded_rectangle((0, 0, size, size), radius=max(3, size // 6), fill=fill, outline=outline, width=width)
    radius = _pip_radius(size)
    for px, py in PIPS.get(value, ()):
        cx, cy = px * size, py * size
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=pip)
    return face


@keep_drawn(3 * 2**17)
def _die_face_in_palette(size: int, value: int, fill: Rgb, pip: Rgb, outline: Rgb,
                         width: int) -> tuple[Image.Image, Image.Image]:
    """A die's face (`_die_face`) in the board's palette, and where it stands, for a board composed
    in its palette: the same faces come back at every table."""
    return piece_in_palette(_die_face(size, value, fill, pip, outline, width), _palette())


def _combination(draw: ImageDraw.ImageDraw, x: float, y: float, size: int, combination: View | None,
                 gap: int = 4) -> float:
    """Three red dice (or four, for the king) and one yellow die; returns the width drawn."""
    if not combination:
        return 0
    for i in range(combination["count"]):
        _die(draw, x + i * (size + gap), y, size, combination["red"], fill=RED_DIE,
             pip=(255, 255, 255), outline=(110, 10, 10))
    x_yellow: float = x + combination["count"] * (size + gap) + gap
    _die(draw, x_yellow, y, size, combination["yellow"], fill=YELLOW_DIE, outline=(140, 110, 0))
    return x_yellow + size - x


def _card_colours(card: View) -> tuple[Rgb, Rgb]:
    if card["kind"] == "castle":
        fill = ARMS_COLOURS.get(card["arms"], MUTED)
    elif card["kind"] == "tournament":
        fill = TOURNAMENT_FILL
    else:
        fill = SPECIAL_FILL
    return fill, INK if _light(fill) else WHITE


SHIELD_W = 38
"""A guard's shield on a chip: 42 px tall, as tall as a mark (`MIN_MARK`)."""


def _shield(draw: ImageDraw.ImageDraw, x: float, y: float, size: float = SHIELD_W, fill: Ink = HIGHLIGHT) -> None:
    """A shield `size` wide and 1.1 times as tall: this card is covered by a guard."""
    w = size
    draw.polygon([(x, y), (x + w, y), (x + w, y + w * 0.55), (x + w / 2, y + w * 1.1),
                  (x, y + w * 0.55)], fill=fill, outline=INK)


# ----------------------------------------------------------------------------------------
# Words


class Words:
    """The board's words in one language, with the seats' drawable names."""

    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang, self.names = lang, names

    def __call__(self, message_id: str, **params: object) -> str:
        return t(self.lang, f"knatsch.board.{message_id}", **params)

    def say(self, text: object) -> str:
        """Engine text (a Msg, its JSON, or a legacy string with {s0} placeholders)."""
        return translate(text, self.lang, self.names) if text is not None else ""

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"

    def naming(self, message_id: str, seat: int | None, width: float, size: int = TEXT, **params: object) -> str:
        """The board's words `message_id` with the seat's name as `player`, that name shortened
        (`_fit`: whole words first) where the words would not fit `width` even in `size`, the
        smallest type they are set in: "Bartholomew the… rolls", never "Bartholomew the Unready r…"."""
        name = self.name(seat)
        words = self(message_id, player=name, **params)
        if _width(words, size) <= width:
            return words
        room = width - (_width(words, size) - _width(name, size))
        return self(message_id, player=_fit(name, size, max(0.0, room), size)[0], **params)


def _card_detail(card: View, say: Words) -> str:
    if card["kind"] == "castle":
        return say("arms", arms=say(f"arms_{card['arms']}") if card.get("arms") else "?")
    if card["kind"] == "tournament":
        return say("tournament_rule")
    if card.get("ability") == "die":
        return say("ability_die", value=card["value"])
    if card.get("ability"):
        return say(f"ability_{card['ability']}")
    return ""


def _wrapped(draw: ImageDraw.ImageDraw, x: float, top: float, width: float, text: str, size: int,
             max_lines: int) -> float:
    """`text` wrapped to `width` on at most `max_lines` lines of `LINE`; returns the y under the
    last line."""
    lines = wrap(text, size, width)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + (_fit(" ".join(lines[max_lines - 1:]), size, width)[0],)
    step = max(LINE, size + 8)
    for i, line in enumerate(lines):
        _row_text(draw, x, top + i * step, line, size, height=step, width=width)
    return top + len(lines) * step


# ----------------------------------------------------------------------------------------
# Stacks and king


def stack_tile_height(dice: int) -> int:
    """A stack's tile: its label, the card's name band, the dice (or what a tournament is) and
    what the card does."""
    return LINE + LINE + 2 + max(dice, LINE) + 2 + LINE + 4


def _stack_tile(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, stack: View, say: Words,
                dice: int) -> None:
    _row_text(draw, x, y, say("stack", number=stack["number"], count=stack["size"]), bold=True, width=w)
    top = y + LINE
    card = stack["top"]
    if card is None:
        draw.rounded_rectangle((x, top, x + w, y + h), radius=14, outline=LINE_COLOUR, width=3)
        _text(draw, (x + w / 2, (top + y + h) / 2 - TEXT // 10), say("empty"), TEXT, fill=MUTED, anchor="mm")
        return
    fill, ink = _card_colours(card)
    draw.rounded_rectangle((x, top, x + w, y + h), radius=14, fill=PAPER, outline=INK, width=3)
    draw.rounded_rectangle((x + 3, top + 3, x + w - 3, top + LINE), radius=12, fill=fill)
    _row_text(draw, x + w / 2, top + 1, say.say(card["name"]), anchor="mm", fill=ink, bold=True, width=w - 20)
    middle = top + LINE + 2
    row_h = max(dice, LINE)
    if card["combination"]:
        count = card["combination"]["count"]
        drawn = (count + 1) * (dice + 6) + 6
        _combination(draw, x + (w - drawn) / 2, middle + (row_h - dice) / 2, dice, card["combination"], gap=6)
    else:
        _row_text(draw, x + w / 2, middle + (row_h - LINE) / 2, say("everyone_rolls"), anchor="mm", width=w - 16)
    detail = _card_detail(card, say)
    if detail:
        _row_text(draw, x + w / 2, y + h - LINE - 4, detail, anchor="mm", width=w - 16)


KING_ROW = DIE_MIN + 8


def _king_row(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, king: View, say: Words) -> None:
    label = say("king")
    _row_text(draw, x, y, label, bold=True, height=KING_ROW)
    start = x + _width(label, TEXT) + 18
    size = DIE_MIN
    drawn = _combination(draw, start, y + (KING_ROW - size) / 2, size, king["combination"], gap=5)
    _row_text(draw, start + drawn + 16, y, say("king_needs"), fill=MUTED, height=KING_ROW,
              width=x + w - start - drawn - 16)


# ----------------------------------------------------------------------------------------
# The roll (or what the player to act may do)


DIE_GAP = 16
DIE_LABEL = 42  # under a die (and clear of a kept die's ring): its position, as the buttons number it
ROLL_MIN = 6 + LINE + 6 + 2 * (DIE_MIN + DIE_LABEL) + 6 + 6
"""The roll panel's least height: a line saying what is rolled for, the six dice (`DIE_MIN`, three
a row, numbered) and beside them die cards, the best result, what to beat and the verdict."""
OTHER_MIN = 6 + 3 * LINE + 6
"""Between rolls: whose turn, what they may do, and (room permitting) the ways to win."""


def _goals(draw: ImageDraw.ImageDraw, x: float, top: float, width: float, bottom: float, say: Words,
           size: int = TEXT) -> None:
    """The three ways to win, as a list when there is room for it, else as one sentence."""
    step = max(LINE, size + 8)
    if top + 4 * step <= bottom:
        _row_text(draw, x, top, say("win_with"), size, height=step, bold=True)
        for i, goal in enumerate((say("goal_four"), say("goal_king"), say("goal_mixed"))):
            _row_text(draw, x + 16, top + step * (i + 1), "• " + goal, size, height=step, width=width - 16)
        return
    ways = " ".join((say("win_with"), say("goal_four"), say("goal_king"), say("goal_mixed")))
    lines = wrap(ways, TEXT, width)
    if top + len(lines) * LINE <= bottom:  # all or nothing: a rule cut short would mislead
        _wrapped(draw, x, top, width, ways, TEXT, len(lines))


def _roll_panel(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, view: View, say: Words) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=PAPER, outline=LINE_COLOUR, width=2)
    x0, x1 = x + 18, x + w - 18
    bottom = y + h - 6
    roll, outcome = view.get("roll"), view.get("outcome")
    if outcome:
        _outcome_panel(draw, x0, y + 6, x1 - x0, bottom, outcome, say)
    elif roll is None:
        _turn_panel(draw, x0, y + 6, x1 - x0, bottom, view, say)
    else:
        _dice_panel(draw, x0, y + 6, x1 - x0, bottom, roll, say)


def _outcome_panel(draw: ImageDraw.ImageDraw, x: int, top: int, width: int, bottom: int, outcome: View,
                   say: Words) -> None:
    winners = [say.name(s) for s in outcome["winners"]]
    reason = say.say(outcome["reason"])
    roomy = bottom - top >= 2 * 56 + len(wrap(reason, TEXT, width)) * LINE + 8
    size = 48 if roomy else TEXT
    step = size + 8 if roomy else LINE
    _row_text(draw, x, top, say("game_over"), size, height=step, bold=True)
    line: float = top + step
    _row_text(draw, x, line, say("winner", names=", ".join(winners)) if winners else say("no_winner"), size,
              height=step, fill=GOOD, width=width, bold=True)
    line = _wrapped(draw, x, line + step, width, reason, TEXT, 3) + 8
    _goals(draw, x, line, width, bottom, say)


def _turn_panel(draw: ImageDraw.ImageDraw, x: int, top: int, width: int, bottom: int, view: View,
                say: Words) -> None:
    turn = view["turn"]
    seat = turn["seat"]
    if view["phase"] == "revenge":
        title = say.naming("revenge", seat, width)
        lines = [say("revenge_rule")]
    else:
        title = say.naming("to_choose", seat, width)
        lines = [say("unders", used=turn["unders_used"], allowed=turn["unders_allowed"])]
        if turn["further_attempt"]:
            lines.append(say("further_attempt"))
        if turn["may_topple"]:
            lines.append(say("may_topple"))
    roomy = bottom - top >= 9 * LINE
    size = 48 if roomy else TEXT
    step = size + 8 if roomy else LINE
    _row_text(draw, x, top, title, size, height=step, width=width, bold=True)
    line: float = top + step
    for text in lines:
        line = _wrapped(draw, x, line, width, text, TEXT, 2)
    _goals(draw, x, line + (LINE // 2 if roomy else 4), width, bottom, say)


def _dice_panel(draw: ImageDraw.ImageDraw, x: int, top: int, width: int, bottom: int, roll: View,
                say: Words) -> None:
    """What is rolled for, the six dice numbered like the buttons, and beside them what the dice
    make, what they must beat and whether they do."""
    x1 = x + width
    where = _roll_where(roll, say)
    words = say("roll_count", used=roll["rolls_used"], allowed=roll["rolls_allowed"])
    dots = roll["rolls_allowed"] * 34

    def head_lines(with_title: bool, count_w: float) -> list[str]:
        """The lines above the dice: the title (the roll count beside it), then what is rolled
        for; without the title, the roll count beside the first line of that."""
        if with_title:
            title = say.naming(f"purpose_{roll['purpose']}", roll["roller"], width - count_w)
            return [title, *wrap(where, TEXT, width)]
        return list(wrap(where, TEXT, width - count_w))

    # Fit, from the roomiest: a title line (the status line above says who rolls, too), the
    # roll count in words beside its circles (the words alone where the circles leave no room:
    # they only repeat them; at the most crowded neither, the status line says it), dice as
    # large as the height allows, results label-over-value when they have the room.
    for with_title, circles, count in ((True, dots, words), (False, dots, words), (False, 0, words), (False, 0, "")):
        count_w = (_width(count, TEXT) + 8 + circles + 16) if count else 0
        head = len(head_lines(with_title, count_w)) * LINE
        room = bottom - top - head - 6
        size = int(max(DIE_MIN, min(92, (room - 2 * DIE_LABEL - 6) / 2)))
        block_w = 3 * size + 2 * DIE_GAP
        rw = x1 - (x + block_w + 24)
        for roomy in (True, False):
            lines = _result_lines(roll, say, rw, roomy)
            if sum(height for height, *_ in lines) <= room:
                break
        if sum(height for height, *_ in lines) <= room and 2 * (size + DIE_LABEL) + 6 <= room:
            break

    line = top
    _roll_count(draw, x1, line, roll, count, circles)
    for i, text in enumerate(head_lines(with_title, count_w)):
        _row_text(draw, x, line, text, width=width - count_w if i == 0 else width, bold=with_title and i == 0)
        line += LINE
    line += 6

    for i, die in enumerate(roll["dice"]):
        dx = x + (i % 3) * (size + DIE_GAP)
        dy = line + (i // 3) * (size + DIE_LABEL + 6)
        if die["locked"]:
            _die(draw, dx, dy, size, die["value"], fill=LOCKED_DIE, pip=(235, 235, 235), outline=(90, 90, 90))
            draw.line((dx + 8, dy + 8, dx + size - 8, dy + size - 8), fill=BAD, width=6)
            label, colour = say("die_six", position=die["position"]), BAD
        elif die["kept"]:  # a ring round the die, clear of its pips
            draw.rounded_rectangle((dx - 6, dy - 6, dx + size + 6, dy + size + 6), radius=max(3, size // 6) + 6,
                                   outline=HIGHLIGHT, width=6)
            _die(draw, dx, dy, size, die["value"])
            label, colour = say("die_kept", position=die["position"]), INK
        else:
            _die(draw, dx, dy, size, die["value"])
            label, colour = str(die["position"]), INK
        if _width(label, TEXT) > size + DIE_GAP - 4:  # "1: kept" wider than its die: the number alone
            label = str(die["position"])
        _row_text(draw, dx + size / 2, dy + size, label, anchor="mm", fill=colour, height=DIE_LABEL + 6)

    rx = x + 3 * size + 2 * DIE_GAP + 24
    for height, kind, text, text_size, colour, bold in lines:
        if kind == "cards":
            _row_text(draw, rx, line, text, height=height)
            start = rx + _width(text, TEXT) + 12
            for i, value in enumerate(roll["die_cards"]):
                _die(draw, start + i * (DIE_MIN + 8), line + (height - DIE_MIN) / 2, DIE_MIN, value, fill=DIE_CARD,
                     pip=(255, 255, 255))
        else:
            _row_text(draw, rx, line, text, text_size, height=height, fill=colour, bold=bold, width=rw)
        line += height


def _roll_count(draw: ImageDraw.ImageDraw, x1: float, top: float, roll: View, count: str, circles: int) -> None:
    """Rolls used in words at the right ("Roll 2/3"), and where `circles` has room, as filled and
    empty circles after them."""
    cy = top + LINE / 2
    if circles:
        for i in range(roll["rolls_allowed"]):
            cx = x1 - 14 - (roll["rolls_allowed"] - 1 - i) * 34
            draw.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), outline=INK, width=3,
                         fill=INK if i < roll["rolls_used"] else None)
    if count:
        _row_text(draw, x1 - circles - 8, top, count, anchor="rm")


def _roll_where(roll: View, say: Words) -> str:
    target = roll["target"]
    if roll["purpose"] == "tournament":
        return say("for_tournament", stack=roll["from_stack"])
    if roll["from_stack"]:
        return say("for_stack_card", card=target["name"], stack=roll["from_stack"])
    if roll["owner"] is not None:
        return say("for_owned_card", card=target["name"], owner=say.name(roll["owner"]))
    return say("against_card", card=target["name"])


class ResultLine(NamedTuple):
    """A line of the column beside the dice: words, or ("cards") a label before the die cards."""

    height: int
    kind: Literal["text", "cards"]
    text: str
    size: int
    colour: Rgb
    bold: bool


def _result_lines(roll: View, say: Words, width: float, roomy: bool) -> list[ResultLine]:
    """The column beside the dice: die cards, the best result, what to beat, the verdict.
    Roomy: each label over its value in larger type; else "label: value" on a line, wrapped where
    a long name needs it."""
    lines: list[ResultLine] = []

    def add(text: str, size: int = TEXT, colour: Rgb = INK, bold: bool = False) -> None:
        step = max(LINE, size + 8)
        for part in wrap(text, size, width) or ("",):
            lines.append(ResultLine(step, "text", part, size, colour, bold))

    if roll["die_cards"]:
        lines.append(ResultLine(DIE_MIN + 6, "cards", say("die_cards"), TEXT, INK, False))
    best, to_beat = roll["best"], roll["to_beat"]
    best_text = say.say(best["text"]) if best else say("not_rolled")
    whose = None
    if to_beat:
        whose = {"card": say("whose_card"), "king": say("whose_king")}.get(to_beat["against"],
                                                                            say.name(to_beat.get("seat")))
    if roomy:
        add(say("best"), colour=MUTED)
        add(best_text, 48, bold=True)
        if to_beat:
            add(say("to_beat", whose=whose), colour=MUTED)
            add(say.say(to_beat["text"]), 48, bold=True)
    else:
        def labelled(label: str, value: str) -> None:
            """"label: value" on a line; where that needs two, the value on a line of its own
            (never "… drei 5er +" over "4")."""
            whole = f"{label}: {value}"
            if len(wrap(whole, TEXT, width)) == 1:
                add(whole, bold=True)
            else:
                add(f"{label}:", bold=True)
                add(value, bold=True)

        labelled(say("best"), best_text)
        if to_beat:
            labelled(say("to_beat", whose=whose), say.say(to_beat["text"]))
    if to_beat and best:
        add(say("beats_it") if roll["beating"] else say("not_yet"), 48 if roomy else TEXT,
            GOOD if roll["beating"] else BAD, True)
    elif not to_beat and roll["purpose"] == "tournament":
        add(say("organiser_sets"))
    return lines


# ----------------------------------------------------------------------------------------
# Players


GoalParams = dict[str, int | tuple[str, int]]
"""A goal's message params: a number, or (message id, count) for words such as "2 castles"."""


class Goal(NamedTuple):
    """A way to win: how many cards are still missing, and the words saying so."""

    missing: int
    message_id: str
    params: GoalParams


def nearest_goal(player: View) -> Goal:
    """The player's closest way to win."""
    castles, tournaments = player["castles"], player["tournaments"]
    king = player["goals"]["king"]
    castles_missing, tournaments_missing = max(0, 2 - castles), max(0, 3 - tournaments)
    if not tournaments_missing:  # only castles: say so the way the four-castles way does
        mixed = Goal(castles_missing, "goal_left_castles", {"count": castles_missing})
    elif not castles_missing:
        mixed = Goal(tournaments_missing, "goal_left_tournaments", {"count": tournaments_missing})
    else:
        mixed = Goal(castles_missing + tournaments_missing, "goal_left_mixed",
                     {"castles": ("castles", castles_missing), "tournaments": ("tournaments", tournaments_missing)})
    options = [
        Goal(max(0, 4 - castles), "goal_left_castles", {"count": max(0, 4 - castles)}),
        Goal(max(0, 3 - castles) + 1, "goal_left_king", {"count": max(0, 3 - castles)}) if not king["ready"]
        else Goal(1, "goal_king_ready", {}),
        mixed,
    ]
    return min(options, key=lambda option: option.missing)


def _counted(say: Words, params: GoalParams) -> dict[str, object]:
    """Params whose (message id, count) pairs become words ("2 castles")."""
    return {key: say(value[0], count=value[1]) if isinstance(value, tuple) else value
            for key, value in params.items()}


def _holdings(player: View, say: Words) -> dict[str, str]:
    return {"castles": say("castles", count=player["castles"]),
            "tournaments": say("tournaments", count=player["tournaments"])}


def _goal_text(player: View, view: View, say: Words, winner: bool) -> str:
    """The row's badge: how the player won, what they hold at the end, where they stand in a
    tournament, or their nearest way to win."""
    seat = player["seat"]
    if winner:  # the view has an outcome
        kind = view["outcome"].get("kind")
        if kind == "tournaments":  # the counts the chips show, which may be more than needed
            return say("won_tournaments", **_holdings(player, say))
        return say(f"won_{kind}") if kind else say("won")
    if view["over"]:
        return say("owned", **_holdings(player, say))
    tournament = view.get("tournament")
    if tournament and seat in tournament["order"]:
        # During a tournament every player's row says where they stand in it: the dice panel
        # has no room for six players, but every row does.
        standing = {entry["seat"]: entry for entry in tournament["standings"]}.get(seat)
        if standing is not None:
            return say("in_tournament", result=say.say(standing["text"]))
        roller = (view.get("roll") or {}).get("roller")
        return say("in_tournament_rolling") if seat == roller else say("in_tournament_waiting")
    _, message_id, params = nearest_goal(player)
    return say(message_id, **_counted(say, params))


CHIP_TOP, CHIP_H, CHIP_GAP = LINE + 2, 54, 4
"""A chip line holds a plate of `MARK_TEXT` digits (41 px of ink) with a rim."""
PLATE_H, PLATE_PAD, RUN_GAP = 46, 8, 8
NAME_TOP = -2
"""Where the name line's texts are set from the row's top: their descenders ("ρ", "д", "g") end
above the chips."""
ROW_GAP = 4


def row_height(lines: int) -> int:
    """A player's row: the name line, then `lines` lines of card chips."""
    return CHIP_TOP + lines * (CHIP_H + CHIP_GAP) - CHIP_GAP + 6


def _player_row(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, player: View, view: View, say: Words,
                lines: int | None = None) -> None:
    seat = player["seat"]
    acting = seat in view["to_act"]
    winner = view["over"] and view["outcome"] and seat in view["outcome"]["winners"]
    fill = (255, 246, 214) if acting else PAPER
    border = HIGHLIGHT if acting else (GOOD if winner else LINE_COLOUR)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=fill, outline=border,
                           width=6 if acting or winner else 2)
    # the seat's mark: a plate in its colour, as tall as the name line allows, its number MIN_MARK
    # tall (a disc that size would reach into the chips)
    radius = 23
    cx, cy = x + 8 + radius, y + 2 + LINE / 2
    seat_plate(draw, (cx, cy), seat, (2 * radius, 46))

    goal = _goal_text(player, view, say, bool(winner))
    goal_w = min(w * 0.6, _width(goal, TEXT) + 24)
    name_x = cx + radius + 12
    name_room = x + w - goal_w - 20 - name_x
    name = say.name(seat)
    acting_name = f"{name} — {say('acting')}"
    if acting and _width(acting_name, TEXT) + 2 <= name_room:  # else the row's frame says it alone
        name = acting_name
    _row_text(draw, name_x, y + NAME_TOP, name, width=name_room, bold=True)
    badge_fill = GOOD if winner else ((255, 222, 140) if not view["over"] and nearest_goal(player)[0] <= 1 else
                                      (236, 230, 216))
    draw.rounded_rectangle((x + w - goal_w - 8, y + 4, x + w - 8, y + CHIP_TOP - 2), radius=10, fill=badge_fill)
    _row_text(draw, x + w - goal_w / 2 - 8, y + NAME_TOP, goal, anchor="mm", fill=(255, 255, 255) if winner else INK,
              width=goal_w - 14)

    # Card chips: castles, then specials, then one chip for all tournaments, as wide as their
    # words, wrapped onto as many lines as the row has.
    if lines is None:
        lines = max(1, (h - CHIP_TOP - 6 + CHIP_GAP) // (CHIP_H + CHIP_GAP))
    for line, placed in enumerate(_chip_lines(player, say, w - 20, lines)):
        chip_x = x + 10
        for chip, text, width in placed:
            _chip(draw, chip_x, y + CHIP_TOP + line * (CHIP_H + CHIP_GAP), width, CHIP_H, chip, say, text)
            chip_x += width + CHIP_GAP


def _chip_text(chip: View, say: Words) -> str:
    kind = chip["kind"]
    if kind == "more":
        return say("more", count=chip["count"])
    if kind == "tournament":
        return say("tournaments", count=chip["count"])
    if kind == "castle":  # which castle: its coat of arms in words, then its dice ("blue 4-4-4+2")
        arms = say(f"arms_{chip['arms']}") if chip.get("arms") else "?"
        return say("chip_castle", arms=arms, combination=say.say(chip["combination"]["text"]))
    if chip.get("ability") == "die":
        return say("chip_die", value=chip["value"])
    return say(f"chip_{chip.get('ability')}")


NUMBERS = re.compile(r"\+?\d+(?:[-+]\d+)*")
"""The numbers in a chip's words ("4-4-4+2", "3", "+2"): drawn as marks, on a plate."""


@lru_cache(maxsize=512)
def chip_runs(text: str) -> tuple[tuple[str, bool], ...]:
    """A chip's words split into words and numbers: (part, is a number)."""
    runs: list[tuple[str, bool]] = []
    at = 0
    for found in NUMBERS.finditer(text):
        if text[at:found.start()].strip():
            runs.append((text[at:found.start()].strip(), False))
        runs.append((found.group(), True))
        at = found.end()
    if text[at:].strip():
        runs.append((text[at:].strip(), False))
    return tuple(runs)


def _run_width(part: str, number: bool) -> int:
    if number:
        left, _, right, _ = ink_box(part, MARK_TEXT)
        return int(right - left) + 2 * PLATE_PAD
    return int(_width(part, TEXT)) + 2


def _chip_width(chip: View, text: str) -> int:
    guard = SHIELD_W + 8 if chip.get("guarded_by") else 0
    runs = chip_runs(text)
    inner = sum(_run_width(part, number) for part, number in runs) + RUN_GAP * (len(runs) - 1)
    return max(90, inner + 20 + guard)


class PlacedChip(NamedTuple):
    """A chip on a chip line: its card (or the tournaments, or "+N more"), its words, its width."""

    chip: View
    text: str
    width: int


def _chip_lines(player: View, say: Words, width: int, lines: int) -> list[list[PlacedChip]]:
    """The player's chips flowed onto at most `lines` lines of `width`.
    What does not fit ends in a "+N more" chip; a chip wider than a line is shortened."""
    cards = player["cards"]
    chips = [c for c in cards if c["kind"] == "castle"] + [c for c in cards if c["kind"] == "special"]
    if player["tournaments"]:
        chips.append({"kind": "tournament", "count": player["tournaments"]})
    items = [(chip, _chip_text(chip, say)) for chip in chips]
    flowed = _flow(items, width)
    if len(flowed) <= lines:
        return flowed
    # Too many: keep what fits with room for the "+N more" chip at the end of the last line.
    for keep in range(len(items) - 1, -1, -1):
        more = {"kind": "more", "count": len(items) - keep}
        flowed = _flow(items[:keep] + [(more, _chip_text(more, say))], width)
        if len(flowed) <= lines:
            return flowed
    return flowed[:lines]


def _flow(items: list[tuple[View, str]], width: int) -> list[list[PlacedChip]]:
    rows: list[list[PlacedChip]] = []
    used = width + 1
    for chip, text in items:
        chip_w = min(width, _chip_width(chip, text))
        if rows and used + CHIP_GAP + chip_w <= width:
            rows[-1].append(PlacedChip(chip, text, chip_w))
            used += CHIP_GAP + chip_w
        else:
            rows.append([PlacedChip(chip, text, chip_w)])
            used = chip_w
    return rows


def chip_lines_needed(player: View, say: Words, width: int) -> int:
    """How many chip lines a player's cards take at their natural widths."""
    return max(1, len(_chip_lines(player, say, width, 99)))


def _chip(draw: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, card: View, say: Words,
          text: str | None = None) -> None:
    kind = card["kind"]
    text = _chip_text(card, say) if text is None else text
    guarded = bool(card.get("guarded_by"))
    if kind == "more":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, outline=LINE_COLOUR, width=2)
        fill, ink = BACKGROUND, INK
    elif kind == "tournament":
        fill, ink = TOURNAMENT_FILL, INK
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=fill, outline=INK, width=2)
    else:
        fill, ink = _card_colours(card)
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=fill, outline=INK, width=2)
    _chip_words(draw, x + 10, y, x + w - (SHIELD_W + 18 if guarded else 10), h, text, ink, bold=kind == "castle")
    if guarded:  # a mark to tell apart: as tall as the marks
        _shield(draw, x + w - SHIELD_W - 8, y + (h - SHIELD_W * 1.1) / 2)


def _chip_words(draw: ImageDraw.ImageDraw, x: float, y: float, right: float, h: int, text: str, ink: Rgb,
                bold: bool) -> None:
    """A chip's words at `TEXT` and its numbers as marks on light plates, left to right; words
    shortened only where the chip is narrower than they are."""
    runs = chip_runs(text)
    if sum(_run_width(part, number) for part, number in runs) + RUN_GAP * (len(runs) - 1) > right - x:
        _row_text(draw, x, y, text, fill=ink, height=h, width=right - x, bold=bold)  # a line too narrow
        return
    for part, number in runs:
        width = _run_width(part, number)
        if number:
            top = y + (h - PLATE_H) / 2
            draw.rectangle((x, top, x + width, top + PLATE_H), fill=PAPER, outline=INK, width=1)
            _mark(draw, (x + width / 2, top + PLATE_H / 2), part, INK, bold=True)
        else:
            _row_text(draw, x, y, part, fill=ink, height=h, bold=bold)
        x += width + RUN_GAP


# ----------------------------------------------------------------------------------------
# Whole image


def _base_lines(view: View) -> int:
    """Chip lines every row gets: two with up to three players, else one."""
    return 2 if len(view["players"]) <= 3 else 1


def least_height(view: View) -> int:
    """What the players' rows (at their base chip lines) and the panel above them need at least."""
    count = len(view["players"])
    return ROW_GAP * count + row_height(_base_lines(view)) * count + (ROLL_MIN if view.get("roll") else OTHER_MIN)


def _row_heights(view: View, say: Words, room: int) -> list[tuple[int, int]]:
    """Each player's row (height, chip lines): one chip line (two with up to three players),
    and another line for each player whose castles and cards need it, as long as the roll
    panel keeps its room."""
    players = view["players"]
    base_lines = _base_lines(view)
    lines = [base_lines] * len(players)
    step = CHIP_H + CHIP_GAP
    spare = room - least_height(view)
    width = WIDTH - 2 * MARGIN - 20
    needs = [max(0, chip_lines_needed(player, say, width) - base_lines) for player in players]
    while spare >= step and any(needs):
        for i, need in enumerate(needs):  # a line each in turn, seat order
            if need > 0 and spare >= step:
                lines[i] += 1
                needs[i] -= 1
                spare -= step
        needs = [need if spare >= step else 0 for need in needs]
    return [(row_height(count), count) for count in lines]


def _header_lines(status: str) -> tuple[str, ...]:
    """The status line's lines in the header (three at most)."""
    width = WIDTH - 2 * MARGIN - 8
    lines = wrap(status, TEXT, width) or ("",)
    if len(lines) > 3:
        lines = lines[:2] + (_fit(" ".join(lines[2:]), TEXT, width)[0],)
    return lines


def _header(draw: ImageDraw.ImageDraw, lines: tuple[str, ...]) -> int:
    """The status line, white on ink, on as many lines as it takes (`_header_lines`); returns the
    header's height."""
    height = 14 + LINE * len(lines)
    draw.rectangle((0, 0, WIDTH, height), fill=INK)
    for i, line in enumerate(lines):
        _row_text(draw, MARGIN + 4, 7 + i * LINE, line, fill=(255, 255, 255))
    return height


def render(view: View, names: list[str], lang: str = "en") -> Image.Image:
    say = Words(lang, seat_names(names, view["seats"]))
    if texts_recorded():  # the layout tests record the texts `ImageDraw` draws in RGB
        return _board(view, say, lang, composed=False)
    try:
        composed = _board(view, say, lang, composed=True)
    except NotComposable:  # a drawing the palette cannot give exactly: drawn in RGB
        return _board(view, say, lang, composed=False)
    if common.VERIFY_KEPT_PARTS:
        drawn = _board(view, say, lang, composed=False)
        if composed.tobytes() != drawn.tobytes() or composed.getpalette() != drawn.getpalette():
            raise AssertionError("the board composed in its palette differs from the board drawn in RGB")
    return composed


def _board(view: View, say: Words, lang: str, composed: bool) -> Image.Image:
    """The board drawn in RGB and quantized (its players' rows apart, `board_with_rows`), or
    `composed` straight in its palette (`PaletteDraw`: no quantizing of the whole board, some 2 ms
    of a move at a hundred tables, where the parts kept are seldom found again), the same pixels."""
    status = _header_lines(say.say(view["status"]))
    stacks_top = 14 + LINE * len(status) + GAP  # under the header (`_header`)

    # Stacks side by side, then the king; smaller dice at a crowded table (never under DIE_MIN).
    players = view["players"]
    dice = DIE_MIN if len(players) >= 4 else 64
    tile_w = (WIDTH - 3 * MARGIN) // 2
    tile_h = stack_tile_height(dice)
    y = stacks_top + tile_h + GAP
    # The king's dice never change and a roll's panel says what it must beat: where the players
    # and a roll leave no room for the king's row, the roll keeps it.
    king = view.get("roll") is None or HEIGHT - y - 4 - KING_ROW - GAP >= least_height(view)
    roll_top = y + KING_ROW + GAP if king else y
    # Players at the bottom; the rest is for the roll.
    rows = _row_heights(view, say, HEIGHT - roll_top - 4)
    players_h = sum(row_h for row_h, _ in rows) + ROW_GAP * (len(players) - 1)
    rows_top = HEIGHT - 4 - players_h

    # The board above the players' rows; the rows are drawn apart (`board_with_rows`).
    draw: ImageDraw.ImageDraw
    if composed:
        image, draw = palette_board((WIDTH, rows_top), _palette())
    else:
        image = Image.new("RGB", (WIDTH, rows_top), BACKGROUND)
        draw = ImageDraw.Draw(image)
    _header(draw, status)
    for i, stack in enumerate(view["stacks"][:2]):
        x = MARGIN + i * (tile_w + MARGIN)
        # A stack's tile and a player's row depend on their own parts of the view alone (and the
        # words): kept for the moves that leave them be.
        kept_part(image, (x, stacks_top, x + tile_w + 1, stacks_top + tile_h + 1),
                  ("knatsch.stack", repr(stack), lang, dice),
                  partial(_stack_tile, draw, x, stacks_top, tile_w, tile_h, stack, say, dice))
    if king:
        _king_row(draw, MARGIN, y, WIDTH - 2 * MARGIN, view["king"], say)
    _roll_panel(draw, MARGIN, roll_top, WIDTH - 2 * MARGIN, rows_top - GAP - roll_top, view, say)
    parts = []
    py = rows_top
    for player, (row_h, lines) in zip(players, rows):
        seat = player["seat"]
        winner = bool(view["over"] and view["outcome"] and seat in view["outcome"]["winners"])
        # what the row reads of the rest of the view
        read = (seat in view["to_act"], winner, view["over"], _goal_text(player, view, say, winner))
        row = partial(_player_row_at, player=player, view=view, say=say, height=row_h, lines=lines)
        parts.append(RowsPart(py, min(HEIGHT, py + row_h + ROW_GAP),
                              ("knatsch.row", repr(player), read, lang, tuple(say.names), row_h, lines), row))
        py += row_h + ROW_GAP
    if composed:
        return rows_in_palette(image, (WIDTH, HEIGHT), parts, _palette())
    return board_with_rows(image, (WIDTH, HEIGHT), parts, _palette())


def _player_row_at(draw: ImageDraw.ImageDraw, y: int, *, player: View, view: View, say: Words, height: int,
                   lines: int) -> None:
    """A player's row with its top at `y` (`board_with_rows`)."""
    _player_row(draw, MARGIN, y, WIDTH - 2 * MARGIN, height, player, view, say, lines)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return fixed_palette(BACKGROUND, INK, MUTED, HIGHLIGHT, PAPER, LINE_COLOUR, RED_DIE, YELLOW_DIE, LOCKED_DIE,
                         DIE_CARD, GOOD, BAD, SPECIAL_FILL, TOURNAMENT_FILL, *ARMS_COLOURS.values(), *SEAT_COLOURS,
                         *_OTHER_PAINTS)


_OTHER_PAINTS = [
    (0, 128, 80), (110, 10, 10), (125, 55, 165), (140, 110, 0), (150, 146, 140), (190, 40, 30), (196,
    30, 36), (200, 190, 172), (200, 40, 40), (226, 232, 244), (235, 235, 235), (236, 230, 216), (240,
    200, 30), (246, 200, 30), (250, 222, 130), (255, 222, 140), (255, 246, 214), (255, 252, 245), (255,
    255, 255), (30, 140, 60), (30, 30, 30), (35, 85, 200), (40, 100, 190), (90, 90, 90)
]
"""Colours painted once in this module, kept exact in the palette too."""
